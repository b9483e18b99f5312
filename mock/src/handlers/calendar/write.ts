// From a namespace's request body to changes of the neutral record. Each namespace names and types the same
// facts differently (000 §2.1-2.5); the dialect (dialect.ts) says how, and this reads a body with it.
import type { EventRecord, PostBase, PostStatus, PostType } from '../../../../contracts/model/records.ts';
import type { WpError } from '../../../../contracts/wordpress/schema/index.ts';
import type { Store } from '../../store/store.ts';
import { restDateInput } from '../../../../contracts/wordpress/post-dates.ts';
import { POST_FORMATS, POST_STATUSES } from '../../../../contracts/model/records.ts';
import type { PostInput } from '../../store/store.ts';
import type { DeepReadonly as R } from '../../store/table.ts';
import { parseDateParam } from './dates.ts';
import { postTextForDb, postTitleForDb, type Writer } from '../../../../contracts/wordpress/save-filters.ts';
import { convertInvalidEntities } from '../../../../contracts/wordpress/entities.ts';
import { phpEmpty } from '../../../../contracts/wordpress/php/index.ts';
import type { Dialect } from './dialect.ts';

export type Params = Readonly<Record<string, unknown>>;

/** A parameter the plugin's own checks reject (WordPress reports it as "Invalid parameter."). */
export class InvalidParam extends Error {
  constructor(readonly param: string) {
    super(`invalid parameter ${param}`);
  }
}

interface WriteEnv {
  /** Site wall clock now, `YYYY-MM-DD HH:MM:SS` (for `now`, `today` and the like). */
  nowWall: string;
  /** Whether a term exists (cal/v1 drops unknown term IDs, as wp_set_object_terms() skips an integer it cannot find). */
  termExists?: (kind: 'category' | 'tag', id: number) => boolean;
  /** Who writes, as WordPress's save filters see it (kses for a user without unfiltered_html). */
  writer: Writer;
  /**
   * Every parameter the request carried, nulls included (get_params()): `params` holds get_param()'s answers, which
   * skip a null, where the posts controller asks has_param() (a null date resets the dates).
   */
  sent?: Readonly<Record<string, unknown>>;
}

const LIVE_STATUSES = POST_STATUSES.filter((s) => s !== 'trash') as readonly string[];

function has(p: Params, k: string): boolean {
  return p[k] !== undefined && p[k] !== null;
}

function str(v: unknown): string {
  return v === undefined || v === null ? '' : typeof v === 'string' ? v : typeof v === 'boolean' ? (v ? '1' : '') : String(v);
}

/** The legacy namespace types show_map as a string on venues: read it the way PHP's truthiness would. */
function loosBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  const s = str(v).trim().toLowerCase();
  return !(s === '' || s === '0' || s === 'false' || s === 'no' || s === 'off');
}

function status(v: unknown, d: Dialect): PostStatus {
  const s = str(v);
  // cal/v1 takes `trash` only where check_status() let it through: the record's current status (an update of a
  // trashed record), which wp_update_post() keeps.
  if (s === 'trash' && d.postsControllerFields) return 'trash';
  // `status` is a free string in the legacy namespace; WordPress would store an unknown one and never show it.
  // The mock keeps only statuses it can list, and files anything else as a draft.
  return (LIVE_STATUSES.includes(s) ? s : 'draft') as PostStatus;
}

/** A post date given in the site's zone (`date`) or in UTC (`date_gmt` / `date_utc`); the store derives the other. */
function postDate(p: Params, localKey: string, utcKey: string, env: WriteEnv, d: Dialect): { date?: string; date_gmt?: string; resetDate?: true } {
  if (d.postsControllerFields) {
    // prepare_item_for_database(): rest_get_date_with_gmt() of `date`, else of `date_gmt` (strtotime() rolls an
    // impossible day over); a null one resets both, so the post is dated now.
    for (const [key, isUtc] of [[localKey, false], [utcKey, true]] as const) {
      if (!has(p, key)) continue;
      const b = restDateInput(str(p[key]), isUtc);
      if (!b) throw new InvalidParam(key);
      return b.utc ? { date_gmt: b.wall } : { date: b.wall };
    }
    return env.sent?.[localKey] === null || env.sent?.[utcKey] === null ? { resetDate: true } : {};
  }
  if (has(p, localKey)) {
    const b = parseDateParam(p[localKey], env.nowWall);
    if (!b) throw new InvalidParam(localKey);
    return b.utc ? { date_gmt: b.value } : { date: b.value };
  }
  if (has(p, utcKey)) {
    const b = parseDateParam(p[utcKey], env.nowWall);
    if (!b) throw new InvalidParam(utcKey);
    return { date_gmt: b.value };
  }
  return {};
}

function ids(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  return [...new Set(v.filter((x): x is number => typeof x === 'number' && Number.isInteger(x)))];
}

function bodyText(text: string, writer: Writer): string {
  return postTextForDb(text, writer) ?? convertInvalidEntities(text);
}

type AnyPostInput = PostInput<'event'> & PostInput<'venue'> & PostInput<'organizer'>;

/** Fields every post type takes, by the dialect's names (title/description or title/content...). */
function postPatch(p: Params, d: Dialect, env: WriteEnv, titleKey: string): Partial<AnyPostInput> {
  const out: Partial<AnyPostInput> = {};
  // wp_insert_post() stores text through sanitize_post( 'db' ): title_save_pre, content_save_pre, excerpt_save_pre
  // (contracts/wordpress/save-filters.ts). For a writer without unfiltered_html the body text also goes through
  // wp_filter_post_kses, whose `post` tag list the WordPress layer does not hold: the mock then stores it with the
  // part it knows (convert_invalid_entities), as the suite leaves that case unpredicted.
  if (has(p, titleKey)) out.title = postTitleForDb(str(p[titleKey]), env.writer);
  const contentKey = d.names.content;
  if (has(p, contentKey)) out.content = bodyText(str(p[contentKey]), env.writer);
  if (has(p, 'excerpt')) out.excerpt = bodyText(str(p.excerpt), env.writer);
  if (has(p, 'slug')) out.slug = str(p.slug);
  if (has(p, 'status')) out.status = status(p.status, d);
  if (has(p, 'author') && Number.isInteger(p.author)) out.author = p.author as number;
  if (has(p, 'password')) out.password = str(p.password) === '' ? null : str(p.password);
  Object.assign(out, postDate(p, 'date', d.names.dateGmt, env, d));
  if (d.postsControllerFields) {
    if (has(p, 'featured_media') && Number.isInteger(p.featured_media)) out.featured_media = p.featured_media as number;
    if (p.comment_status === 'open' || p.comment_status === 'closed') out.comment_status = p.comment_status;
    if (p.ping_status === 'open' || p.ping_status === 'closed') out.ping_status = p.ping_status;
    if (typeof p.format === 'string' && (POST_FORMATS as readonly string[]).includes(p.format)) out.format = p.format as PostBase['format'];
    if (typeof p.sticky === 'boolean') out.sticky = p.sticky;
    if (has(p, 'template')) out.template = str(p.template);
  } else if (has(p, 'image')) {
    const img = p.image;
    if (typeof img === 'number' || (typeof img === 'string' && /^\d+$/.test(img))) out.featured_media = Number(img);
    else out.image = str(img) === '' ? null : str(img);
  }
  return out;
}

/** One end of an event: a wall clock in the event's zone, or UTC when the value carried an offset. */
function eventEdge(p: Params, edge: 'start' | 'end', d: Dialect, env: WriteEnv): Partial<PostInput<'event'>> | undefined {
  const localKey = `${edge}_date`;
  const utcKey = `${edge}_date_utc`;
  for (const key of d.utcEdgesAndDuration ? [localKey, utcKey] : [localKey]) {
    if (!has(p, key)) continue;
    const b = parseDateParam(p[key], env.nowWall);
    if (!b) throw new InvalidParam(key);
    return b.utc || key === utcKey ? { [utcKey]: b.value } : { [localKey]: b.value };
  }
  return undefined;
}

const addSeconds = (wall: string, s: number) => {
  const d = new Date(Date.parse(`${wall.replace(' ', 'T')}Z`) + s * 1000).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 19)}`;
};

/** The term IDs a write keeps: where unknown ones are skipped, those naming a term. (Not a named closure made per write: mock/bench/README.md, tsx.) */
function knownTerms(d: Dialect, env: WriteEnv, kind: 'category' | 'tag', list: number[]): number[] {
  return d.skipsUnknownTerms && env.termExists ? list.filter((id) => env.termExists!(kind, id)) : list;
}

/**
 * Changes to an event (`current` is the stored event on update). The store derives what the body leaves out:
 * UTC from wall clock and zone, slugs, all-day times, and on create 08:00-17:00 today, as the calendar's editor does.
 */
export function eventPatch(p: Params, d: Dialect, env: WriteEnv, current?: R<EventRecord>): PostInput<'event'> {
  const out: PostInput<'event'> = postPatch(p, d, env, 'title');
  if (has(p, 'timezone')) out.timezone = str(p.timezone);
  const start = eventEdge(p, 'start', d, env);
  const end = eventEdge(p, 'end', d, env);
  Object.assign(out, start, end);
  if (!end && d.utcEdgesAndDuration && typeof p.duration === 'number' && p.duration >= 0) {
    const from = out.start_date ?? current?.start_date;
    if (from) out.end_date = addSeconds(from, p.duration);
    else if (out.start_date_utc) out.end_date_utc = addSeconds(out.start_date_utc, p.duration);
  }
  for (const k of ['all_day', 'featured', 'sticky', 'show_map', 'show_map_link', 'hide_from_listings'] as const) {
    if (typeof p[k] === 'boolean') out[k] = p[k] as boolean;
  }
  if (has(p, 'cost')) out.cost = str(p.cost);
  if (p.website !== undefined) out.website = str(p.website);
  const catKey = d.names.categories;
  // cal/v1 hands term IDs to the posts controller's handle_terms(): an ID naming no term is skipped, not refused.
  // The legacy namespace keeps refusing them ("Invalid parameter.", as a plugin's own validate_callback would: the
  // documents do not say), which the store's reference check reports.
  if (has(p, catKey)) out.categories = knownTerms(d, env, 'category', ids(p[catKey]));
  if (has(p, 'tags')) out.tags = knownTerms(d, env, 'tag', ids(p.tags));
  const venueKey = d.names.venues;
  const orgKey = d.names.organizers;
  if (has(p, venueKey)) out.venues = ids(p[venueKey]);
  if (has(p, orgKey)) out.organizers = ids(p[orgKey]);
  return out;
}

export function venuePatch(p: Params, d: Dialect, env: WriteEnv): PostInput<'venue'> {
  const out: PostInput<'venue'> = postPatch(p, d, env, d.names.venueTitle);
  for (const k of ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website'] as const) {
    if (has(p, k)) out[k] = str(p[k]);
  }
  if (!d.postsControllerFields) {
    if (has(p, 'stateprovince')) out.stateprovince = str(p.stateprovince);
    if (has(p, 'show_map')) out.show_map = loosBool(p.show_map);
    if (has(p, 'show_map_link')) out.show_map_link = loosBool(p.show_map_link);
  } else if (has(p, 'state_province')) out.state_province = str(p.state_province);
  return out;
}

export function organizerPatch(p: Params, d: Dialect, env: WriteEnv): PostInput<'organizer'> {
  const out: PostInput<'organizer'> = postPatch(p, d, env, d.names.organizerTitle);
  for (const k of ['phone', 'website', 'email'] as const) if (has(p, k)) out[k] = str(p[k]);
  return out;
}

/**
 * The page templates the site's theme offers the calendar's post types (wp_get_theme()->get_page_templates( $post,
 * $post_type )): the one the fixtures' records use.
 */
const PAGE_TEMPLATES: readonly string[] = ['single-event-wide'];

/**
 * WP_REST_Posts_Controller::check_status(), the `status` arg's validate_callback: the record's current status passes
 * whatever the enum says (a trashed record PATCHed with `trash` answers 200), any other value is the schema's.
 */
export function checkStatus(type: PostType) {
  return (raw: Readonly<Record<string, unknown>>, at: { store: Store; pathParams: Readonly<Record<string, string>> }): readonly string[] => {
    const id = at.pathParams.id;
    if (typeof raw.status !== 'string' || id === undefined || !/^\d+$/.test(id)) return [];
    return at.store.posts(type).get(Number(id))?.status === raw.status ? ['status'] : [];
  };
}

/**
 * WP_REST_Posts_Controller::check_template(), the `template` arg's validate_callback (so it replaces the type check and
 * runs before any permission check): an empty value (`""`, false, 0) passes, so does the post's current template on an
 * update (even one the theme no longer offers), and so does one of the theme's templates; any other is "template is
 * not one of …" in rest_invalid_param.
 */
export function checkTemplate(type: PostType) {
  return (raw: Readonly<Record<string, unknown>>, at: { store: Store; pathParams: Readonly<Record<string, string>> }): Record<string, WpError> | undefined => {
    const t = raw.template;
    if (t === undefined || phpEmpty(t)) return undefined;
    const id = at.pathParams.id;
    const current = id !== undefined && /^\d+$/.test(id) ? (at.store.posts(type).get(Number(id))?.template ?? '') : '';
    if (t === current || (typeof t === 'string' && PAGE_TEMPLATES.includes(t))) return undefined;
    const message = `template is not one of ${PAGE_TEMPLATES.join(', ')}.`;
    return { template: { code: 'rest_invalid_param', message, data: null } };
  };
}
