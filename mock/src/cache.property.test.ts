// The memos change nothing but time: the same generated request sequences (reads repeated so the memos answer,
// creates, updates, trashes, batches, add-on writes, resets; both languages; credentials and origins; a clock that
// crosses second boundaries) go through a mock with its memos on and one with them off, both with the same seed,
// and every answer must be the same status, headers (in order) and bytes. Replay: FC_SEED=<seed> [FC_PATH=<path>].
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBody, freshSeed, seedFromEnv, toUrl, validRequest, type WireRequest } from '../../contracts/lib/arbitraries/index.ts';
import type { Mock, MockRequest, MockResponse } from './index.ts';
import { freshMock, sharedContract, TEST_NOW } from './testing/harness.ts';

const seed = seedFromEnv(process.env) ?? freshSeed();
const path = process.env.FC_PATH;
console.info(`[cache equivalence] fast-check seed ${seed} — replay with FC_SEED=${seed}`);

const ADMIN = `Basic ${Buffer.from('admin:ACk6 qp4z jfOW 6dsy HMWV G0x1').toString('base64')}`;
const EVENTS = [92, 95, 98, 106, 109, 125];
const VENUES = [11, 13, 37];
const LONG_TITLE = 'Міжнародний фестиваль документального кіно';

interface Step {
  req: Omit<MockRequest, 'headers'> & { headers: Record<string, string> };
  /** Milliseconds the shared clock moves on before the request. */
  tick: number;
}

const root = fc.constantFrom('/wp-json', '/uk/wp-json', '/?rest_route=');
const extraHeaders = fc.record(
  {
    origin: fc.option(fc.constantFrom('http://localhost:3000', 'null'), { nil: undefined }),
    authorization: fc.option(fc.constantFrom(ADMIN, 'Basic YWRtaW46eA=='), { nil: undefined }),
  },
  { requiredKeys: [] },
);

function withRoot(r: string, route: string): string {
  if (r.endsWith('rest_route=')) return `${r}${route.replace('?', '&')}`;
  return `${r}${route}`;
}

/** Reads the memos answer: lists, records, embeds, descriptors, oEmbed (whose secret is random), with made-up params too. */
const readRoute = fc.oneof(
  fc.record({ per_page: fc.integer({ min: 1, max: 12 }), page: fc.integer({ min: 1, max: 3 }), extra: fc.constantFrom('', '&_fields=id,title,link', '&_embed', '&_envelope', '&order=desc&orderby=title', '&search=a', '&i18n_language=uk', '&_=1', '&categories=2', '&status=draft') }).map(
    ({ per_page, page, extra }) => `/cal/v1/events?per_page=${per_page}&page=${page}${extra}`,
  ),
  fc.tuple(fc.constantFrom('events', 'venues', 'organizers'), fc.constantFrom(...EVENTS, ...VENUES, 54, 999999), fc.constantFrom('', '?_embed', '?_fields=id,slug')).map(([t, id, q]) => `/cal/v1/${t}/${id}${q}`),
  fc.tuple(fc.constantFrom('events', 'venues', 'organizers', 'categories', 'tags'), fc.constantFrom('', '?per_page=5', '?page=2&per_page=3', '?start_date=2026-01-01')).map(([t, q]) => `/cal/events/v1/${t}${q}`),
  fc.constantFrom(...EVENTS).map((id) => `/cal/events/v1/events/${id}`),
  fc.constantFrom('/', '/cal/v1', '/cal/events/v1', '/cal/v1/docs'),
  fc.constantFrom('curators-tour', 'science-cafe', 'nothing-here').map((slug) => `/oembed/1.0/embed?url=http%3A%2F%2F127.0.0.1%3A4010%2Fevent%2F${slug}%2F`),
);

/** Mostly within the same second, sometimes across it. */
const tick = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 1500 }));

const read: fc.Arbitrary<Step> = fc
  .record({ r: root, route: readRoute, method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'), headers: extraHeaders, tick })
  .map(({ r, route, method, headers, tick }) => ({ req: { method, url: withRoot(r, route), headers: headers as Record<string, string> }, tick }));

const json = (method: string, url: string, body: unknown, headers: Record<string, string> = {}) => ({ method, url, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** Writes in both calendar namespaces, a batch, the cap-length title, and back to the fixtures. */
const write: fc.Arbitrary<Step> = fc
  .record({
    r: fc.constantFrom('/wp-json', '/uk/wp-json'),
    title: fc.constantFrom('Memo night', 'Нічний показ', LONG_TITLE),
    id: fc.constantFrom(...EVENTS),
    venue: fc.constantFrom(...VENUES),
    kind: fc.constantFrom('create', 'update', 'trash', 'force', 'legacy', 'today', 'venue', 'batch', 'reset'),
    tick,
  })
  .map(({ r, title, id, venue, kind, tick }) => {
    const req = (() => {
      switch (kind) {
        case 'create':
          return json('POST', `${r}/cal/v1/events`, { title, status: 'publish', venues: [venue] });
        case 'update':
          return json('PATCH', `${r}/cal/v1/events/${id}`, { title });
        case 'trash':
          return json('DELETE', `${r}/cal/v1/events/${id}`, {});
        case 'force':
          return json('DELETE', `${r}/cal/v1/venues/${venue}?force=true`, {});
        case 'legacy':
          return json('POST', `${r}/cal/events/v1/events`, { title, start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 12:00:00', venue });
        case 'today':
          // Ends before midnight in Kyiv: the legacy list (which starts today) shows it until the day changes.
          return json('POST', `${r}/cal/events/v1/events`, { title, start_date: '2026-11-22 20:00:00', end_date: '2026-11-22 23:30:00' });
        case 'venue':
          return json('PATCH', `${r}/cal/v1/venues/${venue}`, { title });
        case 'batch':
          return json('POST', `${r}/batch/v1`, { requests: [{ path: '/cal/v1/events', body: { title } }, { method: 'PATCH', path: `/cal/v1/events/${id}`, body: { title } }] });
        default:
          return { method: 'POST', url: '/__mock/reset', headers: {} };
      }
    })();
    return { req, tick };
  });

/** Any operation of the contract, as the generators make valid requests for it (add-on writes included). */
function anyOperation(): fc.Arbitrary<Step> {
  const ops = sharedContract().operations;
  return fc
    .constantFrom(...ops)
    .chain((op) => fc.tuple(validRequest(sharedContract(), op.id), root, tick))
    .map(([w, r, tick]: [WireRequest, string, number]) => {
      const enc = encodeBody(w);
      const headers: Record<string, string> = { ...w.headers };
      if (enc) headers['content-type'] = enc.contentType;
      return { req: { method: w.method, url: toUrl('', r, w), headers, ...(enc ? { body: enc.payload } : {}) }, tick };
    });
}

function sameAnswer(a: MockResponse, b: MockResponse, step: Step): void {
  const show = (r: MockResponse) => JSON.stringify({ status: r.status, headers: Object.entries(r.headers), body: r.body.slice(0, 600) });
  if (a.status !== b.status || JSON.stringify(Object.entries(a.headers)) !== JSON.stringify(Object.entries(b.headers)) || a.body !== b.body) {
    throw new Error(`${step.req.method} ${step.req.url} differs\nmemos on:  ${show(a)}\nmemos off: ${show(b)}`);
  }
}

/** The tests' noon, or two seconds before midnight in Kyiv (the site's zone), where "today" changes under the reads. */
const STARTS = [TEST_NOW, Date.UTC(2026, 10, 22, 21, 59, 58)];

async function pair(mockSeed: number, start: number): Promise<{ on: Mock; off: Mock; clock: { t: number } }> {
  const clock = { t: start };
  const options = { seed: mockSeed, clock: { now: () => clock.t } };
  return { on: await freshMock(options), off: await freshMock({ ...options, cache: false }), clock };
}

describe('memos on and off answer alike', () => {
  it('over generated request sequences, seeds, languages and clocks', async () => {
    const step = fc.oneof({ weight: 6, arbitrary: read }, { weight: 2, arbitrary: write }, { weight: 2, arbitrary: anyOperation() });
    // Steps repeated at once (same second) and later again, so identical reads meet in the memos.
    const sequence = fc
      .array(fc.tuple(step, fc.nat(2)), { minLength: 5, maxLength: 30 })
      .map((steps) => steps.flatMap(([st, now]) => [st, ...Array.from({ length: now }, () => ({ req: st.req, tick: 0 }))]))
      .chain((steps) => fc.array(fc.nat(steps.length - 1), { maxLength: 15 }).map((again) => [...steps, ...again.map((i) => steps[i]!)]));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...STARTS), sequence, async (mockSeed, start, steps) => {
        const { on, off, clock } = await pair(mockSeed, start);
        for (const s of steps) {
          clock.t += s.tick;
          sameAnswer(on.handleNow(s.req), off.handleNow(s.req), s);
        }
      }),
      { seed, numRuns: 60, ...(path ? { path } : {}) },
    );
  });

  it('when the day changes between two identical reads, the second answer follows the clock', async () => {
    const { on, off, clock } = await pair(7, STARTS[1]!);
    const steps: Step[] = [
      { req: json('POST', '/wp-json/cal/events/v1/events', { title: 'Ends tonight', start_date: '2026-11-22 20:00:00', end_date: '2026-11-22 23:30:00' }), tick: 0 },
      { req: { method: 'GET', url: '/wp-json/cal/events/v1/events', headers: {} }, tick: 0 },
      { req: { method: 'GET', url: '/wp-json/cal/events/v1/events', headers: {} }, tick: 3000 },
    ];
    const answers = steps.map((s) => {
      clock.t += s.tick;
      const a = on.handleNow(s.req);
      sameAnswer(a, off.handleNow(s.req), s);
      return a.body;
    });
    expect(answers[1]).toContain('Ends tonight');
    expect(answers[2]).not.toContain('Ends tonight');
  });

  it('two identical oEmbed reads in the same second give two secrets (get_post_embed_html() draws one per call)', async () => {
    const mock = await freshMock();
    const url = '/wp-json/oembed/1.0/embed?url=http%3A%2F%2F127.0.0.1%3A4010%2Fevent%2Fcurators-tour%2F';
    const secret = () => /data-secret=\\"(\w+)\\"/.exec(mock.handleNow({ method: 'GET', url, headers: {} }).body)?.[1];
    const [a, b] = [secret(), secret()];
    expect(a).toMatch(/^\w{10}$/);
    expect(b).toMatch(/^\w{10}$/);
    expect(a).not.toBe(b);
  });
});
