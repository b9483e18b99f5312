// Slugs the way WordPress makes them (sanitize_title_with_dashes + wp_unique_post_slug), close enough
// that a client cannot tell: Latin accents are folded, everything else non-ASCII is kept as lowercase
// percent-encoded UTF-8 (so a Ukrainian title gives `%d0%b2%d0%b5...`), and collisions get `-2`, `-3`.
//
// Titles are client input of any length (up to the 8 MB body cap), so every step here is linear, and the
// per-character work stops once the slug's 200 characters are decided.

import { stripAngleTags } from './linear-text.ts';
import { phpUrlDecode } from './php/urlcode.ts';

/** WordPress caps post_name at 200 bytes of encoded text and never splits a character. */
export const MAX_SLUG_LENGTH = 200;

// Dashes and no-break space become a hyphen in WordPress, the rest of the Unicode punctuation is dropped.
const AS_HYPHEN = new Set([0xa0, 0x2013, 0x2014, 0x2212]);
const DROPPED = new Set([
  0xa1, 0xbf, 0xab, 0xbb, 0x2039, 0x203a, 0x2018, 0x2019, 0x201a, 0x201b, 0x201c,
  0x201d, 0x201e, 0x201f, 0x2022, 0xa9, 0xae, 0xb0, 0x2026, 0x2122, 0xb4, 0x2bc,
]);
const SPECIAL_FOLDS: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th' };

function isAsciiLetters(s: string): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

/** Code points whose NFD is ASCII letters plus accents, and the special folds: all below U+0250, U+1E00-U+1EFF, K and Å signs. */
function mayFold(code: number): boolean {
  return code < 0x250 || (code >= 0x1e00 && code <= 0x1eff) || code === 0x212a || code === 0x212b;
}

function foldLatin(ch: string): string {
  if (!mayFold(ch.codePointAt(0)!)) return ch;
  const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  // Only fold when the result is plain ASCII: NFD would also strip the breve of Cyrillic й.
  if (isAsciiLetters(base)) return base;
  return SPECIAL_FOLDS[ch] ?? ch;
}

const HEX = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).padStart(2, '0')}`);

/** `%xx` escapes of the UTF-8 bytes of `ch` (lowercase hex, as WordPress prints them). */
function encodeChar(ch: string): string {
  let out = '';
  for (const c of ch) {
    let cp = c.codePointAt(0)!;
    // A lone surrogate is not a character; TextEncoder (and PHP's UTF-8 handling) make it U+FFFD.
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out += HEX[cp];
    else if (cp < 0x800) out += HEX[0xc0 | (cp >> 6)]! + HEX[0x80 | (cp & 63)]!;
    else if (cp < 0x10000) out += HEX[0xe0 | (cp >> 12)]! + HEX[0x80 | ((cp >> 6) & 63)]! + HEX[0x80 | (cp & 63)]!;
    else out += HEX[0xf0 | (cp >> 18)]! + HEX[0x80 | ((cp >> 12) & 63)]! + HEX[0x80 | ((cp >> 6) & 63)]! + HEX[0x80 | (cp & 63)]!;
  }
  return out;
}

/** What an ASCII character contributes: itself lowercased if it is one WordPress keeps, '.' as '-', else nothing. */
function asciiPart(code: number): string {
  if (code >= 0x41 && code <= 0x5a) return String.fromCharCode(code | 0x20);
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x20 || code === 0x2d || code === 0x25) return String.fromCharCode(code);
  return code === 0x2e ? '-' : '';
}

const CANONICAL = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;

/**
 * Characters that always survive into the slug ([a-z0-9_], hex digits of escapes). Once the slug being built has
 * this many, its first 200 characters can no longer change: what follows could only be cut off.
 */
const DECIDED_AFTER = MAX_SLUG_LENGTH + 40;

/** sanitize_title for the `save` context: the slug WordPress derives from a title. */
export function sanitizeTitle(title: string): string {
  // A slug already in its final form comes back unchanged (lookups by slug and stored slugs are checked again and
  // again): lower-case letters, digits and underscores in hyphen-separated runs, within the length cap.
  if (title.length <= MAX_SLUG_LENGTH && CANONICAL.test(title)) return title;
  const stripped = stripAngleTags(title)
    .replace(/&(nbsp|ndash|mdash|#160|#8211|#8212);/g, '-')
    .replace(/&[a-z0-9#]+;/gi, '');
  let out = '';
  let kept = 0;
  for (let i = 0; i < stripped.length && kept < DECIDED_AFTER; i++) {
    const code = stripped.charCodeAt(i);
    if (code < 0x80) {
      const part = asciiPart(code);
      out += part;
      if (part !== '' && code !== 0x20 && code !== 0x2d && code !== 0x25 && code !== 0x2e) kept++;
      continue;
    }
    // One character: a surrogate pair counts as one.
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < stripped.length && (stripped.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const raw = pair ? stripped.slice(i, i + 2) : stripped[i]!;
    if (pair) i++;
    if (AS_HYPHEN.has(code)) {
      out += '-';
      continue;
    }
    if (DROPPED.has(code)) continue;
    const ch = foldLatin(raw);
    if (ch.charCodeAt(0) < 0x80) {
      // Folded to ASCII letters, every one of them kept.
      out += ch.toLowerCase();
      kept += ch.length;
      continue;
    }
    // Encoded letters keep their case in the bytes (WordPress lowercases the hex digits only).
    const encoded = encodeChar(ch.toLowerCase());
    out += encoded;
    kept += (encoded.length / 3) * 2;
  }
  const dashed = out
    .replace(/%(?![0-9a-f]{2})/g, '')
    .replace(/ +/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return truncateSlug(dashed, MAX_SLUG_LENGTH);
}

/** `desired` with the suffix `-n`, its base shortened (never splitting a character) so the whole fits the cap. */
export function withSuffix(desired: string, n: number): string {
  const suffix = `-${n}`;
  const base = desired.length + suffix.length > MAX_SLUG_LENGTH ? truncateSlug(desired, MAX_SLUG_LENGTH - suffix.length) : desired;
  return base + suffix;
}

/**
 * The lowest `n >= from` whose `withSuffix(desired, n)` is not taken. `from` above 2 is only correct when every
 * suffix below it is known to be taken (the store's slug hints); one probe per suffix, each O(cap).
 */
export function firstFreeSuffix(desired: string, taken: (slug: string) => boolean, from = 2): number {
  let n = from;
  while (taken(withSuffix(desired, n))) n++;
  return n;
}

/**
 * The slugs wp_unique_post_slug() never leaves as they are for a post of a flat (non-hierarchical) type, taken or
 * not: the feed names of WP_Rewrite::$feeds and `embed`, which the rewrite rules read as a post's feed or embed. On a
 * live 6.1.9, wp/v2/posts given each of them reads back `<slug>-2`.
 */
const RESERVED_POST_SLUGS: ReadonlySet<string> = new Set(['feed', 'rdf', 'rss', 'rss2', 'atom', 'embed']);

export function isReservedPostSlug(slug: string): boolean {
  return RESERVED_POST_SLUGS.has(slug);
}

const TEXTAREA_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/**
 * A stored slug as the `editable_slug` filter shows it (default-filters.php: urldecode, then esc_textarea's
 * htmlspecialchars( ENT_QUOTES )): what get_sample_permalink() hands the posts controller's `generated_slug`, so a
 * Cyrillic title's slug `%d0%bf…-two` reads `п…-two` there, while `slug` keeps the percent-encoded form (checked on
 * WordPress 6.1.9, the calendar CI site).
 */
export function editableSlug(slug: string): string {
  return phpUrlDecode(slug).replace(/[&<>"']/g, (c) => TEXTAREA_ESCAPES[c]!);
}

/**
 * The first free slug among `desired`, `desired-2`, `desired-3`... `taken` answers whether a slug is
 * already used (by another record of the same type and language). A suffix that would push the slug
 * past the length cap shortens the base, as WordPress does.
 */
export function uniqueSlug(desired: string, taken: (slug: string) => boolean): string {
  return taken(desired) ? withSuffix(desired, firstFreeSuffix(desired, taken)) : desired;
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);

/**
 * Length of the slug character at `i`: a `%xx` escape starting `%c0`-`%ff` with its `%80`-`%bf` continuations (one
 * UTF-8 sequence), a lone `%xx`, or one character.
 */
function slugCharLength(slug: string, i: number): number {
  if (slug.charCodeAt(i) !== 0x25 || !isHex(slug.charCodeAt(i + 1)) || !isHex(slug.charCodeAt(i + 2))) return 1;
  if (slug.charCodeAt(i + 1) < 0x63) return 3;
  let n = 3;
  for (;;) {
    const c = slug.charCodeAt(i + n + 1);
    if (slug.charCodeAt(i + n) !== 0x25 || !(c === 0x38 || c === 0x39 || (c >= 0x61 && c <= 0x62)) || !isHex(slug.charCodeAt(i + n + 2))) break;
    n += 3;
  }
  return n;
}

/** Cuts a slug to at most `max` characters without splitting a %xx escape or a UTF-8 sequence. */
export function truncateSlug(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  let end = 0;
  for (;;) {
    const next = end + slugCharLength(slug, end);
    if (next > max) break;
    end = next;
  }
  let cut = end;
  while (cut > 0 && slug.charCodeAt(cut - 1) === 0x2d) cut--;
  return slug.slice(0, cut);
}

/** The suffix trashedSlug() adds: `__trashed`, or `__trashed-2`... when that is taken. */
export const TRASHED_SUFFIX = /__trashed(-\d+)?$/;

/** Length WordPress cuts a slug to before appending `__trashed`, so the result stays within the cap. */
const TRASHED_BASE_LENGTH = 191;

/**
 * The slug of a trashed post (`<slug>__trashed`, then `__trashed-2`...), which frees `slug` for
 * other posts while the post sits in the trash.
 */
export function trashedSlug(slug: string, taken: (slug: string) => boolean): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '__trashed' : `__trashed-${n}`;
    const candidate = truncateSlug(slug, Math.min(TRASHED_BASE_LENGTH, MAX_SLUG_LENGTH - suffix.length)) + suffix;
    if (!taken(candidate)) return candidate;
  }
}

/** What wp_unique_term_slug() asks of the site about one term's slug. */
export interface TermSlugWorld {
  /** Whether another term of the same taxonomy has `slug` (get_term_by( 'slug' )). */
  inTaxonomy(slug: string): boolean;
  /** Whether another term of any taxonomy has `slug` (term_exists() and the suffix search read the whole terms table). */
  anywhere(slug: string): boolean;
  /** The slugs of the term's parent, its parent's parent... (a hierarchical taxonomy's; none for a top-level term or a tag). */
  ancestorSlugs: readonly string[];
}

/**
 * wp_unique_term_slug(): a slug no other term of the taxonomy has stays as it is (another taxonomy may have it). A
 * taken one first gets its ancestors' slugs appended, one more each time the longer slug is taken too
 * (`<slug>-<parent>`, `<slug>-<parent>-<grandparent>`), then `-2`, `-3`... checked against every taxonomy's slugs.
 * Measured on a live 6.1.9: a category given slug `s` under parent `p` where a category has `s` reads back `s-p`, a
 * second one `s-p-2`; a tag given `s` where a tag has `s` and a category `s-2` reads back `s-3`.
 */
export function uniqueTermSlug(slug: string, world: TermSlugWorld): string {
  if (!world.inTaxonomy(slug)) return slug;
  let base = slug;
  for (const parent of world.ancestorSlugs) {
    base = truncateSlug(`${base}-${parent}`, MAX_SLUG_LENGTH);
    if (!world.anywhere(base)) break;
  }
  return world.anywhere(base) ? withSuffix(base, firstFreeSuffix(base, (s) => world.anywhere(s))) : base;
}
