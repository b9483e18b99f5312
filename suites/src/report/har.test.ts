// `--format har`: an HTTP Archive 1.2 of the run's requests and answers, written through the same redaction as
// every report (a secret in a header, a URL or a body is blanked).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { bodyBudget, buildCase, type CaseInput } from './case.ts';
import { renderHar } from './har.ts';
import { ARCHIVED_BODIES_BYTES, ARCHIVED_BODY_LIMIT, DEFAULT_POLICY } from './model.ts';
import { sampleRun } from './sample.ts';
import { writeReports } from './write.ts';

// HAR 1.2 as JSON Schema: the har-schema package (the schemas har-validator checks with), draft-06.
const require = createRequire(import.meta.url);
const HAR_SCHEMAS = require('har-schema') as Record<string, { $id: string }>;
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;
// strict: false, since the schemas carry keywords of their own ("optional", "min") that JSON Schema ignores.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
addFormats(ajv);
// A request's URL as sent and as a WHATWG URL parser (a browser's) leaves it: `status[]=publish` keeps its brackets,
// which the strict RFC 3986 "uri" format of ajv-formats refuses.
ajv.addFormat('uri', (s: string) => URL.canParse(s));
for (const schema of Object.values(HAR_SCHEMAS)) ajv.addSchema(schema);
const validHar = ajv.getSchema('har.json#')!;

/** The HAR 1.2 problems of a HAR's text, none when it is valid. */
function harProblems(text: string): string[] {
  return validHar(JSON.parse(text)) ? [] : (validHar.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

interface HarContent {
  size: number;
  text?: string;
  mimeType: string;
  comment?: string;
  _truncated?: boolean;
}

interface Har {
  log: {
    version: string;
    creator: { name: string };
    entries: {
      startedDateTime: string;
      request: { method: string; url: string; headers: { name: string; value: string }[]; queryString: { name: string; value: string }[]; postData?: { text: string } };
      response: { status: number; statusText: string; content: HarContent };
      comment: string;
      time: number;
    }[];
  };
}

describe('HAR report', () => {
  it('has one entry per case that sent a request, with its request, answer and case id', () => {
    const run = sampleRun();
    const har = JSON.parse(renderHar(run)) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe(run.tool.name);
    const sent = run.cases.filter((c) => c.request);
    expect(har.log.entries).toHaveLength(sent.length);
    const first = har.log.entries[0]!;
    expect(first.request.method).toBe(sent[0]!.request!.method);
    expect(first.request.url).toBe(sent[0]!.request!.url);
    expect(first.request.queryString).toEqual([
      { name: 'per_page', value: '5' },
      { name: 'status[]', value: 'publish' },
    ]);
    expect(first.response.status).toBe(500);
    expect(first.response.content.text).toContain('<h1>Fatal</h1>');
    expect(first.comment).toContain(sent[0]!.id);
    expect(har.log.entries[1]!.request.postData?.text).toContain('"title":42');
    expect(harProblems(renderHar(run))).toEqual([]);
  });

  /** A case of a run that writes a HAR: its body kept within the budget, sent at `at` ms after 03:04:05. */
  const archived = (budget: ReturnType<typeof bodyBudget>, i: number, x: { at?: number; status?: number; body?: string; outcome?: CaseInput['outcome'] }) =>
    buildCase(
      {
        check: 'positive_acceptance',
        namespace: 'cal/v1',
        operationId: 'getCalV1Events',
        variant: String(i),
        severity: 'documented',
        outcome: x.outcome ?? 'pass',
        durationMs: 5,
        request: { method: 'GET', url: `https://h/wp-json/cal/v1/events?page=${i}`, headers: {} },
        response: { status: x.status ?? 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, ...(x.body !== undefined ? { body: x.body } : {}) },
        ...(x.at !== undefined ? { startedAt: Date.UTC(2026, 0, 2, 3, 4, 5) + x.at } : {}),
      },
      { policy: DEFAULT_POLICY, archive: budget },
    );

  it('holds the answers: every body (passed ones too), its whole size, a comment and _truncated where it was cut', () => {
    const budget = bodyBudget(ARCHIVED_BODIES_BYTES);
    // 19 bytes, then two-byte characters: a cut at 64 KiB would split one, so it backs off a byte.
    const long = JSON.stringify([{ id: 1, title: 'x' + 'é'.repeat(ARCHIVED_BODY_LIMIT) }]);
    const har = JSON.parse(renderHar(sampleRun([archived(budget, 0, { body: '[{"id":1}]' }), archived(budget, 1, { body: long })]))) as Har;
    const [small, cut] = har.log.entries.map((e) => e.response.content);
    expect(small).toEqual({ size: 10, mimeType: 'application/json; charset=UTF-8', text: '[{"id":1}]' });
    const { text, ...rest } = cut!;
    expect(rest).toEqual({ size: Buffer.byteLength(long), mimeType: 'application/json; charset=UTF-8', _truncated: true, comment: `cut by site-contracts to its first ${ARCHIVED_BODY_LIMIT - 1} of ${Buffer.byteLength(long)} bytes` });
    expect(text === long.slice(0, 19 + (ARCHIVED_BODY_LIMIT - 20) / 2)).toBe(true);
  });

  it('says a body is not kept once the run\'s budget for them is used up, with its size where the answer gave it', () => {
    const budget = bodyBudget(3);
    const run = sampleRun([archived(budget, 0, { body: '[1]' }), archived(budget, 1, { body: '[2]' })]);
    run.cases[1]!.response!.headers['content-length'] = '3';
    const contents = (JSON.parse(renderHar(run)) as Har).log.entries.map((e) => e.response.content);
    expect(contents[0]).toMatchObject({ size: 3, text: '[1]' });
    expect(contents[1]).toEqual({ size: 3, mimeType: 'application/json; charset=UTF-8', comment: 'body not kept: site-contracts keeps up to 64 KiB of each answer and 32 MiB in all' });
  });

  it('starts each entry when its request went out, in that order, and names each status', () => {
    const budget = bodyBudget(ARCHIVED_BODIES_BYTES);
    const run = sampleRun([
      archived(budget, 0, { at: 900, status: 404, body: '{}', outcome: 'fail' }),
      archived(budget, 1, { at: 5, status: 200, body: '[]' }),
      archived(budget, 2, { status: 418, body: '{}' }), // never sent: the run's start
      archived(budget, 3, { at: 5, status: 599, body: '{}' }), // an unknown code: no text
    ]);
    const entries = (JSON.parse(renderHar(run)) as Har).log.entries;
    expect(entries.map((e) => [e.startedDateTime, e.response.status, e.response.statusText])).toEqual([
      ['2026-01-02T03:04:05.000Z', 418, "I'm a Teapot"],
      ['2026-01-02T03:04:05.005Z', 200, 'OK'],
      ['2026-01-02T03:04:05.005Z', 599, ''],
      ['2026-01-02T03:04:05.900Z', 404, 'Not Found'],
    ]);
    expect(harProblems(renderHar(run))).toEqual([]);
  });

  it('lists a request once, however many cases judged it, with each case in its comment', () => {
    const budget = bodyBudget(ARCHIVED_BODIES_BYTES);
    const negative = archived(budget, 0, { at: 7, status: 400, body: '{"code":"rest_invalid_param"}' });
    // error_envelope judges the same answer: a case of its own, with the exchange's start and time.
    const envelope = { ...archived(budget, 0, { at: 7, status: 400 }), id: 'error_envelope:getCalV1Events:0', check: 'error_envelope' };
    const again = archived(budget, 0, { at: 8, status: 400, body: '{"code":"rest_invalid_param"}' });
    const entries = (JSON.parse(renderHar(sampleRun([envelope, negative, again]))) as Har).log.entries;
    expect(entries.map((e) => [e.startedDateTime, e.comment, e.response.content.text])).toEqual([
      ['2026-01-02T03:04:05.007Z', 'error_envelope:getCalV1Events:0 passed\npositive_acceptance:getCalV1Events:0 passed', '{"code":"rest_invalid_param"}'],
      ['2026-01-02T03:04:05.008Z', 'positive_acceptance:getCalV1Events:0 passed', '{"code":"rest_invalid_param"}'],
    ]);
  });

  it('stays HAR 1.2 at its full size: 32 MiB of bodies in 64 KiB answers, plus the entries that kept none', () => {
    const budget = bodyBudget(ARCHIVED_BODIES_BYTES);
    const body = JSON.stringify({ pad: 'x'.repeat(ARCHIVED_BODY_LIMIT) });
    const cases = Array.from({ length: ARCHIVED_BODIES_BYTES / ARCHIVED_BODY_LIMIT + 100 }, (_, i) => archived(budget, i, { at: i, body }));
    const text = renderHar(sampleRun(cases));
    const contents = (JSON.parse(text) as Har).log.entries.map((e) => e.response.content);
    expect(contents.filter((c) => c.text !== undefined)).toHaveLength(ARCHIVED_BODIES_BYTES / ARCHIVED_BODY_LIMIT);
    expect(contents.filter((c) => c.text === undefined)).toHaveLength(100);
    // The bound a viewer has to open: the bodies, and a kilobyte or two of everything else an entry.
    expect(Buffer.byteLength(text)).toBeLessThan(ARCHIVED_BODIES_BYTES + cases.length * 2048);
    expect(harProblems(text)).toEqual([]);
  });

  it('is redacted as every report is: the credentials never reach the file', async () => {
    const secret = 'editor:s3cret-app-pass';
    const run = sampleRun();
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-har-'));
    try {
      const [written] = await writeReports(run, { dir, formats: ['har'], secrets: [secret] });
      expect(written!.path).toBe(join(dir, 'site-contracts.har'));
      const text = await readFile(written!.path, 'utf8');
      const authorization = `Basic ${Buffer.from('editor:secret').toString('base64')}`;
      expect(run.cases.some((c) => c.request?.headers['Authorization'] === authorization)).toBe(true);
      expect(text).not.toContain(authorization);
      expect(text).toContain('[REDACTED]');
      expect((JSON.parse(text) as Har).log.entries.length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
