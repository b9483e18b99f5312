// Holds under bad input: random methods, paths, query strings, headers and bodies, and the generators' valid and
// one-constraint-violating requests for every operation, driven through the mock. Counted: 5xx answers and
// handler crashes (the core turns a thrown error into a 500 and reports it) - both must be 0. Violations WordPress
// itself refuses must also answer 400.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyViolation, encodeBody, toUrl, validRequest, type WireRequest } from '../../contracts/lib/arbitraries/index.ts';
import type { Mock } from './index.ts';
import { freshMock, sharedContract } from './testing/harness.ts';

const SEED = Number(process.env.FC_SEED ?? 20261122);

interface Tally {
  requests: number;
  fiveHundreds: string[];
  crashes: string[];
}

async function instrumented(): Promise<{ mock: Mock; tally: Tally }> {
  const tally: Tally = { requests: 0, fiveHundreds: [], crashes: [] };
  const mock = await freshMock({ onError: (err) => tally.crashes.push(err instanceof Error ? (err.stack ?? err.message) : String(err)) });
  return { mock, tally };
}

function send(mock: Mock, tally: Tally, method: string, url: string, headers: Record<string, string>, body?: string | Uint8Array): number {
  tally.requests++;
  let status: number;
  try {
    status = mock.handleNow({ method, url, headers: { host: '127.0.0.1:4010', ...headers }, origin: 'http://127.0.0.1:4010', ...(body !== undefined ? { body } : {}) }).status;
  } catch (err) {
    tally.crashes.push(`${method} ${url}: ${String(err)}`);
    return 0;
  }
  if (status >= 500) tally.fiveHundreds.push(`${method} ${url} ${typeof body === 'string' ? body.slice(0, 200) : ''} → ${status}`);
  return status;
}

function sendWire(mock: Mock, tally: Tally, req: WireRequest, root: string): number {
  const enc = encodeBody(req);
  const headers: Record<string, string> = { ...req.headers };
  if (enc) headers['content-type'] = enc.contentType;
  return send(mock, tally, req.method, toUrl('', root, req), headers, enc?.payload);
}

const ROOTS = ['/wp-json', '/uk/wp-json', '/?rest_route='];

describe('no 5xx, no crash', () => {
  it('random requests: methods, paths, queries, headers and bodies', async () => {
    const { mock, tally } = await instrumented();
    const segment = fc.oneof(
      fc.constantFrom('cal', 'v1', 'events', 'venues', 'organizers', 'categories', 'tags', 'by-slug', 'events/v1', 'batch', 'forms', 'contact-forms', 'feedback', 'lms', 'token', 'seo', 'an', 'i18n', 'st', 'strings', 'pagebuilder-one', 'plugins', 'sliderrevolution', 'sliders', 'oembed', '1.0', 'importer', 'import', 'state', '0', '1', '92', '999999999999999999999'),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('%', '%zz', '%2F', '%00', '..', '\\', 'é', 'Київ', '%d0%ba', '+', ' ', '?', '#'),
    );
    const path = fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`);
    const url = fc.tuple(fc.constantFrom('/wp-json', '/uk/wp-json', '/en/wp-json', '/?rest_route=', '/index.php?rest_route=', '', '/__mock'), path, fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 12 })), { maxLength: 5 }))
      .map(([root, p, q]) => {
        const qs = q.map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(v)}`).join('&');
        if (root.endsWith('rest_route=')) return `${root}${p}${qs ? `&${qs}` : ''}`;
        return `${root}${p}${qs ? `?${qs}` : ''}`;
      });
    const globals = fc.constantFrom('', '_envelope', '_embed', '_fields=id,title.rendered', '_jsonp=cb', '_jsonp=1;x', '_pretty', '_method=DELETE', '_method=PUT', 'per_page=abc', 'page=-1', 'status[]=draft', 'force=1', 'requests=x');
    const body = fc.oneof(
      fc.constant(undefined),
      fc.json().map((j) => ({ type: 'application/json', text: j })),
      fc.string({ maxLength: 40 }).map((s) => ({ type: 'application/json', text: s })),
      fc.string({ maxLength: 40 }).map((s) => ({ type: 'application/x-www-form-urlencoded', text: s })),
      fc.dictionary(fc.constantFrom('title', 'status', 'requests', 'start_date', 'per_page', 'name', 'slug', 'venue', 'force', 'id', 'url', 'mode', 'module', 'state'), fc.jsonValue(), { maxKeys: 5 }).map((o) => ({ type: 'application/json', text: JSON.stringify(o) })),
      fc.uint8Array({ maxLength: 30 }).map((b) => ({ type: 'application/json', bytes: b })),
      // multipart/form-data: well-formed parts with odd names and values, or any text under a boundary.
      fc
        .tuple(
          fc.constantFrom('b', '----x', '"q"', ''),
          fc.array(fc.tuple(fc.oneof(fc.constantFrom('title', 'requests[0][path]', 'tags[]', 'a[b][c]', '"'), fc.string({ maxLength: 8 })), fc.string({ maxLength: 12 }), fc.boolean()), { maxLength: 4 }),
          fc.string({ maxLength: 30 }),
        )
        .map(([boundary, parts, junk]) => {
          const b = boundary.replace(/"/g, '');
          const text = parts.map(([name, value, file]) => `--${b}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="f"' : ''}\r\n\r\n${value}\r\n`).join('') + (junk ? junk : `--${b}--\r\n`);
          return { type: `multipart/form-data; boundary=${boundary}`, text };
        }),
    );
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'get', 'PROPFIND');
    const extra = fc.record({ override: fc.option(fc.constantFrom('DELETE', 'PATCH', 'GET', 'BOGUS'), { nil: undefined }), origin: fc.option(fc.constantFrom('http://localhost:3000', 'null', 'javascript:alert(1)'), { nil: undefined }), auth: fc.option(fc.constantFrom('Basic YWRtaW46eA==', 'Basic !!!', 'Bearer x'), { nil: undefined }) });
    fc.assert(
      fc.property(method, url, globals, body, extra, (m, u, g, b, x) => {
        const withGlobal = g ? `${u}${u.includes('?') ? '&' : '?'}${g}` : u;
        const headers: Record<string, string> = {};
        if (x.override) headers['x-http-method-override'] = x.override;
        if (x.origin) headers.origin = x.origin;
        if (x.auth) headers.authorization = x.auth;
        let payload: string | Uint8Array | undefined;
        if (b) {
          headers['content-type'] = b.type;
          payload = 'bytes' in b ? b.bytes : b.text;
        }
        send(mock, tally, m, withGlobal, headers, payload);
      }),
      { seed: SEED, numRuns: 3000 },
    );
    expect(tally.fiveHundreds).toEqual([]);
    expect(tally.crashes).toEqual([]);
  });

  it("the generators' valid requests for every operation, under all three API roots", async () => {
    const { mock, tally } = await instrumented();
    const contract = sharedContract();
    for (const op of contract.operations) {
      const samples = fc.sample(validRequest(contract, op.id), { seed: SEED, numRuns: 12 });
      samples.forEach((req, i) => sendWire(mock, tally, req, ROOTS[i % ROOTS.length]!));
    }
    expect(tally.requests).toBe(contract.operations.length * 12);
    expect(tally.fiveHundreds).toEqual([]);
    expect(tally.crashes).toEqual([]);
  });

  it("the generators' violating requests: WordPress-refused ones answer 400, none answers 5xx", async () => {
    const { mock, tally } = await instrumented();
    const contract = sharedContract();
    const not400: string[] = [];
    for (const op of contract.operations) {
      for (const wireOnly of [true, false]) {
        const arb = anyViolation(contract, op.id, { wireOnly });
        if (!arb) continue;
        const samples = fc.sample(arb, { seed: SEED, numRuns: 8 });
        samples.forEach((v, i) => {
          const status = sendWire(mock, tally, v.request, ROOTS[i % ROOTS.length]!);
          // A parameter the contract marks x-wire-enforced: false is only sanitized by WordPress (the oEmbed proxy's
          // maxwidth goes through absint()): a value of the wrong type is cleaned, not refused.
          const [, location, param] = /^\/(path|query|body)\/([^/]+)/.exec(v.expected.instancePath) ?? [];
          const sanitizedOnly = op.params.some((p) => p.in === location && p.name === param && !p.enforcedOnWire);
          if (wireOnly && status !== 400 && !sanitizedOnly) not400.push(`${v.constraintId} → ${status}`);
        });
      }
    }
    expect(tally.requests).toBeGreaterThan(1000);
    expect(tally.fiveHundreds).toEqual([]);
    expect(tally.crashes).toEqual([]);
    expect(not400).toEqual([]);
  });
});
