// Deviation playback (mock --deviations), proven both ways: the suite runs against the mock broken in known ways
// (faulty-mock.ts) and reports them; a second mock, plain, plays that report back (mock/src/playback/), and the suite
// reports the same deviations against it (same check, operation and answer) and nothing else; with every deviation
// switched off it finds what it finds on the plain mock. The suites may use the mock in tests, as the harness does.
import { describe, expect, it } from 'vitest';
import { createMock, deviationsOf, listen, type PlayedDeviations } from '../../../mock/src/index.ts';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import type { CaseResult, RunResult } from '../report/model.ts';
import { harness, json, parse, withJson, wpError, type Fault } from '../testing/faulty-mock.ts';

const contract = loadContractFile();
const BOOLEAN = /^(true|false|1|0)$/i;
const ONLY = '/cal/v1/venues';

/** Three faults at once: a documented value refused, another code on a 404, a field the contract requires dropped from lists. */
const fault: Fault = (req, next) => {
  const { route, query } = parse(req);
  if (req.method === 'GET' && route === ONLY && BOOLEAN.test(query.get('has_events') ?? '')) {
    return wpError(400, 'rest_invalid_param', { params: { has_events: 'has_events is not of type boolean.' } });
  }
  const res = next(req);
  if (res.status === 404 && /^\/cal\/v1\/venues\/\d+$/.test(route)) return withJson(res, { code: 'rest_no_route', message: 'No route.', data: { status: 404 } });
  if (req.method === 'GET' && route === ONLY && res.status === 200) {
    const list = JSON.parse(res.body) as Record<string, unknown>[];
    return withJson(res, list.map(({ status: _s, ...rest }) => rest));
  }
  void json;
  return res;
};

/** What a deviation is, the same on every run: the check, the operation, and the answer's status and code. */
function cause(c: CaseResult): string {
  let code = '';
  try {
    code = String((JSON.parse(c.response?.body ?? '') as { code?: unknown }).code ?? '');
  } catch {
    code = '';
  }
  return `${c.id} ${c.check} ${c.operationId ?? '-'} ${c.response?.status ?? '-'} ${code}`;
}
const found = (run: RunResult): string[] => run.cases.filter((c) => c.status === 'failed' || c.status === 'warned').map(cause).sort();

async function runAgainst(deviations: PlayedDeviations | undefined, f?: Fault): Promise<RunResult> {
  const h = await harness({ createMock: (o) => createMock({ ...o, ...(deviations ? { deviations } : {}) }), listen }, contract);
  try {
    return (await h.run(f, ONLY)).run;
  } finally {
    await h.close();
  }
}

describe('mock --deviations plays back the deviations of a run report', () => {
  it('the suite finds the faulty site\'s deviations on the mock that plays its report, and nothing else; all off: the plain mock', async () => {
    const clean = found(await runAgainst(undefined));
    const faulty = await runAgainst(undefined, fault);
    const expected = found(faulty);
    // The faults were seen (else the test proves nothing): the three of them, beyond what the plain mock shows.
    const added = expected.filter((c) => !clean.includes(c));
    expect(added.some((c) => c.includes(' positive_acceptance '))).toBe(true);
    expect(added.some((c) => c.includes(' unknown_id '))).toBe(true);
    expect(added.some((c) => c.includes(' response_shape '))).toBe(true);

    const loaded = deviationsOf(JSON.stringify(faulty), 'faulty.json', contract, []);
    if ('error' in loaded) throw new Error(loaded.error);
    const ids = loaded.played.deviations.map((d) => d.id);
    expect(ids.some((id) => id.startsWith('value-refused:'))).toBe(true);
    expect(ids).toContain('field-absent:getCalV1Venues:status');
    expect(ids.some((id) => id.startsWith('status:') && id.includes('404-rest_no_route'))).toBe(true);

    const replayed = found(await runAgainst(loaded.played));
    expect(replayed).toEqual(expected);
    expect(found(await runAgainst({ ...loaded.played, skip: ids }))).toEqual(clean);
  }, 600_000);

  it('refuses a report of another version, another contract, or a truncated one: one line naming the file and what was expected', () => {
    const good = { reportVersion: 2, contract: { version: String((contract.doc['info'] as { version: string }).version) }, target: { baseUrl: 'http://x' }, tool: {}, cases: [] };
    const error = (text: string, skip: string[] = []) => {
      const out = deviationsOf(text, 'r.json', contract, skip);
      return 'error' in out ? out.error : undefined;
    };
    expect(error(JSON.stringify(good))).toBeUndefined();
    expect(error(JSON.stringify({ ...good, reportVersion: 3 }))).toMatch(/^--deviations r\.json: expected report version 2, got 3; run site-contracts test again/);
    // A report from before the cases named their kind of deviation: refused, not read by check names.
    expect(error(JSON.stringify({ ...good, reportVersion: 1 }))).toMatch(/^--deviations r\.json: expected report version 2, got 1 \(made by an older site-contracts: its cases do not name their kind of deviation\); run site-contracts test again/);
    expect(error(JSON.stringify({ ...good, contract: { version: '0.9.0' } }))).toMatch(/^--deviations r\.json: expected a report made against contract version .*, got "0\.9\.0"/);
    expect(error(JSON.stringify(good).slice(0, 40))).toMatch(/^--deviations r\.json: expected a site-contracts JSON report .* not JSON/);
    expect(error(JSON.stringify(good), ['no-such'])).toMatch(/^--deviations-skip no-such: expected ids of deviations played from r\.json/);
    for (const e of [error(JSON.stringify({ ...good, reportVersion: 1 })), error('{')]) expect(e).not.toContain('\n');
  });
});
