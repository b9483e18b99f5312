// passwords proven both ways: it passes on the mock, and fails on the mock with one fault in front of it, at the edge
// of what it checks: an anonymous read that shows the excerpt (the content still hidden), one that shows the password
// field, a wrong password treated as none (200 with the content hidden, not 403), and a private venue that keeps its
// password.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { anonymous, basicAuth, bodyText, harnessForFile, json, parse, withJson, withQuery, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const bad = (r: RunResult): Set<string> => new Set(r.cases.filter((c) => c.status === 'failed' || c.status === 'errored' || c.status === 'warned').map((c) => c.id));

async function failedBy(fault: Fault, only: string): Promise<RunResult['cases']> {
  const clean = (await h.run(undefined, only)).run;
  expect(clean.cases.filter((c) => bad(clean).has(c.id)).map((c) => `${c.id}: ${c.message}`), 'the unbroken mock fails these').toEqual([]);
  expect(clean.cases.filter((c) => c.status === 'passed').length).toBeGreaterThan(0);
  const broken = (await h.run(fault, only)).run;
  return broken.cases.filter((c) => bad(broken).has(c.id));
}

const VENUE = /^\/cal\/v1\/venues\/\d+$/;
/** An anonymous read of a protected venue, its answer rewritten by `edit`. */
const protectedRead = (edit: (b: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) => {
  const res = next(req);
  if (req.method !== 'GET' || !VENUE.test(parse(req).route) || !anonymous(req) || res.status !== 200) return res;
  const b = json(res);
  const content = b.content as { protected?: boolean } | undefined;
  return content?.protected === true ? withJson(res, edit(b)) : res;
};
const ONLY = 'cal/v1,passwords';

describe('passwords catches a fault at the edge of what it checks, and only it', () => {
  it('passwords: an anonymous read that shows the excerpt of a protected venue', async () => {
    const failed = await failedBy(protectedRead((b) => ({ ...b, excerpt: { rendered: '<p>Hint</p>\n', protected: true } })), ONLY);
    expect(failed.map((c) => c.id)).toEqual(['passwords:getCalV1VenuesById:hidden']);
    expect(failed[0]!.message).toMatch(/excerpt.rendered "<p>Hint<\/p>\\n", not ""/);
  });

  it('passwords: an anonymous read that shows the password field', async () => {
    const failed = await failedBy(protectedRead((b) => ({ ...b, password: 'leaked' })), ONLY);
    expect(failed.map((c) => c.id)).toEqual(['passwords:getCalV1VenuesById:hidden']);
  });

  it('passwords: a wrong password treated as none (200, content hidden) instead of 403', async () => {
    const asNone: Fault = (req, next) => {
      const res = next(req);
      return json(res).code === 'rest_post_incorrect_password' ? next(withQuery(req, (q) => q.delete('password'))) : res;
    };
    const failed = await failedBy(asNone, ONLY);
    expect(failed.map((c) => c.id)).toEqual(['passwords:getCalV1VenuesById:password_param']);
    expect(failed[0]!.message).toMatch(/one character off answered 200 .*not 403 rest_post_incorrect_password/);
  });

  it('passwords: a private venue that keeps its password', async () => {
    const keeps: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'POST' || parse(req).route !== '/cal/v1/venues' || res.status !== 201) return res;
      const sent = JSON.parse(bodyText(req)) as Record<string, unknown>;
      return sent.status === 'private' ? withJson(res, { ...json(res), password: sent.password }) : res;
    };
    const failed = await failedBy(keeps, ONLY);
    expect(failed.map((c) => c.id)).toEqual(['passwords:postCalV1Venues:private']);
  });

  it('passwords: a password with sticky=true taken (the sticky flag dropped, the venue created)', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/cal/v1/venues') return next(req);
      const sent = JSON.parse(bodyText(req)) as Record<string, unknown>;
      if (!(sent.password && sent.sticky === true)) return next(req);
      const { sticky: _dropped, ...rest } = sent;
      return next({ ...req, body: JSON.stringify(rest) });
    };
    const failed = await failedBy(fault, ONLY);
    expect(failed.map((c) => c.id)).toEqual(['passwords:postCalV1Venues:sticky']);
    expect(failed[0]!.message).toMatch(/created with a password and sticky=true answered 201 .*not 400 rest_invalid_field/);
  });

  it('passwords: the legacy read ignores its password parameter (the description withheld with the right password)', async () => {
    const fault: Fault = (req, next) => next(/^\/cal\/events\/v1\/events\/\d+$/.test(parse(req).route) ? withQuery(req, (q) => q.delete('password')) : req);
    const failed = await failedBy(fault, 'cal/v1,cal/events/v1,passwords');
    expect(failed.map((c) => c.id)).toEqual(['passwords:getCalEventsV1EventsById:legacy']);
    expect(failed[0]!.message).toMatch(/with \?password=<the password> answered 200 .*with description "", not the event's description/);
  });

  it('passwords: the legacy read shows a protected description to a reader without the password', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'GET' || !anonymous(req) || !/^\/cal\/events\/v1\/events\/\d+$/.test(parse(req).route)) return next(req);
      // Read as the administrator, who sees the description of a protected event, as a site that forgot the check would.
      return next({ ...req, headers: { ...req.headers, authorization: basicAuth(h.mock.credentials()!) } });
    };
    const failed = await failedBy(fault, 'cal/v1,cal/events/v1,passwords');
    expect(failed.map((c) => c.id)).toEqual(['passwords:getCalEventsV1EventsById:legacy']);
    expect(failed[0]!.message).toMatch(/without the password answered 200 .* showing the protected text/);
  });
});

