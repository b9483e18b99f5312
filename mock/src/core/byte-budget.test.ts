// core/byte-budget.ts: answers being built share one budget; a read's lease is refused past it unless it is the only
// one building; a write's never; a lease gives back what it took, once.
import { describe, expect, it } from 'vitest';
import { ByteBudget, tooManyAnswersBuilding } from './byte-budget.ts';

describe('ByteBudget', () => {
  it('lets leases grow up to the budget over all of them, and refuses the read that would pass it', () => {
    const b = new ByteBudget(100);
    const one = b.open(true);
    const two = b.open(true);
    expect(one.grow(60)).toBe(true);
    expect(two.grow(40)).toBe(true); // 100: at the budget, not past it
    expect(b.used).toBe(100);
    expect(two.grow(1)).toBe(false); // 101: past it
    expect(b.used).toBe(100); // nothing taken by the refusal
  });

  it('never refuses the one answer being built alone, however long', () => {
    const b = new ByteBudget(100);
    const alone = b.open(true);
    expect(alone.grow(80)).toBe(true);
    expect(alone.grow(80)).toBe(true);
    expect(alone.grow(1_000)).toBe(true);
    expect(b.used).toBe(1_160);
    // A second read cannot start growing while the first is past the budget...
    const next = b.open(true);
    expect(next.grow(1)).toBe(false);
    // ...and can once it has given its characters back.
    alone.close();
    expect(next.grow(1)).toBe(true);
  });

  it("never refuses a write's answer", () => {
    const b = new ByteBudget(100);
    const read = b.open(true);
    expect(read.grow(100)).toBe(true);
    const write = b.open(false);
    expect(write.grow(500)).toBe(true);
    expect(b.used).toBe(600);
  });

  it('gives back what a lease took, once, and a closed lease takes nothing more', () => {
    const b = new ByteBudget(100);
    const l = b.open(true);
    l.grow(30);
    l.grow(20);
    l.close();
    l.close();
    expect(b.used).toBe(0);
    expect(l.grow(10)).toBe(true);
    expect(b.used).toBe(0);
  });

  it('always lets a lease within the floor grow, however full the budget', () => {
    const b = new ByteBudget(100, 10);
    const big = b.open(true);
    big.grow(100);
    const small = b.open(true);
    expect(small.grow(10)).toBe(true); // 110 used, but the small one holds no more than the floor
    expect(small.grow(1)).toBe(false); // past the floor, and not alone
    expect(b.used).toBe(110);
  });

  it('words its refusal as the mock\'s 503, naming the budget', () => {
    const e = tooManyAnswersBuilding(134_217_728);
    expect(e.status).toBe(503);
    expect(e.body.code).toBe('mock_too_many_answer_bytes');
    expect(e.body.message).toContain('134,217,728 characters');
  });
});
