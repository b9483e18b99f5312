// Who sees what (issue 25, faults of classes no issue named), each proven both ways against the mock with one fault
// at the edge: a record only some may read (draft, pending, private, future) read by id or listed to a client
// who may not (permissions, hidden-*), a protected record's text in the anonymous list (passwords), and a refusal
// whose code names another operation than core's posts controller does (auth_status, refusal-codes).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { CaseResult } from '../report/model.ts';
import { anonymous, basicAuth, failedBy, harnessForFile, json, parse, withJson, withQuery, wpError, type Fault, type MockRequest, type MockResponse, type Next } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const LOW = ['--low-auth-env', 'MOCK_LOW_AUTH'];
const ONLY = 'root,/cal/v1/events,permissions';
const CAL_ITEM = /^\/cal\/v1\/(venues|events|organizers)\/\d+$/;
const CAL_LIST = /^\/cal\/v1\/(venues|events|organizers)$/;

const adminAuth = (): string => basicAuth(h.mock.credentials()!);
const asAdmin = (req: MockRequest): MockRequest => ({ ...req, headers: { ...Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== 'authorization')), authorization: adminAuth() } });
const isAdmin = (req: MockRequest): boolean => Object.entries(req.headers).some(([k, v]) => k.toLowerCase() === 'authorization' && v === adminAuth());
const isLow = (req: MockRequest): boolean => !anonymous(req) && !isAdmin(req);

const PAGING = ['x-wp-total', 'x-wp-totalpages', 'link'];
/**
 * The administrator's answer to `adminReq`, dressed as the client's own answer `own` was: its headers (no-cache,
 * Vary, CORS) kept, the body and the list's totals the administrator's, Allow the reader's GET. So the fault opens the
 * door it means to and changes no header besides.
 */
function dressed(adminReq: MockRequest, next: Next, own: MockResponse): MockResponse {
  const a = next(asAdmin(adminReq));
  const lower = (hs: Record<string, string>): [string, string][] => Object.entries(hs).map(([k, v]) => [k.toLowerCase(), v]);
  const keep = Object.fromEntries(lower(own.headers).filter(([k]) => !PAGING.includes(k) && k !== 'allow'));
  const paging = Object.fromEntries(lower(a.headers).filter(([k]) => PAGING.includes(k)));
  const { bodyBytes: _stale, ...rest } = a;
  return { ...rest, headers: { ...keep, ...paging, ...(lower(a.headers).some(([k]) => k === 'allow') ? { allow: 'GET' } : {}) } };
}

/** A record's status as the administrator reads it. */
const statusOf = (route: string, next: Next): unknown => {
  const r = next(asAdmin({ method: 'GET', url: `/wp-json${route}?context=edit`, headers: {} }));
  return r.status === 200 ? json(r)['status'] : undefined;
};

/** A cal/v1 read by id (view context) of a record in `status` answered to `who` as to its editor. */
const readOpen = (status: string, who: (req: MockRequest) => boolean): Fault => (req, next) => {
  const res = next(req);
  const { route, query } = parse(req);
  if (req.method !== 'GET' || !who(req) || !CAL_ITEM.test(route) || query.get('context') === 'edit' || res.status < 400) return res;
  return statusOf(route, next) === status ? dressed(req, next, res) : res;
};

/** A cal/v1 list without status= answered to `who` as if it asked for `statuses` (when `when` holds). */
const listing = (statuses: string, who: (req: MockRequest) => boolean, when: (q: URLSearchParams) => boolean = () => true): Fault => (req, next) => {
  const { route, query } = parse(req);
  if (req.method !== 'GET' || !who(req) || !CAL_LIST.test(route) || [...query.keys()].some((k) => k.startsWith('status')) || query.get('context') === 'edit' || !when(query)) return next(req);
  return dressed(withQuery(req, (q) => q.set('status', statuses)), next, next(req));
};

const ids = (cases: readonly CaseResult[]): string[] => cases.map((c) => `${c.check}:${c.variant}`).sort();
const hiddenOf = async (fault: Fault, args: readonly string[] = LOW): Promise<string[]> => ids(await failedBy(h, fault, ONLY, args));

describe('permissions: a record only some may read, by id and in lists', () => {
  it('passes on the mock: each hidden status refused to the anonymous client and the subscriber, read by the administrator, listed to no one without status=', async () => {
    const { run } = await h.run(undefined, ONLY, LOW);
    const cases = run.cases.filter((c) => c.check === 'permissions' && /^hidden-/.test(c.variant ?? ''));
    expect(cases.length).toBe(24);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.variant} ${c.status}: ${c.message}`)).toEqual([]);
  });

  it('fails when an anonymous read by id of a draft record answers 200 as to its editor', async () => {
    expect(await hiddenOf(readOpen('draft', anonymous))).toEqual(['permissions:hidden-read:draft:anonymous']);
  });

  it('fails when an anonymous read by id of a pending record answers 200 as to its editor', async () => {
    expect(await hiddenOf(readOpen('pending', anonymous))).toEqual(['permissions:hidden-read:pending:anonymous']);
  });

  it('fails when an anonymous read by id of a private record answers 200 as to its editor', async () => {
    expect(await hiddenOf(readOpen('private', anonymous))).toEqual(['permissions:hidden-read:private:anonymous']);
  });

  it('fails when an anonymous read by id of a future record answers 200 as to its editor', async () => {
    expect(await hiddenOf(readOpen('future', anonymous))).toEqual(['permissions:hidden-read:future:anonymous']);
  });

  it("fails when the subscriber reads another user's draft by id (200, as to its editor)", async () => {
    expect(await hiddenOf(readOpen('draft', isLow))).toEqual(['permissions:hidden-read:draft:low']);
  });

  it('fails when the subscriber reads a published event in the edit context (200: the door of check_update_permission() open)', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const { route, query } = parse(req);
      return req.method === 'GET' && isLow(req) && CAL_ITEM.test(route) && query.get('context') === 'edit' && res.status === 403 ? dressed(req, next, res) : res;
    };
    expect(await hiddenOf(fault)).toEqual(['permissions:read-edit:low']);
  });

  it('fails when an anonymous list without status= holds private records too', async () => {
    expect(await hiddenOf(listing('publish,private', anonymous))).toEqual(['permissions:hidden-list:private:anonymous', 'permissions:hidden-search:private:anonymous']);
  });

  it('fails when an anonymous search= lists drafts too (the default status dropped where search is given)', async () => {
    expect(await hiddenOf(listing('publish,draft', anonymous, (q) => q.has('search')))).toEqual(['permissions:hidden-search:draft:anonymous']);
  });

  it("fails when the administrator's list without status= holds private records (default publish read as 'any the user may read')", async () => {
    expect(await hiddenOf(listing('publish,private', isAdmin))).toEqual(['permissions:hidden-list:private:admin']);
  });

  it('fails when the anonymous X-WP-Total counts private records the list does not show', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const { route, query } = parse(req);
      if (req.method !== 'GET' || !anonymous(req) || !CAL_LIST.test(route) || [...query.keys()].some((k) => k.startsWith('status')) || res.status !== 200) return res;
      const all = next(asAdmin(withQuery(req, (q) => q.set('status', 'publish,private'))));
      const total = Object.entries(all.headers).find(([k]) => k.toLowerCase() === 'x-wp-total')?.[1];
      const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== 'x-wp-total'));
      return total === undefined ? res : { ...res, headers: { ...headers, 'X-WP-Total': total } };
    };
    const failed = await failedBy(h, fault, ONLY, LOW);
    expect(ids(failed)).toContain('permissions:hidden-list:private:anonymous');
    expect(failed.find((c) => c.variant === 'hidden-list:private:anonymous')!.message).toMatch(/X-WP-Total: 0 .* it says 1, counting record \d+ \(status private\)/);
  });

  it('warns (assumed) when an anonymous read of a draft is 404 as if unknown, not 401 rest_forbidden', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const { route, query } = parse(req);
      if (req.method !== 'GET' || !anonymous(req) || !CAL_ITEM.test(route) || query.get('context') === 'edit' || res.status !== 401) return res;
      return statusOf(route, next) === 'draft' ? wpError(404, 'rest_post_invalid_id') : res;
    };
    const { run } = await h.run(fault, ONLY, LOW);
    const c = run.cases.find((x) => x.variant === 'hidden-read:draft:anonymous')!;
    expect([c.status, c.severity]).toEqual(['warned', 'assumed']);
    expect(c.message).toMatch(/^expected GET record \d+ \(status draft\) to be refused 401 rest_forbidden .*got 404/);
  });
});

describe("passwords: a protected record's text hidden in the anonymous list too", () => {
  it("fails when the anonymous list shows a protected venue's content as its editor sees it (the read by id hides it)", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const { route } = parse(req);
      if (req.method !== 'GET' || !anonymous(req) || !CAL_LIST.test(route) || res.status !== 200) return res;
      const mine = JSON.parse(res.body) as unknown;
      if (!Array.isArray(mine)) return res;
      const isProtected = (r: Record<string, unknown>): boolean => (r['content'] as { protected?: unknown } | undefined)?.protected === true;
      // The content as stored (its editor's edit context renders it): shown in the list, where the read hides it.
      const rendered = (r: Record<string, unknown>): Record<string, unknown> => {
        const stored = next(asAdmin({ method: 'GET', url: `/wp-json${route}/${String(r['id'])}?context=edit`, headers: {} }));
        return stored.status === 200 ? { ...r, content: { ...(r['content'] as object), rendered: (json(stored)['content'] as { rendered?: unknown }).rendered } } : r;
      };
      return withJson(res, (mine as Record<string, unknown>[]).map((r) => (isProtected(r) ? rendered(r) : r)));
    };
    const failed = await failedBy(h, fault, '/cal/v1/venues,passwords');
    expect(ids(failed)).toEqual(['passwords:hidden']);
    expect(failed[0]!.message).toMatch(/an anonymous list \(\?include=\d+\) shows content\.rendered "<p>Secret /);
  });
});

describe("auth_status: a cal/v1 refusal's code names the operation refused", () => {
  /** The anonymous refusal of `method` on cal/v1 answered with `to` where the mock says `from`. */
  const recoded = (method: string, from: string, to: string): Fault => (req, next) => {
    const res = next(req);
    if (req.method !== method || !anonymous(req) || res.status !== 401 || !parse(req).route.startsWith('/cal/v1/')) return res;
    const body = json(res);
    return body['code'] === from ? withJson(res, { ...body, code: to }) : res;
  };
  const codesOf = async (fault: Fault | undefined): Promise<CaseResult[]> =>
    (await h.run(fault, '/cal/v1/venues,auth_status')).run.cases.filter((c) => c.check === 'auth_status' && (c.variant ?? '').startsWith('refusal-codes:'));

  it('passes on the mock: every refusal of a venue operation names it', async () => {
    const cases = await codesOf(undefined);
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => c.message)).toEqual([]);
  });

  it('warns (assumed) when an anonymous DELETE is refused rest_cannot_edit, the update\'s code', async () => {
    const warned = (await codesOf(recoded('DELETE', 'rest_cannot_delete', 'rest_cannot_edit'))).filter((c) => c.status === 'warned');
    expect(warned.map((c) => c.severity)).toEqual(['assumed']);
    expect(warned[0]!.message).toMatch(/a delete refused for permission answered code rest_cannot_edit, where core's posts controller names rest_cannot_delete/);
  });

  it("warns (assumed) when an anonymous create is refused rest_cannot_edit, not rest_cannot_create", async () => {
    const warned = (await codesOf(recoded('POST', 'rest_cannot_create', 'rest_cannot_edit'))).filter((c) => c.status === 'warned');
    expect(warned.map((c) => c.severity)).toEqual(['assumed']);
    expect(warned[0]!.message).toMatch(/a create refused for permission answered code rest_cannot_edit/);
  });
});
