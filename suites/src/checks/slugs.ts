// slugs and duplicate_term: what WordPress makes of the slugs and names a write gives, on records of the suite's own.
// Posts (cal/v1 venues and events, core's posts controller): wp_unique_post_slug() makes a slug unique within its
// type (the second `s` reads back `s-2`, an event may have `s` too, 000 §2.5), never leaves a feed name or `embed`
// as it is, makes drafts' given slugs unique too (the controller's create_item()), sanitize_title()s what it is given
// (the controller's sanitize_slug()) or derives the slug from the title (a draft keeps none), and a trashed record's
// slug gets `__trashed` so the slug is free again. Terms (the legacy categories and tags: The Events Calendar's term
// routes call core's terms controller): wp_insert_term() sanitizes a given slug (pre_term_slug) or makes one of the
// name, wp_unique_term_slug() appends the parent's slug to a taken one; a name another term of the taxonomy has is
// `400 term_exists` naming that term (in any ASCII case, PHP's strtolower()) unless a new slug comes with it, and
// wp_update_term() refuses a slug another term has (`duplicate_term_slug`). Each expectation was measured on a live
// WordPress 6.1.9 (:8089 wp/v2, :8090 and :8091 cal/v1).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { sanitizeTitle } from '../../../contracts/wordpress/slug.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { ownRecordsUnit } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import { create, emit, send, Verdict, word, type Sent } from './kit/steps.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer } from './kit/wp.ts';

export const SLUGS = 'slugs';
export const DUPLICATE_TERM = 'duplicate_term';

const slugOf = (s: Sent): unknown => s.body?.slug;
const q = (v: unknown): string => JSON.stringify(v) ?? String(v);

async function postSlugs(env: UnitEnv, venue: CalendarResource, event: CalendarResource, unitId: string): Promise<void> {
  const op = venue.create;
  // Two venues and an event given the same slug: "s", "s-2", and "s" for the event (unique within the type); a venue
  // given `embed` (a slug the rewrite rules read as an embed) never keeps it.
  {
    const s = word(env, unitId, 1);
    const v = new Verdict();
    const a = await create(env, venue, unitId, { slug: s });
    const b = v.needs(a, `creating a venue with slug ${s}`) ? await create(env, venue, unitId, { slug: s }) : a;
    if (v.needs(b, `creating a second venue with slug ${s}`)) {
      v.expect(slugOf(a) === s, a, `the first venue given slug ${q(s)} reads back slug ${q(slugOf(a))}`, `a venue given slug ${s} has it`);
      v.expect(slugOf(b) === `${s}-2`, b, `a second venue given slug ${q(s)} reads back slug ${q(slugOf(b))}, not ${q(`${s}-2`)}`, `a second one has ${s}-2`);
      const ev = await create(env, event, unitId, { slug: s });
      if (v.needs(ev, `creating an event with slug ${s}`)) v.expect(slugOf(ev) === s, ev, `an event given slug ${q(s)} (another type than the venues that have it) reads back ${q(slugOf(ev))}`, `an event given ${s} has it`);
      const em = await create(env, venue, unitId, { slug: 'embed' });
      if (v.needs(em, 'creating a venue with slug embed')) v.expect(typeof slugOf(em) === 'string' && /^embed-[2-9][0-9]*$/.test(slugOf(em) as string), em, `a venue given slug "embed" reads back ${q(slugOf(em))}, not embed-<n> (wp_unique_post_slug() never leaves embed or a feed name as it is)`, `one given embed has ${q(slugOf(em))}`);
    }
    emit(env, SLUGS, op, 'post_unique', 'documented', v, 'a slug unique within its type (000 §2.5; wp_unique_post_slug())');
  }
  // Drafts: the controller makes a given slug unique whatever the status.
  {
    const d = word(env, unitId, 2);
    const v = new Verdict();
    const a = await create(env, venue, unitId, { slug: d, status: 'draft' });
    const b = v.needs(a, `creating a draft venue with slug ${d}`) ? await create(env, venue, unitId, { slug: d, status: 'draft' }) : a;
    if (v.needs(b, `creating a second draft venue with slug ${d}`)) {
      v.expect(slugOf(a) === d, a, `a draft given slug ${q(d)} reads back ${q(slugOf(a))}`, `a draft given ${d} has it`);
      v.expect(slugOf(b) === `${d}-2`, b, `a second draft given slug ${q(d)} reads back ${q(slugOf(b))}, not ${q(`${d}-2`)}`, `a second draft has ${d}-2`);
    }
    emit(env, SLUGS, op, 'draft_unique', 'convention', v, "a draft's given slug made unique too (WP_REST_Posts_Controller::create_item())");
  }
  // Given slugs are sanitize_title()d; without one a published record's slug is its title's, a draft's empty.
  {
    const w = word(env, unitId, 3);
    const v = new Verdict();
    const given = `${w.toUpperCase()} Ünï Café. Two  Words—x`;
    const a = await create(env, venue, unitId, { slug: given });
    const title = `${env.marker} ${w} Ü Two`;
    const b = v.needs(a, 'creating a venue with a slug to sanitize') ? await create(env, venue, unitId, {}, title) : a;
    const c = v.needs(b, 'creating a published venue without a slug') ? await create(env, venue, unitId, { status: 'draft' }, `${title} draft`) : b;
    if (v.needs(c, 'creating a draft venue without a slug')) {
      v.expect(slugOf(a) === sanitizeTitle(given), a, `a venue given slug ${q(given)} reads back ${q(slugOf(a))}, not ${q(sanitizeTitle(given))} (sanitize_title())`, `slug ${q(given)} reads back ${q(sanitizeTitle(given))}`);
      v.expect(slugOf(b) === sanitizeTitle(title), b, `a published venue titled ${q(title)} without a slug reads back slug ${q(slugOf(b))}, not ${q(sanitizeTitle(title))}`, `a title makes slug ${q(sanitizeTitle(title))}`);
      v.expect(slugOf(c) === '', c, `a draft without a slug reads back slug ${q(slugOf(c))}, not "" (wp_insert_post() gives drafts none)`, 'a draft keeps none');
    }
    emit(env, SLUGS, op, 'sanitized', 'convention', v, 'slugs as sanitize_title() and wp_insert_post() make them');
  }
  // A trashed record's slug gets __trashed, so a new record may take the slug.
  {
    const t = word(env, unitId, 4);
    const v = new Verdict();
    const a = await create(env, venue, unitId, { slug: t });
    const del = v.needs(a, `creating a venue with slug ${t}`) ? await send(env, venue.delete, 'DELETE', a.id!) : a;
    const read = v.needs(del, 'deleting it without force', true) ? await send(env, venue.read, 'GET', a.id!, { query: { context: 'edit' } }) : del;
    if (v.needs(read, 'reading the trashed venue back')) {
      v.expect(slugOf(read) === `${t}__trashed`, read, `a venue with slug ${q(t)} deleted without force reads back slug ${q(slugOf(read))}, not ${q(`${t}__trashed`)}`, `trashed, ${t} reads back ${t}__trashed`);
      const again = await create(env, venue, unitId, { slug: t });
      if (v.needs(again, `creating another venue with slug ${t}`)) v.expect(slugOf(again) === t, again, `a new venue given the trashed one's slug ${q(t)} reads back ${q(slugOf(again))}`, `a new venue takes ${t} again`);
    }
    emit(env, SLUGS, venue.delete, 'trashed', 'convention', v, "a trashed record's slug freed (wp_add_trashed_suffix_to_post_name_for_post())");
  }
}

async function termSlugs(env: UnitEnv, tag: CalendarResource, category: CalendarResource, unitId: string): Promise<void> {
  {
    const v = new Verdict();
    const name = `${env.marker} ${word(env, unitId, 5).toUpperCase()} Ünï`;
    const a = await create(env, tag, unitId, {}, name);
    const given = `${word(env, unitId, 6).toUpperCase()} Ünï!`;
    const b = v.needs(a, `creating a tag named ${name}`) ? await create(env, tag, unitId, { slug: given }, `${env.marker} ${unitId} given`) : a;
    if (v.needs(b, 'creating a tag with a slug to sanitize')) {
      v.expect(slugOf(a) === sanitizeTitle(name), a, `a tag named ${q(name)} reads back slug ${q(slugOf(a))}, not ${q(sanitizeTitle(name))}`, `a tag named ${q(name)} has slug ${q(sanitizeTitle(name))}`);
      v.expect(slugOf(b) === sanitizeTitle(given), b, `a tag given slug ${q(given)} reads back ${q(slugOf(b))}, not ${q(sanitizeTitle(given))}`, `slug ${q(given)} reads back ${q(sanitizeTitle(given))}`);
    }
    emit(env, SLUGS, tag.create, 'term_sanitized', 'convention', v, "a term's slug as wp_insert_term() makes it (sanitize_title() of the slug or the name)");
  }
  {
    const v = new Verdict();
    const s = word(env, unitId, 7);
    const first = await create(env, category, unitId, { slug: s }, `${env.marker} ${unitId} first`);
    const parent = v.needs(first, `creating a category with slug ${s}`) ? await create(env, category, unitId, {}, `${env.marker} ${unitId} parent`) : first;
    const child = v.needs(parent, 'creating a parent category') ? await create(env, category, unitId, { slug: s, parent: parent.id }, `${env.marker} ${unitId} child`) : parent;
    if (v.needs(child, `creating a category with slug ${s} under the parent`)) {
      const want = `${s}-${String(slugOf(parent))}`;
      v.expect(slugOf(child) === want, child, `a category given the taken slug ${q(s)} under a parent with slug ${q(slugOf(parent))} reads back ${q(slugOf(child))}, not ${q(want)}`, `a taken ${s} under a parent reads back ${want}`);
      const t = await create(env, tag, unitId, { slug: s }, `${env.marker} ${unitId} tag`);
      if (v.needs(t, `creating a tag with slug ${s}`)) v.expect(slugOf(t) === s, t, `a tag given slug ${q(s)} (which only a category has) reads back ${q(slugOf(t))}`, `a tag may have ${s} too`);
    }
    emit(env, SLUGS, category.create, 'term_unique', 'convention', v, "a taken term slug made unique with the parent's slug (wp_unique_term_slug())");
  }
}

const codeOf = (s: Sent): unknown => s.body?.code;
const dataOf = (s: Sent): Record<string, unknown> | undefined => (isPlainObject(s.body?.data) ? (s.body!.data as Record<string, unknown>) : undefined);

/** Whether an answer is wp_insert_term()'s term_exists naming `id`, as the terms controller sends it. */
function termExists(s: Sent, id: number | undefined): boolean {
  return s.status === 400 && codeOf(s) === 'term_exists' && dataOf(s)?.term_id === id;
}

async function duplicates(env: UnitEnv, tag: CalendarResource, category: CalendarResource, unitId: string): Promise<void> {
  {
    const v = new Verdict();
    const rest = `${unitId} Dup ${word(env, unitId, 8)}`;
    const name = `${env.marker} ${rest}`;
    // The same name in upper case, but for the run's marker (cleanup removes only what carries it as it is).
    const upperName = `${env.marker} ${rest.toUpperCase()}`;
    const a = await create(env, tag, unitId, {}, name);
    if (v.needs(a, `creating a tag named ${name}`)) {
      const same = await create(env, tag, unitId, {}, name);
      v.expect(termExists(same, a.id), same, `a second tag named ${q(name)} answered ${describeAnswer(same.e.response)}, not 400 term_exists with data.term_id ${a.id}`, `the same name is 400 term_exists naming #${a.id}`);
      const upper = await create(env, tag, unitId, {}, upperName);
      v.expect(termExists(upper, a.id), upper, `a tag named ${q(upperName)} (the same in upper case) answered ${describeAnswer(upper.e.response)}, not 400 term_exists with data.term_id ${a.id}`, 'so is it in upper case');
      const slug = word(env, unitId, 9);
      const withSlug = await create(env, tag, unitId, { slug }, name);
      v.expect(withSlug.status === 201 && slugOf(withSlug) === slug, withSlug, `the same name with a new slug ${q(slug)} answered ${describeAnswer(withSlug.e.response)}${withSlug.body?.slug !== undefined ? ` (slug ${q(slugOf(withSlug))})` : ''}, not 201 with that slug`, 'with a new slug it is a new tag');
    }
    emit(env, DUPLICATE_TERM, tag.create, 'tag_name', 'convention', v, "a tag's name unique in the taxonomy (wp_insert_term(): 400 term_exists naming the term, unless a new slug is given)");
  }
  {
    const v = new Verdict();
    const name = `${env.marker} ${unitId} Dup category ${word(env, unitId, 10)}`;
    const a = await create(env, category, unitId, {}, name);
    if (v.needs(a, `creating a category named ${name}`)) {
      const same = await create(env, category, unitId, {}, name);
      const extra = same.body?.additional_data;
      v.expect(termExists(same, a.id) && dataOf(same)?.status === 400, same, `a second category named ${q(name)} under the same parent answered ${describeAnswer(same.e.response)}, not 400 term_exists with data {status: 400, term_id: ${a.id}}`, `the same name under the same parent is 400 term_exists naming #${a.id}`);
      v.expect(!termExists(same, a.id) || (Array.isArray(extra) && extra.includes(a.id)), same, `its additional_data is ${q(extra)}, not a list holding ${a.id} (rest_convert_error_to_response(): the error's earlier data)`, 'additional_data holds it');
    }
    emit(env, DUPLICATE_TERM, category.create, 'category_name', 'convention', v, "a category's name unique under its parent (wp_insert_term())");
  }
  {
    const v = new Verdict();
    const a = await create(env, tag, unitId, {}, `${env.marker} ${unitId} keeps`);
    const b = v.needs(a, 'creating a tag') ? await create(env, tag, unitId, {}, `${env.marker} ${unitId} other`) : a;
    if (v.needs(b, 'creating a second tag')) {
      const moved = await send(env, tag.update, tag.update.method, a.id!, { body: { slug: slugOf(b) } });
      v.expect(moved.status !== undefined && moved.status >= 400 && codeOf(moved) === 'duplicate_term_slug', moved, `an update giving a tag the slug ${q(slugOf(b))} of another answered ${describeAnswer(moved.e.response)}, not duplicate_term_slug`, 'an update to a taken slug is duplicate_term_slug');
      const read = await send(env, tag.read, 'GET', a.id!);
      if (v.needs(read, 'reading the tag back')) v.expect(slugOf(read) === slugOf(a), read, `the tag then reads back slug ${q(slugOf(read))}, not its own ${q(slugOf(a))}`, 'and the tag keeps its slug');
    }
    emit(env, DUPLICATE_TERM, tag.update, 'slug_update', 'convention', v, "an update refused a slug another term has (wp_update_term())");
  }
}

export function planSlugs(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const find = (ns: string, r: string) => resources.find((x) => x.namespace === ns && x.resource === r);
  const venue = find('cal/v1', 'venue');
  const event = find('cal/v1', 'event');
  const tag = find('cal/events/v1', 'tag');
  const category = find('cal/events/v1', 'category');
  const units: Unit[] = [];
  const unit = (id: string, check: string, ops: Operation[], run: (env: UnitEnv) => Promise<void>): Unit =>
    ownRecordsUnit({ id, check, family: SLUGS, operations: ops, skip: { operation: ops[0]!, variant: 'all', severity: 'convention', doing: 'the check judges records of its own' } }, run);
  if (venue && event) units.push(unit(`${SLUGS}:cal/v1`, SLUGS, [venue.create, venue.read, venue.delete, event.create], (env) => postSlugs(env, venue, event, `${SLUGS}:cal/v1`)));
  if (tag && category) {
    units.push(unit(`${SLUGS}:cal/events/v1`, SLUGS, [tag.create, category.create], (env) => termSlugs(env, tag, category, `${SLUGS}:cal/events/v1`)));
    units.push(unit(`${DUPLICATE_TERM}:cal/events/v1`, DUPLICATE_TERM, [tag.create, category.create, tag.update, tag.read], (env) => duplicates(env, tag, category, `${DUPLICATE_TERM}:cal/events/v1`)));
  }
  return units;
}
