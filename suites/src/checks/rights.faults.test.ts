// permissions (checks/rights.ts) proven both ways: it passes on the mock (--auth, and as its subscriber with
// --low-auth-env), and each fault opens or closes exactly one door of core's posts controller at its edge.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { anonymous, failedBy, harnessForFile, json, parse, withJson, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'root,cal/v1,permissions';
const LOW = ['--low-auth-env', 'MOCK_LOW_AUTH'];
const variants = async (fault: Fault, args: readonly string[] = []): Promise<string[]> => (await failedBy(h, fault, ONLY, args)).map((c) => `${c.check}:${c.variant}`);

/** Sends the request on without `key` in its query when `when` holds. */
const droppingQuery = (key: string, when: (route: string, anonymous: boolean) => boolean): Fault => (req, next) => {
  const { route, query } = parse(req);
  if (!query.has(key) || !when(route, anonymous(req))) return next(req);
  query.delete(key);
  const u = new URL(req.url, 'http://x');
  return next({ ...req, url: `${u.pathname}${query.size ? `?${query.toString()}` : ''}` });
};

describe('permissions', () => {
  it('passes on the mock: refusals for the anonymous client and the subscriber, raw fields and drafts for the administrator', async () => {
    const { run } = await h.run(undefined, ONLY, LOW);
    // The low user's writes (low_rights.ts, its own proofs) are left aside: the subscriber may create nothing; the
    // hidden-* rows have their own (unnamed-rights.faults.test.ts).
    const cases = run.cases.filter((c) => c.check === 'permissions' && !c.id.includes('Venues:') && !/^(action-links|assign-terms|hidden-)/.test(c.variant ?? ''));
    expect(cases.map((c) => [c.variant, c.status])).toEqual([
      ['list-edit:anonymous', 'passed'], ['list-edit:admin', 'passed'], ['list-edit:low', 'passed'],
      ['read-edit:anonymous', 'passed'], ['read-edit:admin', 'passed'], ['read-edit:low', 'passed'],
      ['status-filter:anonymous', 'passed'], ['status-filter:admin', 'passed'], ['status-filter:low', 'passed'],
      ['theme-link:anonymous', 'passed'], ['theme-link:admin', 'passed'],
    ]);
  });

  it('fails when an anonymous list in the edit context is served as the view context', async () => {
    expect(await variants(droppingQuery('context', (route, anon) => anon && route === '/cal/v1/events'))).toEqual(['permissions:list-edit:anonymous']);
  });

  it('fails when an anonymous read by id in the edit context is served as the view context', async () => {
    expect(await variants(droppingQuery('context', (route, anon) => anon && /^\/cal\/v1\/events\/\d+$/.test(route)))).toEqual(['permissions:read-edit:anonymous']);
  });

  it("fails when the subscriber's edit-context refusal says 401, as if nobody were signed in", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (anonymous(req) || res.status !== 403 || !parse(req).route.startsWith('/cal/v1/events')) return res;
      const body = json(res);
      return body['code'] === 'rest_forbidden_context' ? withJson({ ...res, status: 401 }, { ...body, data: { status: 401 } }) : res;
    };
    expect(await variants(fault, LOW)).toEqual(['permissions:list-edit:low', 'permissions:read-edit:low']);
  });

  it('fails when an anonymous status=draft is answered with the published records (the status filter dropped)', async () => {
    expect(await variants(droppingQuery('status', (route, anon) => anon && route === '/cal/v1/events'))).toEqual(['permissions:status-filter:anonymous']);
  });

  it("fails when the administrator's status=draft list holds a published record", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const { route, query } = parse(req);
      if (anonymous(req) || route !== '/cal/v1/events' || query.get('status') !== 'draft' || res.status !== 200) return res;
      const list = JSON.parse(res.body) as Record<string, unknown>[];
      return withJson(res, list.map((r, i) => (i === 0 ? { ...r, status: 'publish' } : r)));
    };
    expect(await variants(fault)).toEqual(['permissions:status-filter:admin']);
  });

  it('fails when the root shows an anonymous client the active theme', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!anonymous(req) || parse(req).route !== '/' || res.status !== 200) return res;
      const body = json(res);
      return withJson(res, { ...body, _links: { ...(body['_links'] as object), 'wp:active-theme': [{ href: 'http://x/wp-json/wp/v2/themes/t' }] } });
    };
    expect(await variants(fault)).toEqual(['permissions:theme-link:anonymous']);
  });
});
