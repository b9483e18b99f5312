// error_envelope, checked on every error answer of a run rather than on the ones a check asked for: after each
// unit, one case per operation it touched that got a 4xx, failing on the first answer whose body is not
// WordPress's `{code, message, data: {status}}` with data.status equal to the HTTP status (convention,
// rest_convert_error_to_response()). An unknown id's 404, a trashed record's 410, a refused write's 401: a site
// that answers any of them with an HTML page or a bare string is caught here, wherever it happened.

import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange } from '../http/types.ts';
import type { AnswerSweep, Finding, Unit } from './kit/unit.ts';
import { findingPlace, FirstProblemPerOperation } from './kit/per-operation.ts';
import { envelopeProblem } from './kit/wp.ts';

export const ERROR_ENVELOPE = 'error_envelope';

/**
 * Judged as each answer arrives, so a unit keeps at most one exchange per operation (the first bad one), not
 * every body it was sent: a target may answer each request with megabytes.
 */
export class ErrorEnvelopes implements AnswerSweep {
  private readonly sweep = new FirstProblemPerOperation();

  add(op: Operation | undefined, e: Exchange): void {
    const r = e.response;
    if (!r || r.status < 400 || r.status >= 500 || e.request.method === 'HEAD') return;
    this.sweep.add(op, e, () => envelopeProblem(r));
  }

  findings(unit: Unit): Finding[] {
    return this.sweep.slots().map(({ op, judged, worst }) => ({
      check: ERROR_ENVELOPE,
      ...findingPlace(op, unit),
      variant: `errors:${unit.id}`,
      severity: 'convention' as const,
      outcome: worst ? ('fail' as const) : ('pass' as const),
      message: worst
        ? `expected every error answer to be WordPress's {code, message, data: {status}} (WordPress convention, rest_convert_error_to_response()); ${worst.problem} (${worst.e.request.method} ${worst.e.request.url})`
        : `${judged} error answer(s), each WordPress's error envelope`,
      ...(worst ? { exchange: worst.e } : {}),
    }));
  }
}
