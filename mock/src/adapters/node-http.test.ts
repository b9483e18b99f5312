// The node:http adapter on 127.0.0.1: 1,000 concurrent creates give 1,000 distinct IDs, all listed afterwards;
// an over-large body is refused with a WordPress-shaped 413 without being read; links are built on the address the
// server listens on, whatever Host header a client sends, and many Host headers grow nothing.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import type { Mock } from '../index.ts';
import { freshMock } from '../testing/harness.ts';
import { listen, type Listening } from './node-http.ts';
import { request as httpRequest } from 'node:http';
import type { MockRequest } from '../core/types.ts';
import { STEPPED_BODY_BYTES } from '../core/pipeline.ts';

let mock: Mock;
let server: Listening;
const agent = new Agent({ connections: 64, pipelining: 1 });

beforeAll(async () => {
  mock = await freshMock({ maxBodyBytes: 64 * 1024 });
  server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1', maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await agent.close();
  await server.close();
});

async function json(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Record<string, unknown>; data: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- response JSON
  const res = await request(`${server.url}${path}`, {
    method: method as 'GET',
    dispatcher: agent,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, data: text ? JSON.parse(text) : undefined };
}

describe('node:http adapter', () => {
  it('1,000 concurrent creates yield 1,000 distinct IDs, all listed', async () => {
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => json('POST', '/wp-json/cal/v1/events', { title: `Concurrent ${i}`, start_date: '2026-12-20 10:00:00', end_date: '2026-12-20 11:00:00' })),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const ids = results.map((r) => r.data.id as number);
    expect(new Set(ids).size).toBe(1000);
    const listed = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await json('GET', `/wp-json/cal/v1/events?search=Concurrent&per_page=100&page=${page}&_fields=id`);
      expect(res.status).toBe(200);
      for (const e of res.data as { id: number }[]) listed.add(e.id);
      if (page >= Number(res.headers['x-wp-totalpages'])) break;
    }
    expect(ids.every((id) => listed.has(id))).toBe(true);
  });

  it('an over-large body is 413 rest_payload_too_large', async () => {
    const res = await json('POST', '/wp-json/cal/v1/events', JSON.stringify({ title: 'x'.repeat(100 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.data).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413, max_body_bytes: 65536 } });
  });

  it('sends Content-Length, keeps connections alive, and answers HEAD without a body', async () => {
    const res = await request(`${server.url}/wp-json/cal/v1/events?per_page=1`, { dispatcher: agent });
    expect(res.headers['content-length']).toBeDefined();
    await res.body.text();
    const head = await request(`${server.url}/wp-json/cal/v1/events?per_page=1`, { method: 'HEAD', dispatcher: agent });
    expect(head.statusCode).toBe(200);
    expect(await head.body.text()).toBe('');
    // A 204 carries no Content-Length at all (RFC 9110 §8.6).
    const options = await request(`${server.url}/__mock/reset`, { method: 'OPTIONS', dispatcher: agent });
    expect(options.statusCode).toBe(204);
    expect(options.headers['content-length']).toBeUndefined();
    await options.body.text();
  });

  it('builds links, guid and Location on the listening address, never on the Host header', async () => {
    // A name the mock answers to (front-door.ts refuses others), other than the address it listens on.
    const evil = { host: 'evil.localhost:666' };
    const read = await request(`${server.url}/wp-json/cal/v1/events/92`, { dispatcher: agent, headers: evil });
    const text = await read.body.text();
    expect(read.headers.link).toBe(`<${server.url}/event/science-cafe/>; rel="alternate"; type=text/html`);
    expect(JSON.parse(text)._links.self[0].href).toBe(`${server.url}/wp-json/cal/v1/events/92`);
    const created = await request(`${server.url}/uk/wp-json/cal/v1/events`, { method: 'POST', dispatcher: agent, headers: { ...evil, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Host test' }) });
    const body = await created.body.text();
    expect(created.headers.link).toBe(`<${server.url}/uk/wp-json/>; rel="https://api.w.org/"`);
    expect(created.headers.location).toBe(`${server.url}/uk/wp-json/cal/v1/events/${JSON.parse(body).id}`);
    expect(JSON.parse(body).guid.rendered.startsWith(`${server.url}/`)).toBe(true);
    for (const t of [text, body]) expect(t).not.toContain('evil.localhost');
  });

  it('200 distinct Host headers leave the heap where it was', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const get = async (path: string, host: string) => (await request(`${server.url}${path}`, { dispatcher: agent, headers: { host } })).body.text();
    // Names the mock answers to (*.localhost), so that each request is served, not refused at the front door.
    await get('/wp-json/', 'warm.localhost');
    await get('/wp-json/cal/v1/events?per_page=20', 'warm.localhost');
    const before = heap();
    for (let i = 0; i < 200; i++) {
      await get('/wp-json/', `h${i}.localhost`);
      await get('/wp-json/cal/v1/events?per_page=20', `h${i}.localhost`);
    }
    // Keyed on the Host header, each host kept a descriptor, renderings and answers of its own: ~0.4 MB each.
    expect(heap() - before).toBeLessThan(16 * 1024 * 1024);
  });

  it('a large body is decoded as it arrives: the core gets its text with the bytes (valid UTF-8 only), a small one its bytes alone', async () => {
    const seen: MockRequest[] = [];
    const stand = await listen((req) => (seen.push(req), { status: 204, headers: {}, body: '' }), { port: 0, host: '127.0.0.1' });
    try {
      const send = (body: Uint8Array, chunks: number) =>
        new Promise<void>((resolve) => {
          const { port } = new URL(stand.url);
          const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/wp-json/x', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          // Chunks cut across multi-byte characters.
          const size = Math.ceil(body.length / chunks);
          for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
          req.end();
        });
      const text = JSON.stringify({ content: 'Кіно просто неба 😀 '.repeat(20_000) });
      const bytes = Buffer.from(text);
      expect(bytes.length).toBeGreaterThan(STEPPED_BODY_BYTES);
      await send(bytes, 37);
      expect(seen[0]!.text).toBe(text);
      expect(Buffer.compare(Buffer.from(seen[0]!.body as Uint8Array), bytes)).toBe(0);
      // Invalid UTF-8 (a lone continuation byte in the middle): no text, the bytes as they came.
      const broken = Buffer.concat([bytes.subarray(0, 300_000), Buffer.from([0x80]), bytes.subarray(300_000)]);
      await send(broken, 11);
      expect(seen[1]!.text).toBeUndefined();
      expect((seen[1]!.body as Uint8Array).length).toBe(broken.length);
      await send(Buffer.from('{"title":"small"}'), 1);
      expect(seen[2]!.text).toBeUndefined();
    } finally {
      await stand.close();
    }
  });
});
