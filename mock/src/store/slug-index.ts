// Slugs are unique per type and language: the index answers who owns a slug, and remembers, per desired slug, the
// lowest `-N` suffix not yet known to be taken (its hint), so a run of creates with the same title stays linear.
// Transactions stage their slug changes in a SlugOverlay; the registry's commit applies it here.

import type { PostType, TermType } from '../../../contracts/model/records.ts';

export type SluggedType = PostType | TermType;

interface Slugged {
  id: number;
  slug: string;
  lang: string;
}

/** type -> language -> slug -> id. Nested maps, so a lookup builds no key string. */
type Owners = Map<SluggedType, Map<string, Map<string, number>>>;

const scopeKey = (type: SluggedType, lang: string) => `${type}\u0000${lang}`;

/** The slug changes of one transaction, seen through by its reads and applied by its commit. */
export class SlugOverlay {
  /** scope -> slug -> new owner, or null when freed */
  readonly owners = new Map<string, Map<string, number | null>>();
  /** Scopes (type and language) where this transaction freed a slug: their hints no longer hold. */
  readonly freed = new Set<string>();
  /** Hints learned by this transaction's creates: scope -> desired slug -> next suffix to try. */
  readonly hints = new Map<string, Map<string, number>>();

  get empty(): boolean {
    return this.owners.size === 0 && this.hints.size === 0;
  }
}

export class SlugIndex {
  readonly #owners: Owners = new Map();
  /** scope -> desired slug -> n: every `withSuffix(desired, k)` with 2 <= k < n is taken. */
  readonly #hints = new Map<string, Map<string, number>>();

  static build(records: (type: SluggedType) => Iterable<Slugged>): SlugIndex {
    const index = new SlugIndex();
    for (const type of ['event', 'venue', 'organizer', 'category', 'tag'] as const) {
      for (const r of records(type)) if (r.slug !== '') index.#scope(type, r.lang).set(r.slug, r.id);
    }
    return index;
  }

  /** An independent index with the same entries (hints are a memo and start empty). */
  copy(): SlugIndex {
    const c = new SlugIndex();
    for (const [type, byLang] of this.#owners) c.#owners.set(type, new Map([...byLang].map(([lang, m]) => [lang, new Map(m)])));
    return c;
  }

  #scope(type: SluggedType, lang: string): Map<string, number> {
    let byLang = this.#owners.get(type);
    if (!byLang) this.#owners.set(type, (byLang = new Map()));
    let bySlug = byLang.get(lang);
    if (!bySlug) byLang.set(lang, (bySlug = new Map()));
    return bySlug;
  }

  owner(type: SluggedType, lang: string, slug: string, overlay?: SlugOverlay): number | undefined {
    if (overlay && overlay.owners.size > 0) {
      const staged = overlay.owners.get(scopeKey(type, lang));
      if (staged?.has(slug)) return staged.get(slug) ?? undefined;
    }
    return this.#owners.get(type)?.get(lang)?.get(slug);
  }

  /** Where a search for a free suffix of `desired` may start (2 unless a hint says more are taken). */
  hint(type: SluggedType, lang: string, desired: string, overlay?: SlugOverlay): number {
    const scope = scopeKey(type, lang);
    if (overlay?.freed.has(scope)) return 2;
    return overlay?.hints.get(scope)?.get(desired) ?? this.#hints.get(scope)?.get(desired) ?? 2;
  }

  /** Stages the slug change of one record (old -> next) in `overlay`, as the index would see it after commit. */
  stage(overlay: SlugOverlay, type: SluggedType, old: Slugged | undefined, next: Slugged | undefined): void {
    if (old && old.slug !== '' && (next === undefined || next.slug !== old.slug || next.lang !== old.lang) && this.owner(type, old.lang, old.slug, overlay) === old.id) {
      const scope = scopeKey(type, old.lang);
      let m = overlay.owners.get(scope);
      if (!m) overlay.owners.set(scope, (m = new Map()));
      m.set(old.slug, null);
      overlay.freed.add(scope);
    }
    if (next && next.slug !== '') {
      const scope = scopeKey(type, next.lang);
      let m = overlay.owners.get(scope);
      if (!m) overlay.owners.set(scope, (m = new Map()));
      m.set(next.slug, next.id);
    }
  }

  /** Stages what a create learned: every suffix below `next` is now taken. */
  learn(overlay: SlugOverlay, type: SluggedType, lang: string, desired: string, next: number): void {
    const scope = scopeKey(type, lang);
    let m = overlay.hints.get(scope);
    if (!m) overlay.hints.set(scope, (m = new Map()));
    m.set(desired, next);
  }

  /** The commit's part: apply the staged owners, forget hints of scopes that freed a slug, keep the new ones. */
  apply(overlay: SlugOverlay): void {
    if (overlay.empty) return;
    for (const [scope, slugs] of overlay.owners) {
      const [type, lang] = scope.split('\u0000') as [SluggedType, string];
      const index = this.#scope(type, lang);
      for (const [slug, id] of slugs) {
        if (id === null) index.delete(slug);
        else index.set(slug, id);
      }
    }
    for (const scope of overlay.freed) this.#hints.delete(scope);
    for (const [scope, learned] of overlay.hints) {
      if (overlay.freed.has(scope)) continue;
      let m = this.#hints.get(scope);
      if (!m) this.#hints.set(scope, (m = new Map()));
      for (const [desired, next] of learned) m.set(desired, next);
    }
  }

  /** The hints as plain data (tests: a refused write must not change them). */
  hints(): Record<string, Record<string, number>> {
    return Object.fromEntries([...this.#hints].map(([scope, m]) => [scope, Object.fromEntries(m)]));
  }
}
