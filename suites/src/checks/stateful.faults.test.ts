// The stateful phase proven both ways: it passes on the mock, and fails on the mock with a fault that no single
// request shows, shrunk to the shortest sequence that does: an anonymous update answered 401 as WordPress answers it,
// but applied (create → refused update → read: three steps), and a record trashed as WordPress answers a trash
// but still listed to anonymous clients (create → trash → list).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { anonymous, basicAuth, failing, harnessForFile, parse, withJson, wpError, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'cal/v1,stateful';
const LOW = ['--low-auth-env', 'MOCK_LOW_AUTH'];

/** An anonymous PATCH of a venue is refused as WordPress refuses it, and applied all the same. */
const refusedButApplied: Fault = (req, next) => {
  const { route } = parse(req);
  if (req.method !== 'PATCH' || !anonymous(req) || !/^\/cal\/v1\/venues\/\d+$/.test(route)) return next(req);
  next({ ...req, headers: { ...req.headers, authorization: basicAuth(h.mock.credentials()!) } });
  return wpError(401, 'rest_cannot_edit');
};

/**
 * A trashed organizer stays in anonymous lists: the trash answers as WordPress's does, but an anonymous list searched
 * for a word still holds the trashed records carrying it (the fault remembers what it saw trashed).
 */
function trashStillListed(): Fault {
  const trashed = new Set<string>();
  return (req, next) => {
    const { route, query } = parse(req);
    const admin = { ...req.headers, authorization: basicAuth(h.mock.credentials()!) };
    const item = /^\/cal\/v1\/organizers\/(\d+)$/.exec(route);
    if (req.method === 'DELETE' && item && query.get('force') !== 'true') trashed.add(item[1]!);
    if (req.method !== 'GET' || !anonymous(req) || route !== '/cal/v1/organizers' || !query.has('search')) return next(req);
    const res = next(req);
    const list = JSON.parse(res.body) as { title: { rendered: string } }[];
    for (const id of trashed) {
      const one = next({ method: 'GET', url: `/wp-json/cal/v1/organizers/${id}`, headers: admin });
      const rec = one.status === 200 ? (JSON.parse(one.body) as { title: { rendered: string } }) : undefined;
      if (rec && rec.title.rendered.includes(query.get('search')!)) list.push(rec);
    }
    return withJson(res, list);
  };
}

/** A draft venue reads to anonymous clients as if they were its editor: the edge of who may read a record. */
const draftReadable: Fault = (req, next) => {
  const { route } = parse(req);
  if (req.method !== 'GET' || !anonymous(req) || !/^\/cal\/v1\/venues\/\d+$/.test(route)) return next(req);
  const asAdmin = next({ ...req, headers: { ...req.headers, authorization: basicAuth(h.mock.credentials()!) } });
  return asAdmin.status === 200 && (JSON.parse(asAdmin.body) as { status?: string }).status === 'draft' ? asAdmin : next(req);
};

/** The numbered steps a failure message lists, before its replay script. */
function stepsOf(message: string): string[] {
  return message.split('\n').filter((l) => /^\d+\. .* → \d+$/.test(l));
}

describe('stateful: sequences held to the model', () => {
  it('passes on the mock, every resource, with the low-rights user too', async () => {
    const { run } = await h.run(undefined, ONLY, LOW);
    const cases = run.cases.filter((c) => c.check === 'stateful');
    expect(cases.map((c) => c.variant).sort()).toEqual(['cal/v1/event', 'cal/v1/event/anonymous_read', 'cal/v1/organizer', 'cal/v1/organizer/anonymous_read', 'cal/v1/venue', 'cal/v1/venue/anonymous_read']);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(cases.filter((c) => !c.variant?.endsWith('anonymous_read')).every((c) => /\d+ sequence\(s\) of up to 12 steps, \d+ requests/.test(c.message ?? ''))).toBe(true);
  });

  it('a refused write that is applied anyway: found, and shrunk to create, refused update, read', async () => {
    const { run } = await h.run(refusedButApplied, ONLY, LOW);
    const failed = run.cases.filter(failing);
    expect(failed.map((c) => c.id)).toEqual(['stateful:postCalV1Venues:cal/v1/venue']);
    const steps = stepsOf(failed[0]!.message!);
    expect(steps, failed[0]!.message).toHaveLength(3);
    expect(steps[0]).toMatch(/^1\. create a venue/);
    expect(steps[1]).toMatch(/^2\. PATCH \$ID1 .* anonymously → 401$/);
    expect(steps[2]).toMatch(/^3\. (read|list)/);
    expect(failed[0]!.message).toMatch(/ID1=\$\(curl .* \| node -pe/);
  });

  it('a trashed record still listed to anonymous clients: found in three steps', async () => {
    const { run } = await h.run(trashStillListed(), ONLY, LOW);
    const failed = run.cases.filter(failing);
    expect(failed.map((c) => c.id)).toEqual(['stateful:postCalV1Organizers:cal/v1/organizer']);
    const steps = stepsOf(failed[0]!.message!);
    expect(steps, failed[0]!.message).toHaveLength(3);
    expect(steps[1]).toMatch(/^2\. DELETE \$ID1 without force/);
    expect(steps[2]).toMatch(/^3\. list organizers .* anonymously → 200$/);
    expect(failed[0]!.message).toMatch(/holds \$ID1 \(trash\), which it should not/);
  });

  it('a draft readable anonymously: found, and shrunk to a record made a draft and read anonymously', async () => {
    const { run } = await h.run(draftReadable, ONLY, LOW);
    const failed = run.cases.filter(failing);
    expect(failed.map((c) => c.id)).toEqual(['stateful:postCalV1Venues:cal/v1/venue']);
    const steps = stepsOf(failed[0]!.message!);
    // Two steps (created a draft) or three (created published, then PATCHed to draft): the first create's status
    // shrinks towards publish, so which of the two is shortest depends on where the search met the fault.
    expect(steps.length, failed[0]!.message).toBeLessThanOrEqual(3);
    expect(steps[0]).toMatch(/^1\. create a venue/);
    expect(steps.at(-1)).toMatch(/^\d\. read \$ID1 anonymously → 200$/);
    expect(failed[0]!.message).toMatch(/expected record \$ID1 \(status draft\) not to read anonymously/);
  });

  it('--stateful 0 turns the phase off, and a run without credentials skips it', async () => {
    const off = await h.run(undefined, ONLY, ['--stateful', '0']);
    expect(off.run.cases.filter((c) => c.check === 'stateful').map((c) => [c.status, c.message])).toEqual(
      Array(3).fill(['skipped', '--stateful 0: the stateful phase is off']),
    );
    const anon = await h.run(undefined, ONLY, [], { anonymous: true });
    expect(anon.run.cases.filter((c) => c.check === 'stateful').every((c) => c.status === 'skipped' && /no credentials/.test(c.message ?? ''))).toBe(true);
  });
});
