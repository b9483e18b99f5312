// The memo itself: least recently used out first, bounded by estimated bytes, nothing kept when off; and the
// mock's memos under the loads that used to grow without bound (large lists, many Host headers).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { freshMock } from '../testing/harness.ts';
import { Memo, VersionedMemo } from './memo.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('Memo', () => {
  it('drops the least recently used entries once the bytes exceed the budget', () => {
    const m = new Memo<string, string>({ enabled: true, maxBytes: 30 }, (_k, v) => v.length);
    m.set('a', 'x'.repeat(10));
    m.set('b', 'x'.repeat(10));
    expect(m.peek('a')).toBeDefined(); // a is now the most recently used
    m.set('c', 'x'.repeat(15));
    expect(m.peek('b')).toBeUndefined();
    expect(m.peek('a')).toBeDefined();
    expect(m.stats).toEqual({ entries: 2, bytes: 25, maxBytes: 30 });
    m.set('d', 'x'.repeat(31)); // larger than the whole budget: not kept, nothing else dropped
    expect(m.stats.entries).toBe(2);
  });

  it('computes every time when off, and keeps nothing', () => {
    let calls = 0;
    const m = new Memo<string, number>({ enabled: false, maxBytes: 1000 }, () => 1);
    expect(m.get('k', () => ++calls)).toBe(1);
    expect(m.get('k', () => ++calls)).toBe(2);
    expect(m.stats.entries).toBe(0);
  });

  it('a versioned memo forgets what another version computed', () => {
    const m = new VersionedMemo<string, number>({ enabled: true, maxBytes: 1000 }, () => 1);
    m.at(1).set('k', 1);
    expect(m.at(1).peek('k')).toBe(1);
    expect(m.at(2).peek('k')).toBeUndefined();
    expect(m.at(1).peek('k')).toBeUndefined();
  });
});

describe('the mock\'s memos stay within their budget', () => {
  it('300 distinct large legacy lists: the memos hold at most their budget, the heap grows by no more', async () => {
    const budget = 16 * 1024 * 1024;
    const mock = await freshMock({ cacheMaxBytes: budget });
    const before = heapAfterGc();
    let answered = 0;
    for (let i = 0; i < 300; i++) {
      const day = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      const res = mock.handleNow({ method: 'GET', url: `/wp-json/cal/events/v1/events?per_page=100&start_date=${day}`, headers: {} });
      if (res.status === 200) answered += res.body.length;
    }
    const grown = heapAfterGc() - before;
    const stats = mock.cacheStats();
    const held = Object.values(stats).reduce((n, s) => n + s.bytes, 0);
    // Without the bound, every answer and rendering would be kept: far more than the budget.
    expect(answered).toBeGreaterThan(4 * budget);
    expect(held).toBeLessThanOrEqual(budget);
    for (const s of Object.values(stats)) expect(s.bytes).toBeLessThanOrEqual(s.maxBytes);
    expect(grown).toBeLessThan(2 * budget);
  });
});
