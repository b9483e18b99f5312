// Small pieces both calendar handlers use: the site's clock, store errors as WordPress errors, pagination.
import { LANGS, type Lang, type TermType } from '../../../../contracts/model/records.ts';
import { wpParseList } from '../../../../contracts/wordpress/php/index.ts';
import { StoreError, type Store } from '../../store/store.ts';
import { epochToWall, utcToZoned } from '../../../../contracts/wordpress/time.ts';
import { pageBeyond, wpError } from '../../wire/errors.ts';
import { fail, type ErrorReply, type HandlerCtx, type Pagination } from '../context.ts';
import type { LegacyLookup } from './render-legacy.ts';
import { InvalidParam } from './write.ts';

/** The site's wall clock, `YYYY-MM-DD HH:MM:SS`, in whole seconds. */
export function siteNow(ctx: HandlerCtx): string {
  return utcToZoned(epochToWall(Math.floor(ctx.now / 1000) * 1000), ctx.store.get('calendarSettings').timezone);
}

export function defaultLang(store: Store): Lang {
  return store.get('calendarSettings').default_lang;
}

/**
 * A parameter that passed the schema but not the plugin's own check. WordPress reports a validate_callback that
 * returned false as "Invalid parameter." with no `details` entry (has_valid_params()).
 */
export function invalidParam(...names: string[]): ErrorReply {
  const params = Object.fromEntries(names.map((n) => [n, 'Invalid parameter.']));
  return fail(wpError('rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, { status: 400, params, details: [] }));
}

/**
 * Maps what the store refuses to the WordPress answer, naming the request's parameter (`requestNames`: the dialect's
 * names of the model's fields); rethrows anything else.
 */
export function storeFailure(err: unknown, fallbackParam = 'id', requestNames: Readonly<Record<string, string>> = {}): ErrorReply {
  if (err instanceof InvalidParam) return invalidParam(err.param);
  if (!(err instanceof StoreError)) throw err;
  switch (err.code) {
    case 'not_found':
      return fail(wpError('rest_post_invalid_id', 'Invalid post ID.', { status: 404 }));
    case 'already_trashed':
      return fail(wpError('rest_already_trashed', 'The post has already been deleted.', { status: 410 }));
    case 'conflict':
      return fail(wpError('rest_conflict', err.message, { status: 409 }));
    case 'empty_content':
      // create_item() gives wp_insert_post()'s own errors a 400.
      return fail(wpError('empty_content', 'Content, title, and excerpt are empty.', { status: 400 }));
    default:
      const field = err.field ?? fallbackParam;
      return invalidParam(requestNames[field] ?? field);
  }
}

export function pageBeyondReply(): ErrorReply {
  return fail(pageBeyond());
}

export function legacyLookup(store: Store): LegacyLookup {
  const counts = store.termCounts();
  return {
    venue: (id) => store.venues.get(id),
    organizer: (id) => store.organizers.get(id),
    category: (id) => store.categories.get(id),
    tag: (id) => store.tags.get(id),
    termCount: (_kind, id) => counts.get(id) ?? 0,
    defaultLang: defaultLang(store),
  };
}

export function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** The legacy namespace's untyped flags (strict_dates, has_events...) read as WordPress's loose booleans. */
export function flag(v: unknown): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  const s = String(v).trim().toLowerCase();
  return !(s === '' || s === '0' || s === 'false' || s === 'no' || s === 'off');
}

export function intList(v: unknown): number[] | undefined {
  if (v === undefined || v === null) return undefined;
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => Number(x)).filter((n) => Number.isInteger(n));
}

/**
 * The legacy event list's categories and tags, as The Events Calendar reads them (Archive_Event::parse_terms_query()):
 * each item of the list (wp_parse_list()) is a term's slug (get_term_by('slug'), in any of the site's languages),
 * else its id. `unknown` holds the items that are neither: the arg's validate_callback (Validator::is_event_category(),
 * is_post_tag(): is_term_of_taxonomy()) refuses the request for any of them, so an unknown slug is still a 400.
 */
export function termIdsOf(v: unknown, kind: TermType, store: Store): { ids: number[]; unknown: unknown[] } {
  const parsed = wpParseList(v);
  const items = Array.isArray(parsed) ? parsed : [...parsed.values()];
  const ids: number[] = [];
  const unknown: unknown[] = [];
  for (const item of items) {
    const text = String(item);
    const bySlug = text === '' ? undefined : LANGS.map((lang) => store.bySlug(kind, text, lang)).find((t) => t !== undefined);
    const id = bySlug?.id ?? (/^\d+$/.test(text) && store.terms(kind).get(Number(text)) !== undefined ? Number(text) : undefined);
    if (id === undefined) unknown.push(item);
    else ids.push(id);
  }
  return { ids, unknown };
}

/**
 * The legacy event list's validate_callbacks of categories and tags (OperationRow.accepts): a list whose every item is
 * an existing term's slug or id is taken, although the contract types the items as integers (000 §4.1.1 describes them
 * as "slugs or IDs": the x-contradictions mark on both parameters).
 */
export function termSlugsAccepted(raw: Readonly<Record<string, unknown>>, at: { store: Store }): readonly string[] {
  const kinds = [['categories', 'category'], ['tags', 'tag']] as const;
  return kinds.filter(([param, kind]) => raw[param] !== undefined && termIdsOf(raw[param], kind, at.store).unknown.length === 0).map(([param]) => param);
}
