// The long answers being built at once, in characters of their encoding. Eight anonymous clients asking at once for a
// list of 100 events each embedding 500 organizers (49 MB each) took the mock to 2.3 GB: each answer's encoding is
// built in steps (other clients are answered between them), so all eight were being built together, and the budget
// of answers in flight (adapters/answer-budget.ts) only sees an answer once it is whole. An answer encoded in steps
// grows a lease here as its items are encoded; a read whose lease would take the answers being built past `max` is
// answered 503 (held.ts's tryAgainLater()), and what it had built is let go. The one answer being built alone always
// goes on, however long, so any single answer can still be had; a write's answer is never refused (it has written).
// Characters count as bytes: WordPress's JSON is ASCII (every other character a \uXXXX escape).
import { wpError, type WpErrorResponse } from '../wire/errors.ts';

/** 128 Mi characters of answers being built at once (as much as the answers in flight). */
export const DEFAULT_MAX_ANSWER_CHARS_BUILDING = 128 * 1024 * 1024;

export class BuildBudget {
  #used = 0;
  constructor(readonly max: number) {}

  get used(): number {
    return this.#used;
  }

  /** A lease for one answer; a refusable one (a read's) may be refused room as it grows. */
  open(refusable: boolean): BuildLease {
    return new BuildLease(this, refusable);
  }

  /** Whether `held` characters of a lease may grow by `chars` (its own count is included in `used`). */
  fits(held: number, chars: number): boolean {
    return this.#used === held || this.#used + chars <= this.max;
  }

  add(chars: number): void {
    this.#used += chars;
  }
}

/** One answer's characters being built: grown as it is encoded, given back (once) when it is whole or dropped. */
export class BuildLease {
  #held = 0;
  #closed = false;
  constructor(
    private readonly budget: BuildBudget,
    private readonly refusable: boolean,
  ) {}

  /** Takes `chars` more; false (and nothing taken) when a refusable lease does not fit. */
  grow(chars: number): boolean {
    if (this.#closed) return true;
    if (this.refusable && !this.budget.fits(this.#held, chars)) return false;
    this.#held += chars;
    this.budget.add(chars);
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
