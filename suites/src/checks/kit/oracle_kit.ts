// What the semantic oracles (filters, orders, updates) share: records of the suite's own made with the fields an
// oracle needs, a word only those records carry (so a search narrows a list on any site to them), list reads that
// return ids, and the wording that shows both sides of a failure (the records a filter should have left out or
// kept, by id and name). The records go into the run's ledger, so cleanup removes them whatever happens.

import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import { templateKey } from '../../diff/descriptor.ts';
import { fillTemplate } from '../../http/target.ts';
import { jsonBody, type Exchange } from '../../http/types.ts';
import type { Severity } from '../../report/model.ts';
import type { Outcome } from '../../report/policy.ts';
import { createdId } from './ledger.ts';
import { fnv1a } from './hash.ts';
import type { Finding, Unit, UnitEnv } from './unit.ts';
import { writeBlocker } from './writes.ts';
import { calendarResources, idOf, listRecords, minimalCreateBody, nameText, type CalendarResource } from './resources.ts';
import { describeAnswer, transportOutcome } from './wp.ts';

/**
 * A word no site holds: fixed letters, then the unit's hash in capitals. Mixed case on purpose: the oracles search
 * for it in lower case, as WordPress matches case-insensitively (LIKE under a _ci collation).
 */
export function ownWord(runId: string, unitId: string): string {
  return `Scx${fnv1a(`${runId}:${unitId}`).toString(36).toUpperCase()}q`;
}

export interface Own {
  id: number;
  /** What the list shows of it, for messages: `#12 "name"`. */
  label: string;
  exchange: Exchange;
}

/** Creates a record of the suite's own with `extra` fields beside the minimal body; it goes into the ledger. */
export async function makeOwn(env: UnitEnv, res: CalendarResource, unitId: string, name: string, extra: Record<string, unknown> = {}): Promise<{ own?: Own; exchange: Exchange }> {
  const label = `${env.marker} ${name}`;
  const body = { ...minimalCreateBody(res, label, env.now()), ...(res.resource === 'event' ? { status: 'publish' } : {}), ...extra };
  const exchange = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: body }, intent: 'write' }, res.create);
  const id = createdId(exchange);
  if (id === undefined) return { exchange };
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  return { own: { id, label: `#${id} "${label}"`, exchange }, exchange };
}

export interface ListRead {
  e: Exchange;
  /** Undefined when the answer was no list. */
  records?: unknown[];
  ids: number[];
}

/** One page of a list with `query`; per_page 100 (the most WordPress allows) unless the query says otherwise. */
export async function readList(env: UnitEnv, op: Operation, query: Record<string, unknown>, as: { auth?: false } = {}): Promise<ListRead> {
  const q = { ...(op.params.some((p) => p.name === 'per_page') ? { per_page: 100 } : {}), ...query };
  const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: q, ...as }, op);
  const records = e.response && e.response.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
  return { e, ...(records ? { records } : {}), ids: (records ?? []).map(idOf).filter((id): id is number => id !== undefined) };
}

/**
 * The first `perPage` records of a calendar list as an anonymous visitor reads them (a record's links and pages are
 * what anyone sees): the exchange, the transport outcome that ends a case when there was no answer to judge, and the
 * records the answer lists (none when it lists nothing).
 */
export async function anonymousPage(env: UnitEnv, res: CalendarResource, perPage: number): Promise<{ e: Exchange; transport?: { outcome: Outcome; message: string }; records: unknown[] }> {
  const r = await readList(env, res.list, { per_page: perPage }, { auth: false });
  const transport = transportOutcome(r.e);
  return { e: r.e, ...(transport ? { transport } : {}), records: r.records ?? [] };
}

/** `#12 "Concert"` for a record of an answer: its id and whatever names it. */
export function describeRecord(rec: unknown): string {
  const id = idOf(rec);
  const name = ['title', 'name', 'venue', 'organizer', 'keyword'].map((f) => nameText(rec, f)).find((n) => n !== undefined);
  return `#${id ?? '?'}${name !== undefined ? ` ${JSON.stringify(name.length > 60 ? `${name.slice(0, 57)}...` : name)}` : ''}`;
}

export function describeIds(ids: readonly number[], records: readonly unknown[] | undefined, own: readonly Own[] = []): string {
  if (ids.length === 0) return 'none';
  return ids
    .map((id) => own.find((o) => o.id === id)?.label ?? (records?.find((r) => idOf(r) === id) !== undefined ? describeRecord(records.find((r) => idOf(r) === id)) : `#${id}`))
    .join(', ');
}

/** Emits the findings of one oracle on one operation: check name, severity and operation fixed. */
export function emitterFor(env: UnitEnv, check: string, op: Operation, severity: Severity) {
  return (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange, sev: Severity = severity): void =>
    env.emit({ check, operation: op, variant, severity: sev, outcome, message, ...(e ? { exchange: e } : {}) });
}

/**
 * Why a list read cannot be judged: no answer, or an answer that is no list. The outcome is the transport's, or
 * inconclusive: the list answering an error is other checks' business (positive_acceptance), not this filter's.
 */
export function unreadable(r: ListRead, what: string): { outcome: Finding['outcome']; message: string } | undefined {
  const t = transportOutcome(r.e);
  if (t) return t;
  if (!r.records) return { outcome: 'inconclusive', message: `${what} answered ${describeAnswer(r.e.response)}, not a list: nothing to compare` };
  return undefined;
}

/** Whether the oracle may make records; the reason when it may not. */
export function cannotWrite(env: UnitEnv, ops: readonly Operation[]): string | undefined {
  const blocked = writeBlocker(env);
  if (blocked) return blocked;
  const missing = ops.filter((op) => env.descriptor.byKey.size > 0 && !env.descriptor.byKey.has(templateKey(op.path)));
  return missing.length ? `the target does not list ${missing.map((o) => o.path).join(' and ')} (see route_presence and diff)` : undefined;
}

/**
 * A unit that writes records of its own: where the run may not write, or the target lacks one of `needs` (its
 * operations by default), it emits one skip with the reason, `not run: <why>; <doing>`, instead of running.
 */
export function ownRecordsUnit(
  u: { id: string; check: string; family?: string; operations: Operation[]; needs?: readonly Operation[]; skip: { operation: Operation; variant: string; severity: Severity; doing: string } },
  run: (env: UnitEnv) => Promise<void>,
): Unit {
  return {
    id: u.id,
    family: u.family ?? u.check,
    checks: [u.check],
    operations: u.operations,
    writes: true,
    run: async (env: UnitEnv) => {
      const why = cannotWrite(env, u.needs ?? u.operations);
      if (why) return env.emit({ check: u.check, operation: u.skip.operation, variant: u.skip.variant, severity: u.skip.severity, outcome: 'skip', message: `not run: ${why}; ${u.skip.doing}` });
      return run(env);
    },
  };
}

/**
 * One unit per calendar resource whose list takes `param`: the oracle makes its own records, so it writes. The
 * unit answers skip (with the reason) where the run may not write or the target lacks the routes.
 */
export function oracleUnits(contract: Contract, check: string, param: string, run: (env: UnitEnv, res: CalendarResource, unitId: string) => Promise<void>, also: (res: CalendarResource) => Operation[] = () => []): Unit[] {
  return calendarResources(contract)
    .filter((res) => res.list.params.some((p) => p.name === param && p.in === 'query'))
    .map((res) => {
      const id = `${check}:${res.list.id}`;
      const ops = [res.list, res.create, ...also(res)];
      return ownRecordsUnit({ id, check, operations: ops, skip: { operation: res.list, variant: param, severity: 'documented', doing: `the oracle judges ${param} on records of its own` } }, (env) => run(env, res, id));
    });
}

/** Terms hide the unused by default (hide_empty true): records of the suite's own are unused, so lists ask for all. */
export function baseQuery(op: Operation, word: string | undefined): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  if (word !== undefined && op.params.some((p) => p.name === 'search')) q['search'] = word.toLowerCase();
  if (op.params.some((p) => p.name === 'hide_empty')) q['hide_empty'] = false;
  return q;
}

/** The field holding a post's body text, by namespace and resource; undefined for terms (searched by name only). */
export function contentField(res: CalendarResource): string | undefined {
  if (res.resource === 'category' || res.resource === 'tag') return undefined;
  return res.namespace === 'cal/v1' ? 'content' : 'description';
}

interface SetJudgement {
  kept: number[];
  dropped: number[];
}

/**
 * A filtered list against what it should hold: `shouldHold(id)` for the records the oracle knows about (its own,
 * and any record whose answer shows the filtered property); `unknown` ids are not judged.
 */
export function judgeSet(got: readonly number[], wanted: readonly number[], unwanted: (id: number) => boolean): SetJudgement {
  return { kept: got.filter(unwanted), dropped: wanted.filter((id) => !got.includes(id)) };
}

export function setMessage(compared: string, j: SetJudgement, got: ListRead, own: readonly Own[]): string {
  const parts = [compared];
  if (j.kept.length) parts.push(`kept what it should have left out: ${describeIds(j.kept, got.records, own)}`);
  if (j.dropped.length) parts.push(`left out what it should have kept: ${describeIds(j.dropped, got.records, own)}`);
  parts.push(`got ${got.ids.length} record(s): ${describeIds(got.ids.slice(0, 12), got.records, own)}${got.ids.length > 12 ? ', ...' : ''}`);
  return parts.join('; ');
}

export const idsOf = (own: readonly (Own | undefined)[]): number[] => own.filter((o): o is Own => o !== undefined).map((o) => o.id);

/** The lower-cased JSON of a record: what "the record carries the word" is judged on. */
export function recordText(rec: unknown): string {
  return JSON.stringify(rec ?? null).toLowerCase();
}

export function byId(records: readonly unknown[] | undefined, id: number): unknown {
  return records?.find((r) => idOf(r) === id);
}
