// Strings that satisfy — or break — a `pattern` or a `format`, on both sides: the contract's validator
// (ajv + ajv-formats + the `tel`/`double` rules of contracts/lib/ajv.ts) and WordPress (PCRE patterns,
// is_email()). Where the two could disagree, the generators stay on the side where they agree.
import fc from 'fast-check';
import { isTel } from '../ajv.ts';

/** The two date-time forms of the contract, built field by field so the dates are real calendar dates. */
export const CAL_DATE_TIME = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[T ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?$';
export const CAL_LOCAL_DATE_TIME = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A calendar date and a time of day: `2024-02-29`, `23:59:07`. */
const dateParts = fc
  .record({ year: fc.integer({ min: 1970, max: 2099 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) }, { noNullPrototype: true })
  .map(({ year, month, day }) => `${pad(year, 4)}-${pad(month)}-${pad(Math.min(day, daysIn(year, month)))}`);
const timeParts = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m, s]) => `${pad(h)}:${pad(m)}:${pad(s)}`);

/** `YYYY-MM-DD HH:MM:SS`: digits only, one space. */
export const localDateTime: fc.Arbitrary<string> = fc.tuple(dateParts, timeParts).map(([d, t]) => `${d} ${t}`);

/** RFC 3339 as cal/v1 documents it: `T` or a space, optional fraction, optional `Z` or numeric offset. */
export const calDateTime: fc.Arbitrary<string> = fc
  .record(
    {
      date: dateParts,
      sep: fc.constantFrom('T', ' '),
      time: timeParts,
      fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
      zone: fc.option(
        fc.oneof(
          fc.constant('Z'),
          fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45)).map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
        ),
        { nil: undefined },
      ),
    },
    { noNullPrototype: true },
  )
  .map(({ date, sep, time, fraction, zone }) => `${date}${sep}${time}${fraction !== undefined ? `.${fraction}` : ''}${zone ?? ''}`);

/** Near misses of a date-time: every field pushed out of range once, wrong separators, truncation, prose. */
function dateTimeNearMisses(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    base.map((s) => s.replace(/^(\d{4})-\d{2}/, '$1-13')),
    base.map((s) => s.replace(/^(\d{4}-\d{2})-\d{2}/, '$1-32')),
    base.map((s) => s.replace(/^(\d{4}-\d{2}-\d{2}.)\d{2}/, '$124')),
    base.map((s) => s.replace(/^(\d{4}-\d{2}-\d{2}.\d{2}):\d{2}/, '$1:60')),
    base.map((s) => s.replace(/^(\d{4})-(\d{2})-(\d{2})/, '$1/$2/$3')),
    base.map((s) => s.replace(/^(\d{4}-\d{2}-\d{2})./, '$1_')),
    base.map((s) => s.slice(0, 16)),
    base.map((s) => s.slice(0, 10)),
    base.map((s) => `${s}x`),
    base.map((s) => ` ${s}`),
    fc.constantFrom('', 'now', 'tomorrow', '31/12/2024 10:00', '2024-1-5 10:00:00', '20240105T100000'),
  );
}

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);

/**
 * The domains an address the suite sends may name (RFC 2606, RFC 6761): a site that fetches a URL it is given (oEmbed's
 * proxy with discover=true, a remote image) or mails an address must never reach a real host of someone else's.
 */
const RESERVED_DOMAINS: readonly string[] = ['example.com', 'example.org', 'example.net', 'test', 'invalid', 'example'];

/** Whether a host name is one of the reserved domains or under one. */
export function isReservedHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return RESERVED_DOMAINS.some((d) => h === d || h.endsWith(`.${d}`));
}

/** A host under a reserved domain: `tickets.example.org`, `a-1.test`. */
const reservedHost: fc.Arbitrary<string> = fc
  .tuple(fc.array(label, { minLength: 0, maxLength: 2 }), fc.constantFrom(...RESERVED_DOMAINS))
  .map(([labels, domain]) => [...labels, domain].join('.'))
  .filter((h) => h.includes('.'));

/** A valid local part and domain for both ajv-formats' `email` and WordPress's is_email(), at a reserved domain. */
export const email: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.stringMatching(/^[a-z0-9_+-]{1,10}$/), { minLength: 1, maxLength: 2 }), reservedHost)
  .map(([local, host]) => `${local.join('.')}@${host}`);

/** Addresses without exactly one `@` between a local part and a dotted domain: both validators refuse them. */
const notEmail: fc.Arbitrary<string> = fc.oneof(
  email.map((e) => e.replace('@', '')),
  email.map((e) => e.replace('@', '@@')),
  email.map((e) => `@${e.split('@')[1]}`),
  email.map((e) => e.replace('@', ' at ')),
  fc.constantFrom('', 'not-an-email', 'user.example.org'),
);

/** http(s) URLs that ajv-formats' `uri` accepts and esc_url_raw() leaves as they are, on reserved hosts only. */
export const uri: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('http', 'https'), reservedHost, fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), { maxLength: 3 }))
  .map(([scheme, host, segs]) => `${scheme}://${host}/${segs.join('/')}`);

/** Relative references and prose: no scheme, so not a URI. */
const notUri: fc.Arbitrary<string> = fc.oneof(
  uri.map((u) => u.replace(/^https?:\/\//, '')),
  uri.map((u) => u.replace(/^https?:\/\//, '//')),
  fc.constantFrom('', 'not a url', 'www.example.org', '/relative/path'),
);

/** Phone numbers under the contract's `tel` rule (contracts/lib/ajv.ts): digits, spaces, `+().-`, at least 3 digits. */
export const tel: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('', '+'), fc.array(fc.stringMatching(/^[0-9]{2,4}$/), { minLength: 2, maxLength: 4 }), fc.constantFrom(' ', '-', '.'))
  .map(([plus, groups, sep]) => `${plus}${groups.join(sep)}`)
  .filter(isTel);

const notTel: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '12', 'call me', 'ext. 12', '+'),
  tel.map((t) => `${t}x`),
  tel.map((t) => `tel:${t}`),
).filter((s) => !isTel(s));

/**
 * Valid strings for a format the contract uses; undefined for one the generators do not know, which the coverage
 * report then counts as a constraint without a generator. (The contract writes its date-times as patterns.)
 */
export function formatArb(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case 'email':
      return email;
    case 'uri':
      return uri;
    case 'tel':
      return tel;
    default:
      return undefined;
  }
}

/** Strings that break a format, on the contract's side at least (wire-status.ts says whether WordPress agrees). */
export function notFormatArb(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case 'email':
      return notEmail;
    case 'uri':
      return notUri;
    case 'tel':
      return notTel;
    default:
      return undefined;
  }
}

/** Patterns with a builder of their own (fast-check's stringMatching would give valid but unreal dates). */
const PATTERN_BUILDERS: ReadonlyMap<string, { valid: fc.Arbitrary<string>; invalid: fc.Arbitrary<string> }> = new Map([
  [CAL_DATE_TIME, { valid: calDateTime, invalid: dateTimeNearMisses(calDateTime) }],
  [CAL_LOCAL_DATE_TIME, { valid: localDateTime, invalid: dateTimeNearMisses(calDateTime) }],
]);

/**
 * PCRE's `$` also matches before a final newline, JavaScript's does not: a value that only the newline keeps
 * off the pattern would be accepted by WordPress. Violations stay clear of that.
 */
function offPatternEverywhere(re: RegExp, s: string): boolean {
  return !re.test(s) && !re.test(s.replace(/\n$/, ''));
}

/** A path segment that URL normalisation would swallow (`.`, `..`) cannot carry a value. */
function survivesUrl(s: string): boolean {
  return !/^\.+$/.test(s);
}

/** `^[^/]+$`: one negated character class, repeated. */
const NEGATED_CLASS = /^\^\[\^[^\]]+\]([+*])\$$/;

/** `^[A-Za-z0-9_-]+$`: one class of plain characters and ranges (no escape, no negation), repeated. */
const PLAIN_CLASS = /^\^\[([^\]\\^][^\]\\]*)\]([+*])\$$/;

/** The characters of a PLAIN_CLASS pattern (a `-` first or last is itself), or undefined for any other pattern. */
function classCharacters(pattern: string): { characters: string[]; minLength: number } | undefined {
  const m = PLAIN_CLASS.exec(pattern);
  if (!m) return undefined;
  const body = [...m[1]!];
  const out = new Set<string>();
  for (let i = 0; i < body.length; i++) {
    const from = body[i]!;
    const to = body[i + 2];
    if (body[i + 1] === '-' && to !== undefined) {
      const [a, b] = [from.codePointAt(0)!, to.codePointAt(0)!];
      if (a > b) return undefined;
      for (let c = a; c <= b; c++) out.add(String.fromCodePoint(c));
      i += 2;
    } else {
      out.add(from);
    }
  }
  return { characters: [...out], minLength: m[2] === '+' ? 1 : 0 };
}

/** Valid strings for an anchored pattern. */
export function patternArb(pattern: string): fc.Arbitrary<string> {
  const built = PATTERN_BUILDERS.get(pattern);
  if (built) return built.valid;
  const re = new RegExp(pattern, 'u');
  // fast-check builds a negated class as "any character, filtered against each excluded one", character by
  // character, which made such patterns the costliest values of a run; the few characters they exclude are
  // rare in generated text, so filtering whole strings gives the same values for a fraction of the work.
  const negated = NEGATED_CLASS.exec(pattern);
  if (negated) return fc.string({ minLength: negated[1] === '+' ? 1 : 0, maxLength: 16 }).filter((s) => re.test(s) && survivesUrl(s));
  // A class of plain characters, repeated (`^[0-9]+$`, the ids of every path): stringMatching builds its unit from
  // character ranges whose unmapper throws on every longer text fast-check tokenises while making the arbitrary, so
  // building one cost about 50 ms, and a run builds thousands; the same strings from the class's characters cost none.
  const chars = classCharacters(pattern);
  if (chars) return fc.string({ unit: fc.constantFrom(...chars.characters), minLength: chars.minLength, maxLength: 16 }).filter((s) => re.test(s) && survivesUrl(s));
  return fc.stringMatching(re).filter((s) => re.test(s) && survivesUrl(s));
}

/** Strings off a pattern: small edits of valid strings (a forbidden character, a cut, a suffix) and random text. */
export function notPatternArb(pattern: string): fc.Arbitrary<string> {
  const re = new RegExp(pattern, 'u');
  const built = PATTERN_BUILDERS.get(pattern);
  const valid = patternArb(pattern);
  const edits = fc.oneof(
    fc.tuple(valid, fc.constantFrom('/', ' ', '.', '#', '?', 'é', '!', ',', 'x', '-', '_', '0')).map(([s, c]) => `${s}${c}`),
    fc.tuple(valid, fc.constantFrom('/', ' ', '.', '#', '?', 'é', '!', ',', 'x', '-', '_', '0')).map(([s, c]) => `${c}${s}`),
    fc.constant(''),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
  const candidates = built ? fc.oneof(built.invalid, edits) : edits;
  return candidates.filter((s) => offPatternEverywhere(re, s));
}

/** Characters a path segment carries as they are: encodeURIComponent() leaves them alone, and so does PHP. */
const URL_SAFE_SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,15}$/;
// Built once, as plausible.ts's SLUG: an arbitrary is a value, and building this one is most of what generating costs.
const SAFE_SEGMENT = fc.stringMatching(URL_SAFE_SEGMENT);

/**
 * Valid path values that read the same percent-encoded or not. WordPress does not decode a pretty path
 * (`/wp-json/.../by-slug/a%20b` reaches the route as `a%20b`) but decodes `?rest_route=` once, so only such
 * values reach the route identically in both permalink styles.
 */
export function pathSegmentArb(pattern: string | undefined): fc.Arbitrary<string> {
  const safe = SAFE_SEGMENT;
  if (pattern === undefined) return safe;
  const re = new RegExp(pattern, 'u');
  // A pattern that admits characters needing encoding (`[^/]+`) is narrowed to the safe ones; any other already is.
  const permissive = ['a b', 'a%b', 'a?b'].some((s) => re.test(s));
  return permissive ? safe.filter((s) => re.test(s)) : patternArb(pattern).filter((s) => encodeURIComponent(s).replace(/%2C/g, ',') === s);
}

