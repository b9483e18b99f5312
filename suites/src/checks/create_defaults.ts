// create_defaults: a record created without a field the documents give a default reads back with that default
// (000 §2.5: status publish, comment_status open, ping_status open, format standard, sticky false for organizers
// and venues; §2.1: a legacy event's all_day false). The defaults come from the contract's create bodies; a
// default of null says "not set" and is not checked. One create per resource, carrying only its name (with the
// run's marker) and, for events, the dates; the record goes into the ledger and is removed at the end.
//
// Severity documented: each default is a sentence of the documents. A record read back without the field is
// inconclusive, since the documents do not show how records are represented (000 §2.5, last line).

import { isDeepStrictEqual } from 'node:util';
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { createdId } from './kit/ledger.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { writeBlocker } from './kit/writes.ts';
import { calendarResources, minimalCreateBody, type CalendarResource } from './kit/resources.ts';
import { describeAnswer, sourceOf, transportOutcome } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

export const CREATE_DEFAULTS = 'create_defaults';

interface BodyDefault {
  field: string;
  value: unknown;
}

/** The create body's fields with a documented default other than null ("not set"). */
function bodyDefaults(op: Operation): BodyDefault[] {
  return op.params.filter((p) => p.in === 'body' && p.schema.default !== undefined && p.schema.default !== null).map((p) => ({ field: p.name, value: p.schema.default }));
}

/** The smallest create of the resource without any of the defaulted fields. */
function bareCreateBody(res: CalendarResource, label: string, now: Date, leftOut: readonly string[]): Record<string, string> {
  const body = minimalCreateBody(res, label, now);
  for (const f of leftOut) if (f !== res.nameField) delete body[f];
  return body;
}

/** `false` and `"publish"` as they are; `{raw, rendered}` by its raw text (a title-like field). */
function readValue(rec: Record<string, unknown>, field: string): unknown {
  const v = rec[field];
  if (isPlainObject(v) && 'raw' in v) return (v as { raw: unknown }).raw;
  return v;
}

function judgeDefault(d: BodyDefault, record: unknown, source: string): { outcome: Outcome; message: string } {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { outcome: 'inconclusive', message: 'the record read back is not a JSON object' };
  const rec = record as Record<string, unknown>;
  if (!(d.field in rec)) return { outcome: 'inconclusive', message: `the record read back has no ${d.field}; the documents do not show how records are represented (000 §2.5), so its default cannot be seen` };
  const got = readValue(rec, d.field);
  if (isDeepStrictEqual(d.value, got)) return { outcome: 'pass', message: `created without ${d.field}, it reads back ${JSON.stringify(got)}, the documented default` };
  return { outcome: 'fail', message: `expected a record created without ${d.field} to read back with ${d.field} ${JSON.stringify(d.value)}, its documented default (${source}); it reads back ${JSON.stringify(got)}` };
}

async function createDefaults(env: UnitEnv, res: CalendarResource, defaults: readonly BodyDefault[]): Promise<void> {
  const unitId = `${CREATE_DEFAULTS}:${res.create.id}`;
  const emit = (d: BodyDefault, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: CREATE_DEFAULTS, operation: res.create, variant: d.field, severity: 'documented', outcome, message, ...(e ? { exchange: e } : {}) });
  const blocked = writeBlocker(env);
  if (blocked) return defaults.forEach((d) => emit(d, 'skip', blocked));
  const body = bareCreateBody(res, `${env.marker} defaults ${unitId}`, env.now(), defaults.map((d) => d.field));
  const created = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: body }, intent: 'write' }, res.create);
  const t = transportOutcome(created);
  if (t) return defaults.forEach((d) => emit(d, t.outcome, t.message, created));
  const id = createdId(created);
  if (id === undefined) return defaults.forEach((d) => emit(d, 'inconclusive', `the create without ${defaults.map((x) => x.field).join(', ')} was not accepted (${describeAnswer(created.response)}), so no default can be seen`, created));
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  const read = await env.send({ method: 'GET', route: fillTemplate(res.read.path, { id }) }, res.read);
  const tr = transportOutcome(read);
  if (tr) return defaults.forEach((d) => emit(d, tr.outcome, tr.message, read));
  if (!read.response || read.response.status !== 200) return defaults.forEach((d) => emit(d, 'inconclusive', `record ${id} was created but reads back ${describeAnswer(read.response)}`, read));
  const record = jsonBody(read.response);
  for (const d of defaults) {
    const v = judgeDefault(d, record, sourceOf(res.create));
    emit(d, v.outcome, v.message, read);
  }
}

export function planCreateDefaults(contract: Contract): Unit[] {
  return calendarResources(contract).flatMap((res) => {
    const defaults = bodyDefaults(res.create);
    if (defaults.length === 0) return [];
    return [{ id: `${CREATE_DEFAULTS}:${res.create.id}`, family: CREATE_DEFAULTS, checks: [CREATE_DEFAULTS], operations: [res.create, res.read], writes: true, run: (env: UnitEnv) => createDefaults(env, res, defaults) }];
  });
}
