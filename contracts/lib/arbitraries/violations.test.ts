import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { violatingRequest } from './index.ts';
import { bodyValues } from './wire.ts';

const contract = loadContractFile();
const sample = (op: string, id: string) => fc.sample(violatingRequest(contract, op, id), { numRuns: 100, seed: 5 });

describe('violations stay visible to WordPress', () => {
  it('a broken query value never sits next to its namesake in the body, which WordPress would read instead', () => {
    for (const v of sample('postCalEventsV1EventsById', 'postCalEventsV1EventsById query.i18n_language enum')) {
      expect(v.request.query).toHaveProperty('i18n_language');
      expect(bodyValues(v.request.body!)).not.toHaveProperty('i18n_language');
    }
  });

  it('a broken body value may keep a query namesake: the body wins in WordPress too', () => {
    const withBoth = sample('postCalEventsV1EventsById', 'postCalEventsV1EventsById body.i18n_language enum').filter((v) => 'i18n_language' in v.request.query);
    expect(withBoth.length).toBeGreaterThan(0);
  });

  it('a lone geoloc_lat comes without geoloc_lng; a broken geoloc_lat comes with it', () => {
    for (const v of sample('getCalEventsV1Events', 'getCalEventsV1Events query.geoloc_lat dependentRequired:geoloc_lng')) {
      expect(v.request.query).toHaveProperty('geoloc_lat');
      expect(v.request.query).not.toHaveProperty('geoloc_lng');
    }
    for (const v of sample('getCalEventsV1Events', 'getCalEventsV1Events query.geoloc_lat type')) expect(v.request.query).toHaveProperty('geoloc_lng');
  });

  it('refuses, with the reason, a constraint no request can break', () => {
    expect(() => violatingRequest(contract, 'getCalV1EventsById', 'getCalV1EventsById path.id type')).toThrow(/a URL segment is always a string/);
    expect(() => violatingRequest(contract, 'getCalV1Events', 'getCalV1Events query.nope type')).toThrow(/no constraint/);
  });
});
