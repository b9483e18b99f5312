// A failed case's kind of deviation: the answer's status first, as a client meets it, then what the check's registry
// row says its failures mean. The rows that say something are the checks whose failures mock --deviations plays
// beyond a status (report version 2).
import { describe, expect, it } from 'vitest';
import { deviationOf } from './deviation.ts';
import { caseDeviation, CHECKS } from '../registry.ts';

describe('a case\'s kind of deviation', () => {
  it('follows the answer first, then the row', () => {
    const filter = { kind: 'filter-ignored', params: ['search'] } as const;
    expect(deviationOf(filter, 200)).toEqual({ kind: 'filter-ignored', params: ['search'] });
    expect(deviationOf(filter, 400)).toEqual({ kind: 'status' });
    expect(deviationOf(filter, 500)).toEqual({ kind: 'server-error' });
    expect(deviationOf({ kind: 'value-refused' }, 400)).toEqual({ kind: 'value-refused' });
    expect(deviationOf({ kind: 'value-refused' }, 499)).toEqual({ kind: 'value-refused' });
    expect(deviationOf({ kind: 'value-refused' }, 399)).toEqual({ kind: 'field' });
    expect(deviationOf(undefined, 404)).toEqual({ kind: 'status' });
    expect(deviationOf(undefined, 200)).toEqual({ kind: 'field' });
    expect(deviationOf(undefined, undefined)).toBeUndefined();
    expect(deviationOf({ kind: 'route-missing' }, 404)).toEqual({ kind: 'route-missing' });
    expect(deviationOf({ kind: 'header', headers: ['Allow'] }, 200)).toEqual({ kind: 'header', headers: ['Allow'] });
  });

  it('is set by the registry\'s rows: every filter check names the parameters it judges, the header checks their headers', () => {
    for (const c of CHECKS.filter((r) => r.name.startsWith('filter_'))) expect(caseDeviation(c.name, 200)?.params?.length, c.name).toBeGreaterThan(0);
    const kinds = new Map(CHECKS.map((c) => [c.name, caseDeviation(c.name, 200)?.kind]));
    expect([...kinds].filter(([, k]) => k === 'header').map(([n]) => n).sort()).toEqual(['allow_header', 'create_status', 'pagination']);
    expect(caseDeviation('route_presence', 404)).toEqual({ kind: 'route-missing' });
    expect(caseDeviation('no_such_check', 200)).toEqual({ kind: 'field' });
  });
});
