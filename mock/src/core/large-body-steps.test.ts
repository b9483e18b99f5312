// One large POST does not hold everyone else: from STEPPED_BODY_BYTES on, the stages of its request (read | route,
// validate | authorize, run | respond) run one per turn of the event loop (pipeline.ts, work.ts), and a post's content
// of STEP_CHARS or more is rendered in steps too (renderContentSteps), so a small read from another client is
// answered between two of them. Counted, not timed: the turns the request takes, and the
// order in which the server produced the two answers.
import { request, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock } from '../testing/harness.ts';
import { listen, type Listening } from '../adapters/node-http.ts';
import { STEPPED_BODY_BYTES } from './pipeline.ts';
import { STEP_CHARS } from '../../../contracts/wordpress/steps.ts';
import { renderContent, renderExcerpt } from '../../../contracts/wordpress/content/post-text.ts';
import type { MockRequest, MockResponse } from './types.ts';

const PARA = '<p>Open-air cinema &amp; talks -- "late" shows...</p>\n';
/** An event create whose JSON body is about `bytes` long. */
const createBody = (title: string, bytes: number) =>
  JSON.stringify({ title, start_date: '2026-12-01 18:00:00', end_date: '2026-12-01 20:00:00', status: 'publish', content: PARA.repeat(Math.ceil(bytes / (PARA.length + 2))) });
const JSON_TYPE = { 'content-type': 'application/json' };
const exists = (mock: Mock, title: string) => mock.store.events.values().some((e) => e.title === title);
const post = (body: string): MockRequest => ({ method: 'POST', url: '/wp-json/cal/v1/events', headers: JSON_TYPE, body, origin: 'http://127.0.0.1:4010' });

let mock: Mock;
beforeAll(async () => {
  mock = await freshMock();
});

describe('a request with a large body runs its stages in steps', () => {
  it('a body of STEPPED_BODY_BYTES or more: the write runs in a later turn, after validation, and the answer is the one handleNow gives', async () => {
    const body = createBody('stepped', STEPPED_BODY_BYTES + 4096);
    expect(body.length).toBeGreaterThanOrEqual(STEPPED_BODY_BYTES);
    const pending = mock.respond(post(body));
    expect(pending).toBeInstanceOf(Promise);
    // Only the request's reading has run in this turn.
    expect(exists(mock, 'stepped')).toBe(false);
    let done = false;
    void (pending as Promise<unknown>).then(() => (done = true));
    let turns = 0;
    let createdAt = 0;
    while (!done) {
      await new Promise((r) => setImmediate(r));
      turns++;
      if (!createdAt && exists(mock, 'stepped')) createdAt = turns;
    }
    // read | route, validate | authorize, run | respond: the record appears after validation's turn; then the
    // content's rendering (the_content: wptexturize, wpautop...) runs in steps of its own before the answer.
    expect(createdAt).toBeGreaterThanOrEqual(2);
    expect(turns - createdAt).toBeGreaterThanOrEqual(10);
    const res = (await pending) as MockResponse;
    expect(res.status).toBe(201);
    const stepped = JSON.parse(res.body) as { content: { rendered: string; raw: string }; excerpt: { rendered: string } };
    // What the renderers print run through at once, and what handleNow answers for the same request.
    expect(stepped.content.rendered).toBe(renderContent(stepped.content.raw));
    expect(stepped.excerpt.rendered).toBe(renderExcerpt('', stepped.content.raw));
    expect(stepped.content.rendered.length).toBeGreaterThan(STEPPED_BODY_BYTES);
    const now = call(mock, 'POST', '/wp-json/cal/v1/events', { body: createBody('at once', STEPPED_BODY_BYTES + 4096), headers: JSON_TYPE });
    expect(now.status).toBe(201);
    expect(now.json.content.rendered).toBe(stepped.content.rendered);
    expect(now.json.excerpt.rendered).toBe(stepped.excerpt.rendered);
  });

  it('a read of a long post the render memo does not hold renders it in steps; the next read is the memo\'s, at once', async () => {
    const created = call(mock, 'POST', '/wp-json/cal/v1/events', { body: createBody('read me', STEP_CHARS * 2), headers: JSON_TYPE });
    expect(created.status).toBe(201);
    const get = (url: string) => mock.respond({ method: 'GET', url, headers: {}, origin: 'http://127.0.0.1:4010' });
    const turnsOf = async (pending: MockResponse | Promise<MockResponse>) => {
      let done = false;
      void Promise.resolve(pending).then(() => (done = true));
      let turns = 0;
      while (!done) {
        await new Promise((r) => setImmediate(r));
        turns++;
      }
      return { turns, res: await pending };
    };
    // A page of records (the legacy namespace's `include`), and the record in the other namespace: two renderings.
    for (const url of [`/wp-json/cal/events/v1/events?include=${created.json.id}`, `/wp-json/cal/v1/events/${created.json.id}`]) {
      const first = get(url);
      expect(first, url).toBeInstanceOf(Promise);
      const { turns, res } = await turnsOf(first);
      expect(turns, url).toBeGreaterThanOrEqual(5);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toContain(`"id":${created.json.id},`);
      const again = get(url);
      expect(again, url).not.toBeInstanceOf(Promise);
      expect((again as MockResponse).body, url).toBe(res.body);
    }
    expect(JSON.parse((get(`/wp-json/cal/v1/events/${created.json.id}`) as MockResponse).body).content.rendered).toBe(renderContent(created.json.content.raw));
  });

  it('a body under it, with content under STEP_CHARS (the_content in steps), is answered in the turn it arrives in, as before', () => {
    const res = mock.respond(post(createBody('small', STEP_CHARS / 2)));
    expect(res).not.toBeInstanceOf(Promise);
    expect((res as MockResponse).status).toBe(201);
    expect(exists(mock, 'small')).toBe(true);
  });

  it('a refused large body (no route) is refused the same way, in steps', async () => {
    const res = await mock.respond({ ...post(createBody('nowhere', STEPPED_BODY_BYTES)), url: '/wp-json/cal/v1/nowhere' });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).code).toBe('rest_no_route');
  });
});

describe('over HTTP', () => {
  let server: Listening;
  const order: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  let small: Promise<number> | undefined;

  beforeAll(async () => {
    // The server notes the order in which it produced its answers; when the large POST has arrived whole, the client
    // sends a small read on its other (warmed, kept-alive) connection.
    server = await listen(
      (req) => {
        const big = req.method === 'POST';
        if (big) small = get('/wp-json/cal/v1/venues?per_page=1&small=1');
        const res = mock.respond(req);
        const label = big ? 'large POST' : req.url.includes('small=1') ? 'small read' : 'warm-up';
        if (res instanceof Promise) return res.then((r) => (order.push(label), r));
        order.push(label);
        return res;
      },
      { port: 0, host: '127.0.0.1' },
    );
    expect(await get('/wp-json/cal/v1/venues?per_page=1')).toBe(200);
  });
  afterAll(async () => {
    agent.destroy();
    await server.close();
  });

  it('a small read sent once a large POST has arrived is answered before the POST', async () => {
    const body = Buffer.from(createBody('over http', 2 * STEPPED_BODY_BYTES));
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/wp-json/cal/v1/events`, { method: 'POST', headers: { ...JSON_TYPE, 'content-length': body.length } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(201);
    expect(await small).toBe(200);
    expect(order).toEqual(['warm-up', 'small read', 'large POST']);
  });
});
