// `test --calls`: the cases of a replay folded into one case per recorded call (its line, method and path), naming
// the deviations that call meets ("these deviations touch your app"). A call's unit yields a case from every check
// that judged its answers (the registry's sweeps, response_shape, calls' comparison with the recording); each names
// the unit in its variant. The folded case takes the worst status of them, the severity of the worst, and the
// request and answer that show it; what belongs to no call (a record left on the target) stays as it is.

import type { RecordedCall } from '../../../contracts/lib/calls-format.ts';
import { caseId, GLOBAL_NAMESPACE, type CaseResult, type CaseStatus } from '../report/model.ts';
import { CALLS, callUnitId } from '../checks/registry.ts';

const WORSE: Readonly<Record<CaseStatus, number>> = { skipped: 0, passed: 1, inconclusive: 2, warned: 3, failed: 4, errored: 5 };
const DEVIATING: ReadonlySet<CaseStatus> = new Set(['warned', 'failed', 'errored']);

/** The checks named in a folded case's message after `meets `, for scripts (CI's expected deviations) and tests. */
export function deviationsOf(c: Pick<CaseResult, 'message'>): string[] {
  const m = /: meets ([a-z_, ]+?) — /.exec(c.message ?? '');
  return m ? m[1]!.split(', ') : [];
}

export function foldCalls(cases: readonly CaseResult[], calls: readonly RecordedCall[]): CaseResult[] {
  const claimed = new Set<CaseResult>();
  const folded = calls.map((call) => {
    const unit = callUnitId(call.line);
    const parts = cases.filter((c) => c.variant === unit || (c.variant ?? '').endsWith(`:${unit}`));
    for (const c of parts) claimed.add(c);
    const own = parts.find((c) => c.check === CALLS);
    const worst = parts.reduce<CaseResult | undefined>((w, c) => (!w || WORSE[c.status] > WORSE[w.status] ? c : w), undefined);
    const deviating = parts.filter((c) => DEVIATING.has(c.status));
    const names = [...new Set(deviating.map((c) => c.check))];
    const judged = [...new Set(parts.filter((c) => c.status !== 'skipped').map((c) => c.check))];
    const head = `line ${call.line}: ${call.method} ${call.path}`;
    const message = deviating.length
      ? `${head}: meets ${names.join(', ')} — ${deviating.map((c) => `${c.check}: ${c.message ?? c.status}`).join(' | ')}`
      : `${head}: ${own?.message ?? worst?.message ?? 'nothing judged'}${judged.length ? ` (judged by ${judged.join(', ')})` : ''}`;
    const shown = deviating.find((c) => c === worst) ?? own ?? worst;
    const out: CaseResult = {
      id: caseId(CALLS, own?.operationId, `L${call.line}`),
      check: CALLS,
      namespace: own?.namespace ?? worst?.namespace ?? GLOBAL_NAMESPACE,
      status: worst?.status ?? 'skipped',
      severity: worst && DEVIATING.has(worst.status) ? worst.severity : (own?.severity ?? 'convention'),
      durationMs: parts.reduce((n, c) => n + c.durationMs, 0),
      method: call.method,
      variant: `L${call.line}`,
      message,
    };
    if (own?.operationId !== undefined) out.operationId = own.operationId;
    if (own?.route !== undefined) out.route = own.route;
    for (const k of ['request', 'response', 'curl', 'startedAt'] as const) if (shown?.[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = shown[k];
    return out;
  });
  return [...folded, ...cases.filter((c) => !claimed.has(c))];
}
