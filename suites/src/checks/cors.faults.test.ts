// The CORS headers of rest_send_cors_headers() and WP_REST_Server::serve_request() proven both ways, one header at a
// time: each fault leaves every other CORS header as WordPress sends it and breaks one at its edge (another origin
// echoed, Origin dropped from a Vary that still names something, one name short of the Allow-Headers list), and the
// cors check alone fails, naming that header, on the operations it reads (the REST root and a list of each namespace).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, withHeader, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const ONLY = 'cors';

const originOf = (req: MockRequest): string | undefined => Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'origin')?.[1];

/** Every answer to a request that sent an Origin (null aside), with `name` set to `value(origin)`. */
function onCors(name: string, value: (origin: string, current: string | undefined) => string | undefined): Fault {
  return (req, next) => {
    const res = next(req);
    const origin = originOf(req);
    if (origin === undefined || origin === 'null') return res;
    const current = Object.entries(res.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    return withHeader(res, name, value(origin, current));
  };
}

/**
 * The cases the fault makes fail: their variants, messages and checks. Every operation the check reads (the root and
 * a list of each namespace) fails in both its CORS requests, the simple GET and the preflight, and in nothing else.
 */
async function corsFailures(fault: Fault): Promise<{ variants: string[]; messages: string[]; checks: string[] }> {
  const failed = await failedBy(h, fault, ONLY);
  const clean = (await h.run(undefined, ONLY)).run.cases.filter((c) => c.check === 'cors' && (c.variant === 'simple' || c.variant === 'preflight'));
  expect(failed.map((c) => c.id).sort()).toEqual(clean.map((c) => c.id).sort());
  return { variants: [...new Set(failed.map((c) => c.variant ?? ''))].sort(), messages: failed.map((c) => c.message ?? ''), checks: [...new Set(failed.map((c) => c.check))] };
}

describe('cors: one header of rest_send_cors_headers() off', () => {
  it('passes against the unbroken mock', async () => {
    const clean = await h.run(undefined, ONLY);
    const cors = clean.run.cases.filter((c) => c.check === 'cors');
    expect(cors.length).toBeGreaterThanOrEqual(6);
    // The root among them, and a list of each calendar namespace.
    expect(cors.map((c) => c.id)).toEqual(expect.arrayContaining(['cors:getCalV1Events:simple', 'cors:getCalEventsV1Events:preflight']));
    expect(cors.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(clean.exitCode).toBe(0);
  });

  it("cors: Access-Control-Allow-Origin echoes the site's own front end, not the request's Origin", async () => {
    // An allow-list of one: the answer names an origin, just not the one that asked, so the browser drops it.
    const fault = onCors('Access-Control-Allow-Origin', () => 'https://app.site-contracts.example');
    const { variants, messages, checks } = await corsFailures(fault);
    expect(checks).toEqual(['cors']);
    expect(variants).toEqual(['preflight', 'simple']);
    expect(messages.every((m) => m.includes('Access-Control-Allow-Origin is "https://app.site-contracts.example", not the request\'s Origin'))).toBe(true);
    // Nothing else of the CORS answer is blamed.
    expect(messages.every((m) => !/Vary|Allow-Headers|Allow-Methods|Credentials|Expose/.test(m))).toBe(true);
  });

  it('cors: Access-Control-Allow-Origin is * (with credentials allowed: a browser refuses it)', async () => {
    const { variants, messages } = await corsFailures(onCors('Access-Control-Allow-Origin', () => '*'));
    expect(variants).toEqual(['preflight', 'simple']);
    expect(messages.every((m) => m.includes('Access-Control-Allow-Origin is "*", not the request\'s Origin'))).toBe(true);
  });

  it('cors: Vary with an Origin names Accept-Encoding but not Origin', async () => {
    // A cache in front of the site then serves one origin's answer to another. The answer without an Origin keeps
    // its Vary: Origin (that is the vary variant, another row), so only the CORS answers lack it.
    const fault = onCors('Vary', () => 'Accept-Encoding, Origin-Agent-Cluster');
    const { variants, messages, checks } = await corsFailures(fault);
    expect(checks).toEqual(['cors']);
    expect(variants).toEqual(['preflight', 'simple']);
    expect(messages.every((m) => m.includes('Vary is "Accept-Encoding, Origin-Agent-Cluster": it does not name Origin'))).toBe(true);
    expect(messages.every((m) => !/Allow-Origin|Allow-Headers/.test(m))).toBe(true);
  });

  it('cors: Access-Control-Allow-Headers one name short of WordPress\'s list (X-WP-Nonce left out)', async () => {
    // A preflight for a request signed with a nonce (wp.apiFetch's) is then refused by the browser.
    const fault = onCors('Access-Control-Allow-Headers', (_o, current) => (current ?? '').split(',').map((s) => s.trim()).filter((s) => s.toLowerCase() !== 'x-wp-nonce').join(', '));
    const { variants, messages, checks } = await corsFailures(fault);
    expect(checks).toEqual(['cors']);
    expect(variants).toEqual(['preflight', 'simple']);
    expect(messages.every((m) => m.includes('Access-Control-Allow-Headers is "Authorization, Content-Disposition, Content-MD5, Content-Type": it does not name X-WP-Nonce'))).toBe(true);
  });

  it('cors: Access-Control-Allow-Headers without Content-Type', async () => {
    const fault = onCors('Access-Control-Allow-Headers', () => 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5');
    const { variants, messages } = await corsFailures(fault);
    expect(variants).toEqual(['preflight', 'simple']);
    expect(messages.every((m) => m.includes(': it does not name Content-Type'))).toBe(true);
  });
});
