// The body limit holds as the body arrives. A chunked upload declares no length, so it used to be read to its end
// before the 413 (36 GB in 15 s); now the answer comes once the limit is passed, the connection closes, and the
// server goes on serving everyone else. Driven over raw sockets, so the client streams exactly as told.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { Mock } from '../index.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../wire/errors.ts';
import { freshMock } from '../testing/harness.ts';
import { listen, type Listening } from './node-http.ts';

const SMALL = 64 * 1024;

interface Upload {
  /** The answer's status line and body, as far as they came. */
  answer: string;
  /** Bytes of body the client managed to write before the server stopped it. */
  sent: number;
  /** Milliseconds from the first body byte to the answer's status line. */
  answeredAfterMs: number;
  closed: boolean;
}

/**
 * Sends `head`, then body bytes for as long as the server lets it (or `total` of them), as chunks or raw, and
 * resolves once the socket closes or `patienceMs` passes.
 */
function upload(url: string, head: string, opts: { chunked: boolean; total?: number; patienceMs: number }): Promise<Upload> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), hostname);
    const block = Buffer.alloc(64 * 1024, 0x61);
    let answer = '';
    let sent = 0;
    let started = 0;
    let answeredAfterMs = -1;
    let closed = false;
    let stop = false;
    const finish = () => {
      stop = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, sent, answeredAfterMs, closed });
    };
    const timer = setTimeout(finish, opts.patienceMs);
    socket.on('data', (d: Buffer) => {
      if (answeredAfterMs < 0) answeredAfterMs = performance.now() - started;
      answer += d.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    const pump = () => {
      while (!stop) {
        const left = opts.total === undefined ? block.length : Math.min(block.length, opts.total - sent);
        if (left <= 0) {
          socket.write(opts.chunked ? '0\r\n\r\n' : '');
          return;
        }
        const piece = block.subarray(0, left);
        sent += left;
        const ok = socket.write(opts.chunked ? Buffer.concat([Buffer.from(`${left.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
        if (!ok) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('connect', () => {
      socket.write(head);
      started = performance.now();
      pump();
    });
  });
}

const chunkedHead = (path: string, extra = '') => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n${extra}\r\n`;

describe('the body limit, as the body arrives', () => {
  let mock: Mock;
  let server: Listening;
  let small: Listening;
  beforeAll(async () => {
    mock = await freshMock();
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1' });
    small = await listen(mock.handleNow, { port: 0, host: '127.0.0.1', maxBodyBytes: SMALL });
  });
  afterAll(async () => {
    await server.close();
    await small.close();
  });

  it('an endless chunked upload gets its 413 at 8 MB, having read no more than that and the socket buffers, and the connection closes; others are served meanwhile', async () => {
    const pending = upload(server.url, chunkedHead('/wp-json/cal/v1/events'), { chunked: true, patienceMs: 120_000 });
    // Someone else, on another connection, while the upload streams.
    const other = await request(`${server.url}/wp-json/cal/v1/events?per_page=1`);
    expect(other.statusCode).toBe(200);
    await other.body.text();
    const u = await pending;
    expect(u.answer.startsWith('HTTP/1.1 413 ')).toBe(true);
    expect(u.answer).toContain('Connection: close');
    const body = JSON.parse(u.answer.slice(u.answer.indexOf('\r\n\r\n') + 4)) as { code: string; data: { status: number; max_body_bytes: number } };
    expect(body).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413, max_body_bytes: DEFAULT_MAX_BODY_BYTES } });
    expect(u.closed).toBe(true);
    console.log(`body cap: 413 after ${u.answeredAfterMs.toFixed(0)} ms, ${(u.sent / 1024 / 1024).toFixed(1)} MB written by the client before the close`);
    // The server read at most the limit, what it drops while lingering and what the sockets' buffers hold.
    expect(u.sent).toBeLessThan(DEFAULT_MAX_BODY_BYTES + 16 * 1024 * 1024);
    const after = await request(`${server.url}/wp-json/cal/v1/events?per_page=1`);
    expect(after.statusCode).toBe(200);
    await after.body.text();
  });

  it('a huge declared Content-Length is refused before any of it is read, and closed', async () => {
    const u = await upload(small.url, `POST /wp-json/cal/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 4}\r\n\r\n`, { chunked: false, patienceMs: 120_000 });
    expect(u.answer.startsWith('HTTP/1.1 413 ')).toBe(true);
    expect(u.closed).toBe(true);
    expect(u.sent).toBeLessThan(SMALL + 16 * 1024 * 1024);
  });

  it('Expect: 100-continue: over the limit the 413 comes without a 100 (which asked for the upload); within it, 100 and then the answer', async () => {
    /** Sends the head, then `body` once "100 Continue" comes; everything the server sent, once it closes (or 3 s pass). */
    const expecting = (length: number, body: string) =>
      new Promise<string>((resolve) => {
        const { hostname, port } = new URL(small.url);
        const socket = connect(Number(port), hostname);
        let answer = '';
        const done = () => {
          clearTimeout(timer);
          socket.destroy();
          resolve(answer);
        };
        const timer = setTimeout(done, 3_000);
        socket.on('error', () => undefined);
        socket.on('close', done);
        socket.on('data', (d: Buffer) => {
          const before = answer;
          answer += d.toString('latin1');
          if (!before.includes('100 Continue') && answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) socket.write(body);
        });
        socket.write(`POST /wp-json/cal/v1/events?_method=GET&per_page=1&_fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
      });
    const over = await expecting(SMALL + 1, '');
    expect(over.startsWith('HTTP/1.1 413 '), over.slice(0, 40)).toBe(true);
    expect(over).not.toContain('100 Continue');
    const within = await expecting(2, '{}');
    expect(within.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 '), within.slice(0, 60)).toBe(true);
  });

  it('at the edge: a chunked body of exactly the limit is read and answered; one byte more is 413', async () => {
    const exact = await upload(small.url, chunkedHead('/wp-json/cal/v1/events?_method=GET&per_page=1', 'Connection: close\r\n'), { chunked: true, total: SMALL, patienceMs: 120_000 });
    expect(exact.answer.startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(exact.closed).toBe(true);
    const over = await upload(small.url, chunkedHead('/wp-json/cal/v1/events?_method=GET&per_page=1'), { chunked: true, total: SMALL + 1, patienceMs: 120_000 });
    expect(over.answer.startsWith('HTTP/1.1 413 ')).toBe(true);
    expect(over.closed).toBe(true);
  });
});
