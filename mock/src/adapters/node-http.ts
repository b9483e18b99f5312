// node:http adapter: socket in, MockRequest to the core, MockResponse out. Everything WordPress-specific
// happens in the core; this file only moves bytes, enforces the body limit (as the body arrives, chunked or not),
// bounds the bytes of bodies and answers held at once and how long a client may take (client-timeouts.ts), and holds
// answers for --latency. Every answer leaves through send().
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { answerBudget, DEFAULT_MAX_ANSWER_BYTES_IN_FLIGHT, tooManyAnswerBytes } from './answer-budget.ts';
import { sendInPieces } from './answer-send.ts';
import { BODIES_AT_THE_CAP_IN_FLIGHT, tooManyBodyBytes } from './body-budget.ts';
import { ByteBudget, clientOf, type Client, type Shortage } from '../core/byte-budget.ts';
import { clientTimeouts, watchBody, type ClientTimeouts } from './client-timeouts.ts';
import { errorPage, onClientError } from './connection-errors.ts';
import { STEPPED_BODY_BYTES } from '../core/pipeline.ts';
import { Utf8StrictPieces } from '../../../contracts/wordpress/bytes.ts';

export type Handle = (req: MockRequest) => MockResponse | Promise<MockResponse>;

interface NodeAdapterOptions {
  /** Bodies beyond this many bytes are not read; the core answers 413. PHP's post_max_size default is 8 MB. */
  maxBodyBytes?: number;
  /** Bytes of bodies kept at once over all connections (body-budget.ts; default 8 x maxBodyBytes); past it 503. */
  maxBodyBytesInFlight?: number;
  /** Bytes of answers held at once over all connections (answer-budget.ts; default 128 MiB); past it a read's is a 503. */
  maxAnswerBytesInFlight?: number;
  /** How long a client may take with its headers, its body and reading its answer (client-timeouts.ts; default 20 s each). */
  timeouts?: ClientTimeouts;
  /** Called when the core throws; the client still gets a WordPress-shaped 500. */
  onError?: (err: unknown) => void;
  /**
   * Who a request is from, for the bounds of bodies and answers shared between clients (core/byte-budget.ts): the
   * mock's `clientOf` (its address, and its user when the credentials check out). Default: its address, anonymous.
   */
  clientOf?: (req: Pick<MockRequest, 'headers' | 'client'>) => Client;
}

const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

const CRASH_BODY = JSON.stringify({
  code: 'internal_server_error',
  message: '<p>There has been a critical error on this website.</p>',
  data: { status: 500 },
  additional_errors: [],
});

/** Where an answer goes out: the budget of answers held at once, and how long a client may leave it unread. */
interface Outlet {
  answers: ByteBudget;
  stallMs: number;
}

/**
 * The one way an answer leaves: its bytes are taken from the budget of answers held at once (a read's answer that
 * does not fit is dropped for a 503, which goes out this way too), written in pieces as the client takes them, and
 * given back once the last byte is out or the client has gone.
 */
function send(res: ServerResponse, r: MockResponse, out: Outlet, who: Client): void {
  if (res.destroyed) return;
  const payload = r.bodyBytes ?? r.body;
  const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength;
  const lease = out.answers.open(r.safe === true, who);
  if (!lease.grow(bytes)) {
    send(res, tooManyAnswerBytes(out.answers, bytes, lease.refused), out, who);
    return;
  }
  // An explicit length keeps answers out of chunked encoding (HEAD answers carry none, as on the reference site, and
  // 204 answers none at all: RFC 9110 §8.6).
  if (res.req.method !== 'HEAD' && r.status !== 204) r.headers['Content-Length'] = String(bytes);
  sendInPieces(res, r.status, r.headers, payload, { stallMs: out.stallMs }, () => lease.close());
}

/** Sends the answer, after its delay; a held answer whose client leaves is dropped then and its place given back. */
function deliver(res: ServerResponse, r: MockResponse, out: Outlet, who: Client): void {
  if (!r.delayMs || r.delayMs <= 0) {
    r.release?.();
    send(res, r, out, who);
    return;
  }
  const drop = () => {
    clearTimeout(timer);
    r.release?.();
  };
  const timer = setTimeout(() => {
    res.off('close', drop);
    r.release?.();
    send(res, r, out, who);
  }, r.delayMs);
  res.once('close', drop);
}

/**
 * The address this server was reached on, from the socket (the interface and port it accepted the connection on),
 * never from the Host header: links are built on it when the mock has no site URL of its own.
 */
function servedOrigin(req: IncomingMessage): string {
  const { localAddress, localPort } = req.socket;
  if (!localAddress) return 'http://localhost';
  const address = localAddress.startsWith('::ffff:') ? localAddress.slice(7) : localAddress;
  return `http://${address.includes(':') ? `[${address}]` : address}:${localPort}`;
}

/** The address a request came from, as the connection says (IPv4 without its IPv6 mapping). */
function clientAddress(req: IncomingMessage): string | undefined {
  const a = req.socket.remoteAddress;
  return a?.startsWith('::ffff:') ? a.slice(7) : a;
}

/** Who asks: the connection's address, and the client the bounds count it as. */
interface Asker {
  address: string | undefined;
  who: Client;
}

/** How long a connection refused with a 413 stays half-open before it is destroyed. */
const LINGER_MS = 2_000;

/**
 * Lingering close: the 413 goes out with `Connection: close` and our side of the connection is shut (FIN), but the
 * socket is destroyed only LINGER_MS later. Destroying it at once (Node's way after `Connection: close`) resets a
 * connection whose client is still uploading, and the reset can reach the client before it reads the answer (curl
 * then reports a send failure instead of the 413). Nothing more is read meanwhile: the request stays paused, so the
 * client's window fills and it stops sending; an upload costs the server no more than the limit.
 */
function lingerAfter(req: IncomingMessage): void {
  const socket = req.socket;
  // Node ends the last answer's connection with destroySoon(); end it half-way instead and destroy it later.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

export function nodeHandler(handle: Handle, opts: NodeAdapterOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budget = new ByteBudget(opts.maxBodyBytesInFlight ?? BODIES_AT_THE_CAP_IN_FLIGHT * limit);
  const timeouts = opts.timeouts ?? clientTimeouts();
  const out: Outlet = { answers: answerBudget(opts.maxAnswerBytesInFlight ?? DEFAULT_MAX_ANSWER_BYTES_IN_FLIGHT), stallMs: timeouts.sendStallMs };

  const identify = opts.clientOf ?? ((r: Pick<MockRequest, 'client'>) => clientOf(r.client, undefined));

  const fail = (res: ServerResponse, err: unknown, who: Client) => {
    opts.onError?.(err);
    send(res, { status: 500, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: CRASH_BODY }, out, who);
  };

  const run = (req: IncomingMessage, res: ServerResponse, body: Buffer | undefined, oversize: boolean, from: Asker, text?: string) => {
    const mreq: MockRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      // node lower-cases header names; only set-cookie is an array and the core never reads it.
      headers: req.headers as Record<string, string | undefined>,
      origin: servedOrigin(req),
      ...(from.address !== undefined ? { client: from.address } : {}),
      ...(body ? { body } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(oversize ? { oversize: true } : {}),
    };
    let answer: MockResponse | Promise<MockResponse>;
    try {
      answer = handle(mreq);
    } catch (err) {
      fail(res, err, from.who);
      return;
    }
    if (answer instanceof Promise) answer.then((r) => deliver(res, r, out, from.who), (err: unknown) => fail(res, err, from.who));
    else deliver(res, answer, out, from.who);
  };

  /** The 413, at once: nothing more of the body is kept, and the connection closes once the answer is out. */
  const refuse = (req: IncomingMessage, res: ServerResponse, from: Asker) => {
    req.pause();
    res.setHeader('Connection', 'close');
    lingerAfter(req);
    run(req, res, undefined, true, from);
  };

  /** The 503 when the bodies kept at once would pass this client's or its pool's bound: closed as the 413 is, and nothing of it runs. */
  const tooBusy = (req: IncomingMessage, res: ServerResponse, from: Asker, shortage: Shortage | undefined) => {
    req.pause();
    res.setHeader('Connection', 'close');
    lingerAfter(req);
    send(res, tooManyBodyBytes(budget, shortage), out, from.who);
  };

  /** A body that fell behind its deadline: Apache's 408 page (mod_reqtimeout), closed as the 413 is; nothing of it runs. */
  const tooSlow = (req: IncomingMessage, res: ServerResponse, from: Asker) => {
    req.pause();
    lingerAfter(req);
    const page = errorPage('ERR_HTTP_REQUEST_TIMEOUT');
    send(res, { status: page.status, headers: { 'Content-Type': 'text/html; charset=UTF-8', Connection: 'close' }, body: page.body }, out, from.who);
  };

  return (req, res) => {
    const address = clientAddress(req);
    const from: Asker = { address, who: identify({ headers: req.headers as Record<string, string | undefined>, ...(address !== undefined ? { client: address } : {}) }) };
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      refuse(req, res, from);
      return;
    }
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      run(req, res, undefined, false, from);
      return;
    }
    // The client waits for this before it sends the body (listen() takes Expect requests here, so node no longer
    // sends it on its own): a body declared over the limit got "100 Continue" and then the 413, inviting the upload.
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
    // Chunked bodies declare no length: they are counted as they arrive and cut at the limit. Every body's bytes are
    // also counted against the budget of all bodies kept at once, until its answer is out or its client gone.
    const chunks: Buffer[] = [];
    let size = 0;
    // A large body is decoded as it arrives, a piece per chunk, so the core does not decode megabytes in one go.
    let pieces: Utf8StrictPieces | undefined;
    const account = budget.open(true, from.who);
    res.once('close', () => account.close());
    const watch = watchBody(Date.now, timeouts, () => {
      stopReading();
      tooSlow(req, res, from);
    });
    res.once('close', watch.stop);
    const stopReading = () => {
      watch.stop();
      chunks.length = 0;
      account.close();
      req.off('data', onData);
      req.off('end', onEnd);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      watch.got(c.length);
      if (size > limit) {
        stopReading();
        refuse(req, res, from);
      } else if (!account.grow(c.length)) {
        const shortage = account.refused;
        stopReading();
        tooBusy(req, res, from, shortage);
      } else {
        chunks.push(c);
        if (pieces) pieces.add(c);
        else if (size >= STEPPED_BODY_BYTES) {
          pieces = new Utf8StrictPieces();
          for (const earlier of chunks) pieces.add(earlier);
        }
      }
    };
    const onEnd = () => {
      watch.stop();
      run(req, res, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), false, from, pieces?.end());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => res.destroy());
  };
}

export interface Listening {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts a server on host:port (port 0 picks a free one) and resolves once it listens. */
export function listen(handle: Handle, opts: NodeAdapterOptions & { port: number; host: string }): Promise<Listening> {
  const t = opts.timeouts ?? clientTimeouts();
  const handler = nodeHandler(handle, { ...opts, timeouts: t });
  // Node's whole-request limit is off: a body is timed by its rate (client-timeouts.ts), so a slow upload that keeps
  // arriving is not cut at 300 s. Node checks the headers' time every connectionsCheckingInterval (30 s by default,
  // which would let 20 s run to 50): a quarter of it here.
  const server = createServer(
    { keepAliveTimeout: t.idleMs, headersTimeout: t.headersMs, requestTimeout: 0, connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(t.headersMs / 4))) },
    handler,
  );
  // `Expect: 100-continue` reaches the handler too, which answers 100 only for a body it will read.
  server.on('checkContinue', handler);
  server.on('clientError', onClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const addr = server.address() as AddressInfo;
      const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      resolve({
        server,
        url: `http://${host}:${addr.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
