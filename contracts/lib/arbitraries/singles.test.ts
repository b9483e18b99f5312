// The coverage phase's cases (singles.ts): each optional parameter alone, every enum value, the type violations
// at the edge one by one, 0 and "" where the documents allow them. That each is valid (or breaks only its
// constraint) is edges.test.ts's first test, over every operation.
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { edgeCases, type EdgeCase } from './index.ts';
import { bodyValues } from './wire.ts';

const contract = loadContractFile();

// Built once per operation for the whole file: the plan validates every request, and the tests walk all 204.
const plans = new Map<string, EdgeCase[]>();
function casesOf(opId: string): EdgeCase[] {
  let c = plans.get(opId);
  if (!c) plans.set(opId, (c = edgeCases(contract, opId)));
  return c;
}

function edges(opId: string, pred: (e: EdgeCase) => boolean): Record<string, EdgeCase> {
  return Object.fromEntries(casesOf(opId).filter(pred).map((e) => [e.id.slice(opId.length + 1), e]));
}

describe('the coverage phase', () => {
  it('sends each optional parameter of every operation alone on the minimal request', () => {
    for (const op of contract.operations) {
      const optional = op.params.filter((p) => p.in !== 'path' && !p.required).map((p) => `${p.in}.${p.name} alone`);
      const alone = Object.keys(edges(op.id, (e) => e.family === 'alone'));
      // With one optional parameter, the full request is that parameter alone.
      expect(alone.sort(), op.id).toEqual(optional.length > 1 ? optional.sort() : []);
    }
    const e = edges('getCalV1Events', (x) => x.family === 'alone')['query.featured alone']!;
    expect(e.request.query).toEqual({ featured: 'true' });
    expect(e.expect).toBe('accept');
    // A parameter that needs another comes with it (dependentRequired), and with nothing else.
    expect(edges('getCalEventsV1Events', (x) => x.family === 'alone')['query.geoloc_lat alone']!.request.query).toEqual({ geoloc_lat: '1', geoloc_lng: '1' });
  });

  it('accepts every documented enum value once, item enums too: status=future on event lists', () => {
    const values = Object.keys(edges('getCalV1Events', (e) => e.tag.startsWith('value:')));
    expect(values).toEqual(expect.arrayContaining(['query.status.items enum value:future', 'query.status.items enum value:private', 'query.orderby enum value:menu_order', 'query.order enum value:DESC']));
    // The value the alone request carries already (the default, ASC) is not sent twice.
    expect(values).not.toContain('query.order enum value:ASC');
    expect(edges('getCalV1Events', (e) => e.id.endsWith('query.order alone'))['query.order alone']!.request.query).toEqual({ order: 'ASC' });
    const future = edges('getCalV1Events', (e) => e.tag === 'value:future')['query.status.items enum value:future']!;
    expect(future.request.query['status']).toEqual(['future']);
    expect(future.expect).toBe('accept');
    for (const op of contract.operations) {
      for (const e of casesOf(op.id).filter((x) => x.family === 'enum' && x.expect === 'accept')) expect(e.tag, e.id).toMatch(/^value:/);
    }
  });

  it('enumerates type violations at the edge: a fraction and trailing letters for an integer, yes/on/2 for a boolean', () => {
    const t = edges('getCalV1Events', (e) => e.family === 'type');
    expect(t['query.per_page type fraction']!.request.query['per_page']).toBe('10.5');
    expect(t['query.per_page type trailing-letters']!.request.query['per_page']).toBe('10x');
    expect(['yes', 'on', '2'].map((b) => t[`query.featured type boolean:${b}`]!.request.query['featured'])).toEqual(['yes', 'on', '2']);
    for (const e of Object.values(t)) expect(e.expect).toBe('refuse');
    // In a JSON body the fraction is a JSON number; the item of an integer list is broken alone.
    const body = edges('postCalV1Events', (e) => e.family === 'type');
    expect(bodyValues(body['body.duration type fraction']!.request.body!)['duration']).toBe(1.5);
    expect(bodyValues(body['body.venues.items type trailing-letters']!.request.body!)['venues']).toEqual(['1x']);
  });

  it('sends 0 where an integer allows it (duration, parent) and "" in free text, never 0 for an author', () => {
    const zero = edges('postCalV1Events', (e) => e.family === 'zero');
    expect(bodyValues(zero['body.duration zero']!.request.body!)).toEqual({ duration: 0 });
    expect(zero['body.author zero']).toBeUndefined();
    expect(Object.keys(edges('postCalEventsV1Categories', (e) => e.family === 'zero'))).toContain('body.parent zero');
    const empty = edges('postCalV1Events', (e) => e.family === 'empty');
    expect(Object.keys(empty).sort()).toEqual(['body.content empty', 'body.excerpt empty', 'body.title empty']);
    expect(bodyValues(empty['body.title empty']!.request.body!)).toEqual({ title: '' });
    // Not in a URL, a date or a slug: those are no free text.
    for (const op of contract.operations) for (const e of casesOf(op.id).filter((x) => x.family === 'empty')) expect(e.param, e.id).not.toMatch(/url|date|slug|email/i);
  });
});
