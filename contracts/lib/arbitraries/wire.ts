// Typed values ⇄ wire values, following WordPress's reading of a request. The reading itself is the WordPress layer's
// (contracts/wordpress/): query strings and form bodies are parsed by its parse_str() (php-query.ts), and each value is
// read by its coerceValue() with the validator port's own type tests ("5" and "5.0" are integers, "yes" is no
// boolean, "1,2" is a list, "" an empty object), so what the contract's validator checks is what WordPress sees.
// JSON bodies follow the same rules: WordPress coerces "5" for an integer there too.
import type { Operation, TypedRequest, JsonSchema, ParamLocation } from '../types.ts';
import { coerceValue } from '../../wordpress/schema/coerce.ts';
import type { BodyEncoding, Encoding, WireBody, WireRequest, WireValue } from './model.ts';
import { encodePhpQuery, parsePhpQuery } from './php-query.ts';

/** Which of WordPress's accepted spellings a request uses. One style per request keeps samples shrinkable. */
export interface WireStyle {
  /** Arrays of plain items in a query string or form: `a=1,2` or `a[]=1&a[]=2`. */
  arrays: 'comma' | 'brackets';
  /** Integers in a query string or form: `5` or `5.0`. */
  integers: 'plain' | 'decimal';
  /** Booleans in a query string or form: `true`/`false`, `1`/`0`, or mixed case `TRUE`/`False`. */
  booleans: 'word' | 'digit' | 'mixed-case';
  /** Scalars in a JSON body: native JSON (`5`, `true`) or strings (`"5"`, `"true"`), which WordPress coerces alike. */
  json: 'native' | 'strings';
}

export const PLAIN_STYLE: WireStyle = { arrays: 'comma', integers: 'plain', booleans: 'word', json: 'native' };

const COMMA_SAFE = /^[^\s,]+$/;

function typeFor(schema: JsonSchema, v: unknown): string | undefined {
  const t = schema.type;
  if (!Array.isArray(t)) return t as string | undefined;
  if (Array.isArray(v)) return 'array';
  if (v !== null && typeof v === 'object') return 'object';
  if (typeof v === 'number') return Number.isInteger(v) && t.includes('integer') ? 'integer' : 'number';
  return typeof v;
}

function scalarForText(v: unknown, style: WireStyle): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') {
    if (style.booleans === 'digit') return v ? '1' : '0';
    if (style.booleans === 'mixed-case') return v ? 'TRUE' : 'False';
    return v ? 'true' : 'false';
  }
  if (typeof v === 'number') return Number.isInteger(v) && style.integers === 'decimal' ? `${v}.0` : String(v);
  if (v === null || v === undefined) return '';
  return JSON.stringify(v);
}

/** A list as a query string or form carries it: comma-joined when every item allows it, else in brackets. */
export function textList(items: WireValue[], style: WireStyle, allowComma = true): WireValue {
  if (items.length === 0) return ''; // wp_parse_list('') is the empty list; brackets cannot write one
  const commaOk = allowComma && items.every((i) => typeof i === 'string' && COMMA_SAFE.test(i));
  return style.arrays === 'comma' && commaOk ? (items as string[]).join(',') : items;
}

function subSchema(schema: JsonSchema, key: string): JsonSchema | undefined {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  if (props[key]) return props[key];
  const ap = schema.additionalProperties;
  return ap && typeof ap === 'object' ? (ap as JsonSchema) : undefined;
}

/** Render a typed value for a query string or a form body (strings nested in PHP arrays). */
function renderText(schema: JsonSchema | undefined, v: unknown, style: WireStyle): WireValue {
  const type = schema ? typeFor(schema, v) : undefined;
  if (Array.isArray(v)) {
    const items = v.map((x) => renderText(schema?.items as JsonSchema | undefined, x, style));
    // A union with `string` would read a comma list as one string; brackets keep it a list.
    const union = Array.isArray(schema?.type);
    return textList(items, style, !union);
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return ''; // rest_is_object('') — the only way to write {}
    return Object.fromEntries(entries.map(([k, x]) => [k, renderText(schema ? subSchema(schema, k) : undefined, x, style)]));
  }
  if (type === 'integer' || type === 'number' || type === 'boolean' || typeof v !== 'string') return scalarForText(v, style);
  return v;
}

/** Render a typed value for a JSON body. */
function renderJson(schema: JsonSchema | undefined, v: unknown, style: WireStyle): WireValue {
  if (Array.isArray(v)) return v.map((x) => renderJson(schema?.items as JsonSchema | undefined, x, style));
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, renderJson(schema ? subSchema(schema, k) : undefined, x, style)]));
  }
  const type = schema ? typeFor(schema, v) : undefined;
  const typedScalar = type === 'integer' || type === 'number' || type === 'boolean';
  if (style.json === 'strings' && typedScalar && (typeof v === 'number' || typeof v === 'boolean')) return String(v);
  return v as WireValue;
}

/** The wire form of a valid typed value in one encoding and style. */
export function render(schema: JsonSchema | undefined, typed: unknown, encoding: Encoding, style: WireStyle): WireValue {
  return encoding === 'json' ? renderJson(schema, typed, style) : renderText(schema, typed, style);
}

export function contentType(encoding: BodyEncoding): string {
  return encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
}

export function bodyOf(encoding: BodyEncoding, values: Record<string, WireValue>): WireBody {
  return encoding === 'json' ? { json: values } : { form: encodePhpQuery(values) };
}

/**
 * Percent-encode one path segment. Commas stay literal (`stream/1,2,3` reads better and means the same to every
 * router); `+`, `&`, `=`, `?`, `#` are encoded because WordPress passes the route through parse_str(), which
 * would read them as query syntax.
 */
export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',');
}

/** Fill a path template with URL-encoded values: `/cal/v1/events/{id}` → `/cal/v1/events/5`. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeSegment(params[name] ?? ''));
}

function schemasAt(op: Operation, location: ParamLocation): Map<string, JsonSchema> {
  return new Map(op.params.filter((p) => p.in === location).map((p) => [p.name, p.schema]));
}

function coerceAll(schemas: Map<string, JsonSchema>, values: Record<string, WireValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const s = schemas.get(k);
    out[k] = s ? coerceValue(s, v) : v;
  }
  return out;
}

/** The body's parameters as WordPress parses them (json_decode, or parse_str for a form). */
export function bodyValues(body: WireBody): Record<string, WireValue> {
  return 'json' in body ? (JSON.parse(JSON.stringify(body.json)) as Record<string, WireValue>) : parsePhpQuery(body.form);
}

/**
 * The typed form of a wire request — what WordPress's validator sees after parsing the query string and the body
 * the PHP way and coercing each value (contracts/wordpress/schema/coerce.ts). Validate it with `contract.validate(op, typed)`.
 */
export function toTyped(op: Operation, request: WireRequest): TypedRequest {
  const typed: TypedRequest = {
    path: coerceAll(schemasAt(op, 'path'), request.pathParams),
    query: coerceAll(schemasAt(op, 'query'), parsePhpQuery(encodePhpQuery(request.query))),
  };
  if (request.body) typed.body = coerceAll(schemasAt(op, 'body'), bodyValues(request.body));
  return typed;
}

/** The query string of a request (without `?`), PHP bracket style. */
export function queryString(request: WireRequest): string {
  return encodePhpQuery(request.query);
}

/** The body as sent: its content type and payload. */
export function encodeBody(request: WireRequest): { contentType: string; payload: string } | undefined {
  if (!request.body) return undefined;
  if ('json' in request.body) return { contentType: contentType('json'), payload: JSON.stringify(request.body.json) };
  return { contentType: contentType('form'), payload: request.body.form };
}

/**
 * The absolute URL of a request. `apiRoot` is either a path (`/wp-json`, `/uk/wp-json`: pretty permalinks) or ends in
 * `?rest_route=` (`/?rest_route=`, `/uk/?rest_route=`: plain permalinks, the route travels as a query variable).
 * Generated path values need no percent-encoding, so both styles hand WordPress the same values (it does not
 * decode a pretty path, and decodes `rest_route` once).
 */
export function toUrl(baseUrl: string, apiRoot: string, request: WireRequest): string {
  const base = baseUrl.replace(/\/+$/, '');
  const qs = queryString(request);
  const marker = apiRoot.indexOf('?rest_route=');
  if (marker !== -1) {
    const prefix = apiRoot.slice(0, marker).replace(/\/*$/, '/');
    // The path's segments are already percent-encoded where needed; PHP decodes the query variable once.
    return `${base}${prefix.startsWith('/') ? prefix : `/${prefix}`}?rest_route=${request.path}${qs ? `&${qs}` : ''}`;
  }
  const root = `/${apiRoot.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  return `${base}${root}${request.path}${qs ? `?${qs}` : ''}`;
}
