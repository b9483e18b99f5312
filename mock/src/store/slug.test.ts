import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SLUG_LENGTH, sanitizeTitle, trashedSlug, truncateSlug, uniqueSlug } from './slug.ts';

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
