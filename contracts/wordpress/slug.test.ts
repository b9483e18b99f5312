import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editableSlug, firstFreeSuffix, MAX_SLUG_LENGTH, sanitizeTitle, trashedSlug, truncateSlug, uniqueSlug, uniqueTermSlug, withSuffix } from './slug.ts';

/**
 * sanitize_title as the mock first wrote it, straight from the definition: every step over the whole title, one
 * regex per step. Too slow for client input (quadratic on `<<<<`, and every character encoded however long the
 * title), but plainly the rule: the linear sanitizeTitle must agree with it on every title.
 */
function referenceSanitize(title: string): string {
  const AS_HYPHEN = new Set(['\u00a0', '\u2013', '\u2014', '\u2212']);
  const DROPPED = new Set(['\u00a1', '\u00bf', '\u00ab', '\u00bb', '\u2039', '\u203a', '\u2018', '\u2019', '\u201a', '\u201b', '\u201c', '\u201d', '\u201e', '\u201f', '\u2022', '\u00a9', '\u00ae', '\u00b0', '\u2026', '\u2122', '\u00b4', '\u02bc']);
  const special: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th' };
  const fold = (ch: string) => {
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    return /^[a-z]+$/i.test(base) ? base : (special[ch] ?? ch);
  };
  const encode = (ch: string) => Array.from(new TextEncoder().encode(ch), (b) => '%' + b.toString(16).padStart(2, '0')).join('');
  if (title.length <= MAX_SLUG_LENGTH && /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/.test(title)) return title;
  const stripped = title.replace(/<[^>]*>/g, '').replace(/&(nbsp|ndash|mdash|#160|#8211|#8212);/g, '-').replace(/&[a-z0-9#]+;/gi, '');
  let out = '';
  for (const raw of stripped) {
    if (AS_HYPHEN.has(raw)) out += '-';
    else if (DROPPED.has(raw)) continue;
    else {
      const ch = raw.charCodeAt(0) < 128 ? raw : fold(raw);
      // eslint-disable-next-line no-control-regex -- ASCII is the point
      if (/^[\x00-\x7f]+$/.test(ch)) out += ch.toLowerCase().replace(/[^a-z0-9 _\-%.]/g, '').replace(/\./g, '-');
      else out += encode(ch.toLowerCase());
    }
  }
  const dashed = out.replace(/%(?![0-9a-f]{2})/g, '').replace(/\s+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');
  if (dashed.length <= MAX_SLUG_LENGTH) return dashed;
  const tokens = dashed.match(/(?:%[c-f][0-9a-f](?:%[89ab][0-9a-f])+)|%[0-9a-f]{2}|[^%]/g) ?? [];
  let cut = '';
  for (const t of tokens) {
    if (cut.length + t.length > MAX_SLUG_LENGTH) break;
    cut += t;
  }
  return cut.replace(/-+$/, '');
}

/** Titles that reach the slug cap and the parts of the rule that are easy to get wrong near it. */
const titleText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 400 }),
  fc.string({ unit: fc.constantFrom('<', '>', '&', ';', '%', 'a', 'F', '0', '.', ' ', '-', '_', 'д', 'é', 'ß', '\u2014', '\u00a0', '😀', '#', 'c', '3', '8'), maxLength: 600 }),
  fc.tuple(fc.constantFrom('Міжнародний фестиваль документального кіно ', 'International documentary film festival ', 'Café Müller — '), fc.integer({ min: 4, max: 240 })).map(([t, n]) => t.repeat(n).slice(0, 180 + n * 40)),
  fc.string({ unit: 'binary', maxLength: 300 }),
);

describe('sanitizeTitle', () => {
  it('matches what WordPress derives from titles', () => {
    expect(sanitizeTitle('Jazz & Blues Night')).toBe('jazz-blues-night');
    expect(sanitizeTitle("Children's Theatre Morning")).toBe('childrens-theatre-morning');
    expect(sanitizeTitle('Café Müller — Spring Edition')).toBe('cafe-muller-spring-edition');
    expect(sanitizeTitle('Lecture: History of the Old Town')).toBe('lecture-history-of-the-old-town');
    expect(sanitizeTitle('  <b>Bold</b>   title  ')).toBe('bold-title');
    expect(sanitizeTitle('Version 2.0 release')).toBe('version-2-0-release');
  });

  it('percent-encodes non-Latin letters in lowercase hex', () => {
    expect(sanitizeTitle('Джаз')).toBe('%d0%b4%d0%b6%d0%b0%d0%b7');
    // й must survive (NFD would split off its breve); ї too.
    expect(sanitizeTitle('Київ')).toBe('%d0%ba%d0%b8%d1%97%d0%b2');
    expect(sanitizeTitle('Й')).toBe('%d0%b9');
    expect(sanitizeTitle('Open Mic 🎤')).toBe('open-mic-%f0%9f%8e%a4');
  });

  it('keeps an already-encoded slug as it is', () => {
    const slug = sanitizeTitle('Вечір камерної музики');
    expect(sanitizeTitle(slug)).toBe(slug);
    expect(sanitizeTitle(slug.toUpperCase())).toBe(slug);
  });

  it('never exceeds the length cap nor splits a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (title) => {
        const slug = sanitizeTitle(title);
        expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
        expect(slug).toMatch(/^([a-z0-9_-]|%[0-9a-f]{2})*$/);
        expect(() => decodeURIComponent(slug)).not.toThrow();
        expect(slug.startsWith('-') || slug.endsWith('-')).toBe(false);
      }),
    );
  });
});

describe('sanitizeTitle agrees with the plain rule', () => {
  it('on generated titles, long ones, markup, entities, escapes and lone surrogates included', () => {
    fc.assert(
      fc.property(titleText, (title) => {
        expect(sanitizeTitle(title)).toBe(referenceSanitize(title));
      }),
      { numRuns: 600 },
    );
  });

  it('on every character of the BMP (and a sample of the others), and on characters at the cap', () => {
    const chars: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x10000 ? 1 : 61) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
    // Twelve at a time: even twelve 4-byte characters stay under the cap, so none is cut off unseen.
    for (let i = 0; i < chars.length; i += 12) {
      const title = chars.slice(i, i + 12).join(' ');
      expect(sanitizeTitle(title), `U+${i.toString(16)}`).toBe(referenceSanitize(title));
    }
    // Each character right where the cut falls (after 197 ASCII characters).
    for (let i = 0x80; i < 0x3000; i += 7) {
      const title = `${'a'.repeat(197)}${String.fromCodePoint(i)}bcd`;
      expect(sanitizeTitle(title), `U+${i.toString(16)}`).toBe(referenceSanitize(title));
    }
  });

  it('stays linear where a regex was not: a megabyte of "<", of Cyrillic, of entities', () => {
    expect(sanitizeTitle('<'.repeat(1_000_000))).toBe('');
    expect(sanitizeTitle(`${'<'.repeat(500_000)}b>tail`)).toBe('tail');
    expect(sanitizeTitle('Кіно '.repeat(200_000))).toBe(referenceSanitize('Кіно '.repeat(40)));
    expect(sanitizeTitle('&amp'.repeat(250_000))).toBe(referenceSanitize('&amp'.repeat(70)));
  });
});

describe('uniqueSlug', () => {
  it('appends -2, -3 ... like wp_unique_post_slug', () => {
    const taken = new Set(['jazz-night', 'jazz-night-2']);
    expect(uniqueSlug('jazz-night', (s) => taken.has(s))).toBe('jazz-night-3');
    expect(uniqueSlug('organ', (s) => taken.has(s))).toBe('organ');
  });

  it('shortens a long base so the suffix fits, without splitting an escape', () => {
    const long = sanitizeTitle('Дуже довга назва події '.repeat(10));
    const taken = new Set([long]);
    const next = uniqueSlug(long, (s) => taken.has(s));
    expect(next.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(next.endsWith('-2')).toBe(true);
    expect(() => decodeURIComponent(next)).not.toThrow();
  });

  it('at the cap: a 200-character slug gets -2 ... -20 with its base cut by whole characters', () => {
    const full = sanitizeTitle('Міжнародний фестиваль документального кіно');
    expect(full).toHaveLength(200);
    const taken = new Set([full]);
    for (let n = 2; n <= 20; n++) {
      const next = uniqueSlug(full, (s) => taken.has(s));
      expect(next).toBe(withSuffix(full, n));
      expect(next.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
      expect(next.endsWith(`-${n}`)).toBe(true);
      expect(() => decodeURIComponent(next)).not.toThrow();
      taken.add(next);
    }
    expect(withSuffix(full, 2)).toHaveLength(196);
    expect(withSuffix(full, 10)).toHaveLength(197);
  });

  it('a search may start past suffixes known to be taken, with the same answer', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'д', ' '), minLength: 1, maxLength: 240 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), (title, taken, from) => {
        const desired = sanitizeTitle(title) || 'x';
        const used = new Set([desired, ...Array.from({ length: taken }, (_, i) => withSuffix(desired, i + 2))]);
        const free = firstFreeSuffix(desired, (s) => used.has(s));
        expect(free).toBe(taken + 2);
        expect(firstFreeSuffix(desired, (s) => used.has(s), Math.min(from, taken) + 2)).toBe(free);
      }),
    );
  });

  it('truncateSlug keeps whole characters', () => {
    expect(truncateSlug('%d0%b4%d0%b6', 8)).toBe('%d0%b4');
    expect(truncateSlug('ab-%d0%b4', 5)).toBe('ab');
  });
});

describe('trashedSlug', () => {
  it('appends __trashed within the length cap', () => {
    const taken = new Set<string>();
    expect(trashedSlug('jazz-night', (s) => taken.has(s))).toBe('jazz-night__trashed');
    taken.add('jazz-night__trashed');
    expect(trashedSlug('jazz-night', (s) => taken.has(s))).toBe('jazz-night__trashed-2');
    const long = sanitizeTitle('Дуже довга назва події '.repeat(10));
    const t = trashedSlug(long, () => false);
    expect(t.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(t.endsWith('__trashed')).toBe(true);
    expect(() => decodeURIComponent(t)).not.toThrow();
  });
});

describe('uniqueTermSlug', () => {
  const world = (inTax: string[], any: string[], ancestorSlugs: string[] = []) => ({
    inTaxonomy: (s: string) => inTax.includes(s), anywhere: (s: string) => inTax.includes(s) || any.includes(s), ancestorSlugs,
  });
  it('keeps a slug no term of the taxonomy has, even if another taxonomy has it', () => {
    expect(uniqueTermSlug('s', world([], ['s']))).toBe('s');
  });
  it("appends the ancestors' slugs one at a time, then -2, -3 against every taxonomy (live 6.1.9)", () => {
    expect(uniqueTermSlug('s', world(['s'], [], ['p', 'g']))).toBe('s-p');
    expect(uniqueTermSlug('s', world(['s', 's-p'], [], ['p', 'g']))).toBe('s-p-g');
    expect(uniqueTermSlug('s', world(['s', 's-p'], ['s-p-g'], ['p', 'g']))).toBe('s-p-g-2');
    expect(uniqueTermSlug('s', world(['s'], ['s-2']))).toBe('s-3');
  });
});

describe('editableSlug', () => {
  it('decodes the percent-encoded letters of a slug as editable_slug shows it (live 6.1.9: generated_slug of a Cyrillic title)', () => {
    expect(sanitizeTitle('Ünïcödé Zwei — Привіт Two')).toBe('unicode-zwei-%d0%bf%d1%80%d0%b8%d0%b2%d1%96%d1%82-two');
    expect(editableSlug(sanitizeTitle('Ünïcödé Zwei — Привіт Two'))).toBe('unicode-zwei-привіт-two');
    expect(editableSlug('plain-two')).toBe('plain-two');
  });
  it('escapes what urldecode() lets through as esc_textarea does', () => {
    expect(editableSlug('a%26b%3Cc%22%27')).toBe('a&amp;b&lt;c&quot;&#039;');
  });
});
