// Events, venues and organizers in both calendar namespaces. One store serves both, so an event created through
// cal/v1 is read through cal/events/v1 and the other way round; only the representation and the parameter
// names differ. Item lookups, trash and force follow the wp/v2 posts controller (samples 23, 35-38).
import type { EventRecord, OrganizerRecord, PostType, VenueRecord } from '../../../../contracts/model/records.ts';
import type { Stored } from '../../store/store.ts';
import { isKnownTimeZone } from '../../../../contracts/wordpress/time.ts';
import { alreadyTrashed, invalidId, wpError } from '../../wire/errors.ts';
import { fail, ok, type HandlerCtx, type Pagination, type Rendered, type Reply } from '../context.ts';
import { linkHeaderValue } from '../../wire/headers.ts';
import { permalink } from './render-shared.ts';
import { wpJsonEncode, wpJsonEncodeSteps } from '../../../../contracts/wordpress/php/index.ts';
import { renderContentSteps } from '../../../../contracts/wordpress/content/post-text.ts';
import { STEP_CHARS } from '../../../../contracts/wordpress/steps.ts';
import { andThen, isWork, type Work } from '../../base/work.ts';
import { heldRendering, keepRendering, renderedOnce } from './render-cache.ts';
import { defaultLang, flag, intList, invalidParam, legacyLookup, num, pageBeyondReply, siteNow, storeFailure, termIdsOf } from './common.ts';
import { pageOf } from '../../wire/pagination.ts';
import { parseDateParam, widenToDay, type DateBound } from './dates.ts';
import {
  eventComparator, eventMatches, linkedMatches, organizerSearchFields, venueSearchFields, withDescendants,
  type EventBounds, type EventOrderBy,
} from './query.ts';
import { availableActions, type CalContext, type EditFacts } from './render-cal.ts';
import { canEditPost, userCan } from '../../auth/capabilities.ts';
import { editableSlug, sanitizeTitle } from '../../../../contracts/wordpress/slug.ts';
import { sanitizeTextField } from '../../../../contracts/wordpress/schema/formats.ts';
import type { Dialect, RenderEnv } from './dialect.ts';
import { eventPatch, organizerPatch, venuePatch, type Params } from './write.ts';
import { readsPost, statusRefusal, type Reader } from '../../auth/permissions.ts';
import type { LegacyLookup } from './render-legacy.ts';

type AnyPost = Stored<EventRecord> | Stored<VenueRecord> | Stored<OrganizerRecord>;

const COLLECTION: Record<PostType, string> = { event: 'events', venue: 'venues', organizer: 'organizers' };

/** Where the render memo keeps a record's rendering, and what it depends on; none for the edit context. */
function memoPlace(ctx: HandlerCtx, d: Dialect, type: PostType, rec: AnyPost, context: CalContext): { variant: string; deps: string } | undefined {
  // Edit renderings only answer writes, and every write stores a new record, so one kept on its record would never
  // be read again (and would hold some 6 KB per created record): rendered for this answer only.
  if (context === 'edit') return undefined;
  // A protected record's text depends on who asks and with which password (unlocks()): rendered for this answer only.
  if (rec.password) return undefined;
  // Legacy events nest venues, organizers and term counts, so any write to the store makes them stale; which nested
  // records this reader may not see is part of the rendering too.
  const deps = d.eventNestsRecords && type === 'event' ? `${ctx.store.version}|${hiddenNested(ctx, rec as Stored<EventRecord>).join(',')}` : '';
  return { variant: `${d.memoName}|${type}|${context}|${ctx.links.apiRoot}|${ctx.links.home}`, deps };
}

/**
 * A record's rendering in this namespace, from the render cache. A long post (content of STEP_CHARS or more) the
 * memo does not hold is rendered in steps: the_content of a post near the 8 MiB body cap (renderContentSteps()),
 * then the rendering's encoding (wpJsonEncodeSteps()), so a server answers other clients meanwhile.
 */
function cached(ctx: HandlerCtx, d: Dialect, type: PostType, rec: AnyPost, context: CalContext = 'view'): Rendered | Work<Rendered> {
  const place = memoPlace(ctx, d, type, rec, context);
  const held = place && heldRendering(ctx.memos.renders, rec, place.variant, place.deps);
  if (held) return held;
  if (rec.content.length < STEP_CHARS) return kept(ctx, rec, place, renderedOnce(render(ctx, d, type, rec, context), wpJsonEncode));
  return renderSteps(ctx, d, type, rec, context, place);
}

/**
 * Whether this request sees a password-protected record's content and excerpt. The posts controller (cal/v1) shows
 * them in the view context only to a read carrying the right `password` (can_access_password_content(); its edit
 * context shows them to the record's editor anyway, render-cal.ts). The legacy namespace shows them to who may edit
 * the record or brings the right `password` (its events' read takes one, 000 §2.1), as The Events Calendar hides a
 * protected record's text from visitors (6.5.0.1: "not accessible via the REST API without the password").
 */
function unlocks(ctx: HandlerCtx, d: Dialect, rec: AnyPost): boolean {
  if (!rec.password) return true;
  if (typeof ctx.params.password === 'string' && ctx.params.password === rec.password) return true;
  return !d.postsController && (!ctx.authRequired || canEditPost(ctx.user, rec));
}

/** A long post's rendering in steps (a generator declared once, not made per call: base/work.ts says why). */
function* renderSteps(ctx: HandlerCtx, d: Dialect, type: PostType, rec: AnyPost, context: CalContext, place: { variant: string; deps: string } | undefined): Work<Rendered> {
  const html = yield* renderContentSteps(rec.content);
  yield;
  const obj = render(ctx, d, type, rec, context, html);
  yield;
  const encoding = wpJsonEncodeSteps(obj);
  const json = isWork(encoding) ? yield* encoding : encoding;
  return kept(ctx, rec, place, { obj, json });
}

/** `r`, kept in the render memo when it has a place there. (Not a named closure made per call: mock/bench/README.md, tsx.) */
function kept(ctx: HandlerCtx, rec: AnyPost, place: { variant: string; deps: string } | undefined, r: Rendered): Rendered {
  return place ? keepRendering(ctx.memos.renders, rec, place.variant, place.deps, r) : r;
}

/** The answer for one record: its object, and its encoding for the fast path. */
function one(ctx: HandlerCtx, d: Dialect, type: PostType, rec: AnyPost, status = 200, context: CalContext = 'view', extra: { headers?: Record<string, string> } = {}): Reply | Work<Reply> {
  // json() a method, not an arrow property: a named closure per record otherwise (mock/bench/README.md, tsx).
  return andThen(cached(ctx, d, type, rec, context), (r): Reply =>
    ok(r.obj, status, {
      ...extra,
      json() {
        return r.json;
      },
    }),
  );
}

/** The answer for a page of records (in steps when one of them is a long post the memo does not hold). */
function many(ctx: HandlerCtx, d: Dialect, type: PostType, recs: readonly AnyPost[], pagination: Pagination): Reply | Work<Reply> {
  const answer = (rs: readonly Rendered[]): Reply => ok(rs.map((r) => r.obj), 200, { pagination, json: () => `[${rs.map((r) => r.json).join(',')}]` });
  const context = askedContext(ctx);
  const each = recs.map((r) => cached(ctx, d, type, r, context));
  if (!each.some((r) => isWork(r))) return answer(each as Rendered[]);
  return andThen(allRendered(each), answer);
}

function* allRendered(each: readonly (Rendered | Work<Rendered>)[]): Work<Rendered[]> {
  const rs: Rendered[] = [];
  for (const r of each) rs.push(isWork(r) ? yield* r : r);
  return rs;
}

/** `contentHtml`: renderContent() of the record's content, when the caller has made it (in steps). */
function render(ctx: HandlerCtx, d: Dialect, type: PostType, rec: AnyPost, context: CalContext = 'view', contentHtml?: string): Record<string, unknown> {
  const env: RenderEnv = {
    links: ctx.links, defaultLang: defaultLang(ctx.store), nested: () => readableLookup(ctx), editFacts: (t, r) => editFacts(ctx, t, r as AnyPost),
    unlocked: unlocks(ctx, d, rec),
  };
  if (type === 'event') return d.render.event(env, rec as Stored<EventRecord>, context, contentHtml);
  if (type === 'venue') return d.render.venue(env, rec as Stored<VenueRecord>, context, contentHtml);
  return d.render.organizer(env, rec as Stored<OrganizerRecord>, context, contentHtml);
}

/**
 * What the edit context adds for this reader: get_sample_permalink()'s slug (its title's, else its ID, made unique
 * among the other posts of its type and language, whatever its status: the controller passes an empty name, so the
 * title decides; shown through the editable_slug filter, decoded) and get_available_actions() for the user's capabilities.
 */
function editFacts(ctx: HandlerCtx, type: PostType, rec: AnyPost): EditFacts {
  const name = sanitizeTitle(rec.title) || String(rec.id);
  // As editable_slug shows it (urldecode, esc_textarea): a Cyrillic title's slug reads decoded, not %d0%bf...
  const generatedSlug = editableSlug(ctx.store.sampleSlug(type, rec.lang, name, rec.id));
  return { generatedSlug, actions: availableActions(type, (cap) => userCan(ctx.user, cap)) };
}

/**
 * The posts controller's `context` of a read (its row's arg, validated, `view` by default); the permission check let
 * an `edit` through already. A generation without the arg (the legacy plugin's controllers) reads in `view`.
 */
function askedContext(ctx: HandlerCtx): CalContext {
  const c = ctx.params.context;
  return c === 'edit' || c === 'embed' ? c : 'view';
}

function reader(ctx: HandlerCtx): Reader {
  return { user: ctx.user, authRequired: ctx.authRequired };
}

/**
 * The legacy event nests its venue and organizers in full: each obeys the read rule its own route applies
 * (check_read_permission()), so a draft venue is not shown to someone who could not read it by ID.
 */
function readableLookup(ctx: HandlerCtx): LegacyLookup {
  const base = legacyLookup(ctx.store);
  const who = reader(ctx);
  return {
    ...base,
    venue: (id) => {
      const v = base.venue(id);
      return v && readsPost(who, v) ? v : undefined;
    },
    organizer: (id) => {
      const o = base.organizer(id);
      return o && readsPost(who, o) ? o : undefined;
    },
  };
}

/** IDs of the venues and organizers of `event` this reader may not see (none in open mode). */
function hiddenNested(ctx: HandlerCtx, event: Stored<EventRecord>): number[] {
  const who = reader(ctx);
  if (!who.authRequired) return [];
  const hidden: number[] = [];
  for (const id of event.venues) {
    const v = ctx.store.venues.get(id);
    if (v && !readsPost(who, v)) hidden.push(id);
  }
  for (const id of event.organizers) {
    const o = ctx.store.organizers.get(id);
    if (o && !readsPost(who, o)) hidden.push(id);
  }
  return hidden;
}

/**
 * The page's records the reader may see. WP_REST_Posts_Controller::get_items() runs the query, then drops each post
 * check_read_permission() refuses, or in the edit context each post check_update_permission() refuses (a
 * contributor's `context=edit` list holds their own drafts, not the published posts of others); X-WP-Total and
 * X-WP-TotalPages keep the query's count (found_posts).
 */
function readableOnly(ctx: HandlerCtx, recs: readonly AnyPost[]): readonly AnyPost[] {
  const who = reader(ctx);
  if (!who.authRequired) return recs;
  if (askedContext(ctx) === 'edit') return recs.filter((r) => canEditPost(who.user, r));
  return recs.filter((r) => readsPost(who, r));
}

function location(ctx: HandlerCtx, d: Dialect, type: PostType, id: number): string {
  return `${ctx.links.apiRoot}${d.namespace}/${COLLECTION[type]}/${id}`;
}

/** The record an item route names (by ID, or by slug in the legacy namespace); undefined when there is none. */
function findPost(ctx: HandlerCtx, type: PostType): AnyPost | undefined {
  const id = ctx.pathParams.id;
  if (id !== undefined && /^\d+$/.test(id)) return ctx.store.posts(type).get(Number(id));
  const slug = ctx.pathParams.slug;
  if (typeof slug === 'string') {
    return ctx.store.bySlug(type, slug, ctx.lang) ?? (['en', 'uk'] as const).map((l) => ctx.store.bySlug(type, slug, l)).find((r) => r !== undefined);
  }
  return undefined;
}

function notFound(): Reply {
  return fail(invalidId('rest_post_invalid_id', 'Invalid post ID.'));
}

// ---- lists ------------------------------------------------------------------------------------------

/** Status filter: cal/v1 takes a list (default [publish]); the legacy namespace one status (default publish). */
function statuses(p: Params): string[] {
  const s = p.status;
  if (Array.isArray(s)) return s.map(String);
  if (typeof s === 'string' && s !== '') return s.split(',').map((x) => x.trim());
  return ['publish'];
}

function eventBounds(ctx: HandlerCtx, d: Dialect, now: string): EventBounds | Reply {
  const p = ctx.params;
  const strict = d.strictDatesParam ? flag(p.strict_dates) === true : true;
  const read = (name: string, edge: 'lower' | 'upper'): DateBound | undefined | Reply => {
    if (p[name] === undefined || p[name] === null || p[name] === '') return undefined;
    const b = parseDateParam(p[name], now);
    if (!b) return invalidParam(name);
    return strict && !b.dateOnly ? b : widenToDay(b, edge);
  };
  const bounds: EventBounds = {};
  const pairs: [string, keyof EventBounds, 'lower' | 'upper'][] = [['start_date', d.listDates.start_date, 'lower'], ['end_date', d.listDates.end_date, 'upper']];
  pairs.push(['starts_after', 'startsAfter', 'lower'], ['starts_before', 'startsBefore', 'upper'], ['ends_after', 'endsAfter', 'lower'], ['ends_before', 'endsBefore', 'upper']);
  for (const [name, key, edge] of pairs) {
    const b = read(name, edge);
    if (b && 'status' in b) return b;
    // Two bounds on the same side: the tighter wins.
    if (b) {
      const cur = bounds[key];
      const tighter = !cur || (edge === 'lower' ? b.value > cur.value : b.value < cur.value);
      if (tighter) bounds[key] = b;
    }
  }
  // The legacy list starts today unless told otherwise (the plugin's default start_date is "now", widened to the day).
  const include = intList(p.include);
  if (d.listStartsToday && p.start_date === undefined && !bounds.endsAfter && !(include && include.length)) {
    bounds.endsAfter = widenToDay({ value: now, utc: false, dateOnly: false }, 'lower');
  }
  // `include` overrides the date filters (000 §4.1.1).
  if (include && include.length) return {};
  return bounds;
}

function listEvents(ctx: HandlerCtx, d: Dialect): Reply | Work<Reply> {
  const p = ctx.params;
  // Who may ask for which status was settled with the parameters (auth/status-capability.ts).
  const wanted = statuses(p);
  const now = siteNow(ctx);
  const bounds = eventBounds(ctx, d, now);
  if ('status' in bounds) return bounds as Reply;
  const store = ctx.store;
  // The legacy list takes slugs as well as ids (termIdsOf()); cal/v1's are ids, as the posts controller reads them.
  const terms = (param: 'categories' | 'tags', kind: 'category' | 'tag'): number[] | undefined => (p[param] === undefined ? undefined : d.postsController ? intList(p[param]) : termIdsOf(p[param], kind, store).ids);
  const categories = terms('categories', 'category');
  const tags = terms('tags', 'tag');
  const filter = {
    ...bounds,
    lang: ctx.lang,
    statuses: wanted,
    ...searchOf(p, d),
    ...(categories?.length ? { categories: withDescendants(categories, store.categories.values()) } : {}),
    ...(tags?.length ? { tags } : {}),
    ...(d.postsController && intList(p.tags_exclude)?.length ? { tagsExclude: intList(p.tags_exclude)! } : {}),
    ...(intList(p.venue)?.length ? { venues: intList(p.venue)! } : {}),
    ...(intList(p.organizer)?.length ? { organizers: intList(p.organizer)! } : {}),
    ...(typeof p.featured === 'boolean' ? { featured: p.featured } : {}),
    ...(intList(p.include)?.length ? { include: intList(p.include)! } : {}),
    ...(typeof p.post_parent === 'number' ? { postParent: p.post_parent } : {}),
    ...(typeof p.ticketed === 'boolean' ? { ticketed: p.ticketed } : {}),
    ...(typeof p.geoloc === 'boolean' ? { geoloc: p.geoloc, venueHasGeo: (id: number) => store.venues.get(id)?.geo !== undefined } : {}),
  };
  const orderby = (d.ordering ? (p.orderby as EventOrderBy | undefined) : undefined) ?? 'event_date';
  const order = d.ordering && p.order === 'DESC' ? 'DESC' : 'ASC';
  const key = `events|${d.memoName}|${ctx.lang}|${now.slice(0, 10)}|${JSON.stringify(bounds)}|${JSON.stringify(p)}`;
  const matched = ctx.memos.lists.at(store.version).get(key, () => store.events.values().filter((e) => eventMatches(e, filter)).sort(eventComparator(orderby, order))) as readonly AnyPost[];
  const page = pageOf(matched, num(p.page, 1), num(p.per_page, 10));
  if (page.beyond) return pageBeyondReply();
  return many(ctx, d, 'event', readableOnly(ctx, page.items), page.pagination);
}

/**
 * The search a list filters by. Core's posts controller gives it sanitize_text_field() as its sanitize_callback
 * (WP_REST_Controller::get_collection_params()): search=<b>word</b> is search=word. The legacy plugin's own
 * controller reads it as sent.
 */
function searchOf(p: Record<string, unknown>, d: Dialect): { search?: string } {
  if (typeof p['search'] !== 'string') return {};
  const search = d.postsControllerFields ? sanitizeTextField(p['search']) : p['search'];
  return search === '' ? {} : { search };
}

/**
 * The posts controller's order of a list (WP_Query's orderby, order): by date newest first unless asked otherwise;
 * the id breaks ties the way MySQL's index order does on a live site (a second's posts newest first).
 */
function coreOrder(p: Record<string, unknown>): (a: AnyPost, b: AnyPost) => number {
  const by = typeof p['orderby'] === 'string' ? p['orderby'] : 'date';
  const dir = p['order'] === 'asc' ? 1 : -1;
  const key = (r: AnyPost): string | number => (by === 'id' ? r.id : by === 'title' ? r.title.toLowerCase() : by === 'slug' ? r.slug : by === 'modified' ? r.modified : r.date);
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -dir : x > y ? dir : 0) || dir * (a.id - b.id);
  };
}

/** `2020-01-02T10:00:01` and `2020-01-02 10:00:01` alike, to the second, for comparing (a zone suffix dropped). */
const localDate = (s: string): string => s.replace('T', ' ').slice(0, 19);

function listLinked(ctx: HandlerCtx, d: Dialect, type: 'venue' | 'organizer'): Reply | Work<Reply> {
  const p = ctx.params;
  // Who may ask for which status was settled with the parameters (auth/status-capability.ts).
  const wanted = statuses(p);
  const store = ctx.store;
  const eventId = typeof p.event === 'number' ? p.event : undefined;
  const event = eventId === undefined ? undefined : store.events.get(eventId);
  if (eventId !== undefined && !event) return ok([], 200, { pagination: { total: 0, totalPages: 0, page: num(p.page, 1) } });
  const hasEvents = flag(p.has_events);
  const filter = {
    lang: ctx.lang,
    statuses: wanted,
    ...searchOf(p, d),
    ...(event ? { event } : {}),
    ...(hasEvents !== undefined ? { hasEvents } : {}),
    ...(flag(p.only_with_upcoming) ? { onlyWithUpcoming: true } : {}),
  };
  const events = store.events.values();
  const now = siteNow(ctx);
  const linked = type === 'venue' ? (e: Stored<EventRecord>) => e.venues : (e: Stored<EventRecord>) => e.organizers;
  const all = type === 'venue' ? store.venues.values() : store.organizers.values();
  // The posts controller's include and exclude (post__in, post__not_in); the legacy plugin's lists declare neither.
  const include = d.postsController ? intList(p.include) ?? [] : [];
  const exclude = d.postsController ? intList(p.exclude) ?? [] : [];
  const authors = d.postsController ? intList(p.author) ?? [] : [];
  const notAuthors = d.postsController ? intList(p.author_exclude) ?? [] : [];
  const slugs = d.postsController && Array.isArray(p.slug) ? p.slug.map(String) : d.postsController && typeof p.slug === 'string' ? [p.slug] : [];
  // after and before: a date_query on post_date, exclusive (the site's local time; the mock's is UTC).
  const after = d.postsController && typeof p.after === 'string' ? localDate(p.after) : undefined;
  const before = d.postsController && typeof p.before === 'string' ? localDate(p.before) : undefined;
  const matched = (all as AnyPost[]).filter(
    (r) =>
      (include.length === 0 || include.includes(r.id)) &&
      !exclude.includes(r.id) &&
      (authors.length === 0 || authors.includes(r.author)) &&
      !notAuthors.includes(r.author) &&
      (slugs.length === 0 || slugs.includes(r.slug)) &&
      (after === undefined || localDate(r.date) > after) &&
      (before === undefined || localDate(r.date) < before) &&
      linkedMatches(r, filter, linked, events, now, type === 'venue' ? venueSearchFields(r as Stored<VenueRecord>) : organizerSearchFields(r as Stored<OrganizerRecord>)),
  );
  if (d.postsController) matched.sort(coreOrder(p));
  else matched.sort((a, b) => a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || a.id - b.id);
  // offset replaces the page's own (WP_Query: an offset ignores paged).
  const offset = d.postsController && typeof p.offset === 'number' ? Math.max(0, p.offset) : 0;
  const page = pageOf(matched.slice(offset), offset ? 1 : num(p.page, 1), num(p.per_page, 10));
  if (page.beyond) return pageBeyondReply();
  return many(ctx, d, type, readableOnly(ctx, page.items), page.pagination);
}

// ---- items -----------------------------------------------------------------------------------------

function read(ctx: HandlerCtx, d: Dialect, type: PostType): Reply | Work<Reply> {
  const rec = findPost(ctx, type);
  if (!rec) return notFound();
  // get_item_permissions_check(): a `password` that is not the record's (hash_equals(), so any on a record without
  // one) is refused before anything is read.
  const asked = ctx.params.password;
  if (d.postsController && typeof asked === 'string' && asked !== '' && asked !== (rec.password ?? '')) {
    return fail(wpError('rest_post_incorrect_password', 'Incorrect post password.', { status: 403 }));
  }
  // A viewable post points at its page, as the posts controller does (sample 22).
  const context = askedContext(ctx);
  if (rec.status !== 'publish') return one(ctx, d, type, rec, 200, context);
  const link = permalink(ctx.links, type, rec, defaultLang(ctx.store));
  return one(ctx, d, type, rec, 200, context, { headers: { Link: linkHeaderValue('alternate', link, { type: 'text/html' }) } });
}

function patchFor(ctx: HandlerCtx, d: Dialect, type: PostType, current?: AnyPost) {
  const store = ctx.store;
  // termExists() a method: see one().
  const env = {
    nowWall: siteNow(ctx),
    // kses_init(): a request without a user reaches a write only on a mock without --auth, which writes as its
    // administrator (who has unfiltered_html on a single site).
    writer: { unfilteredHtml: ctx.user === undefined || userCan(ctx.user, 'unfiltered_html') },
    sent: ctx.input,
    termExists(kind: 'category' | 'tag', id: number) {
      return (kind === 'category' ? store.categories : store.tags).get(id) !== undefined;
    },
  };
  const patch = type === 'event' ? eventPatch(ctx.params, d, env, current as Stored<EventRecord> | undefined) : type === 'venue' ? venuePatch(ctx.params, d, env) : organizerPatch(ctx.params, d, env);
  // wp_insert_post(): "Don't allow contributors to set the post slug for pending review posts": a post left pending by
  // a user who may not publish it gets no slug (post_name ''), on a create and an update alike, whatever was sent.
  const after = (patch as { status?: string }).status ?? current?.status;
  if (after === 'pending' && ctx.user !== undefined && !userCan(ctx.user, 'publish_posts')) (patch as { slug?: string }).slug = '';
  return patch;
}

type Patch = ReturnType<typeof patchFor>;

/**
 * The site's attachments. The mock keeps no media library; the featured images the fixtures name stand for it
 * (ctx.media, what a reset brings back), and so does any image a post names now: clearing a post's featured image
 * does not delete the file. A function of the state alone, so every mock in the same state answers the same.
 */
function isAttachment(ctx: HandlerCtx, id: number): boolean {
  if (ctx.media.has(id)) return true;
  return (['event', 'venue', 'organizer'] as const).some((type) => ctx.store.posts(type).values().some((rec) => rec.featured_media === id));
}

/**
 * What WP_REST_Posts_Controller does with the cal/v1 fields that name other things, after the arguments passed
 * validation (wp-includes/rest-api/endpoints/class-wp-rest-posts-controller.php, 6.1):
 * - `author` 0 is "empty" and ignored; any other id that is not the current user's must name a user, else
 *   400 rest_invalid_author (prepare_item_for_database(), before anything is written).
 * - `featured_media` goes through handle_featured_media(): 0 removes the featured image; an id that is not an
 *   attachment makes set_post_thumbnail() fail, and create_item()/update_item() ignore that failure, so the post
 *   is saved with its featured image unchanged (absint() first, as set_post_thumbnail() does).
 * - `timezone` is a plain string in the contract (no format, no mark): a value that is not a zone the calendar can
 *   compute with is taken and ignored, so the event keeps its zone (the site's on create). The legacy namespace
 *   refuses it instead, as the calendar plugin's v1 API validates time zones (the contract marks it loose there).
 */
function asPostsController(ctx: HandlerCtx, patch: Patch, current?: AnyPost): Reply | undefined {
  const p = patch as { author?: number; featured_media?: number; timezone?: string; password?: string | null; sticky?: boolean };
  const conflict = stickyPasswordConflict(p, current);
  if (conflict) return fail(wpError('rest_invalid_field', conflict, { status: 400 }));
  if (p.author !== undefined) {
    if (p.author === 0) delete p.author;
    else if (p.author !== ctx.user?.id && !ctx.store.table('users').has(p.author)) {
      return fail(wpError('rest_invalid_author', 'Invalid author ID.', { status: 400 }));
    }
  }
  if (p.featured_media !== undefined) {
    const media = Math.abs(p.featured_media);
    if (media === 0 || isAttachment(ctx, media)) p.featured_media = media;
    else delete p.featured_media;
  }
  if (p.timezone !== undefined && !isKnownTimeZone(p.timezone)) delete p.timezone;
  return undefined;
}

/**
 * prepare_item_for_database(): a post is never both sticky and protected. A non-empty password beside sticky=true, or
 * on a record that is sticky now, and sticky=true on a record protected now (post_password_required(): a REST client
 * never holds the password cookie) are 400 rest_invalid_field, in that order, before anything is written. Measured
 * on a live 6.1.9 (:8090, cal/v1 venues).
 */
function stickyPasswordConflict(p: { password?: string | null; sticky?: boolean }, current: AnyPost | undefined): string | undefined {
  const cur = current as { password?: string | null; sticky?: boolean } | undefined;
  if (typeof p.password === 'string' && p.password !== '') {
    if (p.sticky === true) return 'A post can not be sticky and have a password.';
    if (cur?.sticky === true) return 'A sticky post can not be password protected.';
  }
  if (p.sticky === true && typeof cur?.password === 'string' && cur.password !== '') return 'A password protected post can not be set to sticky.';
  return undefined;
}

/**
 * handle_status_param(), which prepare_item_for_database() runs for a status the write names (a contributor may not
 * publish). A create without one would be published (the store's default; the legacy namespace has no default of
 * its own), so it is checked as `publish`.
 */
function publishRefusal(ctx: HandlerCtx, patch: Patch, creating: boolean): Reply | undefined {
  const status = (patch as { status?: string }).status ?? (creating ? 'publish' : undefined);
  const refused = statusRefusal(reader(ctx), status);
  return refused ? fail(refused) : undefined;
}

function create(ctx: HandlerCtx, d: Dialect, type: PostType): Reply | Work<Reply> {
  let rec: AnyPost;
  try {
    const patch = patchFor(ctx, d, type);
    const refused = publishRefusal(ctx, patch, true) ?? (d.postsController ? asPostsController(ctx, patch) : undefined);
    if (refused) return refused;
    const input = { ...patch, lang: ctx.lang, ...(ctx.user && (patch as { author?: number }).author === undefined ? { author: ctx.user.id } : {}) };
    rec = ctx.store.createPost(type, input);
  } catch (err) {
    return storeFailure(err, 'id', d.requestNames);
  }
  return one(ctx, d, type, rec, 201, 'edit', { headers: { Location: location(ctx, d, type, rec.id) } });
}

function update(ctx: HandlerCtx, d: Dialect, type: PostType): Reply | Work<Reply> {
  const current = findPost(ctx, type);
  if (!current) return notFound();
  let rec: AnyPost;
  try {
    const patch = patchFor(ctx, d, type, current);
    const refused = publishRefusal(ctx, patch, false) ?? (d.postsController ? asPostsController(ctx, patch, current) : undefined);
    if (refused) return refused;
    rec = ctx.store.updatePost(type, current.id, patch);
  } catch (err) {
    return storeFailure(err, 'id', d.requestNames);
  }
  return one(ctx, d, type, rec, 200, 'edit');
}

function remove(ctx: HandlerCtx, d: Dialect, type: PostType): Reply | Work<Reply> {
  const current = findPost(ctx, type);
  if (!current) return notFound();
  const force = d.forceDelete && ctx.params.force === true;
  if (force) {
    // WP_REST_Posts_Controller::delete_item(): `previous` is the prepared response's get_data(), which holds no
    // `_links` (links are added to a response's data only when the server sends it: response_to_data()).
    const { _links: _unsent, ...previous } = render(ctx, d, type, current, 'edit');
    try {
      ctx.store.deletePost(type, current.id);
    } catch (err) {
      return storeFailure(err);
    }
    return ok({ deleted: true, previous });
  }
  if (current.status === 'trash') return fail(alreadyTrashed());
  try {
    const trashed = ctx.store.trashPost(type, current.id);
    return one(ctx, d, type, trashed, 200, 'edit');
  } catch (err) {
    return storeFailure(err);
  }
}

/**
 * The operations of one post type's routes in one generation (dialect.ts: LEGACY for cal/events/v1, CURRENT for
 * cal/v1), each its own handler; an item route by ID and by slug share theirs.
 */
export function postHandlers(d: Dialect, type: PostType) {
  return {
    list: (ctx: HandlerCtx): Reply | Work<Reply> => (type === 'event' ? listEvents(ctx, d) : listLinked(ctx, d, type)),
    read: (ctx: HandlerCtx): Reply | Work<Reply> => read(ctx, d, type),
    create: (ctx: HandlerCtx): Reply | Work<Reply> => create(ctx, d, type),
    update: (ctx: HandlerCtx): Reply | Work<Reply> => update(ctx, d, type),
    delete: (ctx: HandlerCtx): Reply | Work<Reply> => remove(ctx, d, type),
  } as const;
}
