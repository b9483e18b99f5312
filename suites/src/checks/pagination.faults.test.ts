// One cause, one finding: a list whose X-WP-Total or X-WP-TotalPages is off by one, either way, fails one case of
// the run over that list's operation (every check on it), and the case names the header that is wrong. Before, a
// Total one too high failed pagination's headers case blaming X-WP-TotalPages (right for the records, wrong for the
// bad total) and defaults' per_page:count blaming it again. The mock's organizers list holds an even number of
// records, so that a TotalPages recomputed from a Total one too high is one page too many (the last test).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { CaseResult } from '../report/model.ts';
import { failedBy, harnessForFile, parse, withHeader, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

/**
 * The list at `route` answers its totals headers changed by `edit` (GET and HEAD alike, as one server would), where
 * it holds records: an empty search's 0 and 0 are pagination's empty_page case, another finding.
 */
function totals(route: string, edit: (total: number, pages: number) => { total: number; pages: number }): Fault {
  return (req, next) => {
    const res = next(req);
    const get = (name: string): number => Number(Object.entries(res.headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? Number.NaN);
    const total = get('x-wp-total');
    const pages = get('x-wp-totalpages');
    if (parse(req).route !== route || !Number.isInteger(total) || !Number.isInteger(pages) || total === 0) return res;
    const e = edit(total, pages);
    return withHeader(withHeader(res, 'X-WP-Total', String(e.total)), 'X-WP-TotalPages', String(e.pages));
  };
}

/** The run over the list's operation: what fails with the fault that did not without it. */
const failedWith = (fault: Fault, operationId: string): Promise<CaseResult[]> => failedBy(h, fault, operationId);

describe('pagination: one wrong header, one finding that names it', () => {
  it.each([
    ['one too high', 1],
    ['one too low', -1],
  ])('X-WP-Total %s (X-WP-TotalPages right for the records)', async (_, by) => {
    const failed = await failedWith(totals('/cal/v1/venues', (total, pages) => ({ total: total + by, pages })), 'getCalV1Venues');
    expect(failed.map((c) => c.id)).toEqual(['pagination:getCalV1Venues:headers']);
    expect(failed[0]!.message).toMatch(/^expected X-WP-Total to count the list's records \(.*\); X-WP-Total is (\d+), but the list holds (\d+) records \([12] on page \d+ of 2 a page, page \d+ past the end\); X-WP-TotalPages \d+ agrees with the records$/);
    const [, said, held] = /X-WP-Total is (\d+), but the list holds (\d+) records/.exec(failed[0]!.message!)!;
    expect(Number(said) - Number(held)).toBe(by);
  });

  it.each([
    ['one too high', 1],
    ['one too low', -1],
  ])('X-WP-TotalPages %s (X-WP-Total right)', async (_, by) => {
    const failed = await failedWith(totals('/cal/v1/venues', (total, pages) => ({ total, pages: pages + by })), 'getCalV1Venues');
    expect(failed.map((c) => c.id)).toEqual(['pagination:getCalV1Venues:headers']);
    expect(failed[0]!.message).toMatch(new RegExp(`^expected X-WP-TotalPages (\\d+) for X-WP-Total \\d+ with per_page=2 \\(.*\\); got \\d+; the list holds \\d+ records`));
    const [, want, got] = /X-WP-TotalPages (\d+) .*got (\d+)/.exec(failed[0]!.message!)!;
    expect(Number(got) - Number(want)).toBe(by);
  });

  it('X-WP-Total one too high and X-WP-TotalPages computed from it: X-WP-Total is the cause', async () => {
    const failed = await failedWith(totals('/cal/v1/organizers', (total) => ({ total: total + 1, pages: Math.ceil((total + 1) / 2) })), 'getCalV1Organizers');
    expect(failed.map((c) => c.id)).toEqual(['pagination:getCalV1Organizers:headers']);
    expect(failed[0]!.message).toMatch(/; X-WP-Total is (\d+), but the list holds \d+ records .*; X-WP-TotalPages \d+ follows from that total$/);
  });

  it('passes the sound list: the headers agree with the records it counted', async () => {
    const run = (await h.run(undefined, 'getCalV1Organizers')).run;
    const headers = run.cases.find((c) => c.id === 'pagination:getCalV1Organizers:headers');
    expect(headers?.status).toBe('passed');
    expect(headers?.message).toMatch(/^X-WP-Total (\d+), X-WP-TotalPages (\d+): the list holds \1 records \(2 on page \2 of 2 a page, page \d+ past the end\)$/);
  });
});
