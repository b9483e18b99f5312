// Every record the suite creates goes into the ledger the moment its id is known, and the ledger is
// emptied at the end of the run whatever happened (failure, timeout, Ctrl-C). Cleanup deletes only
// ids from the suite's own create responses, and before deleting one that it can still read it checks
// that the record carries the run's marker; a record that does not is left alone and reported. A
// record is reported as left behind only when a read after the delete finds it; when the target does
// not answer, the record is counted as unconfirmed, and cleanup sends nothing more to a target that
// has stopped answering (the client's breaker holds for cleanup too).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange, type Outgoing } from '../http/types.ts';

export interface Created {
  namespace: string;
  resource: string;
  id: number;
  /** Template of the record's own route in the namespace that created it: `/cal/v1/events/{id}`. */
  itemPath: string;
  /** Unit that created it, for the report. */
  createdBy: string;
}

export interface Leftover {
  record: Created;
  reason: string;
}

export interface CleanupReport {
  removed: Created[];
  /** Still on the target: a read after the attempt to delete found them (or they no longer carry the marker). */
  left: Leftover[];
  /** Neither removed nor confirmed present: the target did not answer the delete or the read after it. */
  unconfirmed: Leftover[];
  /** Records found by the marker sweep that no create response had told the ledger about. */
  swept: number;
}

export class Ledger {
  private readonly entries: Created[] = [];
  private readonly gone = new Set<string>();

  static key(namespace: string, resource: string, id: number): string {
    return `${namespace}|${resource}|${id}`;
  }

  add(record: Created): void {
    if (!this.has(record.namespace, record.resource, record.id)) this.entries.push(record);
  }

  has(namespace: string, resource: string, id: number): boolean {
    return this.entries.some((e) => e.namespace === namespace && e.resource === resource && e.id === id);
  }

  /** The record is known to be deleted (a lifecycle deleted it and saw it gone). */
  markGone(record: Pick<Created, 'namespace' | 'resource' | 'id'>): void {
    this.gone.add(Ledger.key(record.namespace, record.resource, record.id));
  }

  /** Deletes run in reverse order of creation: events before the venues they point at. */
  live(): Created[] {
    return this.entries.filter((e) => !this.gone.has(Ledger.key(e.namespace, e.resource, e.id))).reverse();
  }

  get size(): number {
    return this.entries.length;
  }
}

/** Ids come from create responses: `{id: 12}` (WordPress and the legacy calendar API alike). */
export function createdId(e: Exchange): number | undefined {
  const r = e.response;
  if (!r || r.status < 200 || r.status >= 300) return undefined;
  const body = jsonBody(r) as { id?: unknown } | undefined;
  const id = body?.id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  if (typeof id === 'string' && /^[1-9][0-9]*$/.test(id)) return Number(id);
  return undefined;
}

export type CleanupSend = (o: Outgoing) => Promise<Exchange>;

export interface CleanupOptions {
  contract: Contract;
  ledger: Ledger;
  send: CleanupSend;
  marker: string;
  /** Whether a route template (of any namespace) is served by the target. */
  served(template: string, method: string): boolean;
  /** Resources to look for unrecorded leftovers by the marker. */
  sweep: boolean;
}

function itemOp(contract: Contract, namespace: string, resource: string, kind: 'delete' | 'read' | 'list'): Operation | undefined {
  return contract.operations.find(
    (o) => o.namespace === namespace && o.resource === resource && o.kind === kind && (kind === 'list' || /\/\{id\}$/.test(o.path)),
  );
}

const ok = (status: number): boolean => status >= 200 && status < 300;

/** Codes with which sites answer a read of an id that names no record (some with 401/403 instead of 404). */
const NO_SUCH_RECORD = /^rest_\w*invalid_id$|^rest_forbidden$|^rest_cannot_(read|view)$/;

function codeOf(e: Exchange): string | undefined {
  const code = (jsonBody(e.response) as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The answer says there is no such record (any more). */
export function readsAsGone(e: Exchange): boolean {
  const status = e.response?.status;
  if (status === 404 || status === 410) return true;
  return (status === 401 || status === 403) && NO_SUCH_RECORD.test(codeOf(e) ?? '');
}

function isTrashed(e: Exchange): boolean {
  return (jsonBody(e.response) as { status?: unknown } | undefined)?.status === 'trash';
}

type Outcome = { removed: true } | { left: string } | { unconfirmed: string };

export async function cleanup(o: CleanupOptions): Promise<CleanupReport> {
  const report: CleanupReport = { removed: [], left: [], unconfirmed: [], swept: 0 };
  let silent: string | undefined;
  if (o.sweep) {
    const swept = await sweep(o);
    report.swept = swept.found;
    silent = swept.silent;
  }
  for (const record of o.ledger.live()) {
    if (silent) {
      report.unconfirmed.push({ record, reason: `not tried: ${silent}` });
      continue;
    }
    const outcome = await removeOne(o, record);
    if ('removed' in outcome) {
      report.removed.push(record);
      o.ledger.markGone(record);
    } else if ('left' in outcome) {
      report.left.push({ record, reason: outcome.left });
    } else {
      report.unconfirmed.push({ record, reason: outcome.unconfirmed });
      silent = 'the target stopped answering during cleanup';
    }
  }
  return report;
}

function describe(e: Exchange): string {
  if (e.error) return `no answer (${e.error.message})`;
  const code = codeOf(e);
  return `${e.response!.status}${code ? ` ${code}` : ''}`;
}

async function removeOne(o: CleanupOptions, record: Created): Promise<Outcome> {
  const route = fillTemplate(record.itemPath, { id: record.id });
  const readIt = (): Promise<Exchange> => o.send({ method: 'GET', route, query: { context: 'edit' }, intent: 'cleanup' });
  const read = await readIt();
  if (read.error) return { unconfirmed: `no answer while reading ${route}: ${read.error.message}` };
  if (ok(read.response!.status) && !JSON.stringify(jsonBody(read.response) ?? read.response!.body).includes(o.marker)) {
    return { left: `${route} no longer carries the marker "${o.marker}"; not deleted` };
  }
  // A record we cannot read any more may still sit in the trash; deleting it by our own id is safe.
  const attempts: Outgoing[] = [];
  const isTerm = record.resource === 'category' || record.resource === 'tag';
  let forced = true;
  if (record.namespace === 'cal/v1' || isTerm) {
    attempts.push({ method: 'DELETE', route, query: { force: true }, intent: 'cleanup' });
  } else {
    attempts.push({ method: 'DELETE', route, intent: 'cleanup' });
    // The legacy API trashes; the current namespace can purge the same post for good.
    const purge = itemOp(o.contract, 'cal/v1', record.resource, 'delete');
    if (purge && o.served(purge.path, 'DELETE')) {
      attempts.push({ method: 'DELETE', route: fillTemplate(purge.path, { id: record.id }), query: { force: true }, intent: 'cleanup' });
    } else {
      forced = false;
    }
  }
  const answers: string[] = [];
  for (const attempt of attempts) {
    const e = await o.send(attempt);
    if (e.error) return { unconfirmed: `no answer while deleting ${attempt.route}: ${e.error.message}` };
    answers.push(`DELETE ${attempt.route} answered ${describe(e)}`);
  }
  // Only a read tells whether it is gone: delete answers vary (a 403 for an id already purged, a 200
  // for a move to the trash), and a leftover warning that lists records that are gone misleads.
  const after = await readIt();
  if (after.error) return { unconfirmed: `${answers.join('; ')}, and the read that would confirm it got no answer (${after.error.message})` };
  if (readsAsGone(after)) return { removed: true };
  if (ok(after.response!.status)) {
    // Where the target offers no purge, the trash is as far as a delete goes.
    if (isTrashed(after)) return forced ? { left: `still in the trash after ${answers.join('; ')}` } : { removed: true };
    return { left: `still there after ${answers.join('; ')}` };
  }
  return { unconfirmed: `${answers.join('; ')}; the read after it answered ${describe(after)}, which does not say whether the record is gone` };
}

/** Lists every namespace's records by the marker and adds what the ledger missed; stops when the target does not answer. */
async function sweep(o: CleanupOptions): Promise<{ found: number; silent?: string }> {
  let found = 0;
  for (const list of o.contract.operations.filter((op) => op.kind === 'list' && op.namespace.startsWith('cal/') && op.resource)) {
    if (!o.served(list.path, 'GET')) continue;
    const item = itemOp(o.contract, list.namespace, list.resource!, 'read');
    if (!item) continue;
    const query: Record<string, unknown> = { search: o.marker, per_page: 100 };
    if (list.params.some((p) => p.name === 'status' && p.schema.type === 'array')) query['status'] = ['publish', 'pending', 'draft', 'future', 'private'];
    if (list.params.some((p) => p.name === 'hide_empty')) query['hide_empty'] = false;
    const e = await o.send({ method: 'GET', route: list.path, query, intent: 'cleanup' });
    if (e.error) return { found, silent: `the target did not answer the marker search (${e.error.message})` };
    const body = jsonBody(e.response);
    if (!Array.isArray(body)) continue;
    for (const rec of body as unknown[]) {
      const id = (rec as { id?: unknown } | null)?.id;
      if (typeof id !== 'number' || !JSON.stringify(rec).includes(o.marker)) continue;
      if (o.ledger.has(list.namespace, list.resource!, id)) continue;
      // The same post may be in the ledger under the other namespace.
      if (o.ledger.live().some((r) => r.id === id && r.resource === list.resource)) continue;
      o.ledger.add({ namespace: list.namespace, resource: list.resource!, id, itemPath: item.path, createdBy: 'sweep' });
      found++;
    }
  }
  return { found };
}
