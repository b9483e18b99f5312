// Event categories (hierarchical) and tags in the legacy namespace, after the wp/v2 terms controller: unknown ID
// 404 `rest_term_invalid`, a page past the end is an empty page (terms never answer 400 for it), a duplicate name
// under the same parent is `term_exists` exactly as sample 40 shows it (naming the term it repeats), and DELETE
// removes the term for good (terms have no trash; the legacy route takes no `force`).
import { pageOf } from '../../wire/pagination.ts';
import type { TermType } from '../../../../contracts/model/records.ts';
import { sanitizeTitle } from '../../../../contracts/wordpress/slug.ts';
import { termDescriptionForDb, termNameForDb } from '../../../../contracts/wordpress/save-filters.ts';
import { sanitizeTextField } from '../../../../contracts/wordpress/schema/formats.ts';
import { StoreError } from '../../store/store.ts';
import { invalidId, wpError } from '../../wire/errors.ts';
import { fail, ok, type HandlerCtx, type Reply } from '../context.ts';
import { intList, num, storeFailure } from './common.ts';
import { termComparator, termMatches } from './query.ts';
import { legacyTerm } from './render-legacy.ts';

function notFound(): Reply {
  return fail(invalidId('rest_term_invalid', 'Term does not exist.'));
}

function render(ctx: HandlerCtx, kind: TermType, id: number): Record<string, unknown> | undefined {
  const t = ctx.store.terms(kind).get(id);
  return t ? legacyTerm(ctx.links, kind, t, ctx.store.termCounts().get(id) ?? 0) : undefined;
}

function list(ctx: HandlerCtx, kind: TermType): Reply {
  const p = ctx.params;
  const store = ctx.store;
  const eventId = typeof p.event === 'number' ? p.event : typeof p.post === 'number' ? p.post : undefined;
  const event = eventId === undefined ? undefined : store.events.get(eventId);
  const include = intList(p.include);
  const counts = store.termCounts();
  // The legacy terms routes are core's terms controller: search's sanitize_callback is sanitize_text_field()
  // (WP_REST_Controller::get_collection_params()), so search=%20word%20 searches for "word".
  const search = typeof p.search === 'string' ? sanitizeTextField(p.search) : '';
  const filter = {
    lang: ctx.lang,
    hideEmpty: p.hide_empty !== false,
    ...(search !== '' ? { search } : {}),
    ...(include?.length ? { include } : {}),
    ...(intList(p.exclude)?.length ? { exclude: intList(p.exclude)! } : {}),
    ...(kind === 'category' && typeof p.parent === 'number' ? { parent: p.parent } : {}),
    ...(typeof p.slug === 'string' && p.slug !== '' ? { slug: p.slug } : {}),
    ...(event ? { event } : {}),
  };
  // Asking for the terms of an event that does not exist matches nothing (WordPress: object_ids of a missing post).
  const all = eventId !== undefined && !event ? [] : store.terms(kind).values().filter((t) => termMatches(t, kind, filter, counts.get(t.id) ?? 0));
  const order = String(p.order ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
  all.sort(termComparator(String(p.orderby ?? 'name').toLowerCase(), order, counts, include));
  // Terms answer a page past the last one with an empty page (WordPress's terms controller), not a 400.
  const page = pageOf(all, num(p.page, 1), num(p.per_page, 10));
  return ok(page.items.map((t) => legacyTerm(ctx.links, kind, t, counts.get(t.id) ?? 0)), 200, { pagination: page.pagination });
}

function termId(ctx: HandlerCtx): number | undefined {
  const id = ctx.pathParams.id;
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
}

function input(ctx: HandlerCtx, kind: TermType): Record<string, unknown> {
  const p = ctx.params;
  const out: Record<string, unknown> = {};
  // sanitize_term( 'db' ): pre_term_name and pre_term_description, for every user (contracts/wordpress/save-filters.ts).
  if (typeof p.name === 'string') out.name = termNameForDb(p.name);
  if (typeof p.description === 'string') out.description = termDescriptionForDb(p.description);
  // wp_insert_term()/wp_update_term() sanitize the slug first (pre_term_slug → sanitize_title()); one that comes
  // out empty counts as not given, and the slug is derived from the name, as for a term sent without one.
  if (typeof p.slug === 'string') out.slug = sanitizeTitle(p.slug) === '' ? '' : p.slug;
  if (kind === 'category' && typeof p.parent === 'number') out.parent = p.parent;
  return out;
}

/**
 * Sample 40: `data` {status, term_id} plus the earlier data WordPress added twice, as `additional_data`. The message is
 * wp_insert_term()'s: a category repeats a name "with this parent", a tag "in this taxonomy" (live 6.1.9).
 */
function termExists(kind: TermType, id: number): Reply {
  const message = kind === 'category' ? 'A term with the name provided already exists with this parent.' : 'A term with the name provided already exists in this taxonomy.';
  return fail(wpError('term_exists', message, { status: 400, term_id: id }, { additionalData: [id, id] }));
}

function write(ctx: HandlerCtx, kind: TermType, id: number | undefined): Reply {
  // create_item()/update_item() look at `$request['parent']` first, declared or not: a flat taxonomy takes none.
  const parent = ctx.input.parent;
  if (kind === 'tag' && parent !== undefined && parent !== null) {
    return fail(wpError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', { status: 400 }));
  }
  const data = input(ctx, kind);
  try {
    const rec =
      id === undefined
        ? ctx.store.createTerm(kind, { ...data, lang: ctx.lang } as Parameters<typeof ctx.store.createTerm<typeof kind>>[1])
        : ctx.store.updateTerm(kind, id, data as Parameters<typeof ctx.store.updateTerm<typeof kind>>[2]);
    const body = render(ctx, kind, (rec as { id: number }).id)!;
    if (id !== undefined) return ok(body);
    return ok(body, 201, { headers: { Location: `${ctx.links.apiRoot}cal/events/v1/${kind === "category" ? "categories" : "tags"}/${(rec as { id: number }).id}` } });
  } catch (err) {
    if (err instanceof StoreError && err.code === 'term_exists') return termExists(kind, err.existing ?? 0);
    if (err instanceof StoreError && err.code === 'duplicate_slug') {
      // WordPress's message spells the quotes as entities; it sends this without a status (a 500), the mock a 400.
      return fail(wpError('duplicate_term_slug', `The slug &#8220;${String(data.slug)}&#8221; is already in use by another term.`, { status: 400 }));
    }
    if (err instanceof StoreError && err.code === 'invalid_parent') {
      return fail(wpError('rest_term_invalid', 'Parent term does not exist.', { status: 400 }));
    }
    return storeFailure(err, 'name');
  }
}

/** An item operation on the term the path names; 404 `rest_term_invalid` when there is none. */
const onTerm = (kind: TermType, f: (ctx: HandlerCtx, id: number) => Reply) => (ctx: HandlerCtx): Reply => {
  const id = termId(ctx);
  return id === undefined || !ctx.store.terms(kind).has(id) ? notFound() : f(ctx, id);
};

function remove(ctx: HandlerCtx, kind: TermType, id: number): Reply {
  const previous = render(ctx, kind, id);
  try {
    ctx.store.deleteTerm(kind, id);
  } catch (err) {
    return storeFailure(err);
  }
  return ok(previous);
}

/** The operations of one taxonomy's routes (`categories`, `tags`), each its own handler. */
export function termHandlers(kind: TermType) {
  return {
    list: (ctx: HandlerCtx): Reply => list(ctx, kind),
    create: (ctx: HandlerCtx): Reply => write(ctx, kind, undefined),
    read: onTerm(kind, (ctx, id) => ok(render(ctx, kind, id))),
    update: onTerm(kind, (ctx, id) => write(ctx, kind, id)),
    delete: onTerm(kind, (ctx, id) => remove(ctx, kind, id)),
  } as const;
}
