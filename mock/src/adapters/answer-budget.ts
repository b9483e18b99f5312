// The bytes of answers the node adapter holds at once, over all connections. An answer is held from the moment the
// core hands it over until its last byte is out or its client has gone: a GET of 100 events each embedding 500
// organizers is 49 MB, and eight at once (or eight clients that never read theirs) held gigabytes. Past the budget a
// read's answer is dropped and answered 503 with Retry-After instead: it changed nothing, so asking again is
// harmless, and a client that waits is better off told so than left hanging while the process grows. Waiting for
// room is no bound at all: the answer is already built when its size is known, so a queue of waiting answers holds
// their bytes just the same. A write's answer (and any the core did not call safe) always goes, counted: the write
// happened, and a 503 would invite a second one. An answer always fits when nothing else is held, so one answer
// larger than the budget still goes out.

import { boundsText, ByteBudget, type Shortage } from '../core/byte-budget.ts';
import { tryAgainLater } from '../core/held.ts';
import type { MockResponse } from '../core/types.ts';

/**
 * The default budget: 128 MiB, two of the 49 MB embedded lists at once and room beside them for thousands of
 * ordinary answers (a list page is 21 KB).
 */
export const DEFAULT_MAX_ANSWER_BYTES_IN_FLIGHT = 128 * 1024 * 1024;

/**
 * An answer of at most this many bytes is never refused (though counted): it goes to the kernel in one write, so it
 * is held no longer than any small answer, and without it clients that leave large answers unread would have the
 * mock answer every small read with a 503 until they are cut. Memory stays bounded: by the budget, plus this much
 * per open connection.
 */
const ALWAYS_SENT_BYTES = 64 * 1024;

/** The budget of answers in flight (core/byte-budget.ts's rule, with the floor above). */
export function answerBudget(max: number): ByteBudget {
  return new ByteBudget(max, ALWAYS_SENT_BYTES);
}

/** Past the budget of answers: the read ran, its answer was not sent (held.ts's tryAgainLater()). */
export function tooManyAnswerBytes(budget: ByteBudget, bytes: number, shortage?: Shortage): MockResponse {
  return tryAgainLater(
    'mock_too_many_answer_bytes',
    `The mock holds answers being sent within bounds: ${boundsText(budget, 'bytes', shortage)}. This answer of ${bytes.toLocaleString('en')} bytes did not fit; nothing was changed. Try again.`,
  );
}
