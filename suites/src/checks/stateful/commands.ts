// The stateful phase's commands: fast-check's model-based commands over the suite's own cal/v1 records. Each
// sends one request (a batch: one request of several items), holds the answer to what the model predicts
// (model.ts), and moves the model on. A contradiction throws SequenceBreak, which fast-check takes as the
// sequence's failure and shrinks; an answer the run cannot use (no answer, the budget spent) throws Unanswered,
// which ends the sequence without a verdict.

import fc from 'fast-check';
import type { Operation } from '../../../../contracts/lib/types.ts';
import { renderTitle } from '../../../../contracts/wordpress/content/post-text.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';
import { fillTemplate } from '../../http/target.ts';
import { jsonBody, type Exchange, type Outgoing } from '../../http/types.ts';
import { createdId } from '../kit/ledger.ts';
import type { UnitEnv } from '../kit/unit.ts';
import { idOf, listRecords, nameText, type CalendarResource } from '../kit/resources.ts';
import { describeAnswer } from '../kit/wp.ts';
import { addRecord, change, isLive, listed, LIVE_STATUSES, pick, visibility, type LiveStatus, type Model, type ModelRecord, type Who } from './model.ts';

/** The sequence contradicts the model: what was expected and what came back. */
export class SequenceBreak extends Error {}

/** No verdict: the request got no answer, or the phase's budget is spent. */
export class Unanswered extends Error {}

/** One request of a sequence, as the report shows it. */
export interface Step {
  /** `3. trash $ID1` */
  text: string;
  exchange: Exchange;
  /** The slot a create gave an id to. */
  created?: number;
  /** Whose credentials went with it, for the replay script's curl line. */
  auth: Outgoing['auth'];
}

/** A shared count of the requests the phase may still send, over every sequence and every shrink. */
export interface Budget {
  left: number;
}

/** What a sequence runs against: the target through the unit's send, and the ids its records got. */
export class Real {
  readonly ids = new Map<number, number>();
  readonly steps: Step[] = [];
  /** The answer an anonymous read of a published record first gave, when this sequence learned it. */
  learned?: Exchange;
  constructor(
    readonly env: UnitEnv,
    readonly res: CalendarResource,
    /** The same resource in the legacy namespace, when the target serves it. */
    readonly legacy: CalendarResource | undefined,
    readonly batch: Operation | undefined,
    /** A word only this sequence's records carry: the lists are searched for it. */
    readonly word: string,
    readonly budget: Budget,
    readonly unitId: string,
  ) {}

  async send(text: string, o: Outgoing, op: Operation): Promise<Exchange> {
    if (this.budget.left <= 0) throw new Unanswered('the stateful phase used up its budget');
    this.budget.left--;
    const e = await this.env.send(o, op);
    this.steps.push({ text: `${this.steps.length + 1}. ${text}`, exchange: e, auth: o.auth });
    if (!e.response) throw new Unanswered(`${text}: ${e.error?.message ?? 'no answer'}`);
    return e;
  }

  id(rec: ModelRecord): number {
    const id = this.ids.get(rec.slot);
    if (id === undefined) throw new Error(`stateful: slot ${rec.slot} has no id`);
    return id;
  }

  title(suffix: string): string {
    return `${this.env.marker} ${this.word} ${suffix}`;
  }
}

const who = (w: Who): Pick<Outgoing, 'auth'> => (w === 'admin' ? {} : { auth: w === 'anon' ? false : 'low' });
const whoText: Record<Who, string> = { admin: 'as the administrator', anon: 'anonymously', low: "as --low-auth-env's user" };
const ok = (e: Exchange): boolean => !!e.response && e.response.status >= 200 && e.response.status < 300;

/** Words a title ends with, in the site's two languages. */
const WORDS = ['Concert', 'Lecture', 'Market', 'Лекція', 'Виставка', 'Ярмарок'] as const;

/** Where a record's answer differs from what the model says it holds; undefined when it agrees. */
function recordProblem(body: unknown, rec: ModelRecord, id: number, statusShown: boolean): string | undefined {
  if (!isPlainObject(body)) return 'the answer is not a record';
  if (idOf(body) !== id) return `the answer is record ${String(body['id'])}, not ${id}`;
  if (statusShown && 'status' in body && body['status'] !== rec.status) return `its status is ${JSON.stringify(body['status'])}, not "${rec.status}"`;
  const t = body['title'];
  const raw = isPlainObject(t) ? t['raw'] : undefined;
  const rendered = isPlainObject(t) ? t['rendered'] : t;
  // WordPress stores an administrator's title as sent (raw, context=edit) and shows it through the_title (rendered).
  if (typeof raw === 'string' && raw !== rec.title) return `its title.raw is ${JSON.stringify(raw)}, not ${JSON.stringify(rec.title)}`;
  const shows = renderTitle(rec.title, rec.status);
  if (typeof rendered === 'string' && rendered !== shows) return `its title is ${JSON.stringify(rendered)}, not ${JSON.stringify(shows)} (get_the_title())`;
  if (raw === undefined && rendered === undefined) return 'it shows no title';
  return undefined;
}

const NOT_READABLE = new Set([400, 401, 403, 404, 410]);

/** A read by id held to what the model says `who` may see. */
function judgeRead(model: Model, rec: ModelRecord, w: Who, e: Exchange, id: number, r0: Real): void {
  const r = e.response!;
  const v = visibility(model, rec, w);
  const got = describeAnswer(r);
  const body = jsonBody(r);
  const shown = r.status === 200 && isPlainObject(body);
  const state = `record $ID${rec.slot} (${rec.status === 'gone' ? 'deleted for good' : `status ${rec.status}`})`;
  if (v === 'unknown') {
    // The first answer that shows what this client may read: the rest of the run holds the site to it.
    if (w === 'anon') {
      model.traits.anonReadsPublished = shown;
      r0.learned = e;
    } else model.traits.lowReadsHidden = shown;
    if (!shown && !NOT_READABLE.has(r.status)) throw new SequenceBreak(`${state} read ${whoText[w]} answered ${got}: neither the record nor a refusal`);
    if (shown) {
      const p = recordProblem(body, rec, id, true);
      if (p) throw new SequenceBreak(`${state} read ${whoText[w]}: ${p}`);
    }
    return;
  }
  if (v === 'shown') {
    if (!shown) throw new SequenceBreak(`expected ${state} to read ${whoText[w]} (WP_REST_Posts_Controller::check_read_permission()); got ${got}`);
    const p = recordProblem(body, rec, id, true);
    if (p) throw new SequenceBreak(`${state} read ${whoText[w]}: ${p}`);
    return;
  }
  if (v === 'trash-or-hidden') {
    if (shown) {
      const p = recordProblem(body, rec, id, true);
      if (p) throw new SequenceBreak(`${state} read ${whoText[w]}: ${p}`);
      return;
    }
    if (!NOT_READABLE.has(r.status)) throw new SequenceBreak(`expected ${state} to read with status "trash", or to be refused; got ${got}`);
    return;
  }
  if (r.status >= 200 && r.status < 300) {
    const why = v === 'gone' ? 'a record deleted with force=true is gone for good (wp_delete_post())' : `a record of status ${rec.status} is readable only by a user who may edit it (check_read_permission())`;
    throw new SequenceBreak(`expected ${state} not to read ${whoText[w]}: ${why}; got ${got}${isPlainObject(body) && typeof body['status'] === 'string' ? ` with status "${body['status']}"` : ''}`);
  }
  if (!NOT_READABLE.has(r.status)) throw new SequenceBreak(`expected ${state} to be refused ${whoText[w]} (a 4xx); got ${got}`);
}

type Cmd = fc.AsyncCommand<Model, Real>;

class Create implements Cmd {
  constructor(
    readonly status: LiveStatus,
    readonly word: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const title = r.title(WORDS[this.word % WORDS.length]!);
    const body = { ...createBody(r.res, title, r.env.now()), status: this.status };
    const e = await r.send(`create a ${r.res.resource} (${this.status}) ${whoText.admin}`, { method: 'POST', route: fillTemplate(r.res.create.path, {}), body: { kind: 'json', value: body }, intent: 'write' }, r.res.create);
    const id = createdId(e);
    if (id === undefined) {
      // A refusal leaves the model as it was; the lists later show whether the site created the record anyway.
      if (ok(e)) throw new SequenceBreak(`the create answered ${describeAnswer(e.response)} without the new record's id`);
      return;
    }
    r.env.ledger.add({ namespace: r.res.namespace, resource: r.res.resource, id, itemPath: r.res.read.path, createdBy: r.unitId });
    const rec = addRecord(m, title, this.status);
    r.ids.set(rec.slot, id);
    r.steps.at(-1)!.created = rec.slot;
    const p = recordProblem(jsonBody(e.response), rec, id, true);
    if (p) throw new SequenceBreak(`the create's answer for $ID${rec.slot}: ${p}`);
  }
  toString(): string {
    return `create(${this.status})`;
  }
}

class Read implements Cmd {
  constructor(
    readonly index: number,
    readonly who: Who,
  ) {}
  check(m: Model): boolean {
    return m.records.length > 0 && (this.who !== 'low' || m.offers.low);
  }
  async run(m: Model, r: Real): Promise<void> {
    const rec = pick(m, this.index, () => true)!;
    const id = r.id(rec);
    const e = await r.send(`read $ID${rec.slot} ${whoText[this.who]}`, { method: 'GET', route: fillTemplate(r.res.read.path, { id }), ...who(this.who) }, r.res.read);
    judgeRead(m, rec, this.who, e, id, r);
  }
  toString(): string {
    return `read(${this.index}, ${this.who})`;
  }
}

class List implements Cmd {
  constructor(
    readonly who: Who,
    /** Only the administrator asks for statuses: WordPress refuses others than publish to anyone else. */
    readonly statuses: readonly LiveStatus[] | undefined,
  ) {}
  check(m: Model): boolean {
    return m.records.length > 0 && (this.who !== 'low' || m.offers.low);
  }
  async run(m: Model, r: Real): Promise<void> {
    const query: Record<string, unknown> = { search: r.word, per_page: 100, ...(this.statuses ? { status: [...this.statuses] } : {}) };
    const e = await r.send(`list ${r.res.resource}s searched for ${r.word}${this.statuses ? ` with status ${this.statuses.join(',')}` : ''} ${whoText[this.who]}`, { method: 'GET', route: fillTemplate(r.res.list.path, {}), query, ...who(this.who) }, r.res.list);
    const records = e.response!.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
    if (!records) throw new SequenceBreak(`expected the list ${whoText[this.who]}; got ${describeAnswer(e.response)}`);
    const got = records.map(idOf);
    const slotOf = new Map([...r.ids].map(([slot, id]) => [id, slot]));
    const want = listed(m, this.who, this.statuses).map((slot) => r.ids.get(slot)!);
    const extra = got.filter((id) => id === undefined || !want.includes(id));
    const missing = want.filter((id) => !got.includes(id));
    const name = (id: number | undefined): string => {
      const slot = id === undefined ? undefined : slotOf.get(id);
      const rec = slot === undefined ? undefined : m.records[slot - 1];
      return slot === undefined ? `#${id ?? '?'} (a record the sequence did not make, or whose create was refused)` : `$ID${slot} (${rec!.status === 'gone' ? 'deleted for good' : rec!.status})`;
    };
    if (extra.length || missing.length) {
      const parts = [extra.length ? `it holds ${extra.map(name).join(', ')}, which it should not` : '', missing.length ? `it leaves out ${missing.map(name).join(', ')}` : ''].filter(Boolean);
      throw new SequenceBreak(`the list ${whoText[this.who]}${this.statuses ? ` with status ${this.statuses.join(',')}` : ' (status publish by default, 000 §4.2.1)'}: ${parts.join('; ')}`);
    }
    const total = e.response!.headers['x-wp-total'];
    if (total !== undefined && Number(total) !== want.length) throw new SequenceBreak(`the list ${whoText[this.who]} holds ${want.length} of the sequence's records, but X-WP-Total says ${total}`);
    for (const rec of records) {
      const slot = slotOf.get(idOf(rec)!);
      const p = slot === undefined ? undefined : recordProblem(rec, m.records[slot - 1]!, idOf(rec)!, true);
      if (p) throw new SequenceBreak(`$ID${slot} in the list ${whoText[this.who]}: ${p}`);
    }
  }
  toString(): string {
    return `list(${this.who}${this.statuses ? `, ${this.statuses.join('|')}` : ''})`;
  }
}

type Change = { title: number } | { status: LiveStatus };

function changeBody(r: Real, c: Change, rec: ModelRecord): { body: Record<string, unknown>; to: Partial<ModelRecord>; text: string } {
  if ('title' in c) {
    const title = r.title(`${WORDS[c.title % WORDS.length]} ${rec.slot}.${r.steps.length + 1}`);
    return { body: { title }, to: { title }, text: `title "${title}"` };
  }
  return { body: { status: c.status }, to: { status: c.status }, text: `status ${c.status}` };
}

class Update implements Cmd {
  constructor(
    readonly index: number,
    readonly method: 'PATCH' | 'PUT',
    readonly change: Change,
  ) {}
  check(m: Model): boolean {
    return m.records.some(isLive);
  }
  async run(m: Model, r: Real): Promise<void> {
    const rec = pick(m, this.index, isLive)!;
    const id = r.id(rec);
    const { body, to, text } = changeBody(r, this.change, rec);
    const e = await r.send(`${this.method} $ID${rec.slot} with ${text} ${whoText.admin}`, { method: this.method, route: fillTemplate(r.res.update.path, { id }), body: { kind: 'json', value: body }, intent: 'write' }, r.res.update);
    if (!ok(e)) throw new SequenceBreak(`expected the ${this.method} of $ID${rec.slot} (status ${rec.status}) ${whoText.admin} to be accepted (000 §4.2); got ${describeAnswer(e.response)}`);
    change(rec, to);
    const p = recordProblem(jsonBody(e.response), rec, id, true);
    if (p) throw new SequenceBreak(`the ${this.method}'s answer for $ID${rec.slot}: ${p}`);
  }
  toString(): string {
    return `update(${this.index}, ${this.method}, ${JSON.stringify(this.change)})`;
  }
}

/** An update sent by a client who may not make it: refused, and the record as it was (the reads after show it). */
class Refused implements Cmd {
  constructor(
    readonly index: number,
    readonly who: 'anon' | 'low',
    readonly change: Change,
  ) {}
  check(m: Model): boolean {
    return m.records.some(isLive) && (this.who === 'anon' || m.offers.low);
  }
  async run(m: Model, r: Real): Promise<void> {
    const rec = pick(m, this.index, isLive)!;
    const id = r.id(rec);
    const { body, to, text } = changeBody(r, this.change, rec);
    const e = await r.send(`PATCH $ID${rec.slot} with ${text} ${whoText[this.who]}`, { method: 'PATCH', route: fillTemplate(r.res.update.path, { id }), body: { kind: 'json', value: body }, intent: 'write', ...who(this.who) }, r.res.update);
    const accepted = ok(e);
    if (this.who === 'low' && m.traits.lowEdits === undefined) m.traits.lowEdits = accepted;
    if (this.who === 'anon' && accepted) throw new SequenceBreak(`expected an anonymous PATCH of $ID${rec.slot} to be refused (401, WP_REST_Posts_Controller::update_item_permissions_check()); got ${describeAnswer(e.response)}`);
    if (this.who === 'low' && accepted !== m.traits.lowEdits) {
      throw new SequenceBreak(`--low-auth-env's user was ${m.traits.lowEdits ? 'let through' : 'refused'} an update of the sequence's records before, and is now ${accepted ? 'let through' : 'refused'} (${describeAnswer(e.response)}) for $ID${rec.slot} (status ${rec.status})`);
    }
    if (accepted) change(rec, to);
  }
  toString(): string {
    return `refused(${this.index}, ${this.who}, ${JSON.stringify(this.change)})`;
  }
}

class Trash implements Cmd {
  constructor(readonly index: number) {}
  check(m: Model): boolean {
    return m.records.some(isLive);
  }
  async run(m: Model, r: Real): Promise<void> {
    const rec = pick(m, this.index, isLive)!;
    const e = await r.send(`DELETE $ID${rec.slot} without force (to the trash)`, { method: 'DELETE', route: fillTemplate(r.res.delete.path, { id: r.id(rec) }), intent: 'write' }, r.res.delete);
    if (!ok(e)) throw new SequenceBreak(`expected a DELETE without force of $ID${rec.slot} (status ${rec.status}) to be accepted (000 §3: "handled through the trash"); got ${describeAnswer(e.response)}`);
    change(rec, { status: 'trash' });
  }
  toString(): string {
    return `trash(${this.index})`;
  }
}

class Purge implements Cmd {
  constructor(readonly index: number) {}
  check(m: Model): boolean {
    return m.records.some((x) => x.status !== 'gone');
  }
  async run(m: Model, r: Real): Promise<void> {
    const rec = pick(m, this.index, (x) => x.status !== 'gone')!;
    const e = await r.send(`DELETE $ID${rec.slot} with force=true`, { method: 'DELETE', route: fillTemplate(r.res.delete.path, { id: r.id(rec) }), query: { force: true }, intent: 'write' }, r.res.delete);
    if (!ok(e)) throw new SequenceBreak(`expected DELETE with force=true of $ID${rec.slot} (status ${rec.status}) to be accepted (000 §3: "delete permanently"); got ${describeAnswer(e.response)}`);
    change(rec, { status: 'gone' });
  }
  toString(): string {
    return `purge(${this.index})`;
  }
}

/** Title changes of up to three records in one batch/v1 request: each item is its own request (001 §4.1). */
class Batch implements Cmd {
  constructor(readonly items: readonly { index: number; title: number }[]) {}
  check(m: Model): boolean {
    return m.offers.batch && m.records.some(isLive);
  }
  async run(m: Model, r: Real): Promise<void> {
    const recs = this.items.map((it) => ({ rec: pick(m, it.index, isLive)!, title: it.title }));
    const changes = recs.map(({ rec, title }) => ({ rec, ...changeBody(r, { title }, rec) }));
    const requests = changes.map(({ rec, body }) => ({ method: 'PATCH', path: fillTemplate(r.res.update.path, { id: r.id(rec) }), body }));
    const e = await r.send(`batch of ${requests.length}: ${changes.map(({ rec, text }) => `PATCH $ID${rec.slot} with ${text}`).join('; ')}`, { method: 'POST', route: fillTemplate(r.batch!.path, {}), body: { kind: 'json', value: { requests } }, intent: 'write' }, r.batch!);
    const body = jsonBody(e.response);
    const responses = isPlainObject(body) && Array.isArray(body['responses']) ? body['responses'] : undefined;
    if (e.response!.status !== 207 || !responses || responses.length !== requests.length) {
      throw new SequenceBreak(`expected 207 with one answer per request of the batch (WP_REST_Server::serve_batch_request_v1()); got ${describeAnswer(e.response)}`);
    }
    // Each item stands alone: an item the site takes changes its record, one it refuses (a route that does not allow
    // batching, say) leaves it as it was; the reads after show which the site really did.
    changes.forEach((c, i) => {
      const item = responses[i] as { status?: unknown } | undefined;
      if (typeof item?.status === 'number' && item.status >= 200 && item.status < 300) change(c.rec, c.to);
    });
  }
  toString(): string {
    return `batch(${JSON.stringify(this.items)})`;
  }
}

/** A published record read through the legacy namespace: the same record (000 §1). */
class LegacyRead implements Cmd {
  constructor(readonly index: number) {}
  check(m: Model): boolean {
    return m.offers.legacy && m.records.some((x) => x.status === 'publish');
  }
  async run(m: Model, r: Real): Promise<void> {
    const rec = pick(m, this.index, (x) => x.status === 'publish')!;
    const id = r.id(rec);
    const legacy = r.legacy!;
    const e = await r.send(`read $ID${rec.slot} through ${legacy.namespace}`, { method: 'GET', route: fillTemplate(legacy.read.path, { id }) }, legacy.read);
    const body = jsonBody(e.response);
    if (!ok(e) || idOf(body) !== id) throw new SequenceBreak(`expected published $ID${rec.slot} to read through ${legacy.namespace} as the same record (000 §1); got ${describeAnswer(e.response)}`);
    const name = nameText(body, legacy.nameField);
    const last = rec.title.split(' ').at(-1)!;
    if (name === undefined || !name.includes(r.word) || !name.includes(last)) {
      throw new SequenceBreak(`$ID${rec.slot} read through ${legacy.namespace} shows ${legacy.nameField} ${JSON.stringify(name ?? null)}, not the title ${JSON.stringify(rec.title)} it has in ${r.res.namespace}`);
    }
  }
  toString(): string {
    return `legacyRead(${this.index})`;
  }
}

/** The smallest body that makes a record of the resource (events need their dates in the future). */
function createBody(res: CalendarResource, title: string, now: Date): Record<string, unknown> {
  if (res.resource !== 'event') return { title };
  const start = new Date(now.getTime() + 30 * 86_400_000);
  start.setUTCHours(10, 0, 0, 0);
  const end = new Date(start.getTime() + 2 * 3_600_000);
  const wall = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');
  return { title, start_date: wall(start), end_date: wall(end) };
}

const index = fc.nat({ max: 7 });
// Published records are what most clients read, anonymous ones included: half of the statuses drawn.
const status = fc.oneof({ arbitrary: fc.constant<LiveStatus>('publish'), weight: 3 }, fc.constantFrom<LiveStatus>(...LIVE_STATUSES.filter((s) => s !== 'publish')));
const change$ = fc.oneof(fc.record({ title: fc.nat({ max: 5 }) }), fc.record({ status })) as fc.Arbitrary<Change>;

/** The create every sequence starts with. */
export function firstCreate(): fc.Arbitrary<Cmd> {
  return fc.tuple(status, fc.nat({ max: 5 })).map(([s, w]) => new Create(s, w));
}

/**
 * Every command, weighted so that a sequence of a few steps is likely to read what it wrote: reads and lists (by
 * each kind of client) come up most, then creates, then each kind of write.
 */
export function commandArbitraries(): fc.Arbitrary<Cmd>[] {
  const create = fc.tuple(status, fc.nat({ max: 5 })).map(([s, w]) => new Create(s, w));
  const read = fc.tuple(index, fc.constantFrom<Who>('admin', 'anon', 'low')).map(([i, w]) => new Read(i, w));
  const list = fc.tuple(fc.constantFrom<Who>('admin', 'anon', 'low'), fc.option(fc.subarray([...LIVE_STATUSES], { minLength: 1 }), { nil: undefined })).map(([w, s]) => new List(w, w === 'admin' ? s : undefined));
  return [
    create,
    read,
    read,
    read,
    list,
    list,
    list,
    fc.tuple(index, fc.constantFrom<'PATCH' | 'PUT'>('PATCH', 'PUT'), change$).map(([i, m, c]) => new Update(i, m, c)),
    fc.tuple(index, fc.constantFrom<'anon' | 'low'>('anon', 'low'), change$).map(([i, w, c]) => new Refused(i, w, c)),
    index.map((i) => new Trash(i)),
    index.map((i) => new Purge(i)),
    fc.array(fc.record({ index, title: fc.nat({ max: 5 }) }), { minLength: 1, maxLength: 3 }).map((items) => new Batch(items)),
    index.map((i) => new LegacyRead(i)),
  ];
}
