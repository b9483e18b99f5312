// The kind of deviation a failed or warned case shows (report/model.ts CaseDeviation), from what the check's registry
// row says its failures mean and the status of the answer that shows it. The answer decides first, as a client meets
// it: a 5xx is a server error and another 4xx a status whatever the check looked for (positive_acceptance's 4xx: a
// documented value refused); a success is what the row says (a filter not applied, a header missing), else a field.
import type { CaseDeviation } from '../../report/model.ts';

/** What a check's failures mean, when more than its answer's status says: its registry row's `deviation`. */
export type DeviationRule =
  | { readonly kind: 'route-missing' }
  | { readonly kind: 'value-refused' }
  | { readonly kind: 'filter-ignored'; readonly params: readonly string[] }
  | { readonly kind: 'header'; readonly headers: readonly string[] };

/** The case's kind of deviation; undefined when no answer shows one (a transport error, nothing sent). */
export function deviationOf(rule: DeviationRule | undefined, status: number | undefined): CaseDeviation | undefined {
  if (rule?.kind === 'route-missing') return { kind: 'route-missing' };
  if (status === undefined) return undefined;
  if (status >= 500) return { kind: 'server-error' };
  if (status >= 400) return { kind: rule?.kind === 'value-refused' ? 'value-refused' : 'status' };
  if (rule?.kind === 'filter-ignored') return { kind: 'filter-ignored', params: [...rule.params] };
  if (rule?.kind === 'header') return { kind: 'header', headers: [...rule.headers] };
  return { kind: 'field' };
}
