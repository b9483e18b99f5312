// Values that are valid by the documents *and* plausible for a real site. The schema-only generators (values.ts)
// fill a free string with any text ("\u0000ü", "") and an unbounded integer with anything in ±2^31; both are valid
// by the contract, and a real site may still refuse them in a field whose allowed values the documents leave open
// ("featured image ID or URL", "event website URL", a post status given as a free string). Such a refusal says
// nothing about the contract. Here a free string gets what a client would really send for that field — a word, a
// URL, a numeric ID, chosen by the parameter's name — and an integer the documents do not bound stays within
// 1..100, the range WordPress's own collection parameters allow.
//
// Two forms: plausibleValue() is one fixed value (the edge phase builds on it, so it is the same on every run), and
// plausibleStringArb()/plausibleIntegerArb() are the random form valueArb() uses with `{plausible: true}`.
import fc from 'fast-check';
import type { JsonSchema } from '../types.ts';
import { CAL_DATE_TIME, CAL_LOCAL_DATE_TIME, email, localDateTime, patternArb, tel, uri } from './formats.ts';

/**
 * The schema plausible values are drawn from: the parameter's own, or for an untyped one the typed reading the
 * contract keeps beside it (legacy `strict_dates` "untyped, with a boolean meaning", `cost` "a string"). An untyped
 * parameter whose only concrete value in the documents is its default, and whose reading is an open string (an
 * index's `namespace`, "default: the namespace itself"), gets that default: any other string names nothing.
 */
export function plausibleSchema(schema: JsonSchema, contradictions: readonly { readings: { schema?: JsonSchema }[] }[]): JsonSchema {
  if (schema.type !== undefined || Array.isArray(schema.enum)) return schema;
  const typed = contradictions.flatMap((c) => c.readings).find((r) => r.schema && r.schema.type !== undefined)?.schema;
  const hasDefault = schema.default !== undefined && schema.default !== null;
  const closed = typed !== undefined && (Array.isArray(typed.enum) || typed.type === 'boolean');
  if (typed && (closed || !hasDefault)) return typed;
  if (hasDefault) return { const: schema.default };
  return schema;
}

/** What kind of text a field holds, read from its name (the documents name fields plainly: website, email, phone). */
export type TextKind = 'template' | 'status' | 'order' | 'orderby' | 'url' | 'email' | 'phone' | 'slug' | 'date' | 'timezone' | 'color' | 'route' | 'media' | 'money' | 'secret' | 'token' | 'words';

const KINDS: readonly [RegExp, TextKind][] = [
  [/^path$/i, 'route'],
  [/^template$/i, 'template'],
  // Free strings in cal/events/v1 whose values the documents leave open: what WordPress itself takes.
  [/^status$/i, 'status'],
  [/^order$/i, 'order'],
  [/^orderby$/i, 'orderby'],
  [/url|website|link|href|uri/i, 'url'],
  [/email/i, 'email'],
  [/phone|^tel$/i, 'phone'],
  [/slug/i, 'slug'],
  [/(^|_)date(s|_gmt|_utc)?($|_)|^(starts|ends)_(before|after)$/i, 'date'],
  [/timezone|time_zone/i, 'timezone'],
  [/colou?r/i, 'color'],
  [/image|media|logo|avatar/i, 'media'],
  [/cost|price|fee/i, 'money'],
  [/password|secret/i, 'secret'],
  [/hash|nonce|token|key$|_id$|^id$/i, 'token'],
];

export function textKind(name: string): TextKind {
  for (const [re, kind] of KINDS) if (re.test(name)) return kind;
  return 'words';
}

/** One value per kind: what the edge phase sends. */
const FIXED_TEXT: Readonly<Record<TextKind, string>> = {
  // The theme's default template: WordPress refuses a template file the theme does not have.
  template: '',
  status: 'publish',
  order: 'asc',
  orderby: 'name',
  url: 'https://example.org/events/',
  email: 'events@example.org',
  phone: '+380 44 123 4567',
  slug: 'site-contracts-sample',
  date: '2030-06-15 10:00:00',
  timezone: 'Europe/Kyiv',
  color: '#336699',
  // A batch item's path: a route no site has, so a batch built from plausible values runs nothing.
  route: '/site-contracts/no-such-route',
  media: 'https://example.org/images/poster.jpg',
  money: '10',
  secret: 'site-contracts',
  token: 'abc123',
  words: 'Concert',
};

const WORDS = ['Concert', 'Open day', 'Workshop', 'Kyiv', 'Концерт', 'День відкритих дверей', 'Виставка'];
const NUMERIC_IDS = ['1', '12', '305'];

// Built once: fast-check parses a regular expression into arbitraries each time stringMatching is called.
const SLUG = fc.stringMatching(/^[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,8}){0,2}$/);
const SECRET = fc.stringMatching(/^[a-z]{4,10}$/);
const TOKEN = fc.stringMatching(/^[a-z0-9]{6,12}$/);

/** Random plausible text of a kind: words in the site's two languages, URLs, numeric IDs. */
export function plausibleTextArb(kind: TextKind): fc.Arbitrary<string> {
  switch (kind) {
    case 'template':
      return fc.constant(FIXED_TEXT.template);
    case 'status':
      return fc.constantFrom('publish', 'draft', 'pending');
    case 'order':
      return fc.constantFrom('asc', 'desc');
    case 'orderby':
      return fc.constantFrom('name', 'id', 'count');
    case 'url':
      return uri;
    case 'email':
      return email;
    case 'phone':
      return tel;
    case 'slug':
      return SLUG;
    case 'date':
      return localDateTime;
    case 'timezone':
      return fc.constantFrom('Europe/Kyiv', 'UTC', 'Europe/London');
    case 'color':
      return fc.constantFrom('#336699', '#fff', '#000000');
    case 'route':
      return fc.constantFrom(FIXED_TEXT.route);
    case 'media':
      return fc.oneof(fc.constantFrom(...NUMERIC_IDS), uri.map((u) => `${u.replace(/\/$/, '')}/poster.jpg`));
    case 'money':
      return fc.oneof(fc.integer({ min: 0, max: 500 }).map(String), fc.constantFrom('Free', '10.50'));
    case 'secret':
      return SECRET;
    case 'token':
      return TOKEN;
    case 'words':
      return fc.oneof({ arbitrary: fc.constantFrom(...WORDS), weight: 3 }, { arbitrary: fc.constantFrom(...NUMERIC_IDS), weight: 1 });
  }
}

/** Fixed values for the date-time patterns the contract writes (their generic sample would be a real but odd date). */
const PATTERN_EXAMPLES: ReadonlyMap<string, string> = new Map([
  [CAL_DATE_TIME, '2030-06-15 10:00:00'],
  [CAL_LOCAL_DATE_TIME, '2030-06-15 10:00:00'],
]);

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  email: FIXED_TEXT.email,
  uri: FIXED_TEXT.url,
  tel: FIXED_TEXT.phone,
  'date-time': '2030-06-15T10:00:00',
  'hex-color': FIXED_TEXT.color,
};

/** The range a plausible integer is drawn from: the documented bounds, else WordPress's collection range 1..100. */
function plausibleRange(schema: JsonSchema): { min: number; max: number } {
  let min = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
  let max = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : Math.max(min, 100);
  if (typeof schema.exclusiveMinimum === 'number') min = Math.max(min, Math.floor(schema.exclusiveMinimum) + 1);
  if (typeof schema.exclusiveMaximum === 'number') max = Math.min(max, Math.ceil(schema.exclusiveMaximum) - 1);
  if (typeof schema.minimum !== 'number' && typeof schema.maximum === 'number' && max < min) min = max;
  return { min, max: Math.max(min, max) };
}

export function plausibleIntegerArb(schema: JsonSchema): fc.Arbitrary<number> {
  return fc.integer(plausibleRange(schema));
}

function firstSample<T>(arb: fc.Arbitrary<T>): T {
  return fc.sample(arb, { seed: 1, numRuns: 1 })[0]!;
}

function fits(schema: JsonSchema, s: string): boolean {
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(s)) return false;
  if (typeof schema.minLength === 'number' && [...s].length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && [...s].length > schema.maxLength) return false;
  return true;
}

function plausibleString(schema: JsonSchema, name: string): string {
  if (typeof schema.pattern === 'string') {
    const known = PATTERN_EXAMPLES.get(schema.pattern);
    if (known) return known;
    const candidates = [FIXED_TEXT[textKind(name)], 'site-contracts', 'concert', 'Concert', '1', 'abc_1'];
    return candidates.find((c) => fits(schema, c)) ?? firstSample(patternArb(schema.pattern));
  }
  if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format]!;
  let text = FIXED_TEXT[textKind(name)];
  if (typeof schema.maxLength === 'number') text = [...text].slice(0, schema.maxLength).join('');
  if (typeof schema.minLength === 'number') while ([...text].length < schema.minLength) text += 'x';
  return text;
}

function typesOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : schema.type !== undefined ? [schema.type as string] : [];
}

function inEnum(schema: JsonSchema, v: unknown): boolean {
  return Array.isArray(schema.enum) && schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(v));
}

/** `count` distinct plausible items for an array node. */
export function plausibleItems(schema: JsonSchema, name: string, count: number): unknown[] {
  const items = (schema.items ?? {}) as JsonSchema;
  const first = plausibleValue(items, name);
  if (count <= 1) return count === 1 ? [first] : [];
  if (Array.isArray(items.enum)) {
    const pool = [first, ...(items.enum as unknown[]).filter((e) => JSON.stringify(e) !== JSON.stringify(first))];
    return Array.from({ length: count }, (_, i) => pool[i % pool.length]);
  }
  return Array.from({ length: count }, (_, i) => {
    if (typeof first === 'number') return first + i;
    if (typeof first === 'string') return i === 0 ? first : `${first}${i + 1}`;
    return first;
  });
}

/**
 * One valid, plausible typed value for a schema, the same every time: the documented default when it is valid,
 * else the first allowed value, else a value shaped by the field's name. Objects get their required properties.
 */
export function plausibleValue(schema: JsonSchema, name = ''): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return inEnum(schema, schema.default) ? schema.default : schema.enum[0];
  const types = typesOf(schema).filter((t) => t !== 'null');
  const type = types[0];
  if (type === undefined) return schema.default !== undefined && schema.default !== null ? schema.default : FIXED_TEXT[textKind(name)];
  switch (type) {
    case 'string':
      return typeof schema.default === 'string' && fits(schema, schema.default) && typeof schema.format !== 'string' ? schema.default : plausibleString(schema, name);
    case 'integer':
    case 'number': {
      const { min, max } = plausibleRange(schema);
      const d: unknown = schema.default;
      if (typeof d === 'number' && d >= min && d <= max && (type === 'number' || Number.isInteger(d))) return d;
      return Math.min(Math.max(1, min), max);
    }
    case 'boolean':
      return typeof schema.default === 'boolean' ? schema.default : true;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
      const d: unknown = schema.default;
      if (Array.isArray(d) && d.length >= min && d.length <= max && d.length > 0) return d;
      return plausibleItems(schema, name, Math.min(max, Math.max(1, min)));
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const r of (schema.required as string[] | undefined) ?? []) if (props[r]) out[r] = plausibleValue(props[r]!, r);
      return out;
    }
    default:
      return FIXED_TEXT.words;
  }
}
