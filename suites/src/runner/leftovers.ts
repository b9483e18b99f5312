// What cleanup could not remove is a case of its own, in every report format, with the curl line that
// removes it: a run that leaves records on the site it tests is not a clean run, whatever its checks said.
// Ids are numbered within the unit that made the records (record ids change from run to run, a unit's
// order of creation does not), so a baseline can name them.

import { encodeQuery } from '../http/encode.ts';
import { routeUrl, type Target } from '../http/target.ts';
import { buildCase, type CaseContext } from '../report/case.ts';
import type { CaseResult } from '../report/model.ts';
import { CLEANUP } from '../checks/registry.ts';
import type { CleanupReport, Leftover } from './cleanup.ts';

export function leftoverCases(report: CleanupReport, target: Target, ctx: CaseContext, marker: string): CaseResult[] {
  const all = [...report.left.map((l) => ({ l, kind: 'left' as const })), ...report.unconfirmed.map((l) => ({ l, kind: 'unconfirmed' as const }))];
  all.sort((a, b) => cmp(a.l.record.createdBy, b.l.record.createdBy) || cmp(a.l.record.resource, b.l.record.resource) || a.l.record.id - b.l.record.id);
  const seen = new Map<string, number>();
  return all.map(({ l, kind }) => {
    const key = `${l.record.namespace}/${l.record.resource}/${l.record.createdBy}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return buildCase(
      {
        check: CLEANUP,
        namespace: l.record.namespace,
        method: l.removal.method,
        route: l.record.itemPath,
        variant: `${key}#${n}`,
        severity: 'documented',
        outcome: 'error',
        message: `${kind === 'left' ? 'still on the target' : 'not confirmed removed'}: ${l.record.resource} ${l.record.id} (carries "${marker}"), made by ${l.record.createdBy}: ${l.reason}. The curl line removes it`,
        request: removalRequest(l, target),
        durationMs: 0,
      },
      ctx,
    );
  });
}

/** The DELETE that removes the record for good, as the report's curl line shows it (credentials by the variable's name). */
export function removalRequest(l: Leftover, target: Target): { method: string; url: string; headers: Record<string, string> } {
  const query = l.removal.query ? encodeQuery(l.removal.query) : '';
  return { method: l.removal.method, url: routeUrl(target, l.removal.route, query), headers: { Authorization: 'redacted' } };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
