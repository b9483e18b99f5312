// Answers held back for `--latency` / `Prefer: latency=`: a held answer costs memory until it goes out, so how many
// are held at once is bounded (past it the request is answered 503 at once, before it runs), and a client without
// credentials may ask for at most ANONYMOUS_MAX_LATENCY_MS. The adapter gives a place back when the answer is sent
// or its client has gone (node-http.ts drops the answer then).
import type { MockResponse } from './types.ts';

/** The most answers held at once by default. */
export const DEFAULT_MAX_HELD = 200;
/** The longest `Prefer: latency=` a request without valid credentials may ask for (the --latency flag is not bound by it). */
export const ANONYMOUS_MAX_LATENCY_MS = 30_000;

export class HeldAnswers {
  #held = 0;
  constructor(readonly max: number = DEFAULT_MAX_HELD) {}

  get held(): number {
    return this.#held;
  }

  /** A place for one more held answer, and the function that gives it back (once, however often it is called). */
  take(): (() => void) | undefined {
    if (this.#held >= this.max) return undefined;
    this.#held++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#held--;
    };
  }
}

/**
 * The mock's answer when it is short of room (held answers, bytes of bodies or of answers in flight): WordPress's error
 * shape, 503 with Retry-After, so a client knows to ask again.
 */
export function tryAgainLater(code: string, message: string): MockResponse {
  return {
    status: 503,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Retry-After': '1' },
    body: JSON.stringify({ code, message, data: { status: 503 } }),
  };
}

/** Too many answers held at once: the request did not run. */
export function tooManyHeld(max: number): MockResponse {
  return tryAgainLater('mock_too_many_held', `The mock holds at most ${max} delayed answers at once (Prefer: latency, --latency); this request did not run. Try again.`);
}
