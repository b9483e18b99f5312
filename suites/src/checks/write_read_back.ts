// write_read_back: what a client writes is what it reads, after exactly the transform WordPress applies (issue 25 §2).
// For each writable calendar resource the suite creates a record of its own carrying every field the create route
// takes that it can draw (text with markup, entities, spaces at the ends, Ukrainian and a character outside the
// Basic Multilingual Plane; a URL WordPress must clean; a date with an offset), then reads it back by id, in the
// list, and through the other namespace that serves it, and compares each field with what WordPress stores of it:
// the save filters of contracts/wordpress/ (the mock stores through the same ones), never a copy here. Fields the
// server fills itself (date_gmt, modified, slug, status, author, guid, the rendered forms) are predicted, not masked.
//
// What cannot be known from outside is inconclusive, never failed: the body text of a writer without
// unfiltered_html (wp_filter_post_kses's tag list), the author where the site lists no users/me, a field the
// record does not show. The legacy namespace is The Events Calendar's own controller: its reads are held only to
// what holds there (the same stored values; the name and description as stored or as rendered).
//
// Beside each resource's record: a category under a parent of its own with a slug of its own, a term search with a
// space either side of the word (sanitize_text_field() trims it), and an event written form-encoded, whose strings
// rest_sanitize_request_arg() gives their schema's types.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { renderContent, renderExcerpt, renderTitle } from '../../../contracts/wordpress/content/post-text.ts';
import { restGetDateWithGmt, rfc3339, wpTimezoneString } from '../../../contracts/wordpress/post-dates.ts';
import { postTextForDb, postTitleForDb, termDescriptionForDb, termNameForDb, type Writer } from '../../../contracts/wordpress/save-filters.ts';
import { sanitizeTextField } from '../../../contracts/wordpress/schema/formats.ts';
import { sanitizeTitle } from '../../../contracts/wordpress/slug.ts';
import { isKnownTimeZone, zonedToUtc } from '../../../contracts/wordpress/time.ts';
import { sanitizeUrl } from '../../../contracts/wordpress/url.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { templateKey } from '../diff/descriptor.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import { createdId } from './kit/ledger.ts';
import { byId, cannotWrite, emitterFor, makeOwn, ownRecordsUnit, ownWord, readList } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';

export const WRITE_READ_BACK = 'write_read_back';

type Rec = Record<string, unknown>;

/** One field's prediction: where it is in the record (`title.raw`), and the values WordPress may show there. */
interface Expectation {
  path: string;
  /** Every value WordPress may show (one for the core controllers; the stored or rendered form on a plugin's own). */
  want: readonly unknown[];
  /** What was sent, for the message. */
  sent?: unknown;
  /** Plugins may add to the_content: the prediction standing inside the answer passes. */
  contains?: boolean;
}

/** The value at `a.b` of a record; undefined when any part is missing. */
export function at(rec: Rec, path: string): unknown {
  let v: unknown = rec;
  for (const k of path.split('.')) v = isPlainObject(v) ? v[k] : undefined;
  return v;
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** Two lists with the same items in any order (a record's ids: organizers, venues), each of the same JSON type. */
function sameItems(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const key = (v: unknown): string => JSON.stringify(v);
  return JSON.stringify(a.map(key).sort()) === JSON.stringify(b.map(key).sort());
}

/** The fields that differ from their prediction, each with what was sent, expected and read; absent fields apart. */
export function mismatches(rec: Rec, expected: readonly Expectation[]): { wrong: string[]; absent: string[]; missed: Expectation[] } {
  const wrong: string[] = [];
  const absent: string[] = [];
  const missed: Expectation[] = [];
  for (const x of expected) {
    const got = at(rec, x.path);
    if (got === undefined) {
      absent.push(x.path);
      continue;
    }
    const ok = x.want.some((w) => w === got || sameItems(w, got) || (x.contains === true && typeof w === 'string' && typeof got === 'string' && got.includes(w)));
    if (!ok) missed.push(x);
    if (!ok) wrong.push(`${x.path}: ${x.sent !== undefined ? `sent ${show(x.sent)}, ` : ''}expected ${x.want.map(show).join(' or ')}, read ${show(got)}`);
  }
  return { wrong, absent, missed };
}

/**
 * A case's severity: documented where a field the documents give should read back as it was sent and did not (or, on
 * a pass, where one did); convention where every field judged is one WordPress transforms on the way in or fills.
 */
export function severityOf(judged: readonly Expectation[], base: Severity): Severity {
  if (base !== 'documented') return base;
  return judged.some((x) => x.sent !== undefined && x.want.includes(x.sent)) ? 'documented' : 'convention';
}

/**
 * What rest_sanitize_request_arg() makes of a string argument by its schema's format (rest_sanitize_value_from_schema
 * in WordPress 6.1): uri through sanitize_url(), the text formats through sanitize_text_field(), the rest as sent.
 */
function argAsStored(op: Operation, name: string, value: string): string {
  const format = op.params.find((p) => p.name === name && p.in === 'body')?.schema.format;
  if (format === 'uri') return sanitizeUrl(value);
  if (format === 'email' || format === 'text-field' || format === 'date-time' || format === 'ip' || format === 'uuid') return sanitizeTextField(value);
  return value;
}

/**
 * The contact and place fields the suite draws, when the create route takes them (000 §2.2-2.5). A venue's website is
 * a protocol WordPress does not allow (sanitize_url() stores ''), an organizer's one without a scheme, a space and
 * angle brackets (stored `http://…%20…`).
 */
function extraFields(res: CalendarResource, word: string): Record<string, string> {
  const op = res.create;
  const drawn: Record<string, string> = {
    address: `1 Вулиця ${word} 😀`,
    city: 'Київ',
    country: 'Україна',
    zip: '01001',
    phone: '+380 44 000 0000',
    website: res.resource === 'venue' ? `javascript:alert(${word.length})` : `example.org/rb ${word}<x>`,
    email: `rb.${word.toLowerCase()}@example.org`,
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(drawn)) {
    const p = op.params.find((x) => x.name === k && x.in === 'body');
    if (p && (p.schema.type === 'string' || (Array.isArray(p.schema.type) && p.schema.type.includes('string')))) out[k] = v;
  }
  return out;
}

/** The post date the suite sends: in the past (so `publish` stays publish) and with an offset, so its zone matters. */
const SENT_DATE = '2021-01-02T10:00:00+02:00';

/** The text a post is created with: markup, entities, spaces at the ends, Ukrainian and a character outside the BMP. */
function postText(marker: string, word: string): { title: string; content: string; excerpt: string } {
  return {
    // A backslash and both quotes: wp_slash() and wp_unslash() around the save must cancel out (wp.fmt.slashes).
    title: `  ${marker} rb ${word} <b>x</b> <p>y</p> -- "q" \\ 's' Wordpress & Київ 😀  `,
    content: `a &#150; b ${word} <em>c</em> &#147;q&#148; 𝄞`,
    excerpt: `x -- y ${word} ü`,
  };
}

/** The text a term is created with: pre_term_name strips, collapses and escapes; pre_term_description runs kses. */
function termText(marker: string, word: string): { name: string; description: string } {
  return {
    name: `  ${marker} rb a & b <i>x</i>\t\t😀 Київ ${word}  `,
    description: `<p>p ${word}</p><script>s()</script><b>b</b> &#150; a & b Київ 😀`,
  };
}

/**
 * The writer as the filters see it: get_available_actions() adds `wp:action-unfiltered-html` to a record answered in
 * the edit context (every create's answer) for a user who has the capability. Undefined when the answer has no links.
 */
export function writerOf(created: unknown): Writer | undefined {
  const links = isPlainObject(created) ? created['_links'] : undefined;
  if (!isPlainObject(links)) return undefined;
  return { unfilteredHtml: 'wp:action-unfiltered-html' in links };
}

/** The site's zone from the descriptor (wp_timezone_string()); undefined when it names none WordPress would use. */
export function siteZone(descriptor: Rec): string | undefined {
  const tz = descriptor['timezone_string'];
  const offset = Number(descriptor['gmt_offset']);
  const zone = wpTimezoneString(typeof tz === 'string' ? tz : undefined, Number.isFinite(offset) ? offset : undefined);
  return isKnownTimeZone(zone) ? zone : undefined;
}

interface PostPrediction {
  stored: Expectation[];
  server: Expectation[];
  /** Fields nobody outside can predict, with the reason. */
  unknown: string[];
}

/** What WordPress stores and fills for a cal/v1 post created with `body` by `writer`, on a site in `zone`. */
export function predictPost(op: Operation, body: Rec, writer: Writer | undefined, zone: string | undefined, author: number | undefined, home: string | undefined): PostPrediction {
  const stored: Expectation[] = [];
  const server: Expectation[] = [];
  const unknown: string[] = [];
  const title = String(body['title']);
  const titleRaw = writer ? postTitleForDb(title, writer) : undefined;
  if (titleRaw !== undefined) {
    stored.push({ path: 'title.raw', want: [titleRaw], sent: title });
    server.push({ path: 'title.rendered', want: [renderTitle(titleRaw, 'publish')] });
    server.push({ path: 'slug', want: [sanitizeTitle(titleRaw)] });
  } else unknown.push('title (the answer shows no links to tell whether the user has unfiltered_html)');
  const content = writer ? postTextForDb(String(body['content']), writer) : undefined;
  const excerpt = writer ? postTextForDb(String(body['excerpt']), writer) : undefined;
  if (content !== undefined && excerpt !== undefined) {
    stored.push({ path: 'content.raw', want: [content], sent: body['content'] }, { path: 'excerpt.raw', want: [excerpt], sent: body['excerpt'] });
    const rendered = renderContent(content);
    server.push({ path: 'content.rendered', want: [rendered], contains: true }, { path: 'excerpt.rendered', want: [renderExcerpt(excerpt, content, rendered)], contains: true });
  } else unknown.push('content and excerpt (wp_filter_post_kses for a user without unfiltered_html: its tag list is the site\'s)');
  for (const k of ['address', 'city', 'country', 'zip', 'phone', 'website', 'email']) {
    if (typeof body[k] === 'string') stored.push({ path: k, want: [argAsStored(op, k, body[k] as string)], sent: body[k] });
  }
  for (const k of ['start_date', 'end_date']) if (typeof body[k] === 'string') stored.push({ path: k, want: [body[k]], sent: body[k] });
  const dates = zone ? restGetDateWithGmt(String(body['date']), false, zone) : undefined;
  if (dates) {
    const [site, gmt] = dates.map(rfc3339);
    // wp_insert_post(): a new post's modified date is its date.
    server.push({ path: 'date', want: [site], sent: body['date'] }, { path: 'date_gmt', want: [gmt] }, { path: 'modified', want: [site] }, { path: 'modified_gmt', want: [gmt] });
  } else unknown.push('date and date_gmt (the descriptor names no time zone the suite knows)');
  server.push({ path: 'status', want: ['publish'], sent: 'publish' });
  if (author !== undefined) server.push({ path: 'author', want: [author] });
  else unknown.push('author (the site lists no /wp/v2/users/me to name the run\'s user)');
  if (home === undefined) unknown.push('guid (the descriptor names no home)');
  return { stored, server, unknown };
}

/** The run's user id, from /wp/v2/users/me where the site lists it. */
async function runUser(env: UnitEnv): Promise<number | undefined> {
  if (!env.descriptor.byKey.has(templateKey('/wp/v2/users/me'))) return undefined;
  const e = await env.send({ method: 'GET', route: '/wp/v2/users/me' });
  const b = e.response?.status === 200 ? jsonBody(e.response) : undefined;
  return isPlainObject(b) && typeof b['id'] === 'number' ? b['id'] : undefined;
}

type Emit = ReturnType<typeof emitterFor>;

/** Reads `op` for the record and judges `expected` on it: one case, `variant`. */
async function judgeRead(env: UnitEnv, emit: Emit, variant: string, what: string, read: Promise<{ e: Exchange; rec?: Rec }>, expected: readonly Expectation[], unknown: readonly string[], severity: Severity): Promise<void> {
  const { e, rec } = await read;
  const t = transportOutcome(e);
  if (t) return emit(variant, t.outcome, t.message, e, severity);
  if (!rec) return emit(variant, 'inconclusive', `${what} answered ${describeAnswer(e.response)}, without the record: nothing to compare`, e, severity);
  if (expected.length === 0) return emit(variant, 'inconclusive', `${what}: nothing the suite can predict (${unknown.join('; ')})`, e, severity);
  const { wrong, absent, missed } = mismatches(rec, expected);
  const judged = expected.length - absent.length;
  severity = severityOf(wrong.length ? missed : expected.filter((x) => !absent.includes(x.path)), severity);
  const notes = [...(absent.length ? [`not shown: ${absent.join(', ')}`] : []), ...(unknown.length ? [`not predicted: ${unknown.join('; ')}`] : [])];
  if (wrong.length) return emit(variant, 'fail', `${what}: ${wrong.length} of ${judged} field(s) read back unlike what WordPress stores of what was sent (contracts/wordpress/ save filters): ${wrong.join('; ')}${notes.length ? ` (${notes.join('; ')})` : ''}`, e, severity);
  if (judged === 0) return emit(variant, 'inconclusive', `${what} shows none of the fields judged (${absent.join(', ')})`, e, severity);
  emit(variant, 'pass', `${what}: ${judged} field(s) as WordPress stores them${notes.length ? ` (${notes.join('; ')})` : ''}`, e, severity);
}

async function readById(env: UnitEnv, op: Operation, id: number, query: Rec): Promise<{ e: Exchange; rec?: Rec }> {
  const e = await env.send({ method: 'GET', route: fillTemplate(op.path, { id }), query }, op);
  const b = e.response?.status === 200 ? jsonBody(e.response) : undefined;
  return { e, ...(isPlainObject(b) ? { rec: b } : {}) };
}

/** The list narrowed to the record: by include where the list takes it, else by the word only the record carries. */
async function readInList(env: UnitEnv, op: Operation, id: number, word: string, query: Rec): Promise<{ e: Exchange; rec?: Rec }> {
  const q: Rec = { ...query };
  if (op.params.some((p) => p.name === 'include')) q['include'] = [id];
  else if (op.params.some((p) => p.name === 'search')) q['search'] = word.toLowerCase();
  if (op.params.some((p) => p.name === 'hide_empty')) q['hide_empty'] = false;
  const r = await readList(env, op, q);
  const rec = byId(r.records, id);
  return { e: r.e, ...(isPlainObject(rec) ? { rec } : {}) };
}

/** A legacy record's name and body fields: the stored value or its rendered form, as The Events Calendar prints. */
function legacyExpectations(res: CalendarResource, p: PostPrediction): Expectation[] {
  const from = (path: string): Expectation | undefined => [...p.stored, ...p.server].find((x) => x.path === path);
  const out: Expectation[] = [];
  const nameKey = res.resource === 'venue' ? 'venue' : res.resource === 'organizer' ? 'organizer' : 'title';
  const raw = from('title.raw');
  const rendered = from('title.rendered');
  if (raw && rendered) out.push({ path: nameKey, want: [...raw.want, ...rendered.want], sent: raw.sent });
  for (const x of p.stored) if (!x.path.includes('.') && ['address', 'city', 'country', 'zip', 'phone', 'website', 'email'].includes(x.path)) out.push(x);
  return out;
}

function sentBody(e: Exchange): Rec | undefined {
  try {
    const b = JSON.parse(e.request.body ?? '') as unknown;
    return isPlainObject(b) ? b : undefined;
  } catch {
    return undefined;
  }
}

async function postReadBack(env: UnitEnv, res: CalendarResource, other: CalendarResource | undefined, unitId: string): Promise<void> {
  const word = ownWord(env.runId, unitId);
  const emit = emitterFor(env, WRITE_READ_BACK, res.create, 'documented');
  const text = postText(env.marker, word);
  const fields = { ...text, ...extraFields(res, word), date: SENT_DATE, status: 'publish' };
  const made = await makeOwn(env, res, unitId, `rb ${word}`, fields);
  const variants = ['stored:id', 'stored:list', ...(other ? [`stored:${other.namespace}`] : []), 'server:id'];
  if (!made.own) {
    const t = transportOutcome(made.exchange);
    return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating a record of its own answered ${describeAnswer(made.exchange.response)}: nothing to read back`, made.exchange));
  }
  const id = made.own.id;
  // What went out: the fields above beside the minimal body (an event's dates).
  const body: Rec = sentBody(made.exchange) ?? fields;
  const created = made.exchange.response ? jsonBody(made.exchange.response) : undefined;
  const raw = env.descriptor.raw;
  const home = typeof raw['home'] === 'string' ? raw['home'] : undefined;
  const p = predictPost(res.create, body, writerOf(created), siteZone(raw), await runUser(env), home);
  const edit = { context: 'edit' };
  const got = await readById(env, res.read, id, edit);
  await judgeRead(env, emit, 'stored:id', `record ${id} read by id through ${res.namespace} (context=edit)`, Promise.resolve(got), p.stored, p.unknown, 'documented');
  const rendered = p.server.filter((x) => x.path.endsWith('.rendered'));
  await judgeRead(env, emit, 'stored:list', `record ${id} in the list ${res.list.path} (narrowed to it, context=edit)`, readInList(env, res.list, id, word, edit), [...p.stored, ...rendered], p.unknown, 'documented');
  if (other) await judgeRead(env, emit, `stored:${other.namespace}`, `record ${id} read through ${other.namespace}`, readById(env, other.read, id, {}), legacyExpectations(other, p), [], 'documented');
  const server = [...p.server];
  const guid = got.rec ? at(got.rec, 'guid.raw') : undefined;
  // wp_insert_post() fills guid with the permalink WordPress gives the new post: a URL on the site.
  // An event's UTC edges: its wall clock in its own time zone (000 §2.5), the zone as the record shows it.
  const tz = got.rec?.['timezone'];
  if (typeof tz === 'string' && isKnownTimeZone(tz)) {
    for (const edge of ['start_date', 'end_date']) {
      const wall = body[edge];
      if (typeof wall === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(wall)) server.push({ path: `${edge}_utc`, want: [zonedToUtc(wall, tz)], sent: `${wall} in ${tz}` });
    }
  }
  if (home !== undefined && typeof guid === 'string') server.push({ path: 'guid.raw', want: guid.startsWith(`${home}/`) ? [guid] : [`${home}/…`] });
  await judgeRead(env, emit, 'server:id', `record ${id}'s server-filled fields read by id (context=edit)`, Promise.resolve(got), server, [], 'convention');
}

async function termReadBack(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const word = ownWord(env.runId, unitId);
  const emit = emitterFor(env, WRITE_READ_BACK, res.create, 'documented');
  const sent = termText(env.marker, word);
  const params = res.create.params.map((x) => x.name);
  const hierarchical = params.includes('parent');
  const variants = ['stored:id', 'stored:list', 'server:id', 'search'];
  // A category goes under a parent of the suite's own, with a slug of its own (000 §2.4: name, description, slug, parent).
  let parent: number | undefined;
  if (hierarchical) {
    const up = await makeOwn(env, res, `${unitId}:parent`, `rb parent ${word}`);
    if (!up.own) {
      const t = transportOutcome(up.exchange);
      return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating a parent category of its own answered ${describeAnswer(up.exchange.response)}: nothing to read back`, up.exchange));
    }
    parent = up.own.id;
  }
  const slug = hierarchical && params.includes('slug') ? `rb ${word} Sl-Ü` : undefined;
  const fields: Rec = { name: sent.name, ...(params.includes('description') ? { description: sent.description } : {}), ...(slug !== undefined ? { slug } : {}), ...(parent !== undefined ? { parent } : {}) };
  const made = await makeOwn(env, res, unitId, `rb ${word}`, fields);
  if (!made.own) {
    const t = transportOutcome(made.exchange);
    return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating a term of its own answered ${describeAnswer(made.exchange.response)}: nothing to read back`, made.exchange));
  }
  const id = made.own.id;
  const name = termNameForDb(sent.name);
  // pre_term_* run for every user (sanitize_term( 'db' ) in wp_insert_term()), whatever the writer's capabilities.
  const stored: Expectation[] = [{ path: 'name', want: [name], sent: sent.name }];
  if ('description' in fields) stored.push({ path: 'description', want: [termDescriptionForDb(sent.description)], sent: sent.description });
  if (parent !== undefined) stored.push({ path: 'parent', want: [parent], sent: parent });
  const got = await readById(env, res.read, id, {});
  await judgeRead(env, emit, 'stored:id', `term ${id} read by id through ${res.namespace}`, Promise.resolve(got), stored, [], 'documented');
  await judgeRead(env, emit, 'stored:list', `term ${id} in the list ${res.list.path} (narrowed to it, hide_empty=false)`, readInList(env, res.list, id, word, {}), stored, [], 'documented');
  // The slug sent goes through sanitize_title() (the controller's sanitize_slug and pre_term_slug); without one,
  // wp_insert_term() gives sanitize_title() of the stored name.
  const slugWant = slug !== undefined ? { path: 'slug', want: [sanitizeTitle(slug)], sent: slug } : { path: 'slug', want: [sanitizeTitle(name)] };
  await judgeRead(env, emit, 'server:id', `term ${id}'s slug read by id`, Promise.resolve(got), [slugWant], [], 'convention');
  await termSearch(env, emit, res, id, word);
}

/**
 * search's sanitize_callback is sanitize_text_field() (WP_REST_Controller::get_collection_params()): a search for
 * the own word with a space either side finds the term whose stored name ends with the word, which a search as
 * sent (LIKE '% word %') cannot.
 */
async function termSearch(env: UnitEnv, emit: Emit, res: CalendarResource, id: number, word: string): Promise<void> {
  if (!res.list.params.some((p) => p.name === 'search')) return emit('search', 'skip', `${res.list.path} takes no search`, undefined, 'convention');
  const search = ` ${word.toLowerCase()} `;
  const q: Rec = { search, ...(res.list.params.some((p) => p.name === 'hide_empty') ? { hide_empty: false } : {}) };
  const r = await readList(env, res.list, q);
  const t = transportOutcome(r.e);
  if (t) return emit('search', t.outcome, t.message, r.e, 'convention');
  if (!r.records) return emit('search', 'inconclusive', `${res.list.path}?search=${JSON.stringify(search)} answered ${describeAnswer(r.e.response)}, not a list: nothing to compare`, r.e, 'convention');
  if (r.ids.includes(id)) return emit('search', 'pass', `${res.list.path}?search=${JSON.stringify(search)} lists term ${id} (its name ends with the word): the search was trimmed by sanitize_text_field()`, r.e, 'convention');
  emit('search', 'fail', `${res.list.path}?search=${JSON.stringify(search)} does not list term ${id}, whose stored name ends with ${JSON.stringify(word)}: WordPress trims a search through sanitize_text_field() (the collection's search argument), so it searches for ${JSON.stringify(word.toLowerCase())}; read ${r.ids.length} term(s)`, r.e, 'convention');
}

/**
 * An event written form-encoded, as an HTML form or `curl -d` sends it: every value arrives a string, and
 * rest_sanitize_request_arg() gives each its schema's type (duration "86399" → 86399, all_day "1" → true, featured
 * "0" → false, organizers "a,b" → [a, b] by wp_parse_list(), venues[]=v → [v]); the event's own fields
 * (add_additional_fields_to_object: start_date, end_date, cost, organizers, venues) read back as sent, by id and in
 * the list. The organizers and the venue are the suite's own. An all-day event from 00:00:00 to 23:59:59, so a
 * site that derives duration and the day's edges from all_day (The Events Calendar) stores what was sent.
 */
async function formReadBack(env: UnitEnv, events: CalendarResource, venues: CalendarResource, organizers: CalendarResource, unitId: string): Promise<void> {
  const word = ownWord(env.runId, unitId);
  const emit = emitterFor(env, WRITE_READ_BACK, events.create, 'documented');
  const variants = ['form:id', 'form:list'];
  const linked: number[] = [];
  for (const [res, name] of [[venues, 'venue'], [organizers, 'organizer a'], [organizers, 'organizer b']] as const) {
    const made = await makeOwn(env, res, `${unitId}:${name}`, `rb form ${name} ${word}`);
    if (!made.own) {
      const t = transportOutcome(made.exchange);
      return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating a ${name} of its own answered ${describeAnswer(made.exchange.response)}: nothing to link`, made.exchange));
    }
    linked.push(made.own.id);
  }
  const [venue, a, b] = linked as [number, number, number];
  const day = new Date(env.now().getTime() + 40 * 86_400_000).toISOString().slice(0, 10);
  const form: Record<string, string | string[]> = {
    title: `${env.marker} rb form ${word}`,
    status: 'publish',
    start_date: `${day} 00:00:00`,
    end_date: `${day} 23:59:59`,
    all_day: '1',
    duration: '86399',
    featured: '0',
    cost: `$10 - 20 ${word} ü`,
    organizers: `${a},${b}`,
    venues: [String(venue)],
  };
  const e = await env.send({ method: 'POST', route: fillTemplate(events.create.path, {}), body: { kind: 'form', value: form }, intent: 'write' }, events.create);
  const id = createdId(e);
  if (id === undefined) {
    const t = transportOutcome(e);
    return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating an event form-encoded answered ${describeAnswer(e.response)}: nothing to read back`, e));
  }
  env.ledger.add({ namespace: events.namespace, resource: events.resource, id, itemPath: events.read.path, createdBy: unitId });
  const expected: Expectation[] = [
    { path: 'start_date', want: [form['start_date']], sent: form['start_date'] },
    { path: 'end_date', want: [form['end_date']], sent: form['end_date'] },
    { path: 'cost', want: [form['cost']], sent: form['cost'] },
    { path: 'all_day', want: [true], sent: form['all_day'] },
    { path: 'duration', want: [86399], sent: form['duration'] },
    { path: 'featured', want: [false], sent: form['featured'] },
    { path: 'organizers', want: [[a, b]], sent: form['organizers'] },
    { path: 'venues', want: [[venue]], sent: form['venues'] },
  ];
  const params = new Set(events.create.params.map((p) => p.name));
  const judged = expected.filter((x) => params.has(x.path));
  const edit = { context: 'edit' };
  await judgeRead(env, emit, 'form:id', `event ${id}, written form-encoded, read by id (context=edit)`, readById(env, events.read, id, edit), judged, [], 'documented');
  await judgeRead(env, emit, 'form:list', `event ${id}, written form-encoded, in the list ${events.list.path} (narrowed to it, context=edit)`, readInList(env, events.list, id, word, edit), judged, [], 'documented');
}

/**
 * 000 §1: an event written through the legacy namespace (The Events Calendar's own controller) carries its start and
 * end, cost, website, map flags, featured and sticky, and reads them back as sent through that namespace and through
 * cal/v1 where cal/v1 shows the field (cal/v1 has no website or map flags on events: not shown, not judged). The
 * values are ones no transform changes (a clean URL, a plain cost, booleans), so what was sent is the prediction.
 */
async function legacyEventReadBack(env: UnitEnv, res: CalendarResource, other: CalendarResource | undefined, unitId: string): Promise<void> {
  const word = ownWord(env.runId, unitId);
  const emit = emitterFor(env, WRITE_READ_BACK, res.create, 'documented');
  const fields: Rec = { cost: '12.50', website: `https://example.org/rb-${word.toLowerCase()}`, show_map: false, show_map_link: true, featured: true, sticky: true, status: 'publish' };
  const made = await makeOwn(env, res, unitId, `rb ${word}`, fields);
  const variants = ['stored:id', ...(other ? [`stored:${other.namespace}`] : [])];
  if (!made.own) {
    const t = transportOutcome(made.exchange);
    return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating an event of its own answered ${describeAnswer(made.exchange.response)}: nothing to read back`, made.exchange));
  }
  const id = made.own.id;
  const body: Rec = sentBody(made.exchange) ?? fields;
  const expected: Expectation[] = [];
  for (const k of ['start_date', 'end_date', 'cost', 'show_map', 'show_map_link', 'featured', 'sticky']) if (body[k] !== undefined) expected.push({ path: k, want: [body[k]], sent: body[k] });
  if (typeof body['website'] === 'string') expected.push({ path: 'website', want: [argAsStored(res.create, 'website', body['website'])], sent: body['website'] });
  await judgeRead(env, emit, 'stored:id', `event ${id} read by id through ${res.namespace}`, readById(env, res.read, id, {}), expected, [], 'documented');
  if (other) await judgeRead(env, emit, `stored:${other.namespace}`, `event ${id} read through ${other.namespace} (context=edit)`, readById(env, other.read, id, { context: 'edit' }), expected, [], 'documented');
}

/**
 * One unit per resource: cal/v1's events, venues and organizers (core's posts controller; read back through the legacy
 * namespace too), the legacy namespace's categories and tags (core's terms controller), and the legacy events (The
 * Events Calendar's own controller, whose write transforms the documents do not give: written only with values no
 * transform changes, and read back through both namespaces).
 */
/** A unit of this check on records of its own, skipped with the reason where the run may not write them. */
function ownUnit(id: string, ops: Operation[], needs: readonly Operation[], variant: string, run: (env: UnitEnv) => Promise<void>): Unit {
  return ownRecordsUnit({ id, check: WRITE_READ_BACK, operations: ops, needs, skip: { operation: ops[0]!, variant, severity: 'documented', doing: 'the check reads back a record of its own' } }, run);
}

export function planWriteReadBack(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const chosen = resources.filter((r) => (r.namespace === 'cal/v1' && r.resource !== 'category' && r.resource !== 'tag') || (r.namespace === 'cal/events/v1' && (r.resource === 'category' || r.resource === 'tag' || r.resource === 'event')));
  const units: Unit[] = chosen.map((res) => {
    const legacyEvent = res.namespace === 'cal/events/v1' && res.resource === 'event';
    const other = res.namespace === 'cal/v1' || legacyEvent ? resources.find((r) => r !== res && r.resource === res.resource) : undefined;
    const id = `${WRITE_READ_BACK}:${res.namespace}/${res.resource}`;
    // The other namespace's read is not among the unit's operations: a site without the legacy namespace (or a run
    // that selects only cal/v1) still reads back through cal/v1, and the unit reads through the other where listed.
    const ops = legacyEvent ? [res.create, res.read] : [res.create, res.read, res.list];
    return ownUnit(id, ops, [res.create, res.read], 'stored:id', (env) => {
      if (res.resource === 'category' || res.resource === 'tag') return termReadBack(env, res, id);
      const otherReadable = other && !cannotWrite(env, [other.read]) && env.descriptor.namespaces.includes(other.namespace) ? other : undefined;
      if (legacyEvent) return legacyEventReadBack(env, res, otherReadable, id);
      return postReadBack(env, res, otherReadable, id);
    });
  });
  const events = resources.find((r) => r.namespace === 'cal/v1' && r.resource === 'event');
  const venues = resources.find((r) => r.namespace === 'cal/v1' && r.resource === 'venue');
  const organizers = resources.find((r) => r.namespace === 'cal/v1' && r.resource === 'organizer');
  if (!events || !venues || !organizers) return units;
  const id = `${WRITE_READ_BACK}:cal/v1/event:form`;
  const ops = [events.create, events.read, events.list, venues.create, organizers.create];
  return [...units, ownUnit(id, ops, ops, 'form:id', (env) => formReadBack(env, events, venues, organizers, id))];
}
