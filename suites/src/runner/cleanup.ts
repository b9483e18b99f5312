// Removes what the run created, record by record: each gets its own delete (force=true where the route
// takes it, and a purge through the other calendar namespace where its own only trashes), its own
// retries and its own outcome. Only a record that still reads with the run's marker is kept from the
// delete (an id the site reused would not). Whether a record is gone is never taken from one answer:
// sites answer a read of a deleted or trashed record with 400, 401, 403, 404 or 410, with or without
// the envelope, so such a read says "not readable" and the record counts as gone only once the lists
// of its type (drafts and trash included where the route takes them), searched for the marker in
// every namespace that lists the type, no longer hold it. That one read of the lists, after the deletes,
// is also the marker sweep: a record carrying the run's marker that the ledger does not hold (the site
// created it and answered 500 without an id, or the answer was cut off) is removed the same way, in every
// type the run wrote to; a record without the marker is never touched. Cleanup gives up only when the
// target stops answering (transport failures or 5xx for several records in a row, or the client's
// breaker), never on a 4xx.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange, type Outgoing } from '../http/types.ts';
import { readLists, verdictOf, type Listing } from './cleanup-lists.ts';
import type { Created, Ledger } from '../checks/kit/ledger.ts';

export interface Leftover {
  record: Created;
  reason: string;
  /** The request that removes it for good; the report shows it as a curl line. */
  removal: Outgoing;
}

export interface CleanupReport {
  removed: Created[];
  /** Still on the target: a read or a list after the attempts to delete found them (or they no longer carry the marker). */
  left: Leftover[];
  /** Neither removed nor confirmed present: the target did not answer, or nothing it answered settles it. */
  unconfirmed: Leftover[];
  /** Records found by the marker sweep that no create response had told the ledger about. */
  swept: number;
}

type CleanupSend = (o: Outgoing) => Promise<Exchange>;

interface CleanupOptions {
  contract: Contract;
  ledger: Ledger;
  send: CleanupSend;
  marker: string;
  /** Whether a route template (of any namespace) is served by the target. */
  served(template: string, method: string): boolean;
  /**
   * After the deletes, search the lists of every type the run wrote to for records carrying the marker that the
   * ledger does not hold (a create the site carried out but answered 500 without an id), and remove them too.
   */
  sweep: boolean;
  /** Resources the run sent writes to (a create, a batch item...); the ledger's own are swept in any case. */
  written?: Iterable<string>;
  /** Tries per request while the target does not answer or answers 5xx (default 3). */
  attempts?: number;
  /** Waits before try number `n` (2, 3...); default a short growing pause. */
  pause?(n: number): Promise<void>;
  /** Records in a row that got no answer (or only 5xx) after which cleanup stops (default 3). */
  maxSilentRecords?: number;
  /**
   * Records removed side by side (--workers; default 1). Each record's removal is its own (read, deletes, read
   * back), so they need no order among them; the report keeps the ledger's order whatever the number. At 100 ms an
   * answer, one at a time, the ~580 records of a full run took about 200 s of a 494 s run.
   */
  concurrency?: number;
}

const ok = (status: number): boolean => status >= 200 && status < 300;
/** What sites answer a read of a record that is deleted or in the trash: it says "not readable", not "gone". */
const NOT_READABLE = new Set([400, 401, 403, 404, 410]);

/** No answer worth judging: a transport failure or a server error. */
function silent(e: Exchange): boolean {
  return e.error !== undefined || e.response!.status >= 500;
}

/** Nothing more can be sent: the client's breaker is open, the budget or the write policy refuses. */
function refused(e: Exchange): boolean {
  return e.error?.kind === 'down' || e.error?.kind === 'refused';
}

const defaultPause = (n: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, 250 * 2 ** (n - 2)));

function describe(e: Exchange): string {
  if (e.error) return `no answer (${e.error.message})`;
  const code = (jsonBody(e.response) as { code?: unknown } | undefined)?.code;
  return `${e.response!.status}${typeof code === 'string' ? ` ${code}` : ''}`;
}

function itemOp(contract: Contract, namespace: string, resource: string, kind: 'delete' | 'read'): Operation | undefined {
  return contract.operations.find((o) => o.namespace === namespace && o.resource === resource && o.kind === kind && /\/\{id\}$/.test(o.path));
}

const isTerm = (record: Pick<Created, 'resource'>): boolean => record.resource === 'category' || record.resource === 'tag';
const takesForce = (op: Operation | undefined): boolean => !!op && op.params.some((p) => p.name === 'force');

type Outcome = { removed: true } | { left: string } | { unconfirmed: string; silent?: boolean } | { notReadable: string };

export async function cleanup(o: CleanupOptions): Promise<CleanupReport> {
  const report: CleanupReport = { removed: [], left: [], unconfirmed: [], swept: 0 };
  const attempts = Math.max(1, o.attempts ?? 3);
  const pause = o.pause ?? defaultPause;
  let stopped: string | undefined;
  const send = async (out: Outgoing): Promise<Exchange> => {
    let e = await o.send(out);
    for (let n = 2; n <= attempts && silent(e) && !refused(e); n++) {
      await pause(n);
      e = await o.send(out);
    }
    if (refused(e)) stopped ??= e.error!.message;
    return e;
  };
  const maxSilent = Math.max(1, o.maxSilentRecords ?? 3);
  let silentInRow = 0;
  /** Removes each record on its own, `--workers` at a time; the outcomes keep the records' order. */
  const removeAll = async (records: readonly Created[]): Promise<(Outcome | { notTried: string })[]> => {
    const outcomes: (Outcome | { notTried: string })[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < records.length; i = next++) {
        if (stopped) {
          outcomes[i] = { notTried: stopped };
          continue;
        }
        const outcome = await removeOne(o, send, records[i]!);
        outcomes[i] = outcome;
        // In the order answers end: with several at once, "in a row" is by time, which is what a target going down shows.
        silentInRow = 'silent' in outcome && outcome.silent ? silentInRow + 1 : 0;
        if (silentInRow >= maxSilent && !stopped) stopped = `the target stopped answering during cleanup (${maxSilent} records in a row got no answer or only 5xx)`;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 1, records.length)) }, worker));
    return outcomes;
  };
  /** Files each outcome in the report; the records that no longer read wait for the lists' verdict. */
  const file = (records: readonly Created[], outcomes: readonly (Outcome | { notTried: string })[]): { record: Created; why: string }[] => {
    const unreadable: { record: Created; why: string }[] = [];
    for (const [i, record] of records.entries()) {
      const outcome = outcomes[i]!;
      if ('notTried' in outcome) report.unconfirmed.push({ record, reason: `not tried: ${outcome.notTried}`, removal: removalOf(o, record) });
      else if ('removed' in outcome) report.removed.push(record);
      else if ('left' in outcome) report.left.push({ record, reason: outcome.left, removal: removalOf(o, record) });
      else if ('notReadable' in outcome) unreadable.push({ record, why: outcome.notReadable });
      else report.unconfirmed.push({ record, reason: outcome.unconfirmed, removal: removalOf(o, record) });
    }
    return unreadable;
  };
  /** A record that could not be read after its delete is gone only once the lists of its type no longer hold it. */
  const judge = (unreadable: readonly { record: Created; why: string }[], listing: Listing | undefined): void => {
    for (const { record, why } of unreadable) {
      const v = listing && !stopped ? verdictOf(listing, record.resource, record.id) : undefined;
      const none = stopped ? `not tried: ${stopped}` : listing?.silent ? `the marker search got no answer (${listing.silent})` : 'no list of its type answered';
      if (!v) report.unconfirmed.push({ record, reason: `${why}; not confirmed gone: ${none}`, removal: removalOf(o, record) });
      else if (v.gone) report.removed.push(record);
      else report.left.push({ record, reason: `${why}, but ${v.seen}${purgeable(o, record) ? '' : NO_PURGE}`, removal: removalOf(o, record) });
    }
  };
  const read = (resources: ReadonlySet<string>): Promise<Listing | undefined> => (resources.size === 0 || stopped ? Promise.resolve(undefined) : readLists(o, send, resources));

  const recorded = o.ledger.live();
  const unreadable = file(recorded, await removeAll(recorded));
  // One read of the lists after the deletes: it settles every record that no longer reads, and (the sweep) finds
  // records carrying the marker that no create answer told the ledger about, in every type the run wrote to.
  const swept = o.sweep ? new Set([...(o.written ?? []), ...recorded.map((r) => r.resource)]) : new Set<string>();
  const listing = await read(new Set([...swept, ...unreadable.map((u) => u.record.resource)]));
  judge(unreadable, listing);
  const found = o.sweep && listing ? unrecorded(o, listing) : [];
  report.swept = found.length;
  if (found.length > 0) {
    // Removed as the ledger's own were, and judged by a second read of their lists.
    const again = file(found, await removeAll(found));
    judge(again, await read(new Set(again.map((u) => u.record.resource))));
  }
  return report;
}

/**
 * Records the lists show carrying the run's marker that the ledger does not hold (under any namespace: one post is
 * the same record in both calendar namespaces); each goes into the ledger, addressed where a delete purges it.
 */
function unrecorded(o: CleanupOptions, listing: Listing): Created[] {
  const out: Created[] = [];
  for (const [resource, byId] of listing.seen) {
    for (const rec of byId.values()) {
      if (!rec.carriesMarker || o.ledger.live().some((r) => r.id === rec.id && r.resource === resource)) continue;
      const namespaces = [...new Set(o.contract.operations.filter((op) => op.resource === resource).map((op) => op.namespace))];
      // Where the record's own route deletes it for good (takes force), else where it was listed.
      const ns = namespaces.find((n) => takesForce(itemOp(o.contract, n, resource, 'delete')) && o.served(itemOp(o.contract, n, resource, 'delete')!.path, 'DELETE')) ?? rec.list.namespace;
      const item = itemOp(o.contract, ns, resource, 'read') ?? itemOp(o.contract, rec.list.namespace, resource, 'read');
      if (!item) continue;
      const record: Created = { namespace: item.namespace, resource, id: rec.id, itemPath: item.path, createdBy: 'sweep' };
      o.ledger.add(record);
      out.push(record);
    }
  }
  return out;
}

/** The deletes that remove a record for good, in order: its own route, then a purge through cal/v1 where its own only trashes. */
function deletesFor(o: CleanupOptions, record: Created): Outgoing[] {
  const route = fillTemplate(record.itemPath, { id: record.id });
  const own = itemOp(o.contract, record.namespace, record.resource, 'delete');
  // WordPress deletes terms only with force (they have no trash), whether or not a plugin's route lists it.
  if (takesForce(own) || isTerm(record)) return [{ method: 'DELETE', route, query: { force: true }, intent: 'cleanup' }];
  const out: Outgoing[] = [{ method: 'DELETE', route, intent: 'cleanup' }];
  const purge = purgeOf(o, record);
  if (purge) out.push(purge);
  return out;
}

/** A DELETE with force=true of the same id through a namespace whose route takes it. */
function purgeOf(o: CleanupOptions, record: Created): Outgoing | undefined {
  for (const op of o.contract.operations) {
    if (op.kind !== 'delete' || op.resource !== record.resource || op.namespace === record.namespace || !op.namespace.startsWith('cal/')) continue;
    if (!/\/\{id\}$/.test(op.path) || !takesForce(op) || !o.served(op.path, 'DELETE')) continue;
    return { method: 'DELETE', route: fillTemplate(op.path, { id: record.id }), query: { force: true }, intent: 'cleanup' };
  }
  return undefined;
}

const NO_PURGE = ': the target serves no route that purges it (DELETE with force=true)';

function purgeable(o: CleanupOptions, record: Created): boolean {
  return isTerm(record) || takesForce(itemOp(o.contract, record.namespace, record.resource, 'delete')) || purgeOf(o, record) !== undefined;
}

/** What removes a record for good when cleanup could not: shown as a curl line. */
function removalOf(o: CleanupOptions, record: Created): Outgoing {
  const all = deletesFor(o, record);
  return all[all.length - 1]!;
}

async function removeOne(o: CleanupOptions, send: CleanupSend, record: Created): Promise<Outcome> {
  const route = fillTemplate(record.itemPath, { id: record.id });
  const readIt = (): Promise<Exchange> => send({ method: 'GET', route, query: { context: 'edit' }, intent: 'cleanup' });
  const read = await readIt();
  if (!record.unmarked && read.response && ok(read.response.status) && !JSON.stringify(jsonBody(read.response) ?? read.response.body).includes(o.marker)) {
    return { left: `${route} no longer carries the marker "${o.marker}"; not deleted` };
  }
  // A record that does not read (trashed, or a site that hides it) is still ours by its id: delete it all the same.
  const answers: string[] = [];
  let answered = !silent(read);
  for (const del of deletesFor(o, record)) {
    const e = await send(del);
    answered ||= !silent(e);
    answers.push(`DELETE ${del.route}${del.query ? '?force=true' : ''} answered ${describe(e)}`);
    if (refused(e)) return { unconfirmed: answers.join('; '), silent: true };
  }
  const after = await readIt();
  const did = answers.join('; ');
  if (silent(after)) return { unconfirmed: `${did}; the read that would confirm it answered ${describe(after)}`, silent: !answered };
  const status = after.response!.status;
  if (NOT_READABLE.has(status)) return { notReadable: `${did}; the read after it answered ${describe(after)}` };
  if (ok(status)) {
    const trashed = (jsonBody(after.response) as { status?: unknown } | undefined)?.status === 'trash';
    if (trashed && !purgeable(o, record)) return { left: `in the trash after ${did}${NO_PURGE}` };
    return { left: `${trashed ? 'still in the trash' : 'still there'} after ${did}` };
  }
  return { unconfirmed: `${did}; the read after it answered ${describe(after)}, which does not say whether the record is gone` };
}
