// Bytes the mock holds at once for its clients, over all connections, one budget for each kind: request bodies being
// read (adapters/body-budget.ts), long answers being built (stages/respond.ts), answers being sent
// (adapters/answer-budget.ts). One rule for the three: a lease grows as its bytes come and is given back once; a
// refusable lease that would take its budget past the maximum is refused room (and takes nothing), unless it is the
// only lease holding anything (so any single body, answer or encoding can still be had) or it stays within the
// budget's floor (a small answer is never refused because large unread ones fill the budget). What is refused is the
// caller's to answer, each with its own 503.
//
// Long answers being built: eight anonymous clients asking at once for a list of 100 events each embedding 500
// organizers (49 MB each) took the mock to 2.3 GB. A long list's encoding is built in steps (other clients are
// answered between them), so all eight were built together; the budget of answers in flight only saw each once whole,
// and then refused six of them. Now a list encoded in steps grows a lease as its items are encoded (characters count
// as bytes: WordPress's JSON is ASCII, every other character a \uXXXX escape), and a read refused room is answered 503.
import { wpError, type WpErrorResponse } from '../wire/errors.ts';

/** 128 Mi characters of long answers being built at once (as much as the answers in flight). */
export const DEFAULT_MAX_ANSWER_CHARS_BUILDING = 128 * 1024 * 1024;

export class ByteBudget {
  #used = 0;
  constructor(
    readonly max: number,
    /** A lease holding no more than this always fits. */
    private readonly floor = 0,
  ) {}

  get used(): number {
    return this.#used;
  }

  /** A lease for one body or answer; one that is not refusable (a write's answer) always grows. */
  open(refusable = true): ByteLease {
    return new ByteLease(this, refusable);
  }

  /** Whether a lease holding `held` bytes (counted in `used`) may take `bytes` more. */
  room(held: number, bytes: number): boolean {
    return held + bytes <= this.floor || this.#used === held || this.#used + bytes <= this.max;
  }

  add(bytes: number): void {
    this.#used += bytes;
  }
}

/** One body's or answer's bytes: grown as they come, given back (once) when it is done or dropped. */
class ByteLease {
  #held = 0;
  #closed = false;
  constructor(
    private readonly budget: ByteBudget,
    private readonly refusable: boolean,
  ) {}

  /** Takes `bytes` more; false (and nothing taken) when a refusable lease does not fit. A closed lease takes nothing. */
  grow(bytes: number): boolean {
    if (this.#closed) return true;
    if (this.refusable && !this.budget.room(this.#held, bytes)) return false;
    this.#held += bytes;
    this.budget.add(bytes);
    return true;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.budget.add(-this.#held);
    this.#held = 0;
  }
}

/**
 * A read refused room to build its answer: it ran, nothing changed, and its answer was not made. The same code as a
 * refused answer in flight (answer-budget.ts), sent with Retry-After: 1 and the REST API's own headers (CORS too,
 * so a page can read it).
 */
export function tooManyAnswersBuilding(max: number): WpErrorResponse {
  return wpError(
    'mock_too_many_answer_bytes',
    `The mock builds at most ${max.toLocaleString('en')} characters of long answers at once, over all connections, and this answer did not fit; nothing was changed. Try again.`,
    { status: 503 },
  );
}
