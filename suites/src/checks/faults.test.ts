// Proven both ways: for every check family, the suite runs against the mock broken in exactly one way
// and that check, and only it, fails. The break is a wrapper around the mock's public request handler
// (a small faulty server in the test); everything else the mock does stays as it is. Each test runs the
// same selection against the unbroken mock first, so that a deviation the mock already has cannot be
// mistaken for the effect of the fault.

import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/src/loader.ts';
import { createMock, listen, type Mock, type MockRequest, type MockResponse } from '../../../mock/src/index.ts';
import { main, type MainDeps } from '../../cli.ts';
import { defaultCommands } from '../cli/commands/index.ts';
import { makeTestCommand, processTestDeps } from '../cli/commands/test.ts';
import type { RunResult } from '../report/model.ts';

const contract = loadContractFile();
let mock: Mock;
let auth: string;

beforeAll(async () => {
  mock = await createMock({ contract, auth: true });
  const c = mock.credentials()!;
  auth = `${c.username}:${c.password}`;
});
afterAll(async () => {
  await mock.close();
});

type Next = (req: MockRequest) => MockResponse;
type Fault = (req: MockRequest, next: Next) => MockResponse;

/** Route, query and path of a request in either root style. */
function parse(req: MockRequest): { route: string; query: URLSearchParams } {
  const url = new URL(req.url, 'http://x');
  const restRoute = url.searchParams.get('rest_route');
  if (restRoute !== null) return { route: restRoute.replace(/\/+$/, '') || '/', query: url.searchParams };
  return { route: url.pathname.replace(/^\/wp-json/, '').replace(/\/+$/, '') || '/', query: url.searchParams };
}

function withQuery(req: MockRequest, edit: (q: URLSearchParams) => void): MockRequest {
  const url = new URL(req.url, 'http://x');
  edit(url.searchParams);
  return { ...req, url: url.pathname + (url.search ? `?${url.searchParams.toString()}` : '') };
}

function json(res: MockResponse): Record<string, unknown> {
  return JSON.parse(res.body) as Record<string, unknown>;
}

function withJson(res: MockResponse, body: unknown): MockResponse {
  const { bodyBytes: _stale, ...rest } = res;
  return { ...rest, body: JSON.stringify(body) };
}

function withoutHeader(res: MockResponse, name: string): MockResponse {
  return { ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== name.toLowerCase())) };
}

function bodyText(req: MockRequest): string {
  return req.body === undefined ? '' : typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
}

function wpError(status: number, code: string, data: Record<string, unknown> = {}): MockResponse {
  return { status, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code, message: code, data: { status, ...data } }) };
}

const BOOLEAN = /^(true|false|1|0)$/i;

/**
 * The fault's answer as the adapter should send it. The mock's response cache hands back `bodyBytes`
 * beside `body`, and the node adapter sends those bytes when present; a fault that rewrote `body` on a
 * cached answer (`{...res, body}`) would otherwise be sent unchanged, so the fault would hit only the
 * first of two identical reads within a second (that made the descriptor fault look like a
 * rest_route_equivalence and method_override finding: one form was rewritten, the other was not).
 */
function asFaulted(res: MockResponse): MockResponse {
  const { bodyBytes: _stale, ...rest } = res;
  return rest;
}

async function runSuite(fault: Fault | undefined, only: string): Promise<RunResult> {
  const server = await listen((req: MockRequest) => (fault ? asFaulted(fault(req, mock.handleNow)) : mock.handleNow(req)), { port: 0, host: '127.0.0.1' });
  const dir = await mkdtemp(join(tmpdir(), 'site-contracts-fault-'));
  const deps: MainDeps = {
    commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract, signals: undefined }) },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env: { MOCK_AUTH: auth },
    stdout: { write: () => true },
    stderr: { write: () => true },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: nodeFs,
  };
  try {
    await main(['test', '--base-url', server.url, '--auth-env', 'MOCK_AUTH', '--seed', '11', '--runs', '1', '--only', only, '--report-dir', dir, '--format', 'json'], deps);
    return JSON.parse(await readFile(join(dir, 'site-contracts.json'), 'utf8')) as RunResult;
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const bad = (r: RunResult): Set<string> => new Set(r.cases.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => c.id));

/** The checks that fail with the fault and did not fail without it. */
async function caughtBy(fault: Fault, only: string): Promise<string[]> {
  const clean = bad(await runSuite(undefined, only));
  const broken = await runSuite(fault, only);
  const checks = new Set(broken.cases.filter((c) => (c.status === 'failed' || c.status === 'errored') && !clean.has(c.id)).map((c) => c.check));
  return [...checks].sort();
}

const T = 60_000;

describe('each check family catches its own fault, and only it', () => {
  it('not_a_server_error: a valid filter crashes the server', async () => {
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      if (req.method === 'GET' && route === '/cal/v1/organizers' && BOOLEAN.test(query.get('only_with_upcoming') ?? '')) return wpError(500, 'internal_server_error');
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/v1/organizers')).toEqual(['not_a_server_error']);
  }, T);

  it('route_presence: a namespace of the contract has no route', async () => {
    const fault: Fault = (req, next) => (parse(req).route === '/cal/views/v2' ? wpError(404, 'rest_no_route') : next(req));
    expect(await caughtBy(fault, 'cal/views/v2')).toEqual(['route_presence']);
  }, T);

  it('positive_acceptance: a valid value of a documented parameter is refused', async () => {
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      if (req.method === 'GET' && route === '/cal/v1/venues' && BOOLEAN.test(query.get('has_events') ?? '')) {
        return wpError(400, 'rest_invalid_param', { params: { has_events: 'has_events is not of type boolean.' } });
      }
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual(['positive_acceptance']);
  }, T);

  it('negative_rejection: per_page above the documented maximum is taken', async () => {
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      const n = Number(query.get('per_page'));
      if (req.method === 'GET' && route === '/cal/v1/events' && Number.isInteger(n) && n > 100) return next(withQuery(req, (q) => q.set('per_page', '100')));
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/v1/events')).toEqual(['negative_rejection']);
  }, T);

  it('error_envelope: a 400 does not say which parameter', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (res.status !== 400 || parse(req).route === '/batch/v1') return res;
      const body = json(res);
      if (body['code'] !== 'rest_invalid_param') return res;
      const { params: _p, details: _d, ...data } = body['data'] as Record<string, unknown>;
      return withJson(res, { ...body, data });
    };
    expect(await caughtBy(fault, '/cal/v1/events')).toEqual(['error_envelope']);
  }, T);

  it('pagination: lists lose their Link header', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return Object.keys(res.headers).some((h) => h.toLowerCase() === 'x-wp-total') ? withoutHeader(res, 'Link') : res;
    };
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual(['pagination']);
  }, T);

  it('lifecycle: an update is acknowledged but not kept', async () => {
    const fault: Fault = (req, next) => {
      const { route } = parse(req);
      const m = /^\/cal\/events\/v1\/tags\/(\d+)$/.exec(route);
      if (req.method !== 'PATCH' || !m) return next(req);
      // Validate as the mock would (on an id nobody has), then answer with the record unchanged.
      const check = next({ ...req, url: req.url.replace(`/tags/${m[1]}`, '/tags/2000000001') });
      if (check.status === 400) return check;
      const { body: _body, ...read } = req;
      return next({ ...read, method: 'GET', url: req.url.split('?')[0]! });
    };
    expect(await caughtBy(fault, '/cal/events/v1/tags')).toEqual(['lifecycle']);
  }, T);

  it('create_status: a create answers 200 without Location', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method === 'POST' && parse(req).route === '/cal/v1/venues' && res.status === 201) return withoutHeader({ ...res, status: 200 }, 'Location');
      return res;
    };
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual(['create_status']);
  }, T);

  it('cross_namespace: organizers made in cal/v1 are not served by the legacy namespace', async () => {
    const mine = new Set<string>();
    const fault: Fault = (req, next) => {
      const { route } = parse(req);
      const res = next(req);
      if (req.method === 'POST' && route === '/cal/v1/organizers' && res.status === 201) mine.add(String(json(res)['id']));
      const m = /^\/cal\/events\/v1\/organizers\/(\d+)$/.exec(route);
      if (m && mine.has(m[1]!) && req.method === 'GET') return wpError(404, 'rest_post_invalid_id');
      return res;
    };
    expect(await caughtBy(fault, '/cal/v1/organizers,/cal/events/v1/organizers')).toEqual(['cross_namespace']);
  }, T);

  it('batch_limit: 26 requests are taken', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/batch/v1') return next(req);
      try {
        const body = JSON.parse(bodyText(req)) as { requests?: unknown[] };
        if (Array.isArray(body.requests) && body.requests.length === 26) return next({ ...req, body: JSON.stringify({ ...body, requests: body.requests.slice(0, 25) }) });
      } catch {
        // not JSON: leave it to the mock
      }
      return next(req);
    };
    expect(await caughtBy(fault, 'batch/v1')).toEqual(['batch_limit']);
  }, T);

  it('batch_item_status: a request with no route is reported 400 instead of 404', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (parse(req).route !== '/batch/v1' || res.status !== 207) return res;
      const body = json(res) as { responses: ({ status: number; body: { code?: string } } | null)[] };
      return withJson(res, { ...body, responses: body.responses.map((r) => (r && r.body?.code === 'rest_no_route' ? { ...r, status: 400 } : r)) });
    };
    expect(await caughtBy(fault, 'batch/v1')).toEqual(['batch_item_status']);
  }, T);

  it('batch_validation: require-all-validate is run as normal', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/batch/v1') return next(req);
      const text = bodyText(req);
      return next(text.includes('require-all-validate') ? { ...req, body: text.replace('"require-all-validate"', '"normal"') } : req);
    };
    expect(await caughtBy(fault, 'batch/v1')).toEqual(['batch_validation']);
  }, T);

  it('rest_route_equivalence: ?rest_route= serves a different namespace index', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!req.url.includes('rest_route=') || parse(req).route !== '/cal/v1' || res.status !== 200) return res;
      const { routes: _r, ...body } = json(res);
      return withJson(res, body);
    };
    expect(await caughtBy(fault, 'cal/v1')).toEqual(['rest_route_equivalence']);
  }, T);

  it('method_override: X-HTTP-Method-Override and _method are ignored', async () => {
    const fault: Fault = (req, next) => {
      const { ['x-http-method-override']: _o, ...headers } = req.headers;
      return next({ ...withQuery(req, (q) => q.delete('_method')), headers });
    };
    expect(await caughtBy(fault, 'root,/cal/v1/events')).toEqual(['method_override']);
  }, T);

  it('cors: credentials are not allowed cross-origin', async () => {
    const fault: Fault = (req, next) => withoutHeader(next(req), 'Access-Control-Allow-Credentials');
    expect(await caughtBy(fault, 'root')).toEqual(['cors']);
  }, T);

  it('response_shape: the site descriptor lacks the documented namespaces', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (parse(req).route !== '/' || res.status !== 200) return res;
      const { namespaces: _n, ...body } = json(res);
      return withJson(res, body);
    };
    expect(await caughtBy(fault, 'root')).toEqual(['response_shape']);
  }, T);
});
