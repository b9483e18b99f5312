import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadContractFile, parseContract, DEFAULT_CONTRACT_PATH } from '../lib/loader.ts';
import { coerceValue } from '../wordpress/schema/coerce.ts';
import { createAjv } from '../lib/ajv.ts';
import { renderBundle } from '../lib/bundle-io.ts';
import { renderGaps, collectMarks } from '../lib/gaps.ts';
import type { JsonSchema, Operation, ParamSpec } from '../lib/types.ts';
import { INVENTORY, PER_NAMESPACE } from './inventory.ts';
import { FACTS, type Fact } from './facts.ts';

const contractsDir = new URL('..', import.meta.url).pathname;
const contract = loadContractFile();
const byKey = new Map(contract.operations.map((o) => [`${o.method} ${o.path}`, o]));

function opOf(key: string): Operation {
  const op = byKey.get(key);
  if (!op) throw new Error(`no operation ${key}`);
  return op;
}

function paramOf(f: Fact): ParamSpec {
  const p = opOf(f.op).params.find((x) => x.in === f.in && x.name === f.param);
  if (!p) throw new Error(`${f.op}: no ${f.in} parameter ${f.param}`);
  return p;
}

/** A request that is valid apart from `value` at the fact's place: required siblings filled minimally. */
function requestWith(op: Operation, f: Fact, value: unknown) {
  const req = { path: {} as Record<string, unknown>, query: {} as Record<string, unknown>, body: op.bodySchema ? ({} as Record<string, unknown>) : undefined };
  for (const p of op.params.filter((x) => x.required)) {
    const filler = p.in === 'path' ? '1' : p.schema.type === 'object' ? {} : p.schema.type === 'array' ? [] : p.schema.type === 'boolean' ? true : p.schema.type === 'integer' ? 1 : p.schema.enum ? p.schema.enum[0] : p.schema.format === 'uri' ? 'https://example.org/' : 'x';
    (req[p.in] as Record<string, unknown>)[p.name] = filler;
  }
  (req[f.in] as Record<string, unknown>)[f.param] = coerceValue(paramOf(f).schema, value);
  return req;
}

describe('the bundle', () => {
  it('is fresh: contracts/openapi.yaml equals what the sources bundle to', () => {
    const fresh = renderBundle(contractsDir, { readFileSync: (p, e) => readFileSync(p, e), readdirSync: (p) => readdirSync(p) });
    expect(readFileSync(DEFAULT_CONTRACT_PATH, 'utf8') === fresh, 'run `npm run contract:bundle` and commit contracts/openapi.yaml').toBe(true);
  });

  it('is OpenAPI 3.1 with JSON Schema 2020-12', () => {
    expect(contract.doc.openapi).toBe('3.1.0');
    expect(contract.doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('GAPS.md is generated from the marks and fresh', () => {
    const text = renderGaps(parseContract(readFileSync(DEFAULT_CONTRACT_PATH, 'utf8')));
    expect(readFileSync(join(contractsDir, 'GAPS.md'), 'utf8') === text, 'run `npm run contract:gaps` and commit contracts/GAPS.md').toBe(true);
  });
});

describe('the inventory of operations', () => {
  it('has exactly the 204 documented method + path pairs', () => {
    const actual = contract.operations.map((o) => `${o.method} ${o.path}`).sort();
    expect(actual).toEqual([...INVENTORY].sort());
    expect(actual).toHaveLength(204);
  });

  it('has the documented number of operations per namespace', () => {
    const counts: Record<string, number> = {};
    for (const o of contract.operations) counts[o.namespace] = (counts[o.namespace] ?? 0) + 1;
    expect(counts).toEqual(PER_NAMESPACE);
  });

  it('gives every operation a unique operationId, a kind, and i18n_language (en, uk)', () => {
    expect(new Set(contract.operations.map((o) => o.id)).size).toBe(204);
    for (const op of contract.operations) {
      expect(op.kind, op.id).toMatch(/^(root|index|doc|list|read|create|update|delete|batch|action)$/);
      const lang = op.params.find((p) => p.name === 'i18n_language' && p.in === 'query');
      expect(lang?.schema.enum, op.id).toEqual(['en', 'uk']);
      if (op.bodySchema) expect(op.bodySchema.properties.i18n_language.enum, op.id).toEqual(['en', 'uk']);
    }
    // defined once, referenced everywhere
    const raw = readFileSync(DEFAULT_CONTRACT_PATH, 'utf8');
    expect(raw.match(/^ {4}i18n_language:$/gm)).toHaveLength(1);
  });

  it('accepts bodies as JSON and as form-encoded name/value pairs', () => {
    for (const op of contract.operations.filter((o) => o.bodySchema)) {
      expect(op.bodyMediaTypes.sort(), op.id).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    }
  });

  it('has an index route for every namespace but batch/v1', () => {
    const indexes = contract.operations.filter((o) => o.kind === 'index').map((o) => o.path.slice(1));
    const expected = Object.keys(PER_NAMESPACE).filter((n) => n !== '' && n !== 'batch/v1');
    expect(indexes.sort()).toEqual(expected.sort());
  });
});

describe('routing', () => {
  const cases: [string, string, string | null][] = [
    ['GET', '/cal/v1/events/12', 'GET /cal/v1/events/{id}'],
    ['GET', '/cal/v1/events/abc', null],
    ['GET', '/cal/events/v1/events/by-slug/summer-fest', 'GET /cal/events/v1/events/by-slug/{slug}'],
    ['GET', '/cal/events/v1/events/by-slug/a/b', null],
    ['POST', '/cal/importer/v1/import/imp_42/state', 'POST /cal/importer/v1/import/{import_id}/state'],
    ['POST', '/cal/importer/v1/import/imp-42/state', null],
    ['GET', '/sliderrevolution/sliders/home_Hero-2', 'GET /sliderrevolution/sliders/{slider}'],
    ['GET', '/sliderrevolution/sliders/stream/1,2,3', 'GET /sliderrevolution/sliders/stream/{id}'],
    ['GET', '/sliderrevolution/sliders/slides/7', 'GET /sliderrevolution/sliders/slides/{id}'],
    ['GET', '/i18n/tm/v1/xliff/fetch/99', 'GET /i18n/tm/v1/xliff/fetch/{jobId}'],
    ['POST', '/pagebuilder-one/v1/themes/twenty_one/activate', 'POST /pagebuilder-one/v1/themes/{slug}/activate'],
    ['GET', '/', 'GET /'],
    ['GET', '/CAL/V1/EVENTS', 'GET /cal/v1/events'],
  ];
  it.each(cases)('%s %s', (method, route, expected) => {
    const m = contract.match(method, route);
    if (expected === null) expect(m.kind).toBe('no-route');
    else {
      expect(m.kind).toBe('match');
      if (m.kind === 'match') expect(`${m.operation.method} ${m.operation.path}`).toBe(expected);
    }
  });

  it('tells a route that lacks the method apart from no route (WordPress answers both with rest_no_route)', () => {
    expect(contract.match('DELETE', '/cal/v1/events')).toMatchObject({ kind: 'no-method', allowed: ['GET', 'POST'] });
    expect(contract.match('POST', '/cal/v1/events/5')).toMatchObject({ kind: 'no-method', allowed: ['GET', 'PUT', 'PATCH', 'DELETE'], pathParams: { id: '5' } });
    expect(contract.match('GET', '/batch/v1')).toMatchObject({ kind: 'no-method', allowed: ['POST'] });
  });

  it('routes as WordPress registers them: a dot in a route is a regex dot, HEAD is served by GET', () => {
    // Checked on WordPress 6.1.9: GET /wp-json/oembed/1x0/embed answers oEmbed's own 400 (missing url), not rest_no_route.
    expect(contract.match('GET', '/oembed/1x0/embed')).toMatchObject({ kind: 'match', route: { route: '/oembed/1.0/embed' } });
    expect(contract.match('HEAD', '/cal/v1/events')).toMatchObject({ kind: 'match', operation: { id: 'getCalV1Events' } });
    expect(contract.operation('getCalV1EventsById').route).toBe('/cal/v1/events/(?P<id>[0-9]+)');
    expect(contract.methodsFor('/cal/v1/events/5')).toEqual(['GET', 'PUT', 'PATCH', 'DELETE']);
    expect(contract.matching('/nope')).toBeUndefined();
  });
});

describe('facts from the documents', () => {
  it.each(FACTS.map((f) => [`${f.op} ${f.in}.${f.param}`, f] as const))('%s', (_name, f) => {
    const p = paramOf(f);
    const s = p.schema;
    const e = f.expect;
    if (e.type !== undefined) expect(s.type).toBe(e.type);
    if (e.untyped) expect(s.type).toBeUndefined();
    if ('default' in e) expect(s.default).toEqual(e.default);
    if (e.enum) expect(s.enum).toEqual(e.enum);
    if (e.minimum !== undefined) expect(s.minimum).toBe(e.minimum);
    if (e.maximum !== undefined) expect(s.maximum).toBe(e.maximum);
    if (e.pattern) expect(s.pattern).toBe(e.pattern);
    if (e.format) expect(s.format).toBe(e.format);
    if (e.uniqueItems !== undefined) expect(s.uniqueItems).toBe(e.uniqueItems);
    if (e.maxItems !== undefined) expect(s.maxItems).toBe(e.maxItems);
    if (e.required !== undefined) expect(p.required).toBe(e.required);
    if (e.itemsType) expect(s.items?.type).toBe(e.itemsType);
    if (e.itemsEnum) expect(s.items?.enum).toEqual(e.itemsEnum);
    const op = opOf(f.op);
    for (const v of f.accept ?? []) {
      const r = contract.validate(op, requestWith(op, f, v));
      expect(r.issues, `${JSON.stringify(v)} must be accepted`).toEqual([]);
    }
    for (const v of f.reject ?? []) {
      const r = contract.validate(op, requestWith(op, f, v));
      expect(r.valid, `${JSON.stringify(v)} must be rejected`).toBe(false);
      expect(r.issues.every((i) => i.location === f.in && i.param === f.param), JSON.stringify(r.issues)).toBe(true);
    }
  });
});

describe('whole-request constraints', () => {
  const batch = opOf('POST /batch/v1');
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ method: 'POST', path: `/cal/v1/events`, body: { title: `e${i}` } }));

  it('accepts 25 batch requests and rejects 26 with maxItems at /body/requests', () => {
    expect(contract.validate(batch, { path: {}, query: {}, body: { requests: items(25) } }).valid).toBe(true);
    const r = contract.validate(batch, { path: {}, query: {}, body: { requests: items(26) } });
    expect(r.issues.map((i) => [i.keyword, i.instancePath])).toEqual([['maxItems', '/body/requests']]);
  });

  it('rejects a batch item with GET (not batchable) and names it the WordPress way', () => {
    const r = contract.validate(batch, { path: {}, query: {}, body: { requests: [{ method: 'GET', path: '/cal/v1/events' }] } });
    expect(r.issues.map((i) => [i.keyword, i.wpParam])).toEqual([['enum', 'requests[0][method]']]);
  });

  it('requires requests, and path in each item', () => {
    expect(contract.validate(batch, { path: {}, query: {}, body: {} }).issues.map((i) => [i.keyword, i.instancePath])).toEqual([['required', '/body/requests']]);
    expect(contract.validate(batch, { path: {}, query: {}, body: { requests: [{}] } }).issues.map((i) => [i.keyword, i.instancePath])).toEqual([['required', '/body/requests/0/path']]);
  });

  it('accepts batch item headers as a string or a list of strings', () => {
    const ok = contract.validate(batch, { path: {}, query: {}, body: { requests: [{ path: '/x', headers: { A: 'b', C: ['d', 'e'] } }] } });
    expect(ok.issues).toEqual([]);
    const bad = contract.validate(batch, { path: {}, query: {}, body: { requests: [{ path: '/x', headers: { A: 5 } }] } });
    expect(bad.valid).toBe(false);
  });

  it('requires geoloc_lat and geoloc_lng together on the legacy event list', () => {
    const op = opOf('GET /cal/events/v1/events');
    expect(contract.validate(op, { path: {}, query: { geoloc_lat: 50.45, geoloc_lng: 30.52 } }).valid).toBe(true);
    const r = contract.validate(op, { path: {}, query: { geoloc_lat: 50.45 } });
    expect(r.issues.map((i) => [i.keyword, i.instancePath])).toEqual([['dependentRequired', '/query/geoloc_lng']]);
  });

  it('names each missing required body field', () => {
    const op = opOf('POST /cal/importer/v1/import/{import_id}/state');
    const r = contract.validate(op, { path: { import_id: 'x' }, query: {}, body: {} });
    expect(r.issues.map((i) => i.param).sort()).toEqual(['batch_hash', 'message', 'message_slug', 'percentage_complete', 'status']);
  });
});

describe('schemas', () => {
  it('every component schema and every request and response schema compiles with ajv (2020-12, strict, formats)', () => {
    const ajv = createAjv();
    const schemas: [string, JsonSchema][] = [];
    for (const [name, s] of Object.entries(contract.deref.components.schemas as Record<string, JsonSchema>)) schemas.push([`components/schemas/${name}`, s]);
    for (const op of contract.operations) {
      schemas.push([`${op.id} request`, contract.requestSchema(op)]);
      for (const [status, resp] of Object.entries(op.raw.responses as Record<string, JsonSchema>)) {
        const s = resp.content?.['application/json']?.schema;
        if (s) schemas.push([`${op.id} ${status}`, s]);
      }
    }
    for (const [where, s] of schemas) expect(() => ajv.compile(s), where).not.toThrow();
    expect(schemas.length).toBeGreaterThan(204 * 3);
    // Ajv's setup compiles without checking each schema against the meta-schema (the mock's first request would pay
    // for compiling the meta-schema): here, once, every one of them is checked against it.
    for (const [where, s] of schemas) expect(ajv.validateSchema(s), `${where}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
  });

  it('the meta-schema check above fails on a schema JSON Schema does not allow, and strict compiling still refuses a wrong type', () => {
    const ajv = createAjv();
    expect(ajv.validateSchema({ type: 'object', properties: { per_page: { type: 'integer', minimum: '1' } } })).toBe(false);
    expect(ajv.validateSchema({ type: 'object', required: 'id' })).toBe(false);
    expect(() => ajv.compile({ type: 'strnig' })).toThrow();
    expect(() => ajv.compile({ type: 'integer', maximum: 'ten' })).toThrow();
  });

  it('owns the response and reading validators too, each compiled once on its own Ajv', () => {
    const list = contract.operation('getCalV1Events');
    const check = contract.responseCheck(list, '200');
    expect(check).toBeDefined();
    expect(contract.responseCheck(list, '200')).toBe(check);
    expect(check!([])).toEqual([]);
    expect(check!('not a list').length).toBeGreaterThan(0);
    expect(contract.responseCheck(list, '599')).toBeUndefined();
    const reading = { type: 'array', items: { type: 'integer' } };
    expect(contract.readingCheck(reading)!([1, 2])).toEqual([]);
    expect(contract.readingCheck(reading)!(['a'])[0]).toMatchObject({ keyword: 'type' });
    expect(contract.readingCheck(reading)).toBe(contract.readingCheck(reading));
    expect(contract.readingCheck({ $ref: '#/nowhere' })).toBeUndefined();
  });

  it("takes WordPress's 400 whose data.details is an empty PHP array ([]), and only an empty one", () => {
    // has_valid_params() builds details as a PHP array: a validate_callback that returned false adds no entry, and
    // json_encode() writes the empty array as [] (WordPress 6.1, a legacy venue given as an unknown id).
    const check = contract.responseCheck(contract.operation('getCalV1Events'), '400')!;
    const error = (details: unknown) => ({ code: 'rest_invalid_param', message: 'Invalid parameter(s): venue', data: { status: 400, params: { venue: 'Invalid parameter.' }, details } });
    expect(check(error([]))).toEqual([]);
    expect(check(error({ venue: { code: 'rest_invalid_type', message: 'venue is not of type integer.', data: { param: 'venue' } } }))).toEqual([]);
    expect(check(error(['venue'])).map((e) => e.keyword)).toContain('maxItems');
    expect(check(error('venue')).length).toBeGreaterThan(0);
    for (const op of contract.operations) {
      const key = '400' in (op.raw.responses as object) ? '400' : undefined;
      if (key) expect(contract.responseCheck(op, key)!(error([])), op.id).toEqual([]);
    }
  });

  it('compiles all 204 request validators once', () => {
    const fresh = loadContractFile();
    const ms = fresh.compileAll();
    expect(ms).toBeGreaterThan(0);
    expect(fresh.compileAll()).toBeLessThan(ms); // second call reuses the compiled validators
  });

  it("compiles validateBounded()'s validators on their own, once (the mock's: compileAll('bounded'))", () => {
    const fresh = loadContractFile();
    fresh.compileAll();
    // validate()'s compiled first do not serve validateBounded(): its own are compiled now, and reused after.
    const ms = fresh.compileAll('bounded');
    expect(ms).toBeGreaterThan(0);
    expect(fresh.compileAll('bounded')).toBeLessThan(ms);
  });
});

describe('honesty marks', () => {
  const marks = collectMarks(contract.doc);
  const kinds = (list: { mark: { kind: string } }[]) => new Set(list.map((m) => m.mark.kind));

  it('marks every "not shown" the documents state', () => {
    const g = kinds(marks.gaps);
    for (const k of ['response-payload', 'error-codes', 'auth', 'parameters-not-shown', 'plugin-slugs', 'per-page-max', 'status-values', 'rate-limits', 'transitions', 'outbound-events', 'token-format', 'other-namespaces']) {
      expect(g.has(k), k).toBe(true);
    }
    for (const op of contract.operations) {
      const ks = op.gaps.map((x) => x.kind);
      expect(ks, op.id).toEqual(expect.arrayContaining(['response-payload', 'error-codes', 'auth']));
    }
    const daggers = contract.operations.filter((o) => o.gaps.some((x) => x.kind === 'parameters-not-shown'));
    expect(daggers).toHaveLength(56);
    // a † route takes its path parameters and i18n_language, nothing else
    for (const op of daggers) expect(op.params.filter((p) => p.in !== 'path').map((p) => p.name), op.id).toEqual(['i18n_language']);
  });

  it('marks each contradiction the issue names, with both readings and the enforced one', () => {
    const where = (kind: string) => marks.contradictions.filter((c) => c.mark.kind === kind).map((c) => c.owner);
    expect(where('type-vs-description')).toEqual(expect.arrayContaining(['getCalEventsV1Events', 'LegacyEventCreate']));
    expect(where('required-with-default')).toEqual(expect.arrayContaining(['LegacyOrganizerCreate', 'SeoUpdateRedirection']));
    expect(where('default-type')).toContain('getCalEventsV1Categories');
    // show_map/show_map_link: boolean on legacy events (000 §2.1), "typed string here" on venues (§2.2): a type stated
    // for one resource is that resource's documented type, not a contradiction (issue 18).
    expect(where('cross-resource-type')).toEqual([]);
    expect(where('date-format')).toContain('getCalV1Events');
    expect(where('by-slug-required')).toEqual(expect.arrayContaining(['postCalEventsV1VenuesBySlugBySlug', 'putCalEventsV1OrganizersBySlugBySlug']));
    expect(where('enum-missing')).toContain('getOembed10Embed');
    expect(where('untyped').length).toBeGreaterThan(20);
    for (const c of marks.contradictions) {
      expect(c.mark.readings.length, `${c.owner} ${c.mark.kind}`).toBeGreaterThanOrEqual(1);
      expect(c.mark.chosen).toBeLessThan(c.mark.readings.length);
      expect(c.mark.source).toMatch(/^00[01] /);
    }
  });

  it('marks responses by basis: record shapes assumed, statuses and envelopes convention', () => {
    for (const op of contract.operations) {
      for (const [status, resp] of Object.entries(op.raw.responses as Record<string, JsonSchema>)) {
        expect(['documented', 'convention', 'assumed'], `${op.id} ${status}`).toContain(resp['x-basis']);
      }
    }
    expect(contract.deref.components.schemas.CalEvent['x-basis']).toBe('assumed');
    expect(contract.deref.components.schemas.WpError['x-basis']).toBe('convention');
  });

  it('marks the body defaults of updates as describing a create (x-defaults-apply)', () => {
    const withBody = contract.operations.filter((o) => o.bodySchema !== undefined);
    const createOnly = withBody.filter((o) => o.bodyDefaults === 'create');
    expect(createOnly.length).toBe(30);
    expect(createOnly.every((o) => o.kind === 'update')).toBe(true);
    expect(withBody.filter((o) => o.kind === 'update').every((o) => o.bodyDefaults === 'create')).toBe(true);
    // The ones where it matters: update bodies whose fields have defaults (status publish, legacy all_day false...).
    expect(createOnly.filter((o) => o.params.some((p) => p.in === 'body' && p.schema.default !== undefined && p.schema.default !== null)).length).toBe(12);
    expect(withBody.filter((o) => o.kind === 'create').every((o) => o.bodyDefaults === 'always')).toBe(true);
    expect(contract.operations.find((o) => o.method === 'PATCH' && o.path === '/cal/v1/events/{id}')!.raw['x-defaults-apply']).toBe('create');
  });

  it('marks parameters WordPress only sanitizes as not enforced on the wire', () => {
    const url = opOf('GET /oembed/1.0/embed').params.find((p) => p.name === 'url')!;
    expect(url.enforcedOnWire).toBe(false);
    const proxy = opOf('GET /oembed/1.0/proxy');
    expect(proxy.params.filter((p) => !p.enforcedOnWire).map((p) => p.name).sort()).toEqual(['maxheight', 'maxwidth', 'url']);
    const org = opOf('POST /cal/v1/organizers');
    // phone (tel) and website (uri) are only sanitized; title, content, excerpt and template are what WordPress's posts controller does not validate by type.
    expect(org.params.filter((p) => !p.enforcedOnWire).map((p) => p.name).sort()).toEqual(['content', 'excerpt', 'phone', 'template', 'title', 'website']);
    expect(paramOf(FACTS.find((f) => f.param === 'per_page')!).enforcedOnWire).toBe(true);
  });
});
