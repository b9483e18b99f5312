// not_a_server_error, checked on every answer of a run: after each unit, one case per operation it sent to, failing on
// its first 5xx. Like the other sweeps it keeps statuses, not bodies: a unit may send hundreds of requests, and a
// target may answer each with megabytes.

import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange } from '../http/types.ts';
import { plainlyUnreadable } from './kit/bodies.ts';
import { findingPlace } from './kit/per-operation.ts';
import type { AnswerSweep, Finding, Unit } from './kit/unit.ts';

export const NOT_A_SERVER_ERROR = 'not_a_server_error';

/**
 * What not_a_server_error needs of a unit's exchanges, kept as they come: per operation, how many were
 * answered and the first 5xx (whose request and response the report shows), nothing else.
 */
export class ServerErrors implements AnswerSweep {
  private readonly byOp = new Map<string, { op: Operation | undefined; worst?: Exchange; unreadable?: Exchange; answered: number }>();

  add(op: Operation | undefined, e: Exchange): void {
    const key = op?.id ?? '';
    const slot = this.byOp.get(key) ?? { op, answered: 0 };
    this.byOp.set(key, slot);
    if (!e.response) return;
    slot.answered++;
    if (e.response.status >= 500 && !slot.worst) slot.worst = e;
    if (!slot.unreadable && plainlyUnreadable(e)) slot.unreadable = e;
  }

  /** One finding per operation the unit touched: did any answer come back 5xx? */
  findings(unit: Unit): Finding[] {
    const out: Finding[] = [];
    for (const { op, worst, unreadable, answered } of this.byOp.values()) {
      if (answered === 0) continue;
      out.push({
        check: NOT_A_SERVER_ERROR,
        ...findingPlace(op, unit),
        variant: unit.id,
        severity: 'documented',
        outcome: worst ? 'fail' : 'pass',
        message: worst
          ? `${worst.request.method} answered ${worst.response!.status}: a request the ${unit.family} check sent made the server fail`
          : `${answered} answer(s), none 5xx`,
        // No 5xx, but an answer whose body is not JSON: requireJson() keeps that from passing.
        ...(worst ? { exchange: worst } : unreadable ? { exchange: unreadable } : {}),
      });
    }
    return out;
  }
}
