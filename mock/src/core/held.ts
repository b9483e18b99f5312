// Answers held back for `--latency` / `Prefer: latency=`: a held answer costs memory until it goes out, so how many
// are held at once is bounded (past it the request is answered 503 at once, before it runs), fairly between clients
// (byte-budget.ts: one anonymous client cannot take every place), and a client without credentials may ask for at
// most ANONYMOUS_MAX_LATENCY_MS. The adapter gives a place back when the answer is sent
// or its client has gone (node-http.ts drops the answer then).
import type { MockResponse } from './types.ts';
import { boundsText, ByteBudget, UNKNOWN_CLIENT, type Client, type Shortage } from './byte-budget.ts';

/** The most answers held at once by default. */
export const DEFAULT_MAX_HELD = 200;
/** The longest `Prefer: latency=` a request without valid credentials may ask for (the --latency flag is not bound by it). */
export const ANONYMOUS_MAX_LATENCY_MS = 30_000;

/** A held answer's place (and the function that gives it back, once), or why there is none. */
type HeldPlace = { release: () => void } | { refused: Shortage };

export class HeldAnswers {
  readonly #budget: ByteBudget;
  constructor(readonly max: number = DEFAULT_MAX_HELD) {
    this.#budget = new ByteBudget(max);
  }

  get held(): number {
    return this.#budget.used;
  }

  /** The bounds, for the refusal's words. */
  get budget(): ByteBudget {
    return this.#budget;
  }

  /**
   * A place for one more held answer of `client`, within the bounds the byte budgets keep (byte-budget.ts): the
   * signed-in clients' pool, the anonymous clients' pool of half of it, half a pool for one client.
   */
  take(client: Client = UNKNOWN_CLIENT): HeldPlace {
    const lease = this.#budget.open(true, client);
    if (!lease.grow(1)) return { refused: lease.refused! };
    return { release: () => lease.close() };
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

/** Too many answers held at once, for this client or its pool: the request did not run. */
export function tooManyHeld(held: HeldAnswers, shortage?: Shortage): MockResponse {
  return tryAgainLater('mock_too_many_held', `The mock holds delayed answers (Prefer: latency, --latency) within bounds: ${boundsText(held.budget, 'answers', shortage)}. This request did not run. Try again.`);
}
