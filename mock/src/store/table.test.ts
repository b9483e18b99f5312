import { describe, expect, it } from 'vitest';
import { compact, deepFreeze, frozenCompact, Table } from './table.ts';

interface Row {
  id: number;
  name: string;
  tags: number[];
  note?: string;
}

describe('Table', () => {
  it('freezes what it is opened with without freezing the caller’s objects', () => {
    const tags = [1, 2];
    const row = { id: 1, name: 'a', tags };
    const { table } = Table.open<number, Row>('rows', (r) => r.id, [frozenCompact(row)]);
    const stored = table.get(1)!;
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.tags)).toBe(true);
    expect(Object.isFrozen(tags)).toBe(false);
    expect(() => (stored.tags as number[]).push(3)).toThrow(TypeError);
  });

  it('has no way to change rows but the writer handed out with it', () => {
    const { table, writer } = Table.open<number, Row>('rows', (r) => r.id, [{ id: 1, name: 'a', tags: [] }]);
    for (const m of ['put', 'set', 'delete', 'putOwned', 'clear']) expect(m in table, m).toBe(false);
    writer.set(2, frozenCompact({ id: 2, name: 'b', tags: [] }));
    writer.delete(1);
    expect(table.values().map((r) => r.id)).toEqual([2]);
  });

  it('copies share records but not membership', () => {
    const { table: t } = Table.open<number, Row>('rows', (r) => r.id, [{ id: 1, name: 'a', tags: [] }]);
    const { table: c, writer } = Table.copy(t);
    writer.set(2, frozenCompact({ id: 2, name: 'b', tags: [] }));
    writer.delete(1);
    expect(t.values().map((r) => r.id)).toEqual([1]);
    expect(c.values().map((r) => r.id)).toEqual([2]);
  });

  it('replacing keeps the row position', () => {
    const { table: t, writer } = Table.open<number, Row>('rows', (r) => r.id, [{ id: 1, name: 'a', tags: [] }, { id: 2, name: 'b', tags: [] }]);
    writer.set(1, frozenCompact({ id: 1, name: 'z', tags: [] }));
    expect(t.values().map((r) => r.name)).toEqual(['z', 'b']);
  });
});

describe('frozenCompact', () => {
  it('drops undefined keys, freezes, and keeps a __proto__ key as an own property', () => {
    const parsed = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":null}') as Record<string, unknown>;
    const out = frozenCompact({ ...{ note: undefined }, nested: parsed }) as { nested: Record<string, unknown> };
    expect('note' in out).toBe(false);
    expect(Object.getPrototypeOf(out.nested)).toBe(Object.prototype);
    expect(Object.keys(out.nested)).toEqual(['a', '__proto__', 'b']);
    expect(JSON.stringify(out.nested)).toBe('{"a":1,"__proto__":{"polluted":true},"b":null}');
    expect(Object.isFrozen(out.nested)).toBe(true);
  });
});

describe('compact and deepFreeze', () => {
  it('drops undefined at every depth and shares frozen parts', () => {
    const frozen = deepFreeze({ x: 1 });
    const out = compact({ a: undefined, b: { c: undefined, d: 1 }, e: [{ f: undefined }], g: frozen });
    expect(out).toEqual({ b: { d: 1 }, e: [{}], g: { x: 1 } });
    expect(Object.keys(out.b)).toEqual(['d']);
    expect(out.g).toBe(frozen);
  });
});
