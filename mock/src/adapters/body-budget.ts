// The bytes of request bodies the node adapter keeps at once, over all connections. Each body is capped (8 MiB), but
// a body is kept from its first byte until its answer has gone out, so N clients that each send just under the cap
// and never finish (or finish and read slowly) held N x 8 MiB: 30 such sockets added 237 MB of RSS, a thousand would
// end the process. Past the budget the request whose bytes would pass it is refused with a 503 and its body dropped;
// the bodies already being read go on.

import { tryAgainLater } from '../core/held.ts';
import type { MockResponse } from '../core/types.ts';
import { boundsText, type ByteBudget, type Shortage } from '../core/byte-budget.ts';

/**
 * The default budget, in bodies at the cap: eight (64 MiB at the 8 MiB cap), more than a conformance run with
 * --workers 6 sends together; a larger cap given to the adapter raises it with it, so a body the cap allows always fits.
 * Counted with core/byte-budget.ts's ByteBudget.
 */
export const BODIES_AT_THE_CAP_IN_FLIGHT = 8;

/** Past the budget of bodies: the request did not run (held.ts's tryAgainLater()). */
export function tooManyBodyBytes(budget: ByteBudget, shortage?: Shortage): MockResponse {
  return tryAgainLater('mock_too_many_body_bytes', `The mock keeps request bodies within bounds: ${boundsText(budget, 'bytes', shortage)}. This request did not run. Try again.`);
}
