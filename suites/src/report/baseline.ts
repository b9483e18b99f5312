// --baseline: failures a team has already looked at and decided to live with (for now) are still
// reported, but only failures the baseline does not know fail the run. Accepted ids that pass again
// are listed so the baseline can shrink.

import { parseYamlText, YamlTextError } from './yaml-text.ts';
import type { AcceptedEntry, BaselineReport, CaseResult } from './model.ts';

import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
export interface Baseline {
  source: string;
  accepted: AcceptedEntry[];
}

export class BaselineError extends Error {
  override name = 'BaselineError';
}

/**
 * Reads either an earlier JSON report (every finding in it is accepted) or a reviewed list
 * `{accepted: [{id, reason?}]}`, which may also be written as YAML since people edit it by hand.
 */
export function parseBaseline(text: string, source: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    try {
      data = parseYamlText(text);
    } catch (e) {
      if (!(e instanceof YamlTextError)) throw e;
      throw new BaselineError(`--baseline ${source}:${e.line}:${e.column}: ${e.syntax ? `neither JSON nor YAML (${e.reason})` : e.reason}`);
    }
  }
  if (!isPlainObject(data)) throw new BaselineError(`--baseline ${source}: expected an object, got ${typeName(data)}`);

  if ('accepted' in data) {
    const list = data['accepted'];
    if (!Array.isArray(list)) throw new BaselineError(`--baseline ${source}: "accepted" must be an array`);
    return { source, accepted: list.map((entry, i) => acceptedEntry(entry, i, source)) };
  }
  if ('cases' in data && Array.isArray(data['cases'])) {
    const accepted: AcceptedEntry[] = [];
    for (const c of data['cases'] as unknown[]) {
      if (!isPlainObject(c) || typeof c['id'] !== 'string') continue;
      const status = c['status'];
      if (status === 'failed' || status === 'errored' || status === 'warned') {
        accepted.push({ id: c['id'], reason: `${status} in ${source}` });
      }
    }
    return { source, accepted };
  }
  throw new BaselineError(`--baseline ${source}: expected a JSON report (with "cases") or {"accepted": [{"id": ...}]}`);
}

function acceptedEntry(entry: unknown, index: number, source: string): AcceptedEntry {
  if (typeof entry === 'string') return { id: entry };
  if (!isPlainObject(entry) || typeof entry['id'] !== 'string' || entry['id'] === '') {
    throw new BaselineError(`--baseline ${source}: accepted[${index}] needs a non-empty string "id"`);
  }
  const reason = entry['reason'];
  if (reason !== undefined && typeof reason !== 'string') {
    throw new BaselineError(`--baseline ${source}: accepted[${index}].reason must be a string`);
  }
  return reason === undefined ? { id: entry['id'] } : { id: entry['id'], reason };
}

export function applyBaseline(
  cases: readonly CaseResult[],
  baseline: Baseline,
): { cases: CaseResult[]; report: BaselineReport } {
  const reasons = new Map<string, string | undefined>();
  for (const entry of baseline.accepted) {
    if (!reasons.has(entry.id) || entry.reason !== undefined) reasons.set(entry.id, entry.reason);
  }
  const report: BaselineReport = {
    source: baseline.source,
    acceptedList: baseline.accepted,
    newFailures: [],
    accepted: [],
    fixed: [],
    notRun: [],
  };
  const ran = new Set<string>();
  const marked = cases.map((original) => {
    const { baseline: _mark, acceptedReason: _reason, ...c } = original;
    const known = reasons.has(c.id);
    if (c.status !== 'skipped') ran.add(c.id);
    if (c.status === 'failed' || c.status === 'errored') {
      if (!known) {
        report.newFailures.push(c.id);
        return { ...c, baseline: 'new' as const };
      }
      const reason = reasons.get(c.id);
      report.accepted.push(reason === undefined ? { id: c.id } : { id: c.id, reason });
      return reason === undefined
        ? { ...c, baseline: 'accepted' as const }
        : { ...c, baseline: 'accepted' as const, acceptedReason: reason };
    }
    if (c.status === 'passed' && known) {
      report.fixed.push(c.id);
      return { ...c, baseline: 'fixed' as const };
    }
    return c;
  });
  for (const id of reasons.keys()) if (!ran.has(id)) report.notRun.push(id);
  // One id can stand for several cases only if a check reuses a variant; list it once.
  report.fixed = [...new Set(report.fixed)];
  report.newFailures = [...new Set(report.newFailures)];
  return { cases: marked, report };
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}
