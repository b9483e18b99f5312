// The bytes of bodies kept at once, over all connections, are bounded: each body is capped, but clients that send
// just under the cap and never finish held cap x sockets (30 of them: +237 MB of RSS). Small limits here, so the
// test moves kilobytes; raw sockets, so a client stops exactly where told.
import type { Socket } from 'node:net';
import { openSocket } from '../testing/sockets.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { Mock } from '../index.ts';
import { freshMock } from '../testing/harness.ts';
import { listen, type Listening } from './node-http.ts';

const CAP = 64 * 1024;
const PART = 60 * 1024;
/** Four unfinished bodies of PART and one more whole one fit exactly. */
const BUDGET = 5 * PART;
const TARGET = '/wp-json/cal/v1/events?_method=GET&per_page=1&_fields=id';

/** A POST declaring CAP bytes that sends `bytes` of them and then nothing. */
async function holder(url: string, bytes: number): Promise<Socket> {
  const s = await openSocket(url);
  s.write(`POST ${TARGET} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${CAP}\r\n\r\n`);
  s.write(Buffer.alloc(bytes, 0x61));
  return s;
}

/** A whole POST of `bytes`; the raw answer once the server closes or has answered. */
async function whole(url: string, bytes: number): Promise<string> {
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
    s.write(`POST ${TARGET} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${bytes}\r\n\r\n`);
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
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1', maxBodyBytes: CAP, maxBodyBytesInFlight: BUDGET });
  });
  afterAll(() => server.close());

  it('past the budget a body is refused with a WordPress-shaped 503 and closed; at it, it runs; reads go on; a holder leaving gives its bytes back', async () => {
    const holders = await Promise.all([0, 1, 2, 3].map(() => holder(server.url, PART)));
    expect(await roundTrip(server.url)).toBe(200);

    // Exactly the budget: 4 x PART held + PART.
    const fits = await whole(server.url, PART);
    expect(fits.startsWith('HTTP/1.1 200 ')).toBe(true);

    // The one that fitted has been answered and gave its bytes back; a fifth holder fills the budget again.
    holders.push(await holder(server.url, PART));
    expect(await roundTrip(server.url)).toBe(200);
    const over = await whole(server.url, 1);
    expect(over.startsWith('HTTP/1.1 503 ')).toBe(true);
    expect(over).toMatch(/\r\nRetry-After: 1\r\n/i);
    expect(over).toMatch(/\r\nConnection: close\r\n/i);
    const body = JSON.parse(over.slice(over.indexOf('\r\n\r\n') + 4)) as { code: string; data: { status: number } };
    expect(body).toMatchObject({ code: 'mock_too_many_body_bytes', data: { status: 503 } });
    // Requests without a body are not counted.
    expect(await roundTrip(server.url)).toBe(200);

    // A holder whose client leaves gives its bytes back.
    holders.pop()!.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(await roundTrip(server.url)).toBe(200);
    expect((await whole(server.url, PART)).startsWith('HTTP/1.1 200 ')).toBe(true);
    for (const h of holders) h.destroy();
  });

  it('by default the budget is eight bodies at the cap, so a larger cap raises it with it', async () => {
    const scaled = await listen(mock.handleNow, { port: 0, host: '127.0.0.1', maxBodyBytes: CAP });
    try {
      // 8 x 60 KiB held: the ninth body's 60 KiB would pass 8 x 64 KiB.
      const holders = await Promise.all(Array.from({ length: 8 }, () => holder(scaled.url, PART)));
      expect(await roundTrip(scaled.url)).toBe(200);
      expect((await whole(scaled.url, PART)).startsWith('HTTP/1.1 503 ')).toBe(true);
      holders.pop()!.destroy();
      await new Promise((r) => setTimeout(r, 50));
      expect((await whole(scaled.url, PART)).startsWith('HTTP/1.1 200 ')).toBe(true);
      for (const h of holders) h.destroy();
    } finally {
      await scaled.close();
    }
  });
});
