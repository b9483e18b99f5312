// Slugs the way WordPress makes them (sanitize_title_with_dashes + wp_unique_post_slug), close enough
// that a client cannot tell: Latin accents are folded, everything else non-ASCII is kept as lowercase
// percent-encoded UTF-8 (so a Ukrainian title gives `%d0%b2%d0%b5...`), and collisions get `-2`, `-3`.
import { stripAngleTags } from '../linear-text.ts';

/** WordPress caps post_name at 200 bytes of encoded text and never splits a character. */
export const MAX_SLUG_LENGTH = 200;

// Dashes and no-break space become a hyphen in WordPress, the rest of the Unicode punctuation is dropped.
const AS_HYPHEN = new Set(['\u00a0', '\u2013', '\u2014', '\u2212']);
const DROPPED = new Set([
  '\u00a1', '\u00bf', '\u00ab', '\u00bb', '\u2039', '\u203a', '\u2018', '\u2019', '\u201a', '\u201b', '\u201c',
  '\u201d', '\u201e', '\u201f', '\u2022', '\u00a9', '\u00ae', '\u00b0', '\u2026', '\u2122', '\u00b4', '\u02bc',
]);

function foldLatin(ch: string): string {
  const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  // Only fold when the result is plain ASCII: NFD would also strip the breve of Cyrillic й.
  if (/^[a-z]+$/i.test(base)) return base;
  const special: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th' };
  return special[ch] ?? ch;
}

function encodeChar(ch: string): string {
  return Array.from(new TextEncoder().encode(ch), (b) => '%' + b.toString(16).padStart(2, '0')).join('');
}

const CANONICAL = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;

/** sanitize_title for the `save` context: the slug WordPress derives from a title. */
export function sanitizeTitle(title: string): string {
  // A slug already in its final form comes back unchanged (lookups by slug and stored slugs are checked again and
  // again): lower-case letters, digits and underscores in hyphen-separated runs, within the length cap.
  if (title.length <= MAX_SLUG_LENGTH && CANONICAL.test(title)) return title;
  // Titles repeat (every create derives its slug from one, and looks it up again): a small memo of recent ones.
  if (title.length > 256) return sanitize(title);
  let slug = recent.get(title);
  if (slug === undefined) {
    slug = sanitize(title);
    if (recent.size >= 1024) recent.clear();
    recent.set(title, slug);
  }
  return slug;
}

const recent = new Map<string, string>();

function sanitize(title: string): string {
  const stripped = stripAngleTags(title)
    .replace(/&(nbsp|ndash|mdash|#160|#8211|#8212);/g, '-')
    .replace(/&[a-z0-9#]+;/gi, '');
  let out = '';
  // eslint-disable-next-line no-control-regex -- the ASCII range is the point
  if (/^[\x00-\x7f]*$/.test(stripped)) {
    // Every step below is per character, and for ASCII they are the same over the whole string at once.
    out = stripped.toLowerCase().replace(/[^a-z0-9 _\-%.]/g, '').replace(/\./g, '-');
  } else {
    for (const raw of stripped) {
      if (AS_HYPHEN.has(raw)) {
        out += '-';
        continue;
      }
      if (DROPPED.has(raw)) continue;
      const ch = raw.charCodeAt(0) < 128 ? raw : foldLatin(raw);
      if (/^[\x00-\x7f]+$/.test(ch)) {
        out += ch.toLowerCase().replace(/[^a-z0-9 _\-%.]/g, '').replace(/\./g, '-');
        continue;
      }
      // Encoded letters keep their case in the bytes (WordPress lowercases the hex digits only).
      out += encodeChar(ch.toLowerCase());
    }
  }
  const dashed = out
    .replace(/%(?![0-9a-f]{2})/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return truncateSlug(dashed, MAX_SLUG_LENGTH);
}

/**
 * The first free slug among `desired`, `desired-2`, `desired-3`... `taken` answers whether a slug is
 * already used (by another record of the same type and language). A suffix that would push the slug
 * past the length cap shortens the base, as WordPress does.
 */
export function uniqueSlug(desired: string, taken: (slug: string) => boolean): string {
  if (!taken(desired)) return desired;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    let base = desired;
    if (base.length + suffix.length > MAX_SLUG_LENGTH) base = truncateSlug(base, MAX_SLUG_LENGTH - suffix.length);
    const candidate = base + suffix;
    if (!taken(candidate)) return candidate;
  }
}

/** Cuts a slug to at most `max` characters without splitting a %xx escape or a UTF-8 sequence. */
export function truncateSlug(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  // One token per character: a run of %xx escapes making up one UTF-8 sequence, or one ASCII char.
  const tokens = slug.match(/(?:%[c-f][0-9a-f](?:%[89ab][0-9a-f])+)|%[0-9a-f]{2}|[^%]/g) ?? [];
  let out = '';
  for (const t of tokens) {
    if (out.length + t.length > max) break;
    out += t;
  }
  return out.replace(/(?<!-)-+$/, '');
}

/** The suffix trashedSlug() adds: `__trashed`, or `__trashed-2`... when that is taken. */
export const TRASHED_SUFFIX = /__trashed(-\d+)?$/;

/** Length WordPress cuts a slug to before appending `__trashed`, so the result stays within the cap. */
export const TRASHED_BASE_LENGTH = 191;

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
