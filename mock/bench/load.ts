// A small HTTP/1.1 load generator. Closed loop (autocannon's approach): N keep-alive sockets, each sending the
// same pre-encoded request as soon as the previous answer has fully arrived. Open loop (`ratePerSec`, wrk2's
// approach): requests fall due at a fixed rate whatever the server does, go out on the first idle socket of the N,
// and each latency runs from the moment the request fell due, so time spent queued behind a slow answer counts
// (no coordinated omission). Raw sockets and a minimal response parser keep the client cheap, so on a small machine
// it measures the server rather than itself.
//
// Run it as a child process (load-child.ts) so its CPU is not the server's.
import { connect, type Socket } from 'node:net';

export interface LoadSpec {
  host: string;
  port: number;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationMs: number;
  warmupMs: number;
  /** Open loop: requests per second, due at fixed intervals; absent, a closed loop. */
  ratePerSec?: number;
}

export interface LoadResult {
  requests: number;
  durationMs: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors, parse errors and answers outside 2xx. */
  errors: number;
  statuses: Record<string, number>;
}

function encodeRequest(spec: LoadSpec): Buffer {
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body, 'utf8');
  const lines = [`${spec.method} ${spec.path} HTTP/1.1`, `Host: ${spec.host}:${spec.port}`, 'Connection: keep-alive'];
  for (const [k, v] of Object.entries(spec.headers ?? {})) lines.push(`${k}: ${v}`);
  if (body) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

/** Incremental parser for one response at a time: returns the status when a whole response has been consumed. */
class ResponseReader {
  private buf: Buffer = Buffer.alloc(0);
  private status = 0;
  private remaining = -1; // body bytes still expected; -2 = chunked
  private headDone = false;

  /** Feeds bytes; calls `done(status)` for every complete response. Throws on garbage. */
  feed(chunk: Buffer, done: (status: number) => void): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (!this.headDone) {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = this.buf.subarray(0, end).toString('latin1');
        this.buf = this.buf.subarray(end + 4);
        const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
        if (!m) throw new Error(`bad status line: ${head.slice(0, 40)}`);
        this.status = Number(m[1]);
        const cl = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
        this.remaining = chunked ? -2 : cl ? Number(cl[1]) : 0;
        this.headDone = true;
      }
      if (this.remaining >= 0) {
        if (this.buf.length < this.remaining) return;
        this.buf = this.buf.subarray(this.remaining);
      } else {
        // chunked: walk complete chunks; the body ends with a zero-size chunk and an empty trailer line
        let off = 0;
        for (;;) {
          const eol = this.buf.indexOf('\r\n', off);
          if (eol < 0) return;
          const size = parseInt(this.buf.subarray(off, eol).toString('latin1'), 16);
          if (Number.isNaN(size)) throw new Error('bad chunk size');
          if (size === 0) {
            const trailerEnd = this.buf.indexOf('\r\n', eol + 2);
            if (trailerEnd < 0) return;
            off = trailerEnd + 2;
            break;
          }
          if (this.buf.length < eol + 2 + size + 2) return;
          off = eol + 2 + size + 2;
        }
        this.buf = this.buf.subarray(off);
      }
      this.headDone = false;
      done(this.status);
    }
  }
}

function summary(latencies: number[], completed: number, elapsedMs: number, errors: number, statuses: Record<string, number>): LoadResult {
  latencies.sort((a, b) => a - b);
  const q = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]! : 0);
  return {
    requests: completed,
    durationMs: Math.round(elapsedMs),
    rps: Math.round((completed / elapsedMs) * 1000),
    p50Ms: Number(q(0.5).toFixed(3)),
    p99Ms: Number(q(0.99).toFixed(3)),
    errors,
    statuses,
  };
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.ratePerSec !== undefined) return runOpenLoop(spec, spec.ratePerSec);
  const request = encodeRequest(spec);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let measuring = false;
  let stopped = false;
  let completed = 0;
  const sockets: Socket[] = [];

  const open = (): void => {
    if (stopped) return;
    const reader = new ResponseReader();
    let sentAt = 0n;
    const socket = connect({ host: spec.host, port: spec.port, noDelay: true });
    sockets.push(socket);
    const fire = () => {
      if (stopped) return;
      sentAt = process.hrtime.bigint();
      socket.write(request);
    };
    socket.on('connect', fire);
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.feed(chunk, (status) => {
          if (measuring) {
            latencies.push(Number(process.hrtime.bigint() - sentAt) / 1e6);
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (status < 200 || status > 299) errors++;
            completed++;
          }
          fire();
        });
      } catch {
        if (measuring) errors++;
        socket.destroy();
      }
    });
    const reopen = () => {
      if (stopped) return;
      if (measuring) errors++;
      setTimeout(open, 10);
    };
    socket.on('error', () => undefined);
    socket.on('close', reopen);
  };

  for (let i = 0; i < spec.connections; i++) open();

  return new Promise((resolve) => {
    setTimeout(() => {
      measuring = true;
      const t0 = process.hrtime.bigint();
      setTimeout(() => {
        measuring = false;
        stopped = true;
        const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
        for (const s of sockets) s.destroy();
        resolve(summary(latencies, completed, elapsed, errors, statuses));
      }, spec.durationMs);
    }, spec.warmupMs);
  });
}

/** How long answers to requests that fell due in the window may still arrive before they count as errors. */
const DRAIN_MS = 5000;

/**
 * The open loop: request i of the run falls due at start + i / rate; only those due inside the measuring window are
 * counted, each with its latency from the moment it fell due. One due request per idle socket; the rest wait in order.
 */
function runOpenLoop(spec: LoadSpec, rate: number): Promise<LoadResult> {
  const request = encodeRequest(spec);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let completed = 0;
  const due: { at: bigint; counted: boolean }[] = [];
  const idle: ((item: { at: bigint; counted: boolean }) => void)[] = [];
  const sockets: Socket[] = [];
  const start = process.hrtime.bigint();
  const windowFrom = start + BigInt(Math.round(spec.warmupMs * 1e6));
  const windowTo = windowFrom + BigInt(Math.round(spec.durationMs * 1e6));
  const stepNs = 1e9 / rate;
  let issued = 0;
  let outstanding = 0;
  let stopped = false;

  const hand = (): void => {
    while (due.length > 0 && idle.length > 0) idle.shift()!(due.shift()!);
  };

  const open = (): void => {
    if (stopped) return;
    const reader = new ResponseReader();
    let current: { at: bigint; counted: boolean } | undefined;
    const socket = connect({ host: spec.host, port: spec.port, noDelay: true });
    sockets.push(socket);
    const take = (item: { at: bigint; counted: boolean }): void => {
      current = item;
      socket.write(request);
    };
    socket.on('connect', () => {
      idle.push(take);
      hand();
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.feed(chunk, (status) => {
          const item = current;
          current = undefined;
          if (item?.counted) {
            outstanding--;
            latencies.push(Number(process.hrtime.bigint() - item.at) / 1e6);
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (status < 200 || status > 299) errors++;
            completed++;
          }
          idle.push(take);
          hand();
        });
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (current?.counted) {
        outstanding--;
        errors++;
      }
      current = undefined;
      const i = idle.indexOf(take);
      if (i >= 0) idle.splice(i, 1);
      if (!stopped) setTimeout(open, 10);
    });
  };
  for (let i = 0; i < spec.connections; i++) open();

  return new Promise((resolve) => {
    const finish = (): void => {
      stopped = true;
      clearInterval(ticker);
      for (const s of sockets) s.destroy();
      // What never got an answer in time (still queued or in flight) is an error, not a latency left out.
      errors += outstanding;
      resolve(summary(latencies, completed, spec.durationMs, errors, statuses));
    };
    // Timers fire late under load; each tick issues everything that has fallen due since the last one.
    const ticker = setInterval(() => {
      const now = process.hrtime.bigint();
      for (;;) {
        const at = start + BigInt(Math.round(issued * stepNs));
        if (at > now || at >= windowTo) break;
        const counted = at >= windowFrom;
        if (counted) outstanding++;
        due.push({ at, counted });
        issued++;
      }
      hand();
      if (now >= windowTo) {
        clearInterval(ticker);
        const deadline = Date.now() + DRAIN_MS;
        const drain = setInterval(() => {
          if (outstanding <= 0 || Date.now() >= deadline) {
            clearInterval(drain);
            finish();
          }
        }, 5);
      }
    }, 1);
  });
}
