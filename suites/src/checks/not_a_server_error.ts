// not_a_server_error, checked on every answer of a run: after each unit, one case per operation it sent to, failing on
// its first 5xx. Like the other sweeps it keeps statuses, not bodies: a unit may send hundreds of requests, and a
// target may answer each with megabytes.
//
// A 5xx that is WordPress core's own answer to a request the documents allow (kit/core_answers.ts: an empty term name
// or a taken slug handed on to core's terms controller, a DELETE without force on a site with no trash) is no fault
// of the site's: it is held as assumed with the reason, never failed as documented. Any other 5xx of the same
// operation still fails it.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange } from '../http/types.ts';
import { plainlyUnreadable } from './kit/bodies.ts';
import { wordpressOwnServerError } from './kit/core_answers.ts';
import { findingPlace } from './kit/per-operation.ts';
import type { AnswerSweep, Finding, Unit } from './kit/unit.ts';

export const NOT_A_SERVER_ERROR = 'not_a_server_error';

interface Slot {
  op: Operation | undefined;
  /** The first 5xx nothing excuses. */
  worst?: Exchange;
  /** The first 5xx that is WordPress core's own answer, and why. */
  core?: { e: Exchange; why: string };
  unreadable?: Exchange;
  answered: number;
}

/**
 * What not_a_server_error needs of a unit's exchanges, kept as they come: per operation, how many were
 * answered, the first 5xx (whose request and response the report shows) and the first of core's own, nothing else.
 */
export class ServerErrors implements AnswerSweep {
  private readonly byOp = new Map<string, Slot>();

  constructor(private readonly contract: Contract) {}

  add(op: Operation | undefined, e: Exchange): void {
    const key = op?.id ?? '';
    const slot = this.byOp.get(key) ?? { op, answered: 0 };
    this.byOp.set(key, slot);
    if (!e.response) return;
    slot.answered++;
    if (e.response.status >= 500 && !slot.worst) {
      const why = wordpressOwnServerError(this.contract, op, e);
      if (!why) slot.worst = e;
      else slot.core ??= { e, why };
    }
    if (!slot.unreadable && plainlyUnreadable(e)) slot.unreadable = e;
  }

  /** One finding per operation the unit touched: did any answer come back 5xx? */
  findings(unit: Unit): Finding[] {
    const out: Finding[] = [];
    for (const { op, worst, core, unreadable, answered } of this.byOp.values()) {
      if (answered === 0) continue;
      const base = { check: NOT_A_SERVER_ERROR, ...findingPlace(op, unit), variant: unit.id };
      if (worst) {
        out.push({ ...base, severity: 'documented', outcome: 'fail', message: `${worst.request.method} answered ${worst.response!.status}: a request the ${unit.family} check sent made the server fail`, exchange: worst });
      } else if (core) {
        out.push({
          ...base,
          severity: 'assumed',
          outcome: 'fail',
          message: `${core.e.request.method} answered ${core.e.response!.status}: a request the ${unit.family} check sent got a server error; held as assumed because ${core.why}`,
          exchange: core.e,
        });
      } else {
        // No 5xx, but an answer whose body is not JSON: requireJson() keeps that from passing.
        out.push({ ...base, severity: 'documented', outcome: 'pass', message: `${answered} answer(s), none 5xx`, ...(unreadable ? { exchange: unreadable } : {}) });
      }
    }
    return out;
  }
}
