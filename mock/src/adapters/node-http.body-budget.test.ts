// The bytes of bodies kept at once, over all connections, are bounded: each body is capped, but clients that send
// just under the cap and never finish held cap x sockets (30 of them: +237 MB of RSS). The bound is shared fairly
// (core/byte-budget.ts): one client holds at most half of its pool, clients without credentials together half of the
// budget, and signed-in clients have the whole budget of their own. Who a client is comes from the adapter's
// `clientOf`: here a test header names it (every test connection comes from 127.0.0.1). Small limits, so the test
// moves kilobytes; raw sockets, so a client stops exactly where told.
import type { Socket } from 'node:net';
import { openSocket } from '../testing/sockets.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { Mock } from '../index.ts';
import type { Client } from '../core/byte-budget.ts';
import type { MockRequest } from '../core/types.ts';
import { freshMock } from '../testing/harness.ts';
import { listen, type Listening } from './node-http.ts';

const CAP = 64 * 1024;
const PART = 60 * 1024;
/** Eight bodies of PART: the anonymous pool four, one anonymous client two; a signed-in client four. */
const BUDGET = 8 * PART;
const TARGET = '/wp-json/cal/v1/events?_method=GET&per_page=1&_fields=id';

/** Test clients: `X-Test-Client` names one, `X-Test-Signed-In: 1` puts it among the signed-in. */
const clientOf = (req: Pick<MockRequest, 'headers'>): Client => ({ key: req.headers['x-test-client'] ?? '', signedIn: req.headers['x-test-signed-in'] === '1' });
const as = (client: string, signedIn = false) => `X-Test-Client: ${client}\r\n${signedIn ? 'X-Test-Signed-In: 1\r\n' : ''}`;

/** A POST declaring CAP bytes that sends `bytes` of them and then nothing. */
async function holder(url: string, bytes: number, who = as('a')): Promise<Socket> {
  const s = await openSocket(url);
  s.write(`POST ${TARGET} HTTP/1.1\r\nHost: 127.0.0.1\r\n${who}Content-Type: application/octet-stream\r\nContent-Length: ${CAP}\r\n\r\n`);
  s.write(Buffer.alloc(bytes, 0x61));
  return s;
}

/** A whole POST of `bytes`; the raw answer once the server closes or has answered. */
async function whole(url: string, bytes: number, who = as('a')): Promise<string> {
  const s = await openSocket(url);
  return new Promise((resolve) => {
    let answer = '';
    s.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
      const end = answer.indexOf('\r\n\r\n');
      const len = /content-length: (\d+)/i.exec(answer);
      if (end >= 0 && len && answer.length >= end + 4 + Number(len[1])) s.destroy();
    });
    s.on('close', () => resolve(answer));
    s.write(`POST ${TARGET} HTTP/1.1\r\nHost: 127.0.0.1\r\n${who}Content-Type: application/octet-stream\r\nContent-Length: ${bytes}\r\n\r\n`);
    s.write(Buffer.alloc(bytes, 0x61));
  });
}

/** A round trip on another connection: the holders' bytes, already sent, have been read by then. */
async function roundTrip(url: string): Promise<number> {
  const r = await request(`${url}/wp-json/cal/v1/events?per_page=1&_fields=id`);
  await r.body.text();
  return r.statusCode;
}

describe('the bytes of bodies kept at once', () => {
  let mock: Mock;
  let server: Listening;
  beforeAll(async () => {
    mock = await freshMock();
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1', maxBodyBytes: CAP, maxBodyBytesInFlight: BUDGET, clientOf });
  });
  afterAll(() => server.close());

  it('past its own bound a client is refused with a WordPress-shaped 503 and closed; at it, it runs; others go on; a holder leaving gives its bytes back', async () => {
    // Client a holds one unfinished body; a second body of PART takes it to its bound (2 x PART) exactly, and runs.
    const holders = [await holder(server.url, PART)];
    expect(await roundTrip(server.url)).toBe(200);
    expect((await whole(server.url, PART)).startsWith('HTTP/1.1 200 ')).toBe(true);

    // It holds two now: one byte more is past its bound.
    holders.push(await holder(server.url, PART));
    expect(await roundTrip(server.url)).toBe(200);
    const over = await whole(server.url, 1);
    expect(over.startsWith('HTTP/1.1 503 ')).toBe(true);
    expect(over).toMatch(/\r\nRetry-After: 1\r\n/i);
    expect(over).toMatch(/\r\nConnection: close\r\n/i);
    const body = JSON.parse(over.slice(over.indexOf('\r\n\r\n') + 4)) as { code: string; message: string; data: { status: number } };
    expect(body).toMatchObject({ code: 'mock_too_many_body_bytes', data: { status: 503 } });
    expect(body.message).toContain(`one client (an address, with its credentials) holds at most ${(2 * PART).toLocaleString('en')} bytes at once`);
    // Another client is not refused because of it, and requests without a body are not counted.
    expect((await whole(server.url, PART, as('b'))).startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(await roundTrip(server.url)).toBe(200);

    // A holder whose client leaves gives its bytes back.
    holders.pop()!.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(await roundTrip(server.url)).toBe(200);
    expect((await whole(server.url, PART)).startsWith('HTTP/1.1 200 ')).toBe(true);
    for (const h of holders) h.destroy();
  });

  it('clients without credentials share half of the budget; a signed-in client is never refused because of them', async () => {
    const holders = [...(await Promise.all([0, 1].map(() => holder(server.url, PART, as('a'))))), ...(await Promise.all([0, 1].map(() => holder(server.url, PART, as('b')))))];
    expect(await roundTrip(server.url)).toBe(200);
    // Four PARTs held by anonymous clients: their pool is full, for a client that holds nothing yet too.
    const refused = await whole(server.url, 1, as('c'));
    expect(refused.startsWith('HTTP/1.1 503 ')).toBe(true);
    expect(refused).toContain(`clients without valid credentials hold at most ${(4 * PART).toLocaleString('en')} bytes at once together`);
    // The signed-in have the whole budget: two of them hold four PARTs more, and a third sends its body whole.
    holders.push(...(await Promise.all([0, 1].map(() => holder(server.url, PART, as('s1', true))))));
    holders.push(...(await Promise.all([0, 1].map(() => holder(server.url, PART, as('s2', true))))));
    expect(await roundTrip(server.url)).toBe(200);
    expect((await whole(server.url, PART, as('s3', true))).startsWith('HTTP/1.1 200 ')).toBe(true);
    for (const h of holders) h.destroy();
  });

  it('by default the budget is eight bodies at the cap, so a larger cap raises it with it', async () => {
    const scaled = await listen(mock.handleNow, { port: 0, host: '127.0.0.1', maxBodyBytes: CAP, clientOf });
    try {
      // Signed-in clients: 8 x 60 KiB held by two of them (four each, their half); a third's 60 KiB would pass 8 x 64 KiB.
      const holders = await Promise.all(Array.from({ length: 8 }, (_, i) => holder(scaled.url, PART, as(`s${i % 2}`, true))));
      expect(await roundTrip(scaled.url)).toBe(200);
      expect((await whole(scaled.url, PART, as('s9', true))).startsWith('HTTP/1.1 503 ')).toBe(true);
      holders.pop()!.destroy();
      await new Promise((r) => setTimeout(r, 50));
      expect((await whole(scaled.url, PART, as('s9', true))).startsWith('HTTP/1.1 200 ')).toBe(true);
      for (const h of holders) h.destroy();
    } finally {
      await scaled.close();
    }
  });
});
