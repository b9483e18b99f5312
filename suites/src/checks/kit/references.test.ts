// positive_acceptance's helpers: fields that name other records get ids the target has, events end no
// earlier than they start, and a refusal is held as assumed only when the contract's own marks say the
// value may be wrong.

import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import type { Exchange } from '../../http/types.ts';
import type { Finding, UnitEnv } from './unit.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import { withBody, type WireRequest } from './generate.ts';
import { otherReadingRefuses } from './marks.ts';
import { judge, type Sent } from '../positive_acceptance.ts';
import { orderedEventDates, referenceFields, referenceValues, rewriteIds, withReferences, type ReferenceValues } from './references.ts';
import { parseDescriptor } from '../../diff/descriptor.ts';
import type { Outgoing } from '../../http/types.ts';
import { calendarResources } from './resources.ts';

const contract = loadContractFile();
const resource = (ns: string, r: string) => calendarResources(contract).find((x) => x.namespace === ns && x.resource === r)!;

function request(operationId: string, json: Record<string, unknown>): WireRequest {
  const op = contract.operation(operationId);
  return { operationId, method: op.method as WireRequest['method'], path: op.path, pathParams: {}, query: {}, body: { json: json as never }, headers: { 'content-type': 'application/json' } };
}

function answer(status: number, body: unknown): Exchange {
  return { request: { method: 'POST', url: 'http://x/', headers: {} }, response: { status, headers: {}, body: JSON.stringify(body) }, durationMs: 1 };
}

const refusedFor = (param: string): Exchange =>
  answer(400, { code: 'rest_invalid_param', message: `Invalid parameter(s): ${param}`, data: { status: 400, params: { [param]: 'Invalid parameter.' }, details: [] } });

describe('reference fields', () => {
  it('are the integer fields that name records, users or media; a name field is not one', () => {
    const fields = (op: Operation, nameField?: string) => referenceFields(contract, op, nameField).map((f) => [f.location, f.param, f.kind, f.list.path]);
    const cal = resource('cal/v1', 'event');
    expect(fields(cal.create, cal.nameField)).toEqual([
      ['body', 'author', 'author', '/cal/v1/events'],
      ['body', 'featured_media', 'media', '/cal/v1/events'],
      ['body', 'tags', 'record', '/cal/events/v1/tags'],
      ['body', 'cal_events_cat', 'record', '/cal/events/v1/categories'],
      ['body', 'organizers', 'record', '/cal/v1/organizers'],
      ['body', 'venues', 'record', '/cal/v1/venues'],
    ]);
    const legacyVenue = resource('cal/events/v1', 'venue');
    expect(fields(legacyVenue.create, legacyVenue.nameField)).toEqual([['body', 'author', 'author', '/cal/events/v1/venues']]);
    const legacyCategory = resource('cal/events/v1', 'category');
    expect(fields(legacyCategory.update, legacyCategory.nameField)).toEqual([
      ['path', 'id', 'record', '/cal/events/v1/categories'],
      ['body', 'parent', 'record', '/cal/events/v1/categories'],
    ]);
    const legacyEvent = resource('cal/events/v1', 'event');
    expect(referenceFields(contract, legacyEvent.create, legacyEvent.nameField).map((f) => f.param).sort()).toEqual(['author', 'categories', 'organizer', 'tags', 'venue']);
  });

  it('include list filters by record and the {id} and {slug} of a read, from the collection they belong to', () => {
    const fields = (id: string) => referenceFields(contract, contract.operation(id)).map((f) => [f.location, f.param, f.kind, f.list.path]);
    expect(fields('getCalEventsV1Events').filter(([, p]) => ['include', 'post_parent', 'categories', 'venue'].includes(p as string))).toEqual([
      ['query', 'categories', 'record', '/cal/events/v1/categories'],
      ['query', 'venue', 'record', '/cal/events/v1/venues'],
      ['query', 'include', 'record', '/cal/events/v1/events'],
      ['query', 'post_parent', 'record', '/cal/events/v1/events'],
    ]);
    expect(fields('getCalEventsV1VenuesBySlugBySlug')).toEqual([['path', 'slug', 'slug', '/cal/events/v1/venues']]);
    expect(fields('getFormsV1ContactFormsByIdRefill')).toEqual([['path', 'id', 'record', '/forms/v1/contact-forms']]);
  });

  it('take ids the target has, chosen by the generated number, in the generated wire form', () => {
    expect(rewriteIds([5, 7, 4], [11, 12])).toEqual([12, 11]);
    expect(rewriteIds(['3', '-2'], [11, 12])).toEqual(['12', '11']);
    expect(rewriteIds('1,2,3', [11, 12])).toBe('12,11');
    expect(rewriteIds(9, [11, 12, 13])).toBe(11);
    expect(rewriteIds('9', [11, 12, 13])).toBe('11');
    expect(rewriteIds([4, 5], [])).toEqual([]);
    expect(rewriteIds(4, [])).toBeUndefined();
  });

  it('are left out when the target has nothing to name, and the case message says why', () => {
    const res = resource('cal/v1', 'event');
    const fields = referenceFields(contract, res.create, res.nameField);
    const values: ReferenceValues = {
      ids: new Map([['body.author', []], ['body.featured_media', [0, 90]], ['body.tags', [7]], ['body.cal_events_cat', [2, 3]], ['body.organizers', [54]], ['body.venues', [11]]]),
      source: new Map(fields.map((f) => [`body.${f.param}`, `from ${f.param}`])),
    };
    const req = request('postCalV1Events', { title: 't', author: 123456, featured_media: 3, tags: [1, 2], cal_events_cat: '5', organizers: [], venues: [8] });
    const { req: out, notes, named } = withReferences(res.create, req, fields, values);
    expect((out.body as { json: Record<string, unknown> }).json).toEqual({ title: 't', featured_media: 90, tags: [7], cal_events_cat: '3', organizers: [], venues: [11] });
    expect(notes.get('body.author')).toBe('left out: the target has none to name (from author)');
    expect(notes.get('body.venues')).toBe('its values name records the target has (from venues)');
    expect(named.has('body.venues') && !named.has('body.author')).toBe(true);
    // featured_media 90 names a record; 0 ("no featured image") names none, so its refusal stays assumed.
    expect(named.has('body.featured_media')).toBe(true);
    const zero = withReferences(res.create, request('postCalV1Events', { featured_media: 0 }), fields, { ...values, ids: new Map([['body.featured_media', [0]]]) });
    expect(zero.named.has('body.featured_media')).toBe(false);
  });
});

describe('event dates', () => {
  it('are sent in order when both ends are date-times; anything else is left as generated', () => {
    const req = request('postCalV1Events', { start_date: '2031-05-02 10:00:00', end_date: '2024-01-01 00:00:00', start_date_utc: '2020-01-01 00:00:00', end_date_utc: '2021-01-01 00:00:00' });
    const { req: out, swapped } = orderedEventDates(req);
    expect((out.body as { json: Record<string, unknown> }).json).toMatchObject({ start_date: '2024-01-01 00:00:00', end_date: '2031-05-02 10:00:00', start_date_utc: '2020-01-01 00:00:00' });
    expect(swapped).toEqual(['start_date', 'end_date']);
    expect(orderedEventDates(withBody(req, { start_date: 'next tuesday' })).swapped).toEqual([]);
  });
});

describe('refusals the contract itself is unsure about', () => {
  const legacyCreate = contract.operation('postCalEventsV1Events');

  it('a loose-format date: the date reading refuses "abc", not a date it can read', () => {
    expect(otherReadingRefuses(contract, legacyCreate, 'body', 'date', 'abc')).toBe(
      'the documents can be read another way (loose-format: "a date and time the server can parse, e.g. YYYY-MM-DD HH:MM:SS"), and under that reading this value is invalid',
    );
    expect(otherReadingRefuses(contract, legacyCreate, 'body', 'date', '2026-12-01 10:00:00')).toBeUndefined();
  });

  it('a loose-format reading with no schema may refuse anything; a reading that only admits null refuses nothing', () => {
    expect(otherReadingRefuses(contract, legacyCreate, 'body', 'timezone', 'Mars/Base')).toBe(
      'the documents can be read another way (loose-format: "a time-zone identifier such as Europe/Kyiv or UTC+2"), a format the contract gives no schema for, so this value may be invalid under it',
    );
    expect(otherReadingRefuses(contract, contract.operation('postCalEventsV1Organizers'), 'body', 'author', 5)).toBeUndefined();
    expect(otherReadingRefuses(contract, contract.operation('postCalV1Events'), 'body', 'timezone', 'Mars/Base')).toBeUndefined();
  });

  it('one refusal nothing excuses fails the parameter as documented, even after an excused one', () => {
    const findings: Finding[] = [];
    const env = { contract, emit: (f: Finding) => void findings.push(f) } as unknown as UnitEnv;
    const sent: Sent[] = [
      { req: request('postCalEventsV1Events', { title: 't', date: 'abc' }), e: refusedFor('date') },
      { req: request('postCalEventsV1Events', { title: 't', date: '2026-12-01 10:00:00' }), e: refusedFor('date') },
      { req: request('postCalEventsV1Events', { title: 't', date: 'xyz' }), e: refusedFor('date') },
    ];
    judge(env, legacyCreate, sent);
    const date = findings.find((f) => f.variant === 'body.date')!;
    expect(date).toMatchObject({
      outcome: 'fail',
      severity: 'documented',
      message: 'expected date="2026-12-01 10:00:00" to be accepted: it is valid by the documents (000 §2.1, §4.1); got 400 rest_invalid_param naming date: Invalid parameter(s): date',
    });
    expect(date.exchange).toBe(sent[1]!.e);
  });

  it('refusals every one of which the marks excuse are held as assumed, saying why; a pass says how many were accepted', () => {
    const findings: Finding[] = [];
    const env = { contract, emit: (f: Finding) => void findings.push(f) } as unknown as UnitEnv;
    const sent: Sent[] = [
      { req: request('postCalEventsV1Events', { title: 't', date: 'abc' }), e: refusedFor('date') },
      { req: request('postCalEventsV1Events', { title: 't', date: '2026-12-01 10:00:00' }), e: answer(201, { id: 1 }) },
    ];
    judge(env, legacyCreate, sent, new Map([['title', 'a note']]));
    expect(findings.find((f) => f.variant === 'body.date')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(findings.find((f) => f.variant === 'body.date')!.message).toMatch(/; held as assumed because the documents can be read another way \(loose-format: /);
    expect(findings.find((f) => f.variant === 'body.title')).toMatchObject({ outcome: 'pass', message: '2 valid request(s) carried it, none refused for it (1 accepted)' });
  });
});

describe('severity discipline: refusals of values the documents leave open are never documented failures', () => {
  const judged = (operationId: string, json: Record<string, unknown>, param: string, e: Exchange = refusedFor(param)): Finding => {
    const findings: Finding[] = [];
    const env = { contract, emit: (f: Finding) => void findings.push(f) } as unknown as UnitEnv;
    const op = contract.operation(operationId);
    judge(env, op, [{ req: request(operationId, json), e }], new Map(), referenceFields(contract, op));
    return findings.find((f) => f.variant === `body.${param}`)!;
  };

  it('holds as assumed a refused legacy status ("allowed values: not shown"), image ("ID or URL"), website and an untyped cost', () => {
    expect(judged('postCalEventsV1Events', { title: 't', status: 'publish' }, 'status')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(judged('postCalEventsV1Events', { title: 't', status: 'publish' }, 'status').message).toMatch(/values open \(In cal\/events\/v1 `status` is a free string; the allowed values are not shown\. 000 §3\)/);
    expect(judged('postCalEventsV1Events', { title: 't', image: 'https://example.org/a.jpg' }, 'image')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(judged('postCalEventsV1Venues', { venue: 'v', website: 'https://example.org/' }, 'website')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(judged('postCalEventsV1Events', { title: 't', cost: '10' }, 'cost').message).toMatch(/no type/);
  });

  it('holds as assumed a refused id the suite could not find on the target, and fails one it found there', () => {
    const op = contract.operation('postCalV1Events');
    const fields = referenceFields(contract, op);
    const findings: Finding[] = [];
    const env = { contract, emit: (f: Finding) => void findings.push(f) } as unknown as UnitEnv;
    judge(env, op, [{ req: request('postCalV1Events', { title: 't', venues: [999999] }), e: refusedFor('venues') }], new Map(), fields);
    judge(env, op, [{ req: request('postCalV1Events', { title: 't', venues: [11] }), e: refusedFor('venues'), named: new Set(['body.venues']) }], new Map(), fields);
    expect(findings.filter((f) => f.variant === 'body.venues').map((f) => f.severity)).toEqual(['assumed', 'documented']);
  });

  it("fills the SEO add-on's objectID and postId with calendar events (the run's own: its writes go to a --disposable-target only), and holds a refusal of one as assumed, saying the documents do not say what they name", () => {
    const fields = (id: string) => referenceFields(contract, contract.operation(id)).map((f) => [f.location, f.param, f.kind, f.list.path, f.assumed !== undefined]);
    for (const id of ['postSeoV1UpdateMeta', 'postSeoV1UpdateSchemas', 'postSeoV1UpdateRedirection', 'postSeoV1GetVideoData']) {
      expect(fields(id)).toEqual([['body', 'objectID', 'record', '/cal/v1/events', true]]);
    }
    expect(fields('postSeoV1GetFeaturedImageId')).toEqual([['body', 'postId', 'record', '/cal/v1/events', true]]);
    expect(referenceFields(contract, contract.operation('postSeoV1UpdateMeta'))[0]!.assumed).toMatch(/the documents do not say what objectID names \(001 §4\.7/);
    expect(referenceFields(contract, contract.operation('postSeoV1AnGetDesktopPagespeed')).find((f) => f.param === 'objectID')!.assumed).toMatch(/objectID is "a post ID" \(001 §4\.7\)/);
    // An event id refused naming objectID: the documents do not say it names events, so not documented.
    const op = contract.operation('postSeoV1UpdateMeta');
    const findings: Finding[] = [];
    const env = { contract, emit: (f: Finding) => void findings.push(f) } as unknown as UnitEnv;
    judge(env, op, [{ req: request(op.id, { objectType: 'post', objectID: 11, meta: {} }), e: refusedFor('objectID'), named: new Set(['body.objectID']) }], new Map(), referenceFields(contract, op));
    const f = findings.find((x) => x.variant === 'body.objectID')!;
    expect(f).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(f.message).toMatch(/held as assumed because the documents do not say what objectID names/);
  });

  it('holds as assumed a refused geoloc (needs the pro extension) and a negative legacy page (no minimum documented)', () => {
    const findings: Finding[] = [];
    const env = { contract, emit: (f: Finding) => void findings.push(f) } as unknown as UnitEnv;
    const list = contract.operation('getCalEventsV1Events');
    const get = (query: Record<string, string>): WireRequest => ({ operationId: list.id, method: 'GET', path: list.path, pathParams: {}, query, headers: {} });
    judge(env, list, [{ req: get({ geoloc: 'true', page: '-3' }), e: answer(400, { code: 'rest_invalid_param', message: 'x', data: { status: 400, params: { geoloc: 'x', page: 'x' } } }) }]);
    expect(findings.find((f) => f.variant === 'query.geoloc')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(findings.find((f) => f.variant === 'query.geoloc')!.message).toMatch(/extension/);
    expect(findings.find((f) => f.variant === 'query.page')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(findings.find((f) => f.variant === 'query.page')!.message).toMatch(/no minimum/);
  });

  it('calls a parameter none of whose requests was accepted inconclusive, never passed', () => {
    const f = judged('postCalV1Events', { title: 't' }, 'title', answer(404, { code: 'rest_post_invalid_id', message: 'x', data: { status: 404 } }));
    expect(f).toMatchObject({ outcome: 'inconclusive' });
    expect(f.message).toMatch(/none of the 1 valid request\(s\) carrying it was accepted \(1× 404 rest_post_invalid_id\)/);
  });
});

describe("oEmbed's url on a site whose documented lists name no page", () => {
  const embed = contract.operation('getOembed10Embed');
  const fields = referenceFields(contract, embed).filter((f) => f.kind === 'link');
  const POST_LINK = 'http://127.0.0.1:8089/2026/11/24/hello-world/';
  const envFor = (routes: Record<string, unknown>): { env: UnitEnv; sent: string[] } => {
    const sent: string[] = [];
    const send = async (o: Outgoing): Promise<Exchange> => {
      sent.push(o.route);
      if (o.route === '/wp/v2/posts') return answer(200, [{ id: 1, link: POST_LINK }, { id: 2, link: 'not an address' }]);
      return answer(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    };
    const env = { contract, send, descriptor: parseDescriptor({ namespaces: [], routes }), listReads: new Map(), marker: 'site-contracts test' } as unknown as UnitEnv;
    return { env, sent };
  };

  it("takes the addresses of WordPress's own posts when the target lists that route, read once", async () => {
    expect(fields.map((f) => f.param)).toEqual(['url']);
    const { env, sent } = envFor({ '/wp/v2/posts': { namespace: 'wp/v2', methods: ['GET', 'POST'], endpoints: [{ methods: ['GET'], args: {} }] } });
    const values = await referenceValues(env, fields, embed);
    expect(values.ids.get('query.url')).toEqual([POST_LINK]);
    expect(values.source.get('query.url')).toMatch(/posts listed by GET \/wp\/v2\/posts \(WordPress core's, outside the documents/);
    await referenceValues(env, fields, embed);
    expect(sent.filter((r) => r === '/wp/v2/posts')).toHaveLength(1);
  });

  it('reads nothing outside the documents when the target does not list /wp/v2/posts: the url stays without a value', async () => {
    const { env, sent } = envFor({});
    const values = await referenceValues(env, fields, embed);
    expect(values.ids.get('query.url')).toEqual([]);
    expect(sent).not.toContain('/wp/v2/posts');
  });
});
