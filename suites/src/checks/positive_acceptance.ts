// positive_acceptance: requests the contract calls valid are not refused for one of their parameters.
// Each generated request carries every parameter of the operation, so --runs requests give each
// parameter --runs cases; a parameter fails when a 400 names it (rest_invalid_param,
// rest_missing_callback_param). Other answers (401, 404 for an unknown id, 400 for a page past the
// end) say nothing against the parameters: WordPress validates them first.
//
// Reads are always sent. Writes only where the suite can undo them: creating, changing and deleting
// calendar records of its own, with credentials and without --read-only. Other writes (settings,
// plugins, imports) would change the site in ways the suite cannot take back, so they are skipped.
// In those writes, fields that name other records get ids of records the target has, and an event
// ends no earlier than it starts (references.ts): a schema-valid id can still name nothing, and the
// refusal that earns says nothing about the contract.
//
// A refusal is held at `assumed` (with the reason in the message) when the contract itself is unsure
// about the value: another reading of an x-contradictions mark refuses it, or requires the parameter.
// One refusal with no such reason fails the parameter as documented, whatever the other requests got.

import type { Contract } from '../../../contracts/src/loader.ts';
import type { Operation, ParamLocation } from '../../../contracts/src/types.ts';
import { toTyped } from '../../../contracts/src/arbitraries/index.ts';
import { SAFE_METHODS, jsonBody, type Exchange } from '../http/types.ts';
import { createdId } from '../runner/ledger.ts';
import type { Unit, UnitEnv } from '../runner/unit.ts';
import { sentParams, toOutgoing, validRequests, withBody, withPath, type WireRequest } from './generate.ts';
import { otherReadingRefuses, otherReadingRequires } from './marks.ts';
import { orderedEventDates, referenceFields, referenceValues, withReferences } from './references.ts';
import { createOwn, resourceFor, type CalendarResource } from './resources.ts';
import { blamedParams, refusedForPermission, transportOutcome, wpError } from './wp.ts';

export const POSITIVE_ACCEPTANCE = 'positive_acceptance';

const PARAM_CODES = new Set(['rest_invalid_param', 'rest_missing_callback_param']);

export interface Sent {
  req: WireRequest;
  e: Exchange;
}

function paramVariant(location: ParamLocation, name: string): string {
  return `${location}.${name}`;
}

/** One finding per parameter, from every request that carried it; `notes` say how a parameter's values were chosen. */
export function judge(env: UnitEnv, op: Operation, sent: readonly Sent[], notes: ReadonlyMap<string, string> = new Map()): void {
  for (const p of op.params) {
    const variant = paramVariant(p.in, p.name);
    const carrying = sent.filter(({ req }) => sentParams(req)[p.in].includes(p.name));
    const base = { check: POSITIVE_ACCEPTANCE, operation: op, variant, severity: 'documented' as const };
    const note = p.in === 'body' ? notes.get(p.name) : undefined;
    if (carrying.length === 0) {
      env.emit({ ...base, outcome: 'skip', message: `no generated request carried it${note ? ` (${note})` : ''}` });
      continue;
    }
    let verdict: { outcome: 'pass' | 'fail' | 'skip' | 'error'; message: string; e?: Exchange; severity?: 'assumed' } | undefined;
    for (const { req, e } of carrying) {
      const t = transportOutcome(e);
      if (t) {
        verdict ??= { ...t, e };
        continue;
      }
      const r = e.response!;
      const err = wpError(r);
      if (r.status !== 400 || !err || !PARAM_CODES.has(err.code) || !blamedParams(err).includes(p.name)) continue;
      if (refusedForPermission(err, p.name)) {
        if (verdict?.outcome !== 'fail') verdict = { outcome: 'skip', message: `the value was refused for lack of permission (${err.code}), not as invalid`, e };
        continue;
      }
      let value: unknown;
      try {
        value = toTyped(op, req)[p.in]?.[p.name];
      } catch {
        value = undefined;
      }
      const why = otherReadingRefuses(env.contract, op, p.in, p.name, value) ?? otherReadingRequires(op, p.name);
      const message = `a valid request was refused for ${p.name}: ${err.code}: ${err.message}`;
      if (!why) {
        // Refused with nothing in the contract to excuse it: that decides, whatever the other requests got.
        verdict = { outcome: 'fail', message, e };
        break;
      }
      if (verdict?.outcome !== 'fail') verdict = { outcome: 'fail', message: `${message}; held as assumed because ${why}`, e, severity: 'assumed' };
    }
    if (!verdict || verdict.outcome === 'skip' || verdict.outcome === 'error') {
      const last = carrying[carrying.length - 1]!.e;
      const accepted = carrying.filter(({ e }) => e.response && e.response.status < 300).length;
      const tally = `${carrying.length} valid request(s) carried it, none refused for it (${accepted} accepted)${note ? `; ${note}` : ''}`;
      if (!verdict) env.emit({ ...base, outcome: 'pass', message: tally, exchange: last });
      else env.emit({ ...base, outcome: verdict.outcome, message: verdict.message, ...(verdict.e ? { exchange: verdict.e } : {}) });
      continue;
    }
    env.emit({ ...base, outcome: verdict.outcome, message: verdict.message, ...(verdict.severity ? { severity: verdict.severity } : {}), ...(verdict.e ? { exchange: verdict.e } : {}) });
  }
}

function skipAll(env: UnitEnv, op: Operation, message: string): void {
  for (const p of op.params) env.emit({ check: POSITIVE_ACCEPTANCE, operation: op, variant: paramVariant(p.in, p.name), severity: 'documented', outcome: 'skip', message });
}

async function reads(env: UnitEnv, op: Operation): Promise<void> {
  const sent: Sent[] = [];
  for (const req of validRequests(env.contract, op, env.seed, env.runs, { optional: 'all' })) {
    sent.push({ req, e: await env.send(toOutgoing(req), op) });
  }
  judge(env, op, sent);
}

/** Creates, updates and deletes on records the suite makes for the purpose; all of them go into the ledger. */
async function calendarWrites(env: UnitEnv, op: Operation, res: CalendarResource): Promise<void> {
  const unitId = `${POSITIVE_ACCEPTANCE}:${op.id}`;
  const label = `${env.marker} ${res.resource} positive`;
  const sent: Sent[] = [];
  const requests = validRequests(env.contract, op, env.seed, env.runs, { optional: 'all' });
  let own: { id: number; slug?: string } | undefined;
  const fresh = async (): Promise<{ id: number; slug?: string } | undefined> => {
    const { record } = await createOwn(env, res, unitId, 'positive target');
    if (!record) return undefined;
    const slug = (jsonBody(record.exchange.response) as { slug?: unknown } | undefined)?.slug;
    return { id: record.id, ...(typeof slug === 'string' ? { slug } : {}) };
  };
  const fields = referenceFields(op, res);
  const values = fields.length ? await referenceValues(env, res, fields) : undefined;
  const notes = new Map<string, string>();
  for (const generated of requests) {
    let req = withBody(generated, { [res.nameField]: label });
    if (values) {
      const filled = withReferences(req, fields, values);
      req = filled.req;
      for (const [k, v] of filled.notes) notes.set(k, v);
    }
    if (res.resource === 'event') {
      const ordered = orderedEventDates(req);
      req = ordered.req;
      for (const k of ordered.swapped) notes.set(k, 'sent in order: an event ends no earlier than it starts');
    }
    if (op.kind !== 'create') {
      if (op.kind === 'delete' || !own) own = await fresh();
      if (!own) {
        skipAll(env, op, `could not create a record of its own to ${op.kind} (POST ${res.create.path} failed)`);
        return;
      }
      const path: Record<string, string | number> = {};
      if (op.params.some((p) => p.in === 'path' && p.name === 'id')) path['id'] = own.id;
      if (op.params.some((p) => p.in === 'path' && p.name === 'slug')) {
        if (!own.slug) {
          skipAll(env, op, 'the record the suite created has no slug to address it by');
          return;
        }
        path['slug'] = own.slug;
      }
      req = withPath(op, req, path);
    }
    const e = await env.send(toOutgoing(req, 'write'), op);
    sent.push({ req, e });
    if (op.kind === 'create') {
      const id = createdId(e);
      if (id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
    } else if (own && op.kind === 'update') {
      // A slug may change with the update; the next request must address the record by its new one.
      const slug = (jsonBody(e.response) as { slug?: unknown } | undefined)?.slug;
      if (typeof slug === 'string' && e.response && e.response.status < 300) own.slug = slug;
    }
  }
  judge(env, op, sent, notes);
}

export function planPositiveAcceptance(contract: Contract): Unit[] {
  return contract.operations.map((op): Unit => {
    const id = `${POSITIVE_ACCEPTANCE}:${op.id}`;
    const res = resourceFor(contract, op);
    const safe = SAFE_METHODS.has(op.method);
    return {
      id,
      family: POSITIVE_ACCEPTANCE,
      checks: [POSITIVE_ACCEPTANCE],
      operations: [op],
      ...(safe ? {} : { writes: true }),
      run: async (env) => {
        if (safe) return reads(env, op);
        if (op.kind === 'batch') return skipAll(env, op, 'batch requests are checked by the batch_* checks');
        if (!res || !['create', 'update', 'delete'].includes(op.kind)) {
          return skipAll(env, op, 'a write the suite could not undo (not a calendar record of its own); only its refusals are checked');
        }
        if (env.readOnly) return skipAll(env, op, `--read-only: ${op.method} is not sent`);
        if (!env.hasCredentials) return skipAll(env, op, 'no credentials (--auth-env): the suite writes nothing');
        return calendarWrites(env, op, res);
      },
    };
  });
}
