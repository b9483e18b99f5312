// The edge phase's values, checked against the contract's own validator: every edge is what it claims (valid, or
// breaking exactly its one constraint), the documented edges are the ones the issue names, and nothing depends on a
// seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { documentedDefaults, edgeCases, edgePlan, toTyped, validRequest } from './index.ts';
import { plausibleValue, textKind } from './plausible.ts';

const contract = loadContractFile();

function byTag(opId: string, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of edgeCases(contract, opId)) if (e.id.startsWith(`${opId} ${prefix}`)) out[e.id.slice(opId.length + prefix.length + 2)] = e.label;
  return out;
}

describe('edge cases', () => {
  it('are, for every operation, exactly what they claim: valid, or breaking their one constraint', () => {
    let count = 0;
    for (const op of contract.operations) {
      const { cases, dropped } = edgePlan(contract, op);
      expect(dropped, op.id).toEqual([]);
      for (const e of cases) {
        count++;
        const issues = contract.validate(op, toTyped(op, e.request)).issues;
        if (e.expect === 'accept') {
          expect(issues, e.id).toEqual([]);
          continue;
        }
        const c = e.constraint!;
        const own = new Set([c.param, ...(c.keyword === 'dependentRequired' ? [c.detail!] : [])]);
        expect(issues.some((i) => i.keyword === c.keyword && own.has(i.param)), e.id).toBe(true);
        expect(issues.filter((i) => !own.has(i.param)), e.id).toEqual([]);
      }
    }
    expect(count).toBeGreaterThan(4000);
  });

  it('kept by a filter are exactly the whole plan filtered (the filter only saves building the others)', () => {
    for (const id of ['getCalV1Events', 'postCalV1Events', 'putCalEventsV1EventsById', 'postBatchV1', 'getOembed10Proxy']) {
      for (const want of [(d: { expect: string }) => d.expect === 'accept', (d: { expect: string }) => d.expect === 'refuse', (d: { family: string }) => d.family === 'minimal']) {
        expect(edgeCases(contract, id, want), id).toEqual(edgeCases(contract, id).filter(want));
      }
    }
  });

  it('are the same on every call: the edge phase does not depend on a seed', () => {
    const a = edgeCases(contract, 'postCalV1Events').map((e) => [e.id, e.request]);
    const b = edgeCases(contract, 'postCalV1Events').map((e) => [e.id, e.request]);
    expect(a).toEqual(b);
  });

  it('put cal/v1 per_page at 0, 1, 100, 101 and page at 0 and 1', () => {
    const edges = edgeCases(contract, 'getCalV1Events');
    const pick = (id: string) => edges.find((e) => e.id === `getCalV1Events ${id}`)!;
    expect([pick('query.per_page minimum min-1'), pick('query.per_page minimum min'), pick('query.per_page maximum max'), pick('query.per_page maximum max+1')].map((e) => [e.request.query['per_page'], e.expect])).toEqual([
      ['0', 'refuse'],
      ['1', 'accept'],
      ['100', 'accept'],
      ['101', 'refuse'],
    ]);
    expect([pick('query.page minimum min-1'), pick('query.page minimum min')].map((e) => [e.request.query['page'], e.expect])).toEqual([
      ['0', 'refuse'],
      ['1', 'accept'],
    ]);
  });

  it('miss enums by a case, by surrounding spaces and by a neighbouring enum value; a batch item by GET', () => {
    const misses = Object.entries(byTag('getCalV1Events', 'query.order enum')).filter(([tag]) => !tag.startsWith('value:'));
    expect(Object.fromEntries(misses)).toEqual({ case: 'order="asc"', spaces: 'order=" ASC "', neighbour: 'order="publish"' });
    expect(byTag('postBatchV1', 'body.requests.items.method enum')['neighbour']).toBe('requests.items.method="GET"');
  });

  it('miss a date-time by one edit: T for the space, seconds missing, a trailing space, month 13', () => {
    expect(byTag('postCalV1Events', 'body.start_date pattern')).toEqual({
      't-for-space': 'start_date="2030-06-15T10:00:00"',
      'no-seconds': 'start_date="2030-06-15 10:00"',
      'trailing-space': 'start_date="2030-06-15 10:00:00 "',
      'month-13': 'start_date="2030-13-15 10:00:00"',
    });
    // cal/v1's list filters take `T` as well (RFC 3339), so that edit is no miss there.
    expect(Object.keys(byTag('getCalV1Events', 'query.start_date pattern'))).toEqual(['no-seconds', 'trailing-space', 'month-13']);
  });

  it('leave out each required parameter once, and put batches at 25 and 26 items with one duplicate-free list', () => {
    expect(Object.keys(edgeCases(contract, 'postCalEventsV1Events').filter((e) => e.tag === 'missing').reduce((o, e) => ({ ...o, [e.param!]: 1 }), {}))).toEqual(['title', 'start_date', 'end_date']);
    const batch = edgeCases(contract, 'postBatchV1');
    const sizes = batch.filter((e) => e.family === 'items').map((e) => [(e.request.body as { json: { requests: unknown[] } }).json.requests.length, e.expect]);
    expect(sizes).toEqual([
      [25, 'accept'],
      [26, 'refuse'],
    ]);
    expect(byTag('getCalV1Events', 'query.status uniqueItems')).toEqual({ duplicate: 'status=["publish","publish"]' });
  });

  it('give every operation a minimal request and, where it has optional parameters, a full one', () => {
    for (const op of contract.operations) {
      const edges = edgeCases(contract, op);
      const minimal = edges.find((e) => e.family === 'minimal')!;
      expect(minimal.expect).toBe('accept');
      const body = minimal.request.body && 'json' in minimal.request.body ? minimal.request.body.json : {};
      for (const p of op.params) if (p.in !== 'path' && !p.required) expect(p.name in minimal.request.query || p.name in body, `${op.id} ${p.name}`).toBe(false);
      if (op.params.some((p) => p.in !== 'path' && !p.required)) expect(edges.some((e) => e.family === 'full')).toBe(true);
    }
    // cal/v1 marks no field required: its minimal create is an empty body.
    expect(edgeCases(contract, 'postCalV1Events').find((e) => e.family === 'minimal')!.request.body).toEqual({ json: {} });
  });

  it('list the documented defaults, leaving out one whose derivation the documents do not show', () => {
    expect(documentedDefaults(contract.operation('getCalV1Events')).map((d) => [d.param.name, d.value])).toEqual([
      ['page', 1],
      ['per_page', 10],
      ['status', ['publish']],
      ['orderby', 'event_date'],
      ['order', 'ASC'],
    ]);
    expect(documentedDefaults(contract.operation('getCalEventsV1Events')).map((d) => d.param.name)).not.toContain('start_date');
  });
});

describe('plausible values', () => {
  it('fill free strings by the field name and keep unbounded integers within 1..100', () => {
    expect(textKind('website')).toBe('url');
    expect(textKind('image')).toBe('media');
    expect(textKind('start_date')).toBe('date');
    expect(textKind('timezone')).toBe('timezone');
    expect(plausibleValue({ type: 'integer' }, 'per_page')).toBe(1);
    expect(plausibleValue({ type: 'integer', default: 10 }, 'per_page')).toBe(10);
    expect(plausibleValue({ type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' }, 'order')).toBe('ASC');
  });

  it('give valid requests for every operation, with plausible text and integers', () => {
    const op = contract.operation('postCalEventsV1Venues');
    fc.assert(
      fc.property(validRequest(contract, op.id, { plausible: true, optional: 'all', encoding: 'json' }), (req) => {
        expect(contract.validate(op, toTyped(op, req)).issues).toEqual([]);
        const body = (req.body as { json: Record<string, unknown> }).json;
        expect(String(body['website'])).toMatch(/^https?:\/\//);
        expect(String(body['image'])).toMatch(/^(https?:\/\/|\d+$)/);
      }),
      { numRuns: 30, seed: 5 },
    );
    const list = contract.operation('getCalEventsV1Events');
    fc.assert(
      fc.property(validRequest(contract, list.id, { plausible: true, optional: 'all' }), (req) => {
        const typed = toTyped(list, req).query;
        for (const k of ['page', 'per_page', 'post_parent']) expect(Number(typed[k])).toBeGreaterThanOrEqual(1);
        expect(Number(typed['per_page'])).toBeLessThanOrEqual(100);
      }),
      { numRuns: 30, seed: 5 },
    );
    for (const o of contract.operations) {
      fc.assert(
        fc.property(validRequest(contract, o.id, { plausible: true }), (req) => {
          expect(contract.validate(o, toTyped(o, req)).issues).toEqual([]);
        }),
        { numRuns: 5, seed: 9 },
      );
    }
  });
});
