// What wp_insert_post() and the calendar decide when an event, venue or organizer is written: defaults, derived
// dates, status by date, slugs, trash and delete cascades. Each function stages its changes in the transaction it
// is given and throws a StoreError, before anything is committed, when a rule refuses the write. The rules a
// written post must keep (references, author, translation, parent event, dates, time zone) are the model's
// verdicts (contracts/model/calendar-rules.ts), the ones the fixture loader runs, in the store's words.

import { recordProblems, type RecordDef } from '../../../contracts/model/check.ts';
import { brokenAuthor, brokenEventDates, brokenEventParent, brokenReferences, brokenTimeZone, brokenTranslation } from '../../../contracts/model/calendar-rules.ts';
import { refuseCalendar } from './calendar-refusals.ts';
import { dropObjectRecords, dropTranslationLinks } from './links.ts';
import type { EventRecord, Lang, LiveStatus, PostBase, PostType, PostTypeMap, RecordMeta } from '../../../contracts/model/records.ts';
import type { Stored } from '../../../contracts/model/tables.ts';
import { sanitizeTitle, TRASHED_SUFFIX, trashedSlug } from '../../../contracts/wordpress/slug.ts';
import { invalid, StoreError, stripUndefined } from './store-error.ts';
import { assignOwn } from './table.ts';
import { addSeconds, dateToUtcString, isDateTimeString, utcToZoned, zonedToUtc } from '../../../contracts/wordpress/time.ts';
import { floatsAfterWrite, statusByDate } from '../../../contracts/wordpress/post-dates.ts';
import type { Tx } from './transaction.ts';

/** Fields of a post a caller may set. `null` clears an optional field (password, image, translation_of, geo). */
export type PostInput<K extends PostType> = {
  [F in keyof Omit<PostTypeMap[K], 'id' | 'meta'>]?: PostTypeMap[K][F] | (F extends OptionalPostField ? null : never);
} & {
  meta?: RecordMeta;
  /** The posts controller's `date: null` (or `date_gmt: null`): both dates reset, so wp_insert_post() dates the post now. */
  resetDate?: true;
};
type OptionalPostField = 'password' | 'image' | 'translation_of' | 'geo';

const POST_DEFS: Record<PostType, RecordDef> = { event: 'event', venue: 'venue', organizer: 'organizer' };
const EVENT_EDGES = [
  { local: 'start_date', utc: 'start_date_utc' },
  { local: 'end_date', utc: 'end_date_utc' },
] as const;
const plusTwoHours = (wall: string) => addSeconds(wall, 2 * 3600);
const OPTIONAL_POST_FIELDS: readonly string[] = ['password', 'image', 'translation_of', 'geo'];

/**
 * Site and UTC wall clocks of a moment. Both have whole seconds, so one conversion serves a whole second of writes:
 * a memo of the last second, owned by the store it serves.
 */
export class WallClock {
  #memo = { second: NaN, zone: '', site: '', gmt: '' };

  at(now: Date, zone: string): { site: string; gmt: string } {
    const second = Math.floor(now.getTime() / 1000);
    const memo = this.#memo;
    if (memo.second === second && memo.zone === zone) return memo;
    const gmt = dateToUtcString(new Date(second * 1000));
    this.#memo = { second, zone, site: utcToZoned(gmt, zone), gmt };
    return this.#memo;
  }
}

/** What a post rule works with: the transaction, the write's moment, and the store's wall clock. */
interface PostWrite {
  tx: Tx;
  now: Date;
  clock: WallClock;
}

function siteNow(w: PostWrite): { site: string; gmt: string } {
  return w.clock.at(w.now, w.tx.single.calendarSettings.timezone);
}

function requirePost<K extends PostType>(tx: Tx, type: K, id: number): Stored<PostTypeMap[K]> {
  const r = tx.get(type, id) as Stored<PostTypeMap[K]> | undefined;
  if (!r) throw new StoreError('not_found', `no ${type} with id ${id}`, 'id');
  return r;
}

/** `fn(draft[field], zone)`, a conversion that throws on a value it cannot read: refused naming `field`. */
function derive(draft: Record<string, unknown>, field: string, fn: (value: string, zone: string) => string, zone: string): string {
  try {
    return fn(draft[field] as string, zone);
  } catch {
    throw new StoreError('invalid_value', `${field}: must be YYYY-MM-DD HH:MM:SS, got ${JSON.stringify(draft[field])}`, field);
  }
}

/** Fills derived fields (GMT dates, UTC event dates, all-day times, slug) and checks the result. */
function finishPost<K extends PostType>(w: PostWrite, type: K, draft: Record<string, unknown>, given: Record<string, unknown>, old?: Stored<PostBase>): PostTypeMap[K] {
  const tx = w.tx;
  // No closures here: this runs on every post write, and each closure costs (tsx wraps every one to keep its name).
  const siteTz = tx.single.calendarSettings.timezone;
  const meta = draft.meta as RecordMeta;
  const dated = 'date' in given || 'date_gmt' in given;
  delete draft.resetDate;
  // wp_update_post(): a floating draft (never given a date) is dated now by an update that sets none; a null date
  // dates any post now (wp_resolve_post_date() of nothing). It floats on while its status is draft or pending.
  if (!dated && (given.resetDate === true || (old !== undefined && old.meta.floatingDate === true && (old.status === 'draft' || old.status === 'pending')))) {
    const now = siteNow(w);
    draft.date = now.site;
    draft.date_gmt = now.gmt;
    if (floatsAfterWrite(String(draft.status))) meta.floatingDate = true;
    else delete meta.floatingDate;
  } else if (dated) delete meta.floatingDate;
  else if (!old && floatsAfterWrite(String(draft.status))) meta.floatingDate = true;
  // Publication date: whichever of the pair the caller gave decides the other.
  if ('date' in given && !('date_gmt' in given)) draft.date_gmt = derive(draft, 'date', zonedToUtc, siteTz);
  else if ('date_gmt' in given && !('date' in given)) draft.date = derive(draft, 'date_gmt', utcToZoned, siteTz);
  if (!old) {
    // wp_insert_post(): a new post's modified date is its date, even one in the future.
    draft.modified = draft.date;
    draft.modified_gmt = draft.date_gmt;
    // ...and an event with no title, content or excerpt is refused (the post type supports all three).
    if (type === 'event' && draft.title === '' && draft.content === '' && draft.excerpt === '') {
      throw new StoreError('empty_content', 'Content, title, and excerpt are empty.');
    }
  }
  // wp_insert_post(): published with a date a minute or more ahead is scheduled; scheduled for a date no longer
  // ahead is published.
  draft.status = statusByDate(String(draft.status), String(draft.date_gmt), w.now.getTime());
  // wp_insert_post(): a private post keeps no password (live 6.1.9: a private venue given one reads back "").
  if (draft.status === 'private') delete draft.password;

  if (type === 'event') {
    const tz = draft.timezone as string;
    refuseCalendar(type, brokenTimeZone('timezone', tz));
    // A side given only in UTC gets its wall clock from it; everything else derives UTC from the wall clock.
    for (const { local, utc } of EVENT_EDGES) {
      if (utc in given && !(local in given)) draft[local] = derive(draft, utc, utcToZoned, tz);
    }
    const startGiven = 'start_date' in given || 'start_date_utc' in given;
    const endGiven = 'end_date' in given || 'end_date_utc' in given;
    if (!old && startGiven && !endGiven) draft.end_date = derive(draft, 'start_date', plusTwoHours, tz);
    if (draft.all_day === true) {
      // The calendar stores all-day events as 00:00:00 to 23:59:59 of their days.
      const start = draft.start_date as string;
      const end = draft.end_date as string;
      if (isDateTimeString(start)) draft.start_date = `${start.slice(0, 10)} 00:00:00`;
      if (isDateTimeString(end)) draft.end_date = `${end.slice(0, 10)} 23:59:59`;
    }
    for (const { local, utc } of EVENT_EDGES) {
      const utcOnly = utc in given && !(local in given) && draft.all_day !== true;
      if (!utcOnly && !(utc in given && local in given)) draft[utc] = derive(draft, local, zonedToUtc, tz);
    }
    refuseCalendar(type, brokenEventDates(draft as { start_date: string; end_date: string }));
  }

  // Slug: sanitised when given, derived from the title on publish, unique per type and language.
  const status = draft.status as string;
  const id = draft.id as number;
  const lang = draft.lang as Lang;
  let slug = typeof draft.slug === 'string' ? sanitizeTitle(draft.slug) : '';
  const trashed = status === 'trash' && TRASHED_SUFFIX.test(String(draft.slug));
  if (trashed) slug = String(draft.slug);
  if (slug === '' && status !== 'draft' && status !== 'pending') slug = sanitizeTitle(String(draft.title ?? ''));
  if (slug === '' && status !== 'draft' && status !== 'pending') slug = String(id);
  draft.slug = slug === '' ? slug : tx.uniqueSlug(type, lang, slug, id);
  // wp_insert_post() fills a new post's guid with get_permalink() as it is then: pretty for a published or private
  // post with a slug, the plain ?post_type=…&p=<id> form otherwise (future included); an update stores it again
  // through pre_post_guid. The record keeps what the guid was made of: the mock's home is the address it is reached at.
  if (!old && draft.slug !== '' && (status === 'publish' || status === 'private')) meta.guidSlug = String(draft.slug);
  if (old) meta.guidUpdated = true;

  for (const k of OPTIONAL_POST_FIELDS) if (draft[k] === null || draft[k] === undefined) delete draft[k];
  const problems = recordProblems(POST_DEFS[type], draft);
  if (problems.length) throw invalid(type, problems);
  const rec = draft as unknown as PostTypeMap[K];

  refuseCalendar(type, brokenAuthor(tx, rec));
  refuseCalendar(type, brokenTranslation(tx, type, rec));
  if (type === 'event') {
    const e = rec as unknown as EventRecord;
    refuseCalendar(type, brokenReferences(tx, e)[0]);
    refuseCalendar(type, brokenEventParent(tx, e));
  }
  return rec;
}

/**
 * A new post's fields before the caller's. One object literal per type, keys in the record's order: V8 adds
 * properties to a spread copy slowly (about a microsecond each), and this runs on every create.
 */
function postDefaults(w: PostWrite, type: PostType, id: number): Record<string, unknown> {
  const { site, gmt } = siteNow(w);
  const tx = w.tx;
  const admin = tx.find('users', (u) => u.roles.includes('administrator'))?.id ?? 1;
  const lang = tx.single.calendarSettings.default_lang;
  if (type === 'venue') {
    return {
      id, slug: '', status: 'publish', title: '', content: '', excerpt: '', author: admin,
      date: site, date_gmt: gmt, modified: site, modified_gmt: gmt, lang, featured_media: 0,
      comment_status: 'open', ping_status: 'open', format: 'standard', template: '', sticky: false, meta: {},
      address: '', city: '', country: '', province: '', state: '', stateprovince: '', state_province: '', zip: '', phone: '', website: '', show_map: true, show_map_link: true,
    };
  }
  if (type === 'organizer') {
    return {
      id, slug: '', status: 'publish', title: '', content: '', excerpt: '', author: admin,
      date: site, date_gmt: gmt, modified: site, modified_gmt: gmt, lang, featured_media: 0,
      comment_status: 'open', ping_status: 'open', format: 'standard', template: '', sticky: false, meta: {},
      phone: '', website: '', email: '',
    };
  }
  // The calendar's editor proposes 08:00-17:00 today for a new event.
  const day = site.slice(0, 10);
  return {
    id, slug: '', status: 'publish', title: '', content: '', excerpt: '', author: admin,
    date: site, date_gmt: gmt, modified: site, modified_gmt: gmt, lang, featured_media: 0,
    comment_status: 'open', ping_status: 'open', format: 'standard', template: '', sticky: false, meta: {},
    start_date: `${day} 08:00:00`, end_date: `${day} 17:00:00`, start_date_utc: '', end_date_utc: '',
    timezone: tx.single.calendarSettings.timezone, all_day: false, featured: false, hide_from_listings: false,
    cost: '', website: '', show_map: true, show_map_link: true, categories: [], tags: [], venues: [], organizers: [],
    post_parent: 0, ticketed: false,
  };
}

export function createPost<K extends PostType>(w: PostWrite, type: K, input: PostInput<K>): Stored<PostTypeMap[K]> {
  // Taken inside the transaction: a refused create gives its ID back.
  const id = w.tx.nextId('post');
  const given = stripUndefined(input);
  // { ...defaults, ...given, id, meta } without spreads (see postDefaults): same keys, same order.
  const draft = assignOwn(postDefaults(w, type, id), given);
  draft.id = id;
  draft.meta = assignOwn({}, input.meta);
  const rec = finishPost(w, type, draft, given);
  w.tx.describe({ collection: type, op: 'create', key: id });
  return w.tx.putOwned(type, rec as never) as Stored<PostTypeMap[K]>;
}

/** The slug a post coming out of the trash asks for back (WordPress's _wp_desired_post_slug). */
function slugBeforeTrash(old: { slug: string; meta: { desiredSlug?: string } }): string {
  return old.meta.desiredSlug ?? old.slug.replace(TRASHED_SUFFIX, '');
}

export function updatePost<K extends PostType>(w: PostWrite, type: K, id: number, patch: PostInput<K>): Stored<PostTypeMap[K]> {
  const old = requirePost(w.tx, type, id);
  const given = stripUndefined(patch);
  delete given.id;
  const { site, gmt } = siteNow(w);
  // A shallow copy is enough: only top-level fields are replaced, and the nested values it shares with the old
  // record are frozen (staging keeps frozen parts as they are).
  const draft: Record<string, unknown> = assignOwn({}, old, given);
  draft.modified = site;
  draft.modified_gmt = gmt;
  draft.meta = assignOwn({}, old.meta, patch.meta);
  if (!('slug' in given)) draft.slug = old.slug;
  // wp_insert_post(): a post leaving the trash by an update gets back the slug it had (_wp_desired_post_slug).
  if (old.status === 'trash' && draft.status !== 'trash') {
    const meta = draft.meta as Record<string, unknown>;
    if (!('slug' in given)) draft.slug = slugBeforeTrash(old);
    delete meta.desiredSlug;
    delete meta.trashedStatus;
  }
  const rec = finishPost(w, type, draft, given, old);
  w.tx.describe({ collection: type, op: 'update', key: id });
  return w.tx.putOwned(type, rec as never) as Stored<PostTypeMap[K]>;
}

/** Moves a post to the trash the WordPress way: status `trash`, slug freed as `<slug>__trashed`. */
export function trashPost<K extends PostType>(w: PostWrite, type: K, id: number): Stored<PostTypeMap[K]> {
  const tx = w.tx;
  const old = requirePost(tx, type, id);
  if (old.status === 'trash') throw new StoreError('already_trashed', `${type} ${id} is already in the trash`);
  const slug = old.slug === '' ? '' : trashedSlug(old.slug, (s) => tx.slugTaken(type, old.lang, s, id));
  const { site, gmt } = siteNow(w);
  // wp_trash_post() updates the post: its guid is stored again (pre_post_guid), as by any update.
  const meta: RecordMeta = { ...old.meta, trashedStatus: old.status as LiveStatus, ...(old.slug ? { desiredSlug: old.slug } : {}), guidUpdated: true };
  tx.describe({ collection: type, op: 'update', key: id });
  return tx.put(type, { ...(old as unknown as PostTypeMap[K]), status: 'trash' as const, slug, modified: site, modified_gmt: gmt, meta } as never) as Stored<PostTypeMap[K]>;
}

/**
 * Takes a post out of the trash. Like WordPress since 5.6 it comes back as a draft unless
 * `restoreStatus` asks for the status it had; its old slug comes back if still free.
 */
export function untrashPost<K extends PostType>(w: PostWrite, type: K, id: number, options: { restoreStatus?: boolean } = {}): Stored<PostTypeMap[K]> {
  const tx = w.tx;
  const old = requirePost(tx, type, id);
  if (old.status !== 'trash') throw new StoreError('not_trashed', `${type} ${id} is not in the trash`);
  const { trashedStatus, desiredSlug: _desired, ...kept } = old.meta;
  const meta: RecordMeta = { ...kept, guidUpdated: true };
  const status: LiveStatus = options.restoreStatus ? (trashedStatus ?? 'draft') : 'draft';
  const base = slugBeforeTrash(old);
  const slug = base === '' ? '' : tx.uniqueSlug(type, old.lang, base, id);
  const { site, gmt } = siteNow(w);
  tx.describe({ collection: type, op: 'update', key: id });
  return tx.put(type, { ...(old as unknown as PostTypeMap[K]), status, slug, modified: site, modified_gmt: gmt, meta } as never) as Stored<PostTypeMap[K]>;
}

/**
 * Deletes a post for good. What pointed at it is cleaned up as WordPress does: events drop the
 * venue/organizer, child events move up to the deleted event's parent, translations lose their
 * link, and add-on records about the post (SEO data, translation jobs) go.
 */
export function deletePost<K extends PostType>(w: PostWrite, type: K, id: number): Stored<PostTypeMap[K]> {
  const tx = w.tx;
  const old = requirePost(tx, type, id);
  tx.describe({ collection: type, op: 'delete', key: id });
  tx.delete(type, id);
  for (const e of tx.values('event')) {
    const venues = type === 'venue' && e.venues.includes(id) ? e.venues.filter((v) => v !== id) : e.venues;
    const organizers = type === 'organizer' && e.organizers.includes(id) ? e.organizers.filter((v) => v !== id) : e.organizers;
    const parent = type === 'event' && e.post_parent === id ? (old as Stored<EventRecord>).post_parent : e.post_parent;
    if (venues !== e.venues || organizers !== e.organizers || parent !== e.post_parent) tx.put('event', { ...e, venues, organizers, post_parent: parent });
  }
  dropTranslationLinks(tx, type, id);
  dropObjectRecords(tx, 'post', id);
  return old;
}
