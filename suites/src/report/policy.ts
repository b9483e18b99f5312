// Turns "the check found a deviation of this severity" into a case status, so that every check
// applies the team's --conventions / --response-shapes choice the same way.

import type { CaseStatus, PolicyLevel, Severity, SeverityPolicy } from './model.ts';

/** What a check concluded, before the policy decides how loud a deviation is. */
export type Outcome = 'pass' | 'fail' | 'inconclusive' | 'skip' | 'error';

export function levelFor(severity: Severity, policy: SeverityPolicy): PolicyLevel {
  switch (severity) {
    case 'documented':
      return 'error';
    case 'convention':
      return policy.conventions;
    case 'assumed':
      return policy.responseShapes;
  }
}

export function statusFor(outcome: Outcome, severity: Severity, policy: SeverityPolicy): CaseStatus {
  switch (outcome) {
    case 'pass':
      return 'passed';
    case 'skip':
      return 'skipped';
    // Nothing was shown either way; not softened or hardened by the policy.
    case 'inconclusive':
      return 'inconclusive';
    // A check that could not decide is not a finding about the server, so the policy does not soften it.
    case 'error':
      return 'errored';
    case 'fail':
      return levelFor(severity, policy) === 'error' ? 'failed' : 'warned';
  }
}
