// core/byte-budget.ts: what the mock holds for its clients is bounded, and shared fairly. Signed-in clients have a
// pool of the whole budget, anonymous ones a pool of half of it they cannot pass; one client holds at most half of
// its pool, unless it asks for its only lease; a lease within the floor always fits, a write's always grows, and a
// lease gives back what it took, once.
import { describe, expect, it } from 'vitest';
import { boundsText, ByteBudget, clientOf, tooManyAnswersBuilding, UNKNOWN_CLIENT } from './byte-budget.ts';

const admin = clientOf('127.0.0.1', 1);
const editor = clientOf('127.0.0.1', 2);
const stranger = clientOf('127.0.0.1', undefined);
const another = clientOf('10.0.0.7', undefined);

describe('ByteBudget', () => {
  it('lets signed-in leases grow up to the budget over all of them, and refuses the read that would pass it', () => {
    const b = new ByteBudget(100);
    const one = b.open(true, admin);
    const two = b.open(true, editor);
    expect(one.grow(50)).toBe(true);
    expect(two.grow(50)).toBe(true); // 100: at the budget, not past it
    expect(b.used).toBe(100);
    expect(two.grow(1)).toBe(false); // 101: past it
    expect(two.refused).toEqual({ bound: 'signed-in', max: 100 });
    expect(b.used).toBe(100); // nothing taken by the refusal
  });

  it('never refuses the only lease of its pool, however long', () => {
    const b = new ByteBudget(100);
    const alone = b.open(true, admin);
    expect(alone.grow(80)).toBe(true);
    expect(alone.grow(1_000)).toBe(true);
    expect(b.used).toBe(1_080);
    // A second read cannot start growing while the first is past the budget...
    const next = b.open(true, editor);
    expect(next.grow(1)).toBe(false);
    expect(next.refused).toEqual({ bound: 'signed-in', max: 100 });
    // ...and can once it has given its bytes back.
    alone.close();
    expect(next.grow(1)).toBe(true);
  });

  it("never refuses a write's answer", () => {
    const b = new ByteBudget(100);
    const read = b.open(true, admin);
    expect(read.grow(100)).toBe(true);
    const write = b.open(false, admin);
    expect(write.grow(500)).toBe(true);
    expect(b.used).toBe(600);
  });

  it('gives back what a lease took, once, and a closed lease takes nothing more', () => {
    const b = new ByteBudget(100);
    const l = b.open(true, stranger);
    l.grow(30);
    l.grow(20);
    l.close();
    l.close();
    expect(b.used).toBe(0);
    expect(b.heldBy(stranger)).toBe(0);
    expect(l.grow(10)).toBe(true);
    expect(b.used).toBe(0);
  });

  it('always lets a lease within the floor grow, however full the budget', () => {
    const b = new ByteBudget(100, 10);
    const big = b.open(true, admin);
    big.grow(100);
    const small = b.open(true, editor);
    expect(small.grow(10)).toBe(true); // 110 used, but the small one holds no more than the floor
    expect(small.grow(1)).toBe(false); // past the floor, and not alone
    expect(b.used).toBe(110);
  });
});

describe('ByteBudget, shared fairly', () => {
  it('anonymous clients share half of the budget, and no anonymous lease ever takes room a signed-in one needs', () => {
    const b = new ByteBudget(100);
    const leases = [b.open(true, stranger), b.open(true, another)];
    expect(leases[0]!.grow(25)).toBe(true);
    expect(leases[1]!.grow(25)).toBe(true);
    // The anonymous pool (50) is full: a third anonymous client is refused, however much the budget has left.
    const third = b.open(true, clientOf('10.0.0.8', undefined));
    expect(third.grow(10)).toBe(false);
    expect(third.refused).toEqual({ bound: 'anonymous', max: 50 });
    // The signed-in have the whole budget to themselves: the anonymous hold 50, and two administrators 100 more.
    const adminLease = b.open(true, admin);
    const editorLease = b.open(true, editor);
    expect(adminLease.grow(50)).toBe(true);
    expect(editorLease.grow(50)).toBe(true);
    expect(b.used).toBe(150);
  });

  it('one client holds at most half of its pool, unless it asks for the only lease it holds', () => {
    const b = new ByteBudget(100);
    // Anonymous from one address: one client, a quarter of the budget (half of the anonymous pool).
    const first = b.open(true, stranger);
    expect(first.grow(20)).toBe(true);
    const second = b.open(true, stranger);
    expect(second.grow(5)).toBe(true); // 25: its bound
    const third = b.open(true, stranger);
    expect(third.grow(1)).toBe(false);
    expect(third.refused).toEqual({ bound: 'client', max: 25 });
    // Another address is another client, with a bound of its own; its only lease may pass it within the pool.
    const other = b.open(true, another);
    expect(other.grow(25)).toBe(true);
    // The same address signed in is another client too, in the other pool.
    const signed = b.open(true, admin);
    expect(signed.grow(50)).toBe(true);
    expect(b.open(true, admin).grow(1)).toBe(false); // the administrator's half of the signed-in pool
    expect(b.heldBy(stranger)).toBe(25);
    expect(b.heldBy(admin)).toBe(50);
  });

  it('an unknown client (no address, no credentials) is one anonymous client', () => {
    const b = new ByteBudget(8);
    expect(b.open(true, UNKNOWN_CLIENT).grow(2)).toBe(true);
    expect(b.open(true, UNKNOWN_CLIENT).grow(1)).toBe(false);
    expect(b.open(true).grow(1)).toBe(false);
  });

  it('words its refusal as the mock\'s 503, naming the bound that was passed and the others', () => {
    const b = new ByteBudget(134_217_728);
    const e = tooManyAnswersBuilding(b, { bound: 'anonymous', max: b.anonymousMax });
    expect(e.status).toBe(503);
    expect(e.body.code).toBe('mock_too_many_answer_bytes');
    expect(e.body.message).toContain('clients without valid credentials hold at most 67,108,864 characters at once together (33,554,432 characters each); signed-in clients have 134,217,728 characters of their own');
    expect(boundsText(b, 'bytes', { bound: 'client', max: 5 })).toBe('one client (an address, with its credentials) holds at most 5 bytes at once, and this one holds that much already');
  });
});
