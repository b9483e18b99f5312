// A small run with one case of every kind, for tests and for eyeballing the report formats. Its
// response bodies are hostile on purpose (markup, script end tags, control characters) because real
// servers under test send anything.

import { buildCase } from './case.ts';
import { DEFAULT_POLICY, GLOBAL_NAMESPACE, type CaseResult, type RunResult } from './model.ts';
import { buildRun } from './run.ts';

export const SAMPLE_BASE = 'https://staging.example.org';

export function sampleCases(authorization = 'Basic ZWRpdG9yOnNlY3JldA=='): CaseResult[] {
  const ctx = { policy: DEFAULT_POLICY };
  const get = (url: string) => ({ method: 'GET', url, headers: { Accept: 'application/json', Authorization: authorization } });
  return [
    buildCase(
      {
        check: 'not_a_server_error',
        namespace: 'wp/v2',
        operationId: 'wpV2.posts.list',
        method: 'GET',
        route: '/wp/v2/posts',
        severity: 'documented',
        outcome: 'fail',
        message: 'expected a status below 500, got 500',
        request: get(`${SAMPLE_BASE}/wp-json/wp/v2/posts?per_page=5&status[]=publish`),
        response: {
          status: 500,
          headers: { 'content-type': 'text/html' },
          body: '<h1>Fatal</h1></script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">\u0001\u001b[31m',
        },
        durationMs: 120,
      },
      ctx,
    ),
    buildCase(
      {
        check: 'negative_rejection',
        namespace: 'wp/v2',
        operationId: 'wpV2.posts.create',
        method: 'POST',
        route: '/wp/v2/posts',
        variant: 'title:type',
        severity: 'convention',
        outcome: 'fail',
        message: "sent title=42 (not a string), expected 400, got 201 \"created\" & 'kept'",
        request: {
          method: 'POST',
          url: `${SAMPLE_BASE}/wp-json/wp/v2/posts`,
          headers: { 'Content-Type': 'application/json', Authorization: authorization },
          body: '{"title":42,"content":"it\'s $HOME\\n"}',
        },
        response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":7}' },
        durationMs: 80,
      },
      ctx,
    ),
    buildCase(
      {
        check: 'response_schema',
        namespace: 'cal/v1',
        operationId: 'calV1.events.read',
        method: 'GET',
        route: '/cal/v1/events/{id}',
        severity: 'assumed',
        outcome: 'fail',
        message: 'property "venue" missing',
        request: get(`${SAMPLE_BASE}/wp-json/cal/v1/events/3`),
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":3}' },
        durationMs: 40,
      },
      ctx,
    ),
    buildCase(
      {
        check: 'not_a_server_error',
        namespace: 'cal/v1',
        operationId: 'calV1.events.list',
        method: 'GET',
        route: '/cal/v1/events',
        severity: 'documented',
        outcome: 'pass',
        request: get(`${SAMPLE_BASE}/wp-json/cal/v1/events`),
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' },
        durationMs: 30,
      },
      ctx,
    ),
    buildCase(
      {
        check: 'negative_rejection',
        namespace: 'cal/v1',
        operationId: 'calV1.events.delete',
        method: 'DELETE',
        route: '/cal/v1/events/{id}',
        severity: 'documented',
        outcome: 'skip',
        message: '--read-only',
        durationMs: 0,
      },
      ctx,
    ),
    buildCase(
      {
        check: 'index_lists_namespaces',
        namespace: GLOBAL_NAMESPACE,
        severity: 'documented',
        outcome: 'error',
        message: 'connect ECONNRESET',
        request: get(`${SAMPLE_BASE}/wp-json/`),
        durationMs: 10_000,
      },
      ctx,
    ),
  ];
}

export function sampleRun(cases: CaseResult[] = sampleCases()): RunResult {
  return buildRun({
    tool: { name: 'site-contracts', version: '0.1.0' },
    target: { baseUrl: SAMPLE_BASE, apiRoot: '/wp-json' },
    startedAt: new Date('2026-01-02T03:04:05.000Z'),
    finishedAt: new Date('2026-01-02T03:05:05.500Z'),
    seed: 42,
    options: { runs: 3, readOnly: false },
    cases,
  });
}
