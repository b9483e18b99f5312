// post_terms: a record's terms and the terms' own state, on records and terms of the suite's own.
// - set (documented, 000 §2.5: tags are terms of post_tag): a cal/v1 event created with tags=[a, b, <an id no term
//   has>] reads back [a, b] (handle_terms() → wp_set_object_terms(): an id that names no term is skipped); PATCH
//   tags=[b] reads back [b]; a PATCH without tags keeps [b].
// - count (convention): a tag's count is the number of published posts using it (_update_post_term_count()): 0 when
//   made, 1 while the published event uses it, 0 when the event drops it, and 0 once the event is in the trash.
// - parent_loop (convention): a category made its own parent reads back parent 0 (wp_update_term() runs
//   wp_check_term_hierarchy_for_loops() on the wp_update_term_parent filter); given its parent again it keeps it.
// - delete (convention): deleting a category moves its children to its own parent (wp_delete_term()): with three
//   levels g > p > c, deleting p leaves c under g (not at the top: the edge between the two readings).
// The tags and categories are the legacy namespace's (The Events Calendar's term routes call core's terms
// controller); where the site lists no legacy tag route the tag units are skipped with the reason. Measured on a
// live 6.1.9 (:8091's legacy terms and cal/v1 events; :8090 lists no legacy namespace).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { ownRecordsUnit } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import { create, emit, send, Verdict, word, type Sent } from './kit/steps.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { NO_ATTACHMENT } from './post_flags.ts';

export const POST_TERMS = 'post_terms';

/** An id no term has (term ids are auto-increment from 1), the same out-of-range id the featured image uses. */
const NO_TERM = NO_ATTACHMENT;

const q = (v: unknown): string => JSON.stringify(v) ?? String(v);
const sorted = (v: unknown): string => (Array.isArray(v) ? q([...v].sort((a, b) => Number(a) - Number(b))) : q(v));

/** A term of the suite's own: its name carries the marker and a word of the unit, so two never clash (term_exists). */
function makeTerm(env: UnitEnv, res: CalendarResource, unitId: string, n: number, extra: Record<string, unknown> = {}): Promise<Sent> {
  return create(env, res, unitId, { name: `${env.marker} ${word(env, unitId, n)}`, ...extra });
}

async function tags(env: UnitEnv, event: CalendarResource, tag: CalendarResource, unitId: string): Promise<void> {
  const a = await makeTerm(env, tag, unitId, 1);
  const b = await makeTerm(env, tag, unitId, 2);
  const ready = a.id !== undefined && b.id !== undefined;
  const made = ready ? await create(env, event, unitId, { status: 'publish', tags: [a.id, b.id, NO_TERM] }) : (a.id === undefined ? a : b);
  const set = new Verdict();
  const count = new Verdict();
  const countOf = async (t: Sent, want: number, when: string): Promise<void> => {
    const r = await send(env, tag.read, 'GET', t.id!, { auth: false });
    if (count.needs(r, `reading tag ${t.id} anonymously`)) count.expect(r.body['count'] === want, r, `tag ${t.id} reads count ${q(r.body['count'])} ${when}, not ${want}`, `count ${want} ${when}`);
  };
  if (set.needs(a, 'creating a tag') && set.needs(b, 'creating a second tag') && count.needs(a, 'creating a tag') && count.needs(made, 'creating an event with the tags')) {
    count.expect(a.body['count'] === 0, a, `a new tag answers count ${q(a.body['count'])}, not 0`, 'a new tag counts 0');
    const both = sorted([a.id, b.id]);
    if (set.needs(made, `creating a published event with tags [${a.id}, ${b.id}, ${NO_TERM}]`)) {
      const read = await send(env, event.read, 'GET', made.id!, {});
      if (set.needs(read, 'reading it back')) {
        set.expect(sorted(made.body['tags']) === both && sorted(read.body['tags']) === both, read, `tags [${a.id}, ${b.id}, ${NO_TERM}] (the last names no term) answered ${q(made.body['tags'])} and read back ${q(read.body['tags'])}, not ${both}`, `tags [a, b, <no term>] read back [a, b]`);
      }
    }
    await countOf(a, 1, 'while a published event of its own uses it');
    const narrowed = await send(env, event.update, 'PATCH', made.id!, { body: { tags: [b.id] } });
    const kept = await send(env, event.update, 'PATCH', made.id!, { body: { title: `${env.marker} ${unitId} renamed` } });
    const read = await send(env, event.read, 'GET', made.id!, {});
    if (set.needs(narrowed, `PATCH tags=[${b.id}]`) && set.needs(kept, 'a PATCH without tags') && set.needs(read, 'reading it back')) {
      set.expect(sorted(narrowed.body['tags']) === q([b.id]), narrowed, `PATCH tags=[${b.id}] answered tags ${q(narrowed.body['tags'])}`, 'PATCH tags=[b] reads [b]');
      set.expect(sorted(kept.body['tags']) === q([b.id]) && sorted(read.body['tags']) === q([b.id]), read, `a PATCH without tags answered tags ${q(kept.body['tags'])} and reads back ${q(read.body['tags'])}, not [${b.id}] (a list left out keeps the terms)`, 'a PATCH without tags keeps [b]');
    }
    await countOf(a, 0, 'once the event no longer uses it');
    await countOf(b, 1, 'while the event uses it');
    const trashed = await send(env, event.delete, 'DELETE', made.id!, {});
    if (count.needs(trashed, 'trashing the event', true)) await countOf(b, 0, 'once the event that used it is in the trash');
  }
  emit(env, POST_TERMS, event.update, 'set', 'documented', set, "a record's tags set to exactly the ids that name terms (handle_terms(), wp_set_object_terms())");
  emit(env, POST_TERMS, tag.read, 'count', 'convention', count, 'a tag counting the published posts that use it (_update_post_term_count())');
}

async function categories(env: UnitEnv, cat: CalendarResource, unitId: string): Promise<void> {
  const g = await makeTerm(env, cat, unitId, 1);
  const p = g.id === undefined ? g : await makeTerm(env, cat, unitId, 2, { parent: g.id });
  const c = p.id === undefined ? p : await makeTerm(env, cat, unitId, 3, { parent: p.id });
  const loop = new Verdict();
  if (loop.needs(c, 'creating three nested categories')) {
    const self = await send(env, cat.update, 'PATCH', c.id!, { body: { parent: c.id } });
    const read = await send(env, cat.read, 'GET', c.id!, {});
    if (loop.needs(self, `PATCH parent=${c.id} (itself)`) && loop.needs(read, 'reading it back')) {
      loop.expect(self.body['parent'] === 0 && read.body['parent'] === 0, read, `category ${c.id} made its own parent answered parent ${q(self.body['parent'])} and reads back ${q(read.body['parent'])}, not 0`, 'made its own parent, parent 0');
    }
    const back = await send(env, cat.update, 'PATCH', c.id!, { body: { parent: p.id } });
    if (loop.needs(back, `PATCH parent=${p.id}`)) loop.expect(back.body['parent'] === p.id, back, `given parent ${p.id} (no loop) it answered parent ${q(back.body['parent'])}`, 'given a parent that makes no loop, it keeps it');
  }
  emit(env, POST_TERMS, cat.update, 'parent_loop', 'convention', loop, 'a parent that would make a loop cut to 0 (wp_check_term_hierarchy_for_loops())');
  const del = new Verdict();
  if (del.needs(c, 'creating three nested categories')) {
    const gone = await send(env, cat.delete, 'DELETE', p.id!, { query: { force: true } });
    const child = await send(env, cat.read, 'GET', c.id!, {});
    if (del.needs(gone, `deleting category ${p.id} (force=true)`) && del.needs(child, `reading its child ${c.id}`)) {
      del.expect(child.body['parent'] === g.id, child, `after its parent ${p.id} (itself under ${g.id}) was deleted, category ${c.id} reads parent ${q(child.body['parent'])}, not ${g.id}`, `a deleted category's child moved to its grandparent`);
    }
  }
  emit(env, POST_TERMS, cat.delete, 'delete', 'convention', del, "a deleted category's children moved to its own parent (wp_delete_term())");
}

/**
 * 000 §2.1: a legacy event's categories are "category ID or name" (the contract chooses IDs; The Events Calendar's
 * Tribe__Terms::translate_terms_to_ids() creates a term for a name it does not know). On --disposable-target only:
 * the category a name creates is one the suite learns of from the answer alone (it goes into the ledger then). A site
 * that refuses the name takes IDs only, the contract's reading: inconclusive, not failed.
 */
async function names(env: UnitEnv, event: CalendarResource, cat: CalendarResource, unitId: string): Promise<void> {
  const name = `${env.marker} ${word(env, unitId, 1)} new`;
  const made = await create(env, event, unitId, { categories: [name] });
  const v = new Verdict();
  if (made.status === 400) v.unjudged = { outcome: 'inconclusive', message: `an event given the category name ${q(name)} was refused (${q(made.body?.['code'])}): the site takes category IDs only, the contract's reading of 000 §2.1`, e: made.e };
  else if (v.needs(made, `creating a legacy event with categories [${q(name)}]`)) {
    const linked = Array.isArray(made.body['categories']) ? made.body['categories'].find((c) => typeof c === 'object' && c !== null && (c as Record<string, unknown>)['name'] === name) as Record<string, unknown> | undefined : undefined;
    const id = typeof linked?.['id'] === 'number' ? linked['id'] : undefined;
    if (id !== undefined) env.ledger.add({ namespace: cat.namespace, resource: cat.resource, id, itemPath: cat.read.path, createdBy: unitId });
    v.expect(id !== undefined, made, `the event given the category name ${q(name)} answers categories ${q(made.body['categories'])}: none of that name`, 'a category given by name is linked');
    if (id !== undefined) {
      const read = await send(env, cat.read, 'GET', id, {});
      if (v.needs(read, `reading category ${id}`)) v.expect(read.body['name'] === name, read, `category ${id} reads name ${q(read.body['name'])}, not ${q(name)}`, 'and exists in the categories');
    }
  }
  emit(env, POST_TERMS, event.create, 'names', 'assumed', v, 'a category given by name created and linked (000 §2.1)');
}

/** The operations a unit needs; where the run may not write or the site lacks one, the unit says so and stops. */
function unit(id: string, ops: Operation[], variant: string, severity: 'documented' | 'convention' | 'assumed', run: (env: UnitEnv) => Promise<void>): Unit {
  return ownRecordsUnit({ id, check: POST_TERMS, operations: ops, skip: { operation: ops[0]!, variant, severity, doing: 'the check works on records and terms of its own' } }, run);
}

export function planPostTerms(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const find = (ns: string, r: string) => resources.find((x) => x.namespace === ns && x.resource === r);
  const event = find('cal/v1', 'event');
  const tag = find('cal/events/v1', 'tag');
  const cat = find('cal/events/v1', 'category');
  const units: Unit[] = [];
  if (event && tag && event.create.params.some((p) => p.name === 'tags')) {
    units.push(unit(`${POST_TERMS}:tags`, [event.update, event.create, event.read, event.delete, tag.create, tag.read], 'set', 'documented', (env) => tags(env, event, tag, `${POST_TERMS}:tags`)));
  }
  if (cat && cat.create.params.some((p) => p.name === 'parent')) {
    units.push(unit(`${POST_TERMS}:categories`, [cat.update, cat.create, cat.read, cat.delete], 'parent_loop', 'convention', (env) => categories(env, cat, `${POST_TERMS}:categories`)));
  }
  const legacyEvent = find('cal/events/v1', 'event');
  if (legacyEvent && cat && legacyEvent.create.params.some((p) => p.name === 'categories')) {
    const id = `${POST_TERMS}:names`;
    units.push(unit(id, [legacyEvent.create, legacyEvent.read, cat.read], 'names', 'assumed', (env) => {
      if (!env.disposable) return Promise.resolve(env.emit({ check: POST_TERMS, operation: legacyEvent.create, variant: 'names', severity: 'assumed', outcome: 'skip', message: 'not run: needs --disposable-target (a category created by name is known only from the answer)' }));
      return names(env, legacyEvent, cat, id);
    }));
  }
  return units;
}
