// --disposable-target sends the writes the suite cannot undo (settings, modes, connections, imports), on a site
// restored from a snapshot after the run. It still changes only what it may, and says what it changed:
//
// - A write that names a record (a path `{id}`, an add-on's `objectID`) acts on a record the run made itself,
//   which cleanup removes; one naming a record the run did not make is not sent (references.ts gives such
//   writes records of the run's own, so this refusal is the safety net, not the rule).
// - A write to a settings object, which only exists once (a route without a path parameter whose GET reads it),
//   reads it first, and after the run writes back what it read, reads it again and says whether it is as before.
// - Every other write the site took changed something the run did not create and cannot read back or undo (a
//   mode, a module, a connection, a plugin's status, logs deleted, a record made that no route removes): each
//   is listed.
//
// The list (options.changes in the JSON report, the summary, the HTML report) holds every change to something the
// run did not create, one entry per operation, with how many requests the site took and whether it was restored.
// Calendar records are not on it: the calendar checks write only records of the run's own, and cleanup removes them.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { parsePhpQuery } from '../../../contracts/lib/arbitraries/index.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { referenceFields } from '../checks/kit/references.ts';
import { jsonBody, SAFE_METHODS, type Exchange, type Outgoing } from '../http/types.ts';
import { createdId, routeOf, type Ledger } from '../checks/kit/ledger.ts';

const CALENDAR_RECORDS: ReadonlySet<string> = new Set(['cal/v1', 'cal/events/v1']);

export interface SiteChange {
  method: string;
  /** The route's template: `/pagebuilder-one/v1/settings`. */
  route: string;
  operationId: string;
  /** settings: read first, written back after the run; action: changed what the suite cannot read back; created: made what no route removes. */
  kind: 'settings' | 'action' | 'created';
  /** Requests to it the site took (2xx). */
  accepted: number;
  restored: 'yes' | 'no' | 'not possible';
  note: string;
}

type Send = (out: Outgoing) => Promise<Exchange>;

interface Snapshot {
  /** The settings object as read before the first write. */
  body: unknown;
  /** Whether a write to it was taken: only then is it written back. */
  written: boolean;
  restored?: { yes: boolean; note: string };
}

const ok = (e: Exchange): boolean => !!e.response && e.response.status >= 200 && e.response.status < 300;

/** The parameters a request carries, by name, from its query and its body (as WordPress merges them). */
function carried(out: Outgoing): Record<string, unknown> {
  const query = { ...(out.query ?? {}), ...(out.rawQuery ? (parsePhpQuery(out.rawQuery) as Record<string, unknown>) : {}) };
  const b = out.body;
  let body: unknown;
  if (b?.kind === 'json' || b?.kind === 'form') body = b.value;
  else if (b?.kind === 'raw') {
    try {
      body = /json/i.test(b.contentType) ? JSON.parse(b.text) : parsePhpQuery(b.text);
    } catch {
      body = undefined;
    }
  }
  return { ...query, ...(isPlainObject(body) ? body : {}) };
}

function ids(v: unknown): number[] {
  const one = (x: unknown): number | undefined => (typeof x === 'number' ? x : typeof x === 'string' && /^\d+$/.test(x.trim()) ? Number(x) : undefined);
  const list = Array.isArray(v) ? v : typeof v === 'string' && v.includes(',') ? v.split(',') : [v];
  return list.map(one).filter((n): n is number => n !== undefined && n > 0);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  return v;
}

export class SiteChanges {
  private readonly snapshots = new Map<string, Promise<Snapshot | undefined>>();
  private readonly changes = new Map<string, SiteChange>();

  constructor(
    private readonly o: {
      contract: Contract;
      ledger: Ledger;
      /** Sends as the run does (its budget, its stop), for the reads before a first write. */
      send: Send;
      served(template: string, method: string): boolean;
    },
  ) {}

  private operationOf(out: Outgoing, op: Operation | undefined): Operation | undefined {
    const found = op ?? routeOf(this.o.contract, out.method, out.route);
    if (!found || SAFE_METHODS.has(out.method) || out.auth === false || CALENDAR_RECORDS.has(found.namespace) || found.kind === 'batch') return undefined;
    return found;
  }

  private owns(resource: string | undefined, id: number): boolean {
    return this.o.ledger.live().some((r) => r.id === id && (resource === undefined || r.resource === resource));
  }

  /** The GET that reads what a write to this route changes, when the route is a settings object (no path parameter). */
  private reader(op: Operation): Operation | undefined {
    if (op.params.some((p) => p.in === 'path')) return undefined;
    return this.o.contract.operations.find((g) => g.method === 'GET' && g.path === op.path && this.o.served(g.path, 'GET'));
  }

  /** Why the write may not be sent (it names a record the run did not make); a settings object is read first. */
  async before(out: Outgoing, op: Operation | undefined): Promise<string | undefined> {
    const o = this.operationOf(out, op);
    if (!o) return undefined;
    const id = o.regex.exec(out.route)?.groups?.['id'];
    if (id !== undefined && /^\d+$/.test(id) && !this.owns(o.resource, Number(id))) {
      return `${out.method} ${out.route} names ${o.resource ?? 'record'} ${id}, which the run did not create: with --disposable-target too, the suite changes only records of its own`;
    }
    const values = carried(out);
    for (const f of referenceFields(this.o.contract, o).filter((r) => r.location !== 'path' && r.kind === 'record')) {
      const foreign = ids(values[f.param]).find((n) => !this.owns(undefined, n));
      if (foreign !== undefined) return `${f.param}=${foreign} names a record the run did not create: with --disposable-target too, the suite changes only records of its own`;
    }
    const reader = this.reader(o);
    if (reader) await this.readFirst(reader);
    return undefined;
  }

  private readFirst(reader: Operation): Promise<Snapshot | undefined> {
    let pending = this.snapshots.get(reader.path);
    if (!pending) {
      pending = this.o.send({ method: 'GET', route: reader.path, intent: 'read' }).then((e) => {
        const body = ok(e) ? jsonBody(e.response) : undefined;
        return body === undefined ? undefined : { body, written: false };
      });
      this.snapshots.set(reader.path, pending);
    }
    return pending;
  }

  /** What the write changed, once its answer is in; a record an add-on's create made goes into the ledger. */
  async after(out: Outgoing, op: Operation | undefined, e: Exchange, createdBy: string): Promise<void> {
    const o = this.operationOf(out, op);
    if (!o || !ok(e)) return;
    const id = o.kind === 'create' ? createdId(e) : undefined;
    const item = id !== undefined ? this.o.contract.operations.find((r) => r.method === 'GET' && r.path === `${o.path}/{id}` && r.resource === o.resource) : undefined;
    const removable = item && this.o.contract.operations.some((d) => d.method === 'DELETE' && d.path === item.path);
    if (id !== undefined && item && removable && o.resource) {
      // Made by the run: cleanup removes it by this id (its fields are not shown, so it may not carry the marker).
      this.o.ledger.add({ namespace: o.namespace, resource: o.resource, id, itemPath: item.path, createdBy, unmarked: true });
      return;
    }
    const target = o.regex.exec(out.route)?.groups?.['id'];
    if (target !== undefined && this.owns(o.resource, Number(target))) return;
    const reader = this.reader(o);
    const snapshot = reader ? await this.readFirst(reader) : undefined;
    if (snapshot) snapshot.written = true;
    const change = this.changes.get(o.id);
    if (change) {
      change.accepted++;
      return;
    }
    const [kind, note]: [SiteChange['kind'], string] =
      o.kind === 'create'
        ? ['created', `made (or changed) a ${o.resource ?? 'record'} that no route of the documents removes${id !== undefined ? ` (id ${id})` : ''}`]
        : snapshot
          ? ['settings', `read first (GET ${reader!.path}), written back after the run`]
          : reader
            ? ['action', `GET ${reader.path} did not answer a JSON object before the first write, so it could not be written back`]
            : ['action', 'nothing in the documents reads it back or undoes it'];
    this.changes.set(o.id, { method: out.method, route: o.path, operationId: o.id, kind, accepted: 1, restored: 'not possible', note });
  }

  /** Writes each settings object that was changed back as it was read, and reads it again to say whether it is. */
  async restore(send: Send): Promise<void> {
    for (const [path, pending] of this.snapshots) {
      const snapshot = await pending;
      if (!snapshot?.written) continue;
      const writer = ['PUT', 'POST', 'PATCH'].map((m) => this.o.contract.operations.find((w) => w.method === m && w.path === path && this.o.served(path, m))).find((w) => w !== undefined);
      if (!writer || !isPlainObject(snapshot.body)) {
        snapshot.restored = { yes: false, note: `no write of ${path} takes back the object it read` };
        continue;
      }
      const put = await send({ method: writer.method, route: path, body: { kind: 'json', value: snapshot.body }, intent: 'cleanup' });
      const read = await send({ method: 'GET', route: path, intent: 'cleanup' });
      const now = ok(read) ? jsonBody(read.response) : undefined;
      const back = now !== undefined && same(now, snapshot.body);
      const before = snapshot.body;
      const differs = isPlainObject(now) ? Object.keys({ ...now, ...before }).filter((k) => !same(now[k], before[k])) : [];
      snapshot.restored = {
        yes: back,
        note: back
          ? `written back with ${writer.method} ${path} (answered ${put.response?.status ?? put.error?.kind}); read again, it is as before the run`
          : `written back with ${writer.method} ${path} (answered ${put.response?.status ?? put.error?.kind}); read again, ${now === undefined ? 'it did not answer a JSON object' : `it differs from before the run in ${differs.slice(0, 8).join(', ')}${differs.length > 8 ? ', ...' : ''}`}`,
      };
    }
    for (const change of this.changes.values()) {
      if (change.kind !== 'settings') continue;
      const r = (await this.snapshots.get(change.route))?.restored;
      if (!r) continue;
      change.restored = r.yes ? 'yes' : 'no';
      change.note = `${change.note}: ${r.note}`;
    }
  }

  /** Every change to something the run did not create, in the order first made. */
  list(): SiteChange[] {
    return [...this.changes.values()];
  }
}
