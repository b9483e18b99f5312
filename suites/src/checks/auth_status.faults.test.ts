// auth_status's cookie-nonce probes proven both ways: they pass on the mock (--auth), and each fault breaks exactly
// one of rest_cookie_check_errors()'s rules at its edge: a nonce ignored on a route that exists, a nonce checked only
// once a route matched (an unknown route answers 404 first), and a nonce held against a request an application
// password logged in.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { anonymous, basicAuth, failedBy, harnessForFile, parse, wpError, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'root,auth_status';

const nonceOf = (req: MockRequest): string | undefined => Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'x-wp-nonce')?.[1];
const withoutNonce = (req: MockRequest): MockRequest => ({ ...req, headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== 'x-wp-nonce')) });
const variants = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, ONLY)).map((c) => `${c.check}:${c.variant}`);

describe('auth_status: the cookie nonce', () => {
  it('passes on the mock: a bogus nonce is 403 rest_cookie_invalid_nonce anonymously, on a route no site has too, and unread with an application password', async () => {
    const { run } = await h.run(undefined, ONLY);
    expect(run.cases.filter((c) => c.variant?.startsWith('cookie-nonce:')).map((c) => [c.variant, c.status])).toEqual([
      ['cookie-nonce:anonymous', 'passed'],
      ['cookie-nonce:no-route', 'passed'],
      ['cookie-nonce:signed-in', 'passed'],
    ]);
  });

  it('fails when a nonce that does not verify is ignored on a route that exists', async () => {
    const fault: Fault = (req, next) => (nonceOf(req) !== undefined && parse(req).route === '/' ? next(withoutNonce(req)) : next(req));
    expect(await variants(fault)).toEqual(['auth_status:cookie-nonce:anonymous']);
  });

  it('fails when the nonce is checked only after routing (an unknown route answers 404 rest_no_route)', async () => {
    const fault: Fault = (req, next) => {
      if (nonceOf(req) === undefined || parse(req).route === '/') return next(req);
      const res = next(withoutNonce(req));
      return res.status === 404 ? res : next(req);
    };
    expect(await variants(fault)).toEqual(['auth_status:cookie-nonce:no-route']);
  });

  it('fails when a request an application password logged in is held to the nonce', async () => {
    const fault: Fault = (req, next) => (nonceOf(req) !== undefined && !anonymous(req) ? wpError(403, 'rest_cookie_invalid_nonce') : next(req));
    expect(await variants(fault)).toEqual(['auth_status:cookie-nonce:signed-in']);
  });
});

describe('auth_status: a wrong application password', () => {
  const ONLY_APP = 'getCalV1Events,auth_status';
  const userOf = (req: MockRequest): string | undefined => {
    const header = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    return header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : undefined;
  };
  const wrong = (req: MockRequest, user: string): boolean => userOf(req)?.startsWith(user) === true && userOf(req)!.endsWith(':SCno tAPa sswo rdSC noTA PASS');
  const appVariants = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, ONLY_APP)).map((c) => `${c.check}:${c.variant}`);

  it('passes on the mock: a wrong password for admin and for a user no site has are answered as anonymous', async () => {
    const { run } = await h.run(undefined, ONLY_APP);
    expect(run.cases.filter((c) => c.variant?.startsWith('app-password:')).map((c) => [c.variant, c.status])).toEqual([
      ['app-password:known-user', 'passed'],
      ['app-password:unknown-user', 'passed'],
    ]);
  });

  it("fails when a wrong password for a user the site has logs that user in (the draft list answered 200)", async () => {
    const fault: Fault = (req, next) => (wrong(req, 'admin') ? next({ ...req, headers: { ...req.headers, authorization: basicAuth(h.mock.credentials()!), Authorization: undefined } }) : next(req));
    expect(await appVariants(fault)).toEqual(['auth_status:app-password:known-user']);
  });

  it('fails when a wrong password for a user no site has is refused as a signed-in user would be (403 rest_forbidden)', async () => {
    const fault: Fault = (req, next) => (wrong(req, 'site-contracts-no-such-user') ? wpError(403, 'rest_forbidden') : next(req));
    expect(await appVariants(fault)).toEqual(['auth_status:app-password:unknown-user']);
  });
});
