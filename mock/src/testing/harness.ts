// Shared set-up for the mock's tests: the contract and fixtures are loaded once per test file, every test gets
// a fresh mock over them, and `call()` drives the core directly (no port) with WordPress-style requests.
import { loadContractFile, type Contract } from '../../../contracts/lib/loader.ts';
import { createMock, DEFAULT_FIXTURES_DIR, type Mock, type MockOptions } from '../index.ts';
import { loadFixtures } from '../store/load-fixtures.ts';
import type { FixtureSet } from '../../../contracts/model/records.ts';
import type { MockResponse } from '../core/types.ts';

let contract: Contract | undefined;
let fixtures: Promise<FixtureSet> | undefined;

export function sharedContract(): Contract {
  contract ??= loadContractFile();
  return contract;
}

export function sharedFixtures(): Promise<FixtureSet> {
  fixtures ??= loadFixtures(DEFAULT_FIXTURES_DIR);
  return fixtures;
}

/** 2026-11-22 12:00 UTC: the tests' "now", inside the fixtures' calendar. */
export const TEST_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

export async function freshMock(options: MockOptions = {}): Promise<Mock> {
  return createMock({ contract: sharedContract(), fixtures: await sharedFixtures(), seed: 42, clock: { now: () => TEST_NOW }, ...options });
}

export const ORIGIN = 'http://127.0.0.1:4010';

export interface CallOptions {
  headers?: Record<string, string>;
  /** A value is sent as JSON; a string is sent as is (set the content type yourself). */
  body?: unknown;
  auth?: { username: string; password: string };
}

interface Answer extends MockResponse {
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions walk arbitrary JSON
}

export function call(mock: Mock, method: string, url: string, opts: CallOptions = {}): Answer {
  const headers: Record<string, string> = { host: '127.0.0.1:4010', ...(opts.headers ?? {}) };
  let body: string | undefined;
  if (opts.body !== undefined) {
    if (typeof opts.body === 'string') body = opts.body;
    else {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  if (opts.auth) headers.authorization = `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`;
  const res = mock.handleNow({ method, url, headers, origin: ORIGIN, ...(body !== undefined ? { body } : {}) });
  let json: unknown;
  try {
    json = res.body === '' ? undefined : JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { ...res, json };
}

/** Header names of an answer in order (the core keeps WordPress's wire order). */
export function headerOrder(res: MockResponse): string[] {
  return Object.keys(res.headers);
}
