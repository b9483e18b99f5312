// Undo (what a state file could not save is taken back, persist.ts): after any sequence of writes through every kind
// of mutator (posts, terms, add-on records, settings, a reset), undoing back to any earlier version gives exactly the
// state of that version: the snapshot (records in their order, sequences, settings), who owns each slug, and a store
// that goes on writing from there as one that never saw the undone writes. The version moves on, never back.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedFixtures, TEST_NOW } from '../testing/harness.ts';
import type { FixtureSet, Lang, PostType, TermType } from '../../../contracts/model/records.ts';
import { createStore, Store, StoreError } from './store.ts';

let fixtures: FixtureSet;
beforeAll(async () => {
  fixtures = await sharedFixtures();
});

const NOW = new Date(TEST_NOW);
const TYPES = { posts: ['event', 'venue', 'organizer'], terms: ['category', 'tag'] } as const;
const POST_TYPES = TYPES.posts;
const TERM_TYPES = TYPES.terms;

/** A write, by what it does and to which of the records there are (`pick` chooses among them). */
type Op =
  | { kind: 'createPost'; type: PostType; title: string; lang: Lang }
  | { kind: 'updatePost' | 'trashPost' | 'untrashPost' | 'deletePost'; type: PostType; pick: number; title: string }
  | { kind: 'createTerm'; type: TermType; name: string; lang: Lang }
  | { kind: 'updateTerm' | 'deleteTerm'; type: TermType; pick: number; name: string }
  | { kind: 'keyword'; keyword: string }
  | { kind: 'removeKeyword'; pick: number }
  | { kind: 'seoMode'; mode: 'easy' | 'custom' | 'advanced' }
  | { kind: 'seoSettings'; key: string }
  | { kind: 'reset' };

const title = fc.constantFrom('Open-air cinema', 'Кіно просто неба', 'Talk', 'Talk', 'Workshop: "A & B"', 'x'.repeat(220));
const lang = fc.constantFrom<Lang>('en', 'uk');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('createPost' as const), type: fc.constantFrom(...POST_TYPES), title, lang }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('updatePost' as const, 'trashPost' as const, 'untrashPost' as const, 'deletePost' as const), type: fc.constantFrom(...POST_TYPES), pick: fc.nat(), title }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('createTerm' as const), type: fc.constantFrom(...TERM_TYPES), name: title, lang }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('updateTerm' as const, 'deleteTerm' as const), type: fc.constantFrom(...TERM_TYPES), pick: fc.nat(), name: title }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('keyword' as const), keyword: fc.constantFrom('jazz', 'кіно', 'talks') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeKeyword' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('seoMode' as const), mode: fc.constantFrom('easy' as const, 'custom' as const, 'advanced' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('seoSettings' as const), key: fc.constantFrom('a', 'b', 'c') }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

const nth = <T>(list: readonly T[], pick: number): T | undefined => (list.length === 0 ? undefined : list[pick % list.length]);

/** Runs one write; a refusal of the store's rules is a write that did not happen. */
function apply(s: Store, o: Op): void {
  try {
    switch (o.kind) {
      case 'createPost':
        s.createPost(o.type, { title: o.title, lang: o.lang } as never);
        return;
      case 'createTerm':
        s.createTerm(o.type, { name: o.name, lang: o.lang } as never);
        return;
      case 'keyword':
        s.insert('trackedKeywords', (id) => ({ id, keyword: o.keyword, added: '2026-11-01 12:00:00', lang: 'en' }));
        return;
      case 'removeKeyword': {
        const k = nth(s.table('trackedKeywords').values(), o.pick);
        if (k) s.remove('trackedKeywords', k.id);
        return;
      }
      case 'seoMode':
        s.set('seoMode', o.mode);
        return;
      case 'seoSettings':
        s.set('seoSettings', { ...(s.get('seoSettings') as object), [o.key]: `v${Object.keys(s.get('seoSettings') as object).length}` } as never);
        return;
      case 'reset':
        s.reset();
        return;
      case 'updateTerm':
      case 'deleteTerm': {
        const t = nth(s.terms(o.type).values(), o.pick);
        if (!t) return;
        if (o.kind === 'updateTerm') s.updateTerm(o.type, t.id, { name: o.name } as never);
        else s.deleteTerm(o.type, t.id);
        return;
      }
      default: {
        const p = nth(s.posts(o.type).values(), o.pick);
        if (!p) return;
        if (o.kind === 'updatePost') s.updatePost(o.type, p.id, { title: o.title } as never);
        else if (o.kind === 'trashPost') s.trashPost(o.type, p.id);
        else if (o.kind === 'untrashPost') s.untrashPost(o.type, p.id);
        else s.deletePost(o.type, p.id);
      }
    }
  } catch (e) {
    if (!(e instanceof StoreError)) throw e;
  }
}

/** Who owns each slug of every post and term, as lookups by slug answer it. */
function slugOwners(s: Store): string[] {
  const out: string[] = [];
  for (const type of [...POST_TYPES, ...TERM_TYPES]) {
    for (const r of (type === 'category' || type === 'tag' ? s.terms(type) : s.posts(type)).values()) {
      out.push(`${type} ${r.lang} ${r.slug} -> ${r.slug === '' ? '' : s.bySlug(type, r.slug, r.lang)?.id}`);
    }
  }
  return out;
}

describe('undoing commits the state file could not take', () => {
  it('gives back exactly the state of the version undone to, whatever the writes after it were', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), fc.array(op, { minLength: 1, maxLength: 12 }), (before, after) => {
        const s = createStore(fixtures, { now: () => NOW });
        s.keepUndo();
        for (const o of before) apply(s, o);
        const at = s.version;
        s.settle(at);
        const snap = s.snapshot();
        const owners = slugOwners(s);
        for (const o of after) apply(s, o);
        const last = s.version;
        const version = s.undoAfter(at);
        expect(version).toBe(at === last ? at : last + 1);
        // Records in the same order, the same sequences and settings: toEqual compares arrays in order.
        expect(s.snapshot()).toEqual(snap);
        expect(slugOwners(s)).toEqual(owners);
        // It writes on as a store that never saw the undone writes: the same next records, the same IDs.
        const twin = createStore(fixtures, { now: () => NOW, state: structuredClone(snap) as never });
        for (const o of after.slice(0, 4)) {
          apply(s, o);
          apply(twin, o);
        }
        expect(s.snapshot()).toEqual(twin.snapshot());
      }),
      { numRuns: 150 },
    );
  });

  it('a delete undone puts the row back where it was, not at the end', () => {
    const s = createStore(fixtures, { now: () => NOW });
    s.keepUndo();
    const ids = s.venues.values().map((v) => v.id);
    const middle = ids[Math.floor(ids.length / 2)]!;
    const at = s.version;
    s.deletePost('venue', middle);
    s.createPost('venue', { title: 'After the delete' } as never);
    s.undoAfter(at);
    expect(s.venues.values().map((v) => v.id)).toEqual(ids);
  });

  it('settled commits are not undone, and undo without kept undo refuses rather than pretends', () => {
    const s = createStore(fixtures, { now: () => NOW });
    s.keepUndo();
    const kept = s.createPost('venue', { title: 'Saved' } as never);
    s.settle(s.version);
    expect(() => s.undoAfter(s.version - 1)).toThrow(/cannot be undone/);
    expect(s.venues.get(kept.id)?.title).toBe('Saved');
    const plain = createStore(fixtures, { now: () => NOW });
    const v = plain.version;
    plain.createPost('venue', { title: 'x' } as never);
    expect(() => plain.undoAfter(v)).toThrow(/cannot be undone/);
  });
});
