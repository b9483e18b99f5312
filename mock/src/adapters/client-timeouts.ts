// How long the node adapter waits on a client. Node's own defaults held a slow connection for as long as 60 s of
// headers and 300 s for the whole request, and an answer its client never read for ever; a site's Apache cuts
// headers at about 20 s (mod_reqtimeout header=20-40,MinRate=500) and a body that falls under 500 bytes a second
// after its first 20 s (body=20,MinRate=500). The mock does the same: headers within `headersMs`; a body gets
// `bodyMs` and one more second per `bodyMinBytesPerSecond` bytes received, so an upload that keeps arriving at that
// rate is never cut, however long it takes (node's 300 s for the whole request is off); an answer whose client reads
// nothing of it for `sendStallMs` is cut (answer-send.ts). `--client-timeout MS` sets the three times at once. A
// connection idle between two requests is closed after `idleMs`, Apache's KeepAliveTimeout (5 s by default): the
// mock kept them 65 s, so a client opening connections and leaving them idle held 13 times as many.

export interface ClientTimeouts {
  headersMs: number;
  bodyMs: number;
  bodyMinBytesPerSecond: number;
  sendStallMs: number;
  idleMs: number;
}

export const DEFAULT_CLIENT_TIMEOUT_MS = 20_000;
/** Apache's KeepAliveTimeout. */
const DEFAULT_IDLE_MS = 5_000;

/** The timeouts for one time (the CLI's --client-timeout), with mod_reqtimeout's minimum body rate. */
export function clientTimeouts(ms: number = DEFAULT_CLIENT_TIMEOUT_MS): ClientTimeouts {
  return { headersMs: ms, bodyMs: ms, bodyMinBytesPerSecond: 500, sendStallMs: ms, idleMs: DEFAULT_IDLE_MS };
}

/** When a body that began at `startMs` and has brought `received` bytes so far is too late (mod_reqtimeout's rule). */
export function bodyDeadline(startMs: number, received: number, t: ClientTimeouts): number {
  return startMs + t.bodyMs + (received / t.bodyMinBytesPerSecond) * 1000;
}

/**
 * Watches one body: `got()` counts its bytes as they arrive, `late` is called once the body falls behind its deadline,
 * `stop()` ends the watch. One timer at a time, set for the deadline as it stands, so a steady body costs a timer per
 * deadline reached, not one per chunk.
 */
export function watchBody(now: () => number, t: ClientTimeouts, late: () => void): { got(bytes: number): void; stop(): void } {
  const start = now();
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const left = bodyDeadline(start, received, t) - now();
    if (left <= 0) late();
    else timer = setTimeout(check, left);
  };
  timer = setTimeout(check, t.bodyMs);
  return {
    got: (bytes) => {
      received += bytes;
    },
    stop: () => clearTimeout(timer),
  };
}
