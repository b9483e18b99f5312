// The playback stage's verdict (playback-compare.mjs), both ways on small reports: it passes when the playing mock
// reports the site's findings again and nothing else, and fails on a finding the site did not show, on a failure
// with every deviation off, and below the floor.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./playback-compare.mjs', import.meta.url));
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-contracts-playback-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Case {
  id: string;
  check: string;
  status: string;
  operationId?: string;
  variant?: string;
  response?: { status: number; body: string };
}
const finding = (id: string, status = 'failed', code = 'rest_invalid_param', httpStatus = 400): Case => ({
  id,
  check: 'positive_acceptance',
  status,
  operationId: 'getCalV1Venues',
  variant: id,
  response: { status: httpStatus, body: JSON.stringify({ code }) },
});
const report = (cases: Case[]) => ({ cases });

async function verdict(site: Case[], played: Case[], off: Case[], deviationCases: string[], floor = 1): Promise<{ rc: number; out: string }> {
  const files = { site: report(site), played: report(played), off: report(off), deviations: { played: [{ id: 'value-refused:x', cases: deviationCases }], unplayable: [] } };
  for (const [name, body] of Object.entries(files)) await writeFile(join(dir, `${name}.json`), JSON.stringify(body));
  try {
    const out = execFileSync(process.execPath, [SCRIPT, ...['site', 'played', 'off', 'deviations'].map((n) => join(dir, `${n}.json`))], { encoding: 'utf8', env: { ...process.env, PLAYBACK_FLOOR: String(floor) } });
    return { rc: 0, out };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { rc: err.status, out: err.stdout };
  }
}

describe('playback-compare.mjs', () => {
  const a = finding('a');
  const b = finding('b');
  it('passes when the played findings come back and nothing else (the plain mock\'s warnings aside)', async () => {
    const warn = finding('w', 'warned', 'x', 200);
    const r = await verdict([a, b], [a, warn], [warn], ['a']);
    expect(r.out).toContain('1 of 1 findings of played deviations reported again');
    expect(r.rc).toBe(0);
  });
  it('fails on a finding of the playing mock that the site did not show, even one status code off', async () => {
    const r = await verdict([a], [a, finding('a', 'failed', 'rest_invalid_param', 401)], [], ['a']);
    expect(r.out).toContain("not the site's: positive_acceptance getCalV1Venues a 401 rest_invalid_param");
    expect(r.rc).toBe(1);
  });
  it('fails when the mock with every deviation off fails a case', async () => {
    const r = await verdict([a], [a], [finding('z')], ['a']);
    expect(r.out).toContain('with every deviation switched off the mock does not pass');
    expect(r.rc).toBe(1);
  });
  it('fails below the floor: one finding back where two must be', async () => {
    const r = await verdict([a, b], [a], [], ['a', 'b'], 2);
    expect(r.out).toContain('not reported again: positive_acceptance getCalV1Venues b 400 rest_invalid_param');
    expect(r.rc).toBe(1);
  });
});
