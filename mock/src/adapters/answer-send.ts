// One answer onto the wire, in pieces with backpressure: a piece is written, and the next only once the socket has
// taken it ('drain'), so node never buffers more than about a piece of an answer beside the answer's own text (a 49 MB
// answer written at once was also copied whole into node's send buffer: 100 MB per client). A client that stops
// reading stops the pieces; one that reads nothing for `stallMs` is cut (the socket destroyed), so it cannot pin its
// answer for ever. Progress is counted a piece at a time, so a client must take about a piece (up to 192 KiB) per
// stallMs: 10 KB/s at the default 20 s. TCP's zero-window probes can pause a slow reader for seconds, so a stall time
// of a second or two cuts clients that do read. `done` is called once: when the last byte has gone to the socket, or the client has gone.
import type { ServerResponse } from 'node:http';

/** Characters (or bytes) of an answer per piece: at most 192 KiB of UTF-8 on the wire. */
export const PIECE_CHARS = 64 * 1024;

/** Where the piece of `text` that starts at `at` ends: at most `size` characters, never between a surrogate pair's halves. */
export function pieceEnd(text: string | Uint8Array, at: number, size: number): number {
  const end = Math.min(text.length, at + size);
  if (end === text.length || typeof text !== 'string') return end;
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

export function sendInPieces(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  payload: string | Uint8Array,
  opts: { stallMs: number; pieceChars?: number },
  done: () => void,
): void {
  const size = opts.pieceChars ?? PIECE_CHARS;
  res.writeHead(status, headers);
  // An answer of one piece, as nearly all are, is the loop's last piece at once; most go to the kernel whole, and need
  // no watching. Taken before anything below is made: building the closures and listeners for every answer cost
  // 12-17% of the reads per second of one record (35-37k against 42-44k, interleaved runs).
  if (payload.length <= size) {
    res.end(payload);
    if (res.writableLength === 0) done();
    else watchPieces(res, payload, payload.length, size, opts.stallMs, done).wait();
    return;
  }
  watchPieces(res, payload, 0, size, opts.stallMs, done).pump();
}

/** The pieces from `start` on, with their listeners and the stall timer: an answer the kernel did not take at once. */
function watchPieces(
  res: ServerResponse,
  payload: string | Uint8Array,
  start: number,
  size: number,
  stallMs: number,
  done: () => void,
): { pump(): void; wait(): void } {
  let text = payload;
  let at = start;
  let timer: NodeJS.Timeout | undefined;
  let over = false;
  let watching = false;
  const finish = () => {
    if (over) return;
    over = true;
    if (timer) clearTimeout(timer);
    if (watching) {
      res.off('drain', pump);
      res.off('finish', finish);
      res.off('close', finish);
    }
    // The text may still be reachable from a listener node keeps; the piece writer lets go of it here.
    text = '';
    done();
  };
  /**
   * Waiting on the client: if the connection takes nothing more for stallMs, it is cut. Progress is the socket's, not
   * this answer's: an answer queued behind a pipelined one waits while the client reads the one before.
   */
  const wait = () => {
    // Listened for only now: most answers go to the kernel whole at once and need none of this.
    if (!watching) {
      watching = true;
      res.once('finish', finish);
      res.once('close', finish);
    }
    // The request's socket: a pipelined answer has none of its own until the one before it is done.
    const socket = res.req.socket;
    let mark = socket.bytesWritten;
    const check = () => {
      const now = socket.bytesWritten;
      if (now === mark) res.destroy();
      else {
        mark = now;
        timer = setTimeout(check, stallMs);
      }
    };
    timer = setTimeout(check, stallMs);
  };
  function pump(): void {
    if (timer) clearTimeout(timer);
    while (!over) {
      const end = pieceEnd(text, at, size);
      // Never the whole text: an answer of one piece was sent before any of this was made.
      const piece = typeof text === 'string' ? text.slice(at, end) : text.subarray(at, end);
      at = end;
      if (at === text.length) {
        res.end(piece);
        // Nothing left in node's buffers (the socket's, or this answer's own while a pipelined one goes before it): the
        // kernel took it all, and no client can pin it here any more.
        if (res.writableLength > 0) wait();
        else finish();
        return;
      }
      if (!res.write(piece)) {
        res.once('drain', pump);
        wait();
        return;
      }
    }
  }
  return { pump, wait };
}
