// Refusals the documents leave room for, proven both ways: a valid-looking value the documents give only loosely
// (a time zone "such as Europe/Kyiv", an untyped cost, a template among the theme's) refused by the server is a
// positive_acceptance finding held at assumed severity, naming the value and why it is held, and never a documented
// failure that fails the run; the unbroken mock takes the same values.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyFields, harnessForFile, parse, wpError, type Fault } from '../testing/faulty-mock.ts';
import type { CaseResult } from '../report/model.ts';

const h = harnessForFile({ createMock, listen });

/** A create on `route` whose `name` passes `refuse` is answered 400 rest_invalid_param naming it, as WordPress would word it. */
function refuses(route: string, name: string, refuse: (v: unknown) => boolean, why: string): Fault {
  return (req, next) => {
    if (req.method !== 'POST' || parse(req).route !== route) return next(req);
    const v = bodyFields(req)?.[name];
    if (v === undefined || !refuse(v)) return next(req);
    return wpError(400, 'rest_invalid_param', { params: { [name]: why }, details: { [name]: { code: 'rest_invalid_param', message: why, data: null } } });
  };
}

const positive = (cases: readonly CaseResult[], op: string, param: string): CaseResult[] =>
  cases.filter((c) => c.check === 'positive_acceptance' && c.id.startsWith(`positive_acceptance:${op}:`) && (c.variant === `body.${param}` || c.variant === `edge:body.${param} alone`));

/** The run against the fault: the param's positive_acceptance cases, and every case that fails as documented or as a convention. */
async function judged(fault: Fault, op: string, param: string): Promise<{ mine: CaseResult[]; hard: CaseResult[]; exitCode: number }> {
  const clean = await h.run(undefined, op);
  const cleanMine = positive(clean.run.cases, op, param);
  expect(cleanMine.length).toBeGreaterThan(0);
  expect(cleanMine.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  const broken = await h.run(fault, op);
  const hard = broken.run.cases.filter((c) => (c.status === 'failed' || c.status === 'errored') && c.severity !== 'assumed');
  return { mine: positive(broken.run.cases, op, param), hard, exitCode: broken.exitCode };
}

describe('positive_acceptance: a refusal the documents leave room for is held as assumed', () => {
  it('positive_acceptance: a legacy event refusing timezone Europe/Kyiv (a time-zone database older than 2022) is held as assumed', async () => {
    const fault = refuses('/cal/events/v1/events', 'timezone', (v) => v === 'Europe/Kyiv', 'Unknown time zone. Use a name such as Europe/Kiev.');
    const { mine, hard, exitCode } = await judged(fault, 'postCalEventsV1Events', 'timezone');
    // The alone case sends Europe/Kyiv: held as assumed, naming the value and the reading that excuses it.
    const alone = mine.find((c) => c.variant === 'edge:body.timezone alone')!;
    expect(alone).toMatchObject({ status: 'warned', severity: 'assumed' });
    expect(alone.message).toMatch(/^expected timezone="Europe\/Kyiv" alone .* got 400 rest_invalid_param naming timezone.*; held as assumed because the documents can be read another way \(loose-format: "a time-zone identifier/);
    expect(mine.every((c) => c.status === 'passed' || c.severity === 'assumed')).toBe(true);
    // Not a hard failure: nothing fails as documented or as a convention, and the run exits 0.
    expect(hard.map((c) => c.id)).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('positive_acceptance: a legacy event refusing an untyped cost given as a string is held as assumed', async () => {
    const fault = refuses('/cal/events/v1/events', 'cost', (v) => typeof v === 'string', 'cost is not of type number.');
    const { mine, hard, exitCode } = await judged(fault, 'postCalEventsV1Events', 'cost');
    // Both the alone case ("10") and the random request's cost: warned at assumed severity, each naming its value.
    expect(mine.map((c) => [c.variant, c.status, c.severity]).sort()).toEqual([
      ['body.cost', 'warned', 'assumed'],
      ['edge:body.cost alone', 'warned', 'assumed'],
    ]);
    expect(mine.every((c) => /^expected cost="[^"]+"( alone .*)? to be accepted.*; held as assumed because the documents give cost no type/.test(c.message ?? ''))).toBe(true);
    expect(hard.map((c) => c.id)).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('positive_acceptance: a cal/v1 event refusing its template is held as assumed (write_refusals alone fails, for "")', async () => {
    const fault = refuses('/cal/v1/events', 'template', () => true, 'Invalid template.');
    const { mine, hard, exitCode } = await judged(fault, 'postCalV1Events', 'template');
    // positive_acceptance sends the theme's default template ("") and holds its refusal as assumed: which files a theme
    // has is not shown.
    expect(mine.map((c) => [c.variant, c.status, c.severity]).sort()).toEqual([
      ['body.template', 'warned', 'assumed'],
      ['edge:body.template alone', 'warned', 'assumed'],
    ]);
    expect(mine.every((c) => /^expected template=""( alone .*)? to be accepted.*; held as assumed because the documents leave template's values open/.test(c.message ?? ''))).toBe(true);
    // "" itself is what check_template() always takes: that refusal is write_refusals' convention (its own row), the
    // one hard failure of the run.
    expect(hard.map((c) => c.id)).toEqual(['write_refusals:postCalV1Events:template-empty']);
    expect(exitCode).toBe(1);
  });
});
