// auth_status's cookie-nonce probes proven both ways: they pass on the mock (--auth), and each fault breaks exactly
// one of rest_cookie_check_errors()'s rules at its edge: a nonce ignored on a route that exists, a nonce checked only
// once a route matched (an unknown route answers 404 first), and a nonce held against a request an application
// password logged in.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { anonymous, failedBy, harnessForFile, parse, wpError, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

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
