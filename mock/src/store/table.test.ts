import { describe, expect, it } from 'vitest';
import { byField, compact, deepFreeze, frozenCompact, listOf, paginate, Table, thenBy } from './table.ts';

interface Row {
  id: number;
  name: string;
  tags: number[];
  note?: string;
}

describe('paginate', () => {
  it('reports totals the way the WordPress list headers do', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(paginate(items, 3, 10)).toMatchObject({ items: [20, 21, 22], total: 23, totalPages: 3, outOfRange: false });
    expect(paginate(items, 4, 10)).toMatchObject({ items: [], outOfRange: true });
    expect(paginate([], 1, 10)).toMatchObject({ items: [], total: 0, totalPages: 0, outOfRange: false });
  });

  it('refuses nonsense page parameters', () => {
    expect(() => paginate([], 0)).toThrow(RangeError);
    expect(() => paginate([], 1, 0)).toThrow(RangeError);
    expect(() => paginate([], 1.5)).toThrow(RangeError);
  });
});

describe('sorting helpers', () => {
  const rows: Row[] = [
    { id: 1, name: 'beta', tags: [] },
    { id: 2, name: 'Alpha', tags: [] },
    { id: 3, name: 'alpha', tags: [] },
    { id: 4, name: 'item 10', tags: [] },
    { id: 5, name: 'item 9', tags: [] },
  ];

  it('sorts text case-insensitively and numerically, keeping ID order for ties', () => {
    const page = listOf(rows, { sort: byField<Row>('name'), perPage: 10 });
    expect(page.items.map((r) => r.id)).toEqual([2, 3, 1, 5, 4]);
  });

  it('combines comparators', () => {
    const page = listOf(rows, { sort: thenBy(byField<Row>('name', 'desc'), byField<Row>('id', 'desc')), perPage: 10 });
    expect(page.items.map((r) => r.id)).toEqual([4, 5, 1, 3, 2]);
  });

  it('filters before paginating', () => {
    const page = listOf(rows, { filter: (r) => r.name.startsWith('item'), perPage: 1, page: 2 });
    expect(page).toMatchObject({ total: 2, totalPages: 2, items: [{ id: 5 }] });
  });
});

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
