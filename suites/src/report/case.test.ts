import { describe, expect, it } from 'vitest';
import { bodyBudget, buildCase, truncateUtf8, type CaseInput } from './case.ts';
import { ARCHIVED_BODY_LIMIT, DEFAULT_POLICY, RESPONSE_BODY_LIMIT, caseId } from './model.ts';
import { levelFor, statusFor } from './policy.ts';

const base: CaseInput = {
  check: 'not_a_server_error',
  namespace: 'wp/v2',
  operationId: 'wpV2.posts.list',
  method: 'get',
  route: '/wp/v2/posts',
  severity: 'documented',
  outcome: 'fail',
  durationMs: 12.6,
};

describe('caseId', () => {
  it('is check:operation:variant with - for a global check', () => {
    expect(caseId('a', 'op', 'v')).toBe('a:op:v');
    expect(caseId('a')).toBe('a:-:');
  });
});

describe('severity policy', () => {
  it('always fails on documented facts and follows the switches for the rest', () => {
    const strict = { conventions: 'error', responseShapes: 'error' } as const;
    const lax = { conventions: 'warn', responseShapes: 'warn' } as const;
    expect(levelFor('documented', lax)).toBe('error');
    expect(statusFor('fail', 'documented', lax)).toBe('failed');
    expect(statusFor('fail', 'convention', DEFAULT_POLICY)).toBe('failed');
    expect(statusFor('fail', 'convention', lax)).toBe('warned');
    expect(statusFor('fail', 'assumed', DEFAULT_POLICY)).toBe('warned');
    expect(statusFor('fail', 'assumed', strict)).toBe('failed');
  });

  it('leaves passes, skips and errors alone', () => {
    const lax = { conventions: 'warn', responseShapes: 'warn' } as const;
    expect(statusFor('pass', 'assumed', lax)).toBe('passed');
    expect(statusFor('skip', 'documented', lax)).toBe('skipped');
    expect(statusFor('error', 'assumed', lax)).toBe('errored');
  });
});

describe('buildCase', () => {
  it('fills id, status and curl from what the check saw', () => {
    const c = buildCase(
      {
        ...base,
        variant: 'page:minimum',
        message: 'got 500',
        request: { method: 'GET', url: 'https://h/wp-json/wp/v2/posts?page=0', headers: { Authorization: 'Basic eDp5' } },
        response: { status: 500, headers: { 'content-type': 'text/html' }, body: 'boom' },
      },
      { policy: DEFAULT_POLICY, authEnv: 'STAGING_AUTH' },
    );
    expect(c).toMatchObject({
      id: 'not_a_server_error:wpV2.posts.list:page:minimum',
      method: 'GET',
      status: 'failed',
      durationMs: 13,
      response: { status: 500, body: 'boom' },
    });
    expect(c.curl).toContain('-u "$STAGING_AUTH"');
    expect(c.curl).not.toContain('eDp5');
  });

  it('cuts failing response bodies to 4 KiB and records the full size', () => {
    const body = 'é'.repeat(3000); // 6000 bytes, two bytes per character
    const c = buildCase({ ...base, response: { status: 500, headers: {}, body } }, { policy: DEFAULT_POLICY });
    expect(Buffer.byteLength(c.response?.body ?? '')).toBeLessThanOrEqual(RESPONSE_BODY_LIMIT);
    expect(c.response?.body).toBe('é'.repeat(2048));
    expect(c.response).toMatchObject({ bodyTruncated: true, bodyBytes: 6000 });
  });

  it('keeps no response body for passed cases', () => {
    const c = buildCase({ ...base, outcome: 'pass', response: { status: 200, headers: { a: 'b' }, body: '[]' } }, { policy: DEFAULT_POLICY });
    expect(c.response).toEqual({ status: 200, headers: { a: 'b' } });
  });

  it('records when the request went out, as ISO 8601', () => {
    expect(buildCase({ ...base, startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 678) }, { policy: DEFAULT_POLICY }).startedAt).toBe('2026-01-02T03:04:05.678Z');
    expect(buildCase(base, { policy: DEFAULT_POLICY })).not.toHaveProperty('startedAt');
  });

  it('for a HAR, keeps any case\'s body up to 64 KiB while the budget lasts, then what the reports keep', () => {
    const archive = bodyBudget(ARCHIVED_BODY_LIMIT + 10);
    const ctx = { policy: DEFAULT_POLICY, archive };
    const big = 'x'.repeat(ARCHIVED_BODY_LIMIT + 1);
    const passed = (body: string) => buildCase({ ...base, outcome: 'pass', response: { status: 200, headers: {}, body } }, ctx).response;
    // Cut at 64 KiB, its whole size kept; the budget is charged what is held (64 KiB), not the whole size.
    expect(passed(big)).toEqual({ status: 200, headers: {}, body: 'x'.repeat(ARCHIVED_BODY_LIMIT), bodyTruncated: true, bodyBytes: ARCHIVED_BODY_LIMIT + 1 });
    expect(passed('0123456789')).toEqual({ status: 200, headers: {}, body: '0123456789' });
    // Used up: a passed case keeps no body, a failing one its first 4 KiB.
    expect(passed('a')).toEqual({ status: 200, headers: {} });
    const failed = buildCase({ ...base, response: { status: 500, headers: {}, body: big } }, ctx).response;
    expect(failed).toEqual({ status: 500, headers: {}, body: 'x'.repeat(RESPONSE_BODY_LIMIT), bodyTruncated: true, bodyBytes: ARCHIVED_BODY_LIMIT + 1 });
  });
});

describe('truncateUtf8', () => {
  it('never splits a character', () => {
    for (const limit of [0, 1, 2, 3, 4, 5]) {
      const { text } = truncateUtf8('a😀b', limit);
      expect('a😀b'.startsWith(text)).toBe(true);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
    }
    expect(truncateUtf8('abc', 3)).toEqual({ text: 'abc', truncated: false, bytes: 3 });
  });
});
