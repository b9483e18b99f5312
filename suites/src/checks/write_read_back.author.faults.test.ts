// write_read_back's author (wp_insert_post(): a record written without author is authored by the signed-in user),
// proven both ways. The check names the run's user from /wp/v2/users/me, which the mock does not serve (it has no
// wp/v2), so the fault serves it itself, as WordPress does: listed in the descriptor's routes, answering the signed-in
// user's id (the mock's own user table says which). With that alone the author is judged and passes; with the cal/v1
// venue read by id answering author 0 (a plugin that inserts the post with no current user) it fails on that read.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { basicAuth, failedBy, harnessForFile, json, parse, withJson, wpError, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

/** The mock, with GET /wp/v2/users/me as WordPress serves it: the signed-in administrator's record, 401 to anyone else. */
const withUsersMe: Fault = (req, next) => {
  const { route } = parse(req);
  if (route === '/wp/v2/users/me' && req.method === 'GET') {
    const c = h.mock.credentials()!;
    const auth = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    if (auth !== basicAuth(c)) return wpError(401, 'rest_not_logged_in');
    const user = h.mock.store.table('users').find((u) => u.username === c.username)!;
    return { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ id: user.id, name: c.username, slug: c.username }) };
  }
  const res = next(req);
  if (route !== '/' || req.method !== 'GET' || res.status !== 200) return res;
  const body = json(res);
  const routes = { ...(body['routes'] as Record<string, unknown>), '/wp/v2/users/me': { namespace: 'wp/v2', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] } };
  return withJson(res, { ...body, routes });
};

/** withUsersMe, and the cal/v1 venue read by id answering author 0. */
const authorZero: Fault = (req, next) => {
  const res = withUsersMe(req, next);
  if (req.method !== 'GET' || res.status !== 200 || !/^\/cal\/v1\/venues\/\d+$/.test(parse(req).route)) return res;
  return withJson(res, { ...json(res), author: 0 });
};

const ONLY = 'write_read_back';

describe('write_read_back: a record written without author is authored by the signed-in user', () => {
  it('judges and passes the author where the site lists /wp/v2/users/me', async () => {
    const { run } = await h.run(withUsersMe, ONLY);
    const fields = (r: typeof run): number => {
      const c = r.cases.find((x) => x.id === 'write_read_back:postCalV1Venues:server:id');
      expect(c?.status).toBe('passed');
      return Number(/: (\d+) field\(s\) as WordPress stores them/.exec(c?.message ?? '')?.[1]);
    };
    // Where the site lists no users/me, the author is not predicted: one server-filled field fewer is judged.
    const { run: without } = await h.run(undefined, ONLY);
    expect(fields(run) - fields(without)).toBe(1);
  });

  it('fails where a cal/v1 venue created without author reads back by id with author 0', async () => {
    const failed = await failedBy(h, authorZero, ONLY);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.check === 'write_read_back' && c.operationId === 'postCalV1Venues')).toBe(true);
    const server = failed.find((c) => c.id === 'write_read_back:postCalV1Venues:server:id');
    expect(server?.message).toMatch(/author: .*expected \d+, read 0/);
  });
});
