import { describe, expect, it } from 'vitest';
import { applyBaseline, BaselineError, parseBaseline } from './baseline.ts';
import { renderJson } from './json.ts';
import type { CaseResult } from './model.ts';
import { summarize } from './run.ts';
import { sampleRun } from './sample.ts';

const c = (id: string, status: CaseResult['status']): CaseResult => ({ id, check: id, namespace: 'wp/v2', status, severity: 'documented', durationMs: 1 });

describe('parseBaseline', () => {
  it('reads a reviewed list as JSON or YAML', () => {
    expect(parseBaseline('{"accepted":[{"id":"a:-:","reason":"WP-1"},{"id":"b:-:"}]}', 'b.json')).toEqual({
      source: 'b.json',
      accepted: [{ id: 'a:-:', reason: 'WP-1' }, { id: 'b:-:' }],
    });
    expect(parseBaseline('accepted:\n  - id: "a:op:"\n    reason: known\n  - "b:op:"\n', 'b.yaml').accepted).toEqual([
      { id: 'a:op:', reason: 'known' },
      { id: 'b:op:' },
    ]);
  });

  it('accepts every finding of an earlier JSON report', () => {
    const ids = parseBaseline(renderJson(sampleRun()), 'old.json').accepted.map((a) => a.id);
    expect(ids).toEqual([
      'not_a_server_error:wpV2.posts.list:',
      'negative_rejection:wpV2.posts.create:title:type',
      'response_schema:calV1.events.read:',
      'index_lists_namespaces:-:',
    ]);
  });

  it('says what is wrong with a bad file', () => {
    expect(() => parseBaseline('[1]', 'x')).toThrow(/expected an object, got an array/);
    expect(() => parseBaseline('{"accepted":{}}', 'x')).toThrow(/"accepted" must be an array/);
    expect(() => parseBaseline('{"accepted":[{"reason":"r"}]}', 'x')).toThrow(/accepted\[0\] needs a non-empty string "id"/);
    expect(() => parseBaseline('{"something":1}', 'x')).toThrow(BaselineError);
    expect(() => parseBaseline('a: [', 'x')).toThrow(/neither JSON nor YAML/);
  });
});

describe('applyBaseline', () => {
  const cases = [c('new', 'failed'), c('known', 'failed'), c('known-error', 'errored'), c('healed', 'passed'), c('warn', 'warned'), c('skip', 'skipped')];
  const baseline = {
    source: 'b.json',
    accepted: [{ id: 'known', reason: 'WP-7' }, { id: 'known-error' }, { id: 'healed' }, { id: 'skip' }, { id: 'gone' }],
  };

  it('splits current failures into new and accepted, and finds fixed and not-run entries', () => {
    const { cases: marked, report } = applyBaseline(cases, baseline);
    expect(report).toEqual({
      source: 'b.json',
      acceptedList: baseline.accepted,
      newFailures: ['new'],
      accepted: [{ id: 'known', reason: 'WP-7' }, { id: 'known-error' }],
      fixed: ['healed'],
      notRun: ['skip', 'gone'],
    });
    expect(marked.map((m) => m.baseline)).toEqual(['new', 'accepted', 'accepted', 'fixed', undefined, undefined]);
    expect(marked[1]?.acceptedReason).toBe('WP-7');
    expect(summarize(marked)).toMatchObject({ failing: 1, accepted: 2, verdict: 'failed' });
  });

  it('passes the run once every failure is accepted', () => {
    const { cases: marked } = applyBaseline(cases.slice(1), baseline);
    expect(summarize(marked).verdict).toBe('passed');
  });

  it('replaces marks from an earlier application', () => {
    const first = applyBaseline(cases, baseline).cases;
    const again = applyBaseline(first, { source: 'empty', accepted: [] });
    expect(again.cases.map((m) => m.baseline)).toEqual(['new', 'new', 'new', undefined, undefined, undefined]);
    expect(again.cases[1]).not.toHaveProperty('acceptedReason');
  });
});
