import { afterEach, describe, expect, it } from 'vitest';
import { TargetUnreachableError } from '../errors.ts';
import { createClient, CUT_BODY_KEPT_BYTES, type ClientOptions } from './client.ts';
import { encodeQuery } from './encode.ts';
import { reachRoot } from './preflight.ts';
import { tokenBucket, type Clock } from './rate.ts';
import { routeUrl } from './target.ts';
import { describeCut, jsonBody } from './types.ts';
import { sendJson, startServer, type TestServer } from '../testing/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function options(url: string, extra: Partial<ClientOptions> = {}): ClientOptions {
  return { target: { baseUrl: url, apiRoot: '/wp-json' }, timeoutMs: 2000, maxRequests: 100, writes: 'all', ...extra };
}

describe('encodeQuery', () => {
  it('writes lists and maps the PHP way and booleans as words', () => {
    expect(decodeURIComponent(encodeQuery({ a: [1, 2], b: { c: 'x' }, d: true, e: undefined, r: [{ path: '/x' }] }))).toBe(
      'a[]=1&a[]=2&b[c]=x&d=true&r[0][path]=/x',
    );
    expect(encodeQuery({ empty: [] })).toBe('empty=');
  });
});

describe('routeUrl', () => {
  it('builds pretty and rest_route addresses', () => {
    const t = { baseUrl: 'http://h', apiRoot: '/wp-json' };
    expect(routeUrl(t, '/', '')).toBe('http://h/wp-json/');
    expect(routeUrl(t, '/cal/v1/events', 'page=2')).toBe('http://h/wp-json/cal/v1/events?page=2');
    expect(routeUrl(t, '/cal/v1/events', 'page=2', 'rest_route')).toBe('http://h/?rest_route=/cal/v1/events&page=2');
    expect(routeUrl({ baseUrl: 'http://h', apiRoot: '/?rest_route=' }, '/', '')).toBe('http://h/?rest_route=/');
  });
});

describe('tokenBucket', () => {
  it('spaces requests at the given rate after the first burst', async () => {
    let t = 0;
    const slept: number[] = [];
    const clock: Clock = { now: () => t, sleep: async (ms) => void (slept.push(ms), (t += ms)) };
    const limiter = tokenBucket(2, clock);
    for (let i = 0; i < 6; i++) await limiter.take();
    // a burst of 2, then one every 500 ms
    expect(slept).toEqual([500, 500, 500, 500]);
    expect(t).toBe(2000);
  });
});

describe('createClient', () => {
  it('records when each request went out by the wall clock it is given, after the rate limit, and none for one never sent', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, []));
    let wall = 1_767_225_600_000;
    const client = createClient(options(server.url, { writes: 'none', wallClock: () => (wall += 1000), limiter: { take: async () => void (wall += 5) } }));
    const sent = await client.send({ method: 'GET', route: '/cal/v1/events' });
    expect(sent.startedAt).toBe(1_767_225_601_005);
    const refused = await client.send({ method: 'POST', route: '/cal/v1/events', intent: 'write' });
    expect(refused.error?.kind).toBe('refused');
    expect(refused).not.toHaveProperty('startedAt');
    await client.close();
  });

  it('records request and response, sends credentials as Basic, reads JSON with the credentials redacted', async () => {
    let seen: string | undefined;
    server = await startServer((req, res) => {
      seen = req.headers.authorization;
      sendJson(res, 200, { method: req.method, url: req.url, auth: req.headers.authorization ?? null, body: req.body });
    });
    const client = createClient(options(server.url, { credentials: 'u:p w' }));
    const e = await client.send({ method: 'POST', route: '/cal/v1/events', query: { a: 1 }, body: { kind: 'json', value: { title: 't' } }, intent: 'write' });
    expect(e.error).toBeUndefined();
    expect(e.response?.status).toBe(200);
    expect(seen).toBe('Basic dTpwIHc=');
    // The echo is redacted as it arrives: no check, message or report ever holds the credential.
    expect(JSON.parse(e.response!.body)).toEqual({ method: 'POST', url: '/wp-json/cal/v1/events?a=1', auth: 'Basic [REDACTED]', body: '{"title":"t"}' });
    expect(e.request).toMatchObject({ method: 'POST', url: `${server.url}/wp-json/cal/v1/events?a=1`, body: '{"title":"t"}' });
    expect(e.request.headers['Authorization']).toBe('Basic dTpwIHc=');
    expect(client.sent).toBe(1);
    await client.close();
  });

  it('reads a _jsonp answer as the JSON it wraps, an error too; the body stays as it came', async () => {
    server = await startServer((req, res) => {
      const cb = new URL(req.url ?? '', 'http://x').searchParams.get('_jsonp');
      res.writeHead(cb === 'bad-cb' ? 400 : 404, { 'Content-Type': 'application/javascript; charset=UTF-8' });
      const error = JSON.stringify({ code: cb === 'bad-cb' ? 'rest_callback_invalid' : 'rest_post_invalid_id', message: 'm', data: { status: 404 } });
      // serve_request() echoes its refusal of a callback unwrapped, everything else wrapped.
      res.end(cb && cb !== 'bad-cb' ? `/**/${cb}(${error})` : error);
    });
    const client = createClient(options(server.url));
    const wrapped = await client.send({ method: 'GET', route: '/cal/v1/events/9', query: { _jsonp: 'cb.x' } });
    expect(wrapped.response!.body).toBe('/**/cb.x({"code":"rest_post_invalid_id","message":"m","data":{"status":404}})');
    expect(jsonBody(wrapped.response)).toEqual({ code: 'rest_post_invalid_id', message: 'm', data: { status: 404 } });
    const refused = await client.send({ method: 'GET', route: '/cal/v1/events/9', query: { _jsonp: 'bad-cb' } });
    expect(refused.response!.payload).toBeUndefined();
    expect(jsonBody(refused.response)).toMatchObject({ code: 'rest_callback_invalid' });
    // Another callback's wrapping is not the one asked for: not read as JSON.
    const other = await client.send({ method: 'GET', route: '/cal/v1/events/9', rawQuery: '_jsonp=cb&_jsonp=zz' });
    expect(jsonBody(other.response)).toBeUndefined();
    await client.close();
  });

  it('refuses writes the policy forbids without sending them', async () => {
    let hits = 0;
    server = await startServer((_req, res) => void (hits++, sendJson(res, 200, {})));
    const readOnly = createClient(options(server.url, { writes: 'none' }));
    expect((await readOnly.send({ method: 'DELETE', route: '/x', intent: 'probe' })).error?.kind).toBe('refused');
    expect((await readOnly.send({ method: 'GET', route: '/x' })).response?.status).toBe(200);
    const anonymous = createClient(options(server.url, { writes: 'probes' }));
    expect((await anonymous.send({ method: 'POST', route: '/x', intent: 'write' })).error?.kind).toBe('refused');
    expect((await anonymous.send({ method: 'POST', route: '/x', intent: 'probe' })).response?.status).toBe(200);
    expect((await anonymous.send({ method: 'POST', route: '/x' })).error?.kind).toBe('refused');
    expect(hits).toBe(2);
    await readOnly.close();
    await anonymous.close();
  });

  it('stops at the request budget, but still lets cleanup through', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, {}));
    const client = createClient(options(server.url, { maxRequests: 2 }));
    await client.send({ method: 'GET', route: '/a' });
    await client.send({ method: 'GET', route: '/b' });
    expect((await client.send({ method: 'GET', route: '/c' })).error?.kind).toBe('budget');
    expect((await client.send({ method: 'DELETE', route: '/d', intent: 'cleanup' })).response?.status).toBe(200);
    await client.close();
  });

  it('times out a stalled answer and declares the target down after failures in a row', async () => {
    server = await startServer(() => {
      /* never answers */
    });
    const client = createClient(options(server.url, { timeoutMs: 100, maxConsecutiveFailures: 2 }));
    const first = await client.send({ method: 'GET', route: '/a' });
    expect(first.error?.kind).toBe('timeout');
    expect(first.durationMs).toBeGreaterThanOrEqual(100);
    await client.send({ method: 'GET', route: '/b' });
    expect(client.down).toBe(true);
    const third = await client.send({ method: 'GET', route: '/c' });
    expect(third.error?.kind).toBe('down');
    expect(client.sent).toBe(2);
    await client.close();
  });

  it('holds cleanup requests back too once the target counts as down', async () => {
    server = await startServer(() => {
      /* never answers */
    });
    const client = createClient(options(server.url, { timeoutMs: 100, maxConsecutiveFailures: 1 }));
    await client.send({ method: 'GET', route: '/a' });
    expect(client.down).toBe(true);
    const e = await client.send({ method: 'DELETE', route: '/b', intent: 'cleanup' });
    expect(e.error?.kind).toBe('down');
    expect(client.sent).toBe(1);
    await client.close();
  });

  it('reads a body up to the limit and marks it cut, so that nobody parses half of it', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(3 * 1024 * 1024) });
    server = await startServer((req, res) => {
      if (req.url?.includes('chunked')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(big.slice(0, 1024 * 1024));
        res.end(big.slice(1024 * 1024));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(big)) });
      res.end(big);
    });
    const client = createClient(options(server.url, { maxBodyBytes: 1024 * 1024 }));
    const e = await client.send({ method: 'GET', route: '/big' });
    expect(e.response?.status).toBe(200);
    // A cut body keeps only its beginning: nothing parses it, and reports show 4 KiB of it.
    expect(Buffer.byteLength(e.response!.body)).toBe(CUT_BODY_KEPT_BYTES);
    expect(e.response!.body).toBe(big.slice(0, CUT_BODY_KEPT_BYTES));
    expect(e.response?.bodyCut).toEqual({ limitBytes: 1024 * 1024, declaredBytes: Buffer.byteLength(big) });
    expect(jsonBody(e.response)).toBeUndefined();
    expect(describeCut(e.response!.bodyCut!)).toBe(
      `body too large: the answer's body is longer than the 1 MiB the suite reads of one body (Content-Length ${Buffer.byteLength(big)}), so only its beginning was read and it was not parsed`,
    );
    const chunked = await client.send({ method: 'GET', route: '/chunked' });
    // Without a Content-Length the body is read to the limit before it is known to be too long.
    expect(chunked.response?.bodyCut).toEqual({ limitBytes: 1024 * 1024 });
    expect(chunked.response!.body).toBe(big.slice(0, CUT_BODY_KEPT_BYTES));
    // A request may ask for more (the root descriptor does).
    const whole = await client.send({ method: 'GET', route: '/big', maxBodyBytes: 4 * 1024 * 1024 });
    expect(whole.response?.bodyCut).toBeUndefined();
    expect(jsonBody(whole.response)).toEqual(JSON.parse(big));
    await client.close();
  });

  it('redacts answers as they arrive: secrets in any encoding, credential headers, and a secret the byte limit cut in half', async () => {
    const secret = 'editor:abcd EFGH ijkl MNOP';
    const password = 'abcd EFGH ijkl MNOP';
    const limit = 4096;
    server = await startServer((_req, res) => {
      const echoes = [secret, Buffer.from(secret).toString('base64'), Buffer.from(password).toString('hex').toUpperCase(), encodeURIComponent(encodeURIComponent(password)), 'sess-0123456789'];
      const head = `{"echo":${JSON.stringify(echoes.join(' | '))},"pad":"`;
      // The password starts 10 bytes before the limit: only its beginning is read.
      const body = `${head}${'p'.repeat(limit - 10 - head.length)}${password}"}`;
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Echo': `you are ${secret}`, 'Set-Cookie': 'sess-0123456789', 'X-Api-Key': 'k-9876543210' });
      res.end(body);
    });
    const client = createClient(options(server.url, { credentials: secret, maxBodyBytes: limit, redact: { secretHeaders: ['X-Api-Key'] } }));
    const r = (await client.send({ method: 'GET', route: '/leak' })).response!;
    expect(r.bodyCut).toBeDefined();
    expect(r.body).toMatch(/^\{"echo":"\[REDACTED\] \| \[REDACTED\] \| \[REDACTED\] \| \[REDACTED\] \| \[REDACTED\]","pad":"p+\[REDACTED\]$/);
    expect(r.headers['x-echo']).toBe('you are [REDACTED]');
    expect(r.headers['set-cookie']).toBe('[REDACTED]');
    expect(r.headers['x-api-key']).toBe('[REDACTED]');
    await client.close();
  });

  it('lets cleanup through after the run was stopped, and nothing else', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, {}));
    const stop = new AbortController();
    const client = createClient(options(server.url, { signal: stop.signal }));
    stop.abort();
    expect((await client.send({ method: 'GET', route: '/a' })).error?.kind).toBe('aborted');
    expect((await client.send({ method: 'DELETE', route: '/b', intent: 'cleanup' })).response?.status).toBe(200);
    await client.close();
  });

  it('reports a refused connection as connect', async () => {
    const s = await startServer(() => {});
    const url = s.url;
    await s.close();
    const client = createClient(options(url));
    expect((await client.send({ method: 'GET', route: '/' })).error?.kind).toBe('connect');
    await client.close();
  });
});

describe('reachRoot', () => {
  it('reads the descriptor of a REST root', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 200, { namespaces: ['cal/v1'], routes: { '/cal/v1/events/(?P<id>[\\d]+)': { namespace: 'cal/v1', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { context: {} } }] } } }),
    );
    const client = createClient(options(server.url));
    const { descriptor } = await reachRoot(client);
    expect(descriptor.routes[0]?.template).toBe('/cal/v1/events/{id}');
    await client.close();
  });

  it('says what to fix when the root is not a REST root or not there', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html>not found</html>');
    });
    const client = createClient(options(server.url));
    await expect(reachRoot(client)).rejects.toThrow(/is not a WordPress REST root: it answered 404 with text\/html; check --base-url .* --api-root rest_route/);
    await client.close();
    const gone = createClient(options('http://127.0.0.1:1'));
    await expect(reachRoot(gone)).rejects.toBeInstanceOf(TargetUnreachableError);
    await gone.close();
  });
});
