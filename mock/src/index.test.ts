// The public API: createMock() with its options, handle(), reset(), snapshot(), credentials().
import { describe, expect, it } from 'vitest';
import { createMock } from './index.ts';
import { call, freshMock, sharedContract } from './testing/harness.ts';

describe('createMock', () => {
  it('--seed makes generated data repeatable; another seed gives other data', async () => {
    const contract = sharedContract();
    const a = await createMock({ contract, seed: 7 });
    const b = await createMock({ contract, seed: 7 });
    const c = await createMock({ contract, seed: 8 });
    const titles = (m: typeof a) => m.store.events.values().slice(0, 20).map((e) => `${e.id} ${e.title} ${e.start_date}`);
    expect(titles(a)).toEqual(titles(b));
    expect(titles(a)).not.toEqual(titles(c));
    // generated things repeat too: tokens come from the seeded generator
    const token = (m: typeof a) => call(m, 'POST', '/wp-json/lms/v1/token', { body: { username: m.store.table('lmsUsers').values()[0]!.username, password: m.store.table('lmsUsers').values()[0]!.password } }).json.token;
    expect(token(a)).toBe(token(b));
  });

  it('reset() and POST /__mock/reset restore the fixtures; snapshot() is the whole state', async () => {
    const mock = await freshMock();
    const before = mock.snapshot();
    call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Temporary' } });
    call(mock, 'DELETE', '/wp-json/cal/v1/events/92?force=true');
    expect(mock.snapshot().calendar.events.length).toBe(before.calendar.events.length);
    mock.reset();
    expect(mock.snapshot().calendar.events.map((e) => e.id)).toEqual(before.calendar.events.map((e) => e.id));
    call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Temporary' } });
    const res = call(mock, 'POST', '/__mock/reset');
    expect(res.json).toEqual({ reset: true, loaded: { events: 300, venues: 25, organizers: 20, categories: 18, tags: 30, contactForms: 4, users: 4 } });
    expect(call(mock, 'GET', '/__mock/nothing').status).toBe(404);
  });

  it('handle() resolves after the latency; credentials() names an administrator with an application password', async () => {
    const mock = await freshMock({ latencyMs: 30 });
    const t0 = performance.now();
    const res = await mock.handle({ method: 'GET', url: '/wp-json/cal/v1/events/92', headers: {} });
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
    expect(mock.credentials()).toEqual({ username: 'admin', password: 'ACk6 qp4z jfOW 6dsy HMWV G0x1' });
    // A user with fewer rights, for the suite's --low-auth-env; a role nobody with a password holds has none.
    expect(mock.credentials('subscriber')).toEqual({ username: 'reader', password: 'YFWv yawU 4TAj vpzF d20t 5Cus' });
    expect(mock.credentials('author')).toBeUndefined();
  });

  it('links are built on the site URL: the adapter\'s origin, or the siteUrl the mock was given; never on Host', async () => {
    const served = await freshMock();
    const res = served.handleNow({ method: 'GET', url: '/wp-json/cal/v1/events/92', headers: { host: 'other.localhost' }, origin: 'https://events.example.org' });
    expect(JSON.parse(res.body)._links.self[0].href).toBe('https://events.example.org/wp-json/cal/v1/events/92');
    const configured = await freshMock({ siteUrl: 'https://site.example/' });
    const own = configured.handleNow({ method: 'GET', url: '/uk/wp-json/cal/v1/events/92', headers: { host: 'other.localhost' }, origin: 'https://events.example.org' });
    expect(JSON.parse(own.body)._links.self[0].href).toBe('https://site.example/uk/wp-json/cal/v1/events/92');
    expect(own.headers.Link).toBe('<https://site.example/event/science-cafe/>; rel="alternate"; type=text/html');
    await expect(freshMock({ siteUrl: 'https://site.example/blog' })).rejects.toThrow(/siteUrl: expected http\(s\):\/\/host\[:port\]/);
  });
});
