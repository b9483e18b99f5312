// No check passes on an answer whose body is not JSON: proven against the mock whose answers keep their
// statuses and headers but lose their bodies (an HTML page; a gzip bomb sent although the suite asked
// for identity), and against the unbroken mock, where nothing changes.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../../mock/src/index.ts';
import { harnessForFile, plain, type Fault, type MockResponse } from '../../testing/faulty-mock.ts';
import type { RunResult } from '../../report/model.ts';
import { readAnswer, type Exchange } from '../../http/types.ts';
import { HELD_BODY_BYTES, heldForm, plainlyUnreadable, requireJson, unreadableBody } from './bodies.ts';

const h = harnessForFile({ createMock, listen });

const run = async (fault: Fault | undefined): Promise<RunResult> => (await h.run(fault, '/cal/v1/venues,/cal/v1/venues/{id}', [], { seed: 5 })).run;

/** The REST root answers as it should, so the run gets going; everything under it answers `body`. */
const bodiesReplaced = (body: (res: MockResponse) => MockResponse): Fault => (req, next) => {
  const res = plain(next(req));
  const path = new URL(req.url, 'http://x').pathname.replace(/\/+$/, '');
  return path === '/wp-json' || req.method === 'HEAD' ? res : body(res);
};

const BOMB = gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20));

const counts = (r: RunResult): Record<string, number> => r.cases.reduce<Record<string, number>>((n, c) => ({ ...n, [c.status]: (n[c.status] ?? 0) + 1 }), {});

describe('a body that is not JSON never lets a check pass', () => {
  it('on the mock, every case passes as before', async () => {
    const r = await run(undefined);
    expect(r.cases.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(r.cases.some((c) => c.message?.includes('not JSON'))).toBe(false);
  });

  it('an HTML page for every answer: no case passes that read one', async () => {
    const r = await run(bodiesReplaced((res) => ({ ...res, headers: { ...res.headers, 'Content-Type': 'text/html; charset=UTF-8' }, body: '<!doctype html><p>Maintenance</p>' })));
    console.log(`HTML for every answer: ${JSON.stringify(counts(r))}`);
    // Passed cases keep no body, but every answer they could show was the page. Error answers are error_envelope's.
    expect(r.cases.filter((c) => c.status === 'passed' && c.response !== undefined && c.response.status < 400).map((c) => c.id)).toEqual([]);
    const errors = r.cases.filter((c) => c.check === 'error_envelope');
    expect(errors.length).toBeGreaterThan(0);
    for (const c of errors) expect(c.status, c.id).toBe('failed');
    expect(r.cases.some((c) => c.status === 'failed' && /^expected a JSON body/.test(c.message ?? ''))).toBe(true);
    expect(r.summary.verdict).toBe('failed');
  });

  it('a gzip bomb for every answer: read to the byte limit and no further, and nothing passes on it', async () => {
    const r = await run(bodiesReplaced((res) => ({ ...res, headers: { ...res.headers, 'Content-Encoding': 'gzip' }, body: BOMB as unknown as string })));
    console.log(`gzip bomb for every answer: ${JSON.stringify(counts(r))}`);
    expect(r.cases.filter((c) => c.status === 'passed' && c.response !== undefined).map((c) => c.id)).toEqual([]);
    expect(r.cases.some((c) => c.status === 'inconclusive' && /^body too large/.test(c.message ?? ''))).toBe(true);
  });
});

describe('requireJson', () => {
  // As the client reads an answer (readAnswer: a _jsonp answer's JSON beside its body).
  const exchange = (body: string, extra: { method?: string; status?: number; type?: string; url?: string } = {}): Exchange => {
    const url = extra.url ?? 'http://t/wp-json/cal/v1/events';
    return { request: { method: extra.method ?? 'GET', url, headers: {} }, response: readAnswer(url, { status: extra.status ?? 200, headers: extra.type ? { 'content-type': extra.type } : {}, body }), durationMs: 0 };
  };
  const pass = (e: Exchange) => requireJson({ check: 'x', severity: 'documented', outcome: 'pass', message: 'fine', exchange: e });

  it('fails a pass on a body that is not JSON, and leaves JSON, HEAD, 204 and oEmbed XML alone', () => {
    expect(pass(exchange('<p>hi</p>', { type: 'text/html' })).outcome).toBe('fail');
    expect(pass(exchange('')).outcome).toBe('fail');
    expect(pass(exchange('{"a":1')).outcome).toBe('fail');
    // An error answer read whole is error_envelope's to judge.
    expect(pass(exchange('<h1>Not Found</h1>', { status: 404 })).outcome).toBe('pass');
    expect(pass(exchange('[]')).outcome).toBe('pass');
    expect(pass(exchange('null')).outcome).toBe('pass');
    expect(pass(exchange('', { method: 'HEAD' })).outcome).toBe('pass');
    expect(pass(exchange('', { status: 204 })).outcome).toBe('pass');
    expect(pass(exchange('<oembed/>', { type: 'text/xml', url: 'http://t/wp-json/oembed/1.0/embed?url=x&format=xml' })).outcome).toBe('pass');
    // _jsonp: WordPress's JavaScript wrapping of JSON passes; anything else behind the parameter does not.
    const jsonp = 'http://t/wp-json/?_jsonp=cb';
    expect(pass(exchange('/**/cb({"name":"x"})', { type: 'application/javascript', url: jsonp })).outcome).toBe('pass');
    expect(pass(exchange('/**/cb({"name":)', { type: 'application/javascript', url: jsonp })).outcome).toBe('fail');
    expect(pass(exchange('<p>hi</p>', { type: 'text/html', url: jsonp })).outcome).toBe('fail');
    expect(pass(exchange('/**/cb({"name":"x"})', { type: 'application/javascript' })).outcome).toBe('fail');
    expect(unreadableBody({ ...exchange('[1,'), response: { status: 200, headers: {}, body: '[1,', bodyCut: { limitBytes: 10 } } })?.cut).toBe(true);
  });

  it('finds in a stream of answers the bodies that cannot begin JSON, without parsing the ones that can', () => {
    expect(plainlyUnreadable(exchange('<p>hi</p>'))).toBe(true);
    expect(plainlyUnreadable(exchange(''))).toBe(true);
    expect(plainlyUnreadable(exchange('  [1, 2]'))).toBe(false);
    expect(plainlyUnreadable(exchange('', { status: 204 }))).toBe(false);
    // Begins like JSON: left to requireJson(), which parses it where a check would pass on it.
    expect(plainlyUnreadable(exchange('{"a":'))).toBe(false);
  });
});

describe('heldForm', () => {
  const exchange = (url: string, status: number, body: string): Exchange => ({
    request: { method: 'GET', url, headers: {} },
    response: readAnswer(url, { status, headers: { 'content-type': 'application/json' }, body }),
    durationMs: 1,
  });
  const pass = (e: Exchange) => ({ check: 'positive_acceptance', severity: 'documented' as const, outcome: 'pass' as const, exchange: e });
  const big = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, title: 'é'.repeat(300) })));

  it('keeps a small body whole, and the same exchange', () => {
    const e = exchange('http://127.0.0.1/wp-json/cal/v1/events', 200, '[{"id":1}]');
    expect(heldForm(e)).toBe(e);
  });

  it('keeps the beginning of a long body, its length, and the verdict requireJson() gives the whole', () => {
    expect(Buffer.byteLength(big)).toBeGreaterThan(HELD_BODY_BYTES);
    const json = heldForm(exchange('http://127.0.0.1/wp-json/cal/v1/events', 200, big));
    expect(Buffer.byteLength(json.response!.body)).toBeLessThanOrEqual(HELD_BODY_BYTES);
    expect(json.response!.body.includes('\uFFFD')).toBe(false);
    expect(json.response!.bodyBytes).toBe(Buffer.byteLength(big));
    expect(requireJson(pass(json)).outcome).toBe('pass');
    // Broken at its very end, past what is kept: still failed.
    const broken = heldForm(exchange('http://127.0.0.1/wp-json/cal/v1/events', 200, big.slice(0, -1)));
    expect(requireJson(pass(broken)).outcome).toBe('fail');
    // WordPress's _jsonp wrapping of the same JSON is readable.
    const jsonp = heldForm(exchange('http://127.0.0.1/wp-json/cal/v1/events?_jsonp=cb', 200, `/**/cb(${big})`));
    expect(requireJson(pass(jsonp)).outcome).toBe('pass');
  });
});
