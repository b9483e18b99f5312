// A category update that would make a loop (issue 27: making two categories each other's parent kept the new parent
// and cleared the other's). wp_update_term() runs wp_check_term_hierarchy_for_loops() on wp_update_term_parent:
// a parent that leads back to the category itself is dropped (the category becomes top-level, whatever parent it
// had) and no other category moves; the write still succeeds. Measured on a live 6.1.9's wp/v2/categories with the
// same steps (A, B under A, then A under B: A top-level, B under A; X > A > B, then A under B: A top-level).
import { describe, expect, it } from 'vitest';
import { call, freshMock } from '../../testing/harness.ts';

const parentOf = (mock: Awaited<ReturnType<typeof freshMock>>, id: number) => call(mock, 'GET', `/wp-json/cal/events/v1/categories/${id}`).json.parent;

describe('category parents that would make a loop', () => {
  it("two categories made each other's parent: the second move is dropped, the first stays", async () => {
    const mock = await freshMock();
    const a = call(mock, 'POST', '/wp-json/cal/events/v1/categories', { body: { name: 'Loop A' } }).json.id;
    const b = call(mock, 'POST', '/wp-json/cal/events/v1/categories', { body: { name: 'Loop B', parent: a } }).json.id;
    const res = call(mock, 'POST', `/wp-json/cal/events/v1/categories/${a}`, { body: { parent: b } });
    expect(res.status).toBe(200);
    expect(res.json.parent).toBe(0);
    expect([parentOf(mock, a), parentOf(mock, b)]).toEqual([0, a]);
  });

  it('a category with a parent moved under its grandchild loses its parent altogether; its own parent is none', async () => {
    const mock = await freshMock();
    const x = call(mock, 'POST', '/wp-json/cal/events/v1/categories', { body: { name: 'Loop X' } }).json.id;
    const a = call(mock, 'POST', '/wp-json/cal/events/v1/categories', { body: { name: 'Loop A', parent: x } }).json.id;
    const b = call(mock, 'POST', '/wp-json/cal/events/v1/categories', { body: { name: 'Loop B', parent: a } }).json.id;
    const c = call(mock, 'POST', '/wp-json/cal/events/v1/categories', { body: { name: 'Loop C', parent: b } }).json.id;
    expect(call(mock, 'PUT', `/wp-json/cal/events/v1/categories/${a}`, { body: { parent: c } }).json.parent).toBe(0);
    expect([parentOf(mock, x), parentOf(mock, a), parentOf(mock, b), parentOf(mock, c)]).toEqual([0, 0, a, b]);
    expect(call(mock, 'PATCH', `/wp-json/cal/events/v1/categories/${c}`, { body: { parent: c } }).json.parent).toBe(0);
    expect(parentOf(mock, b)).toBe(a);
    // A parent that makes no loop is taken.
    expect(call(mock, 'PUT', `/wp-json/cal/events/v1/categories/${a}`, { body: { parent: x } }).json.parent).toBe(x);
  });
});

// wp_insert_term() and wp_update_term() as a live 6.1.9's wp/v2/tags answers them (measured): a name another tag has
// (PHP strtolower(): ASCII letters only) is refused naming that tag, unless a new slug comes with it; a taken slug is
// made unique on create and refused on update.
describe('term names and slugs, as wp_insert_term() and wp_update_term() judge them', () => {
  const TAGS = '/wp-json/cal/events/v1/tags';
  it('a repeated tag name is term_exists naming the tag, in any ASCII case; with a new slug it is a new tag', async () => {
    const mock = await freshMock();
    const first = call(mock, 'POST', TAGS, { body: { name: 'Zq Alpha' } }).json.id;
    const again = call(mock, 'POST', TAGS, { body: { name: 'ZQ ALPHA' } });
    expect([again.status, again.json]).toEqual([400, {
      code: 'term_exists', message: 'A term with the name provided already exists in this taxonomy.', data: { status: 400, term_id: first }, additional_data: [first, first],
    }]);
    // Ü is not an ASCII letter: PHP's strtolower() leaves it, so the names differ.
    expect(call(mock, 'POST', TAGS, { body: { name: 'Zq Ünï' } }).status).toBe(201);
    expect(call(mock, 'POST', TAGS, { body: { name: 'ZQ ÜNÏ' } }).status).toBe(201);
    const withSlug = call(mock, 'POST', TAGS, { body: { name: 'Zq Alpha', slug: 'zq-new' } });
    expect([withSlug.status, withSlug.json.slug]).toEqual([201, 'zq-new']);
  });

  it('a taken slug is made unique on create and refused on update', async () => {
    const mock = await freshMock();
    call(mock, 'POST', TAGS, { body: { name: 'Zq Alpha' } });
    const other = call(mock, 'POST', TAGS, { body: { name: 'Zq Other', slug: 'zq-alpha' } });
    expect([other.status, other.json.slug]).toEqual([201, 'zq-alpha-2']);
    const moved = call(mock, 'POST', `${TAGS}/${other.json.id}`, { body: { slug: 'zq-alpha' } });
    expect([moved.status, moved.json.code]).toEqual([400, 'duplicate_term_slug']);
    expect(call(mock, 'GET', `${TAGS}/${other.json.id}`).json.slug).toBe('zq-alpha-2');
  });
});
