// Same-title creates whose slug reaches the 200-character cap, through the mock, in a process of their own: the
// test that runs this (long-titles.test.ts) kills it at a deadline, so a create that never returns fails the test
// instead of hanging the test run. Prints one JSON document on stdout.
//
//   node --import tsx mock/src/store/scenarios/long-titles.ts
import { createMock } from '../../index.ts';
import { sanitizeTitle } from '../../../../contracts/wordpress/slug.ts';

/** Its slug is exactly 200 characters: every `-N` needs the base cut back. */
const TITLE = 'Міжнародний фестиваль документального кіно';

const RESOURCES = [
  { path: '/wp-json/cal/v1/events', body: { title: TITLE } },
  { path: '/wp-json/cal/v1/venues', body: { title: TITLE } },
  { path: '/wp-json/cal/v1/organizers', body: { title: TITLE } },
  { path: '/wp-json/cal/events/v1/events', body: { title: TITLE, start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 12:00:00' } },
  { path: '/wp-json/cal/events/v1/venues', body: { venue: TITLE } },
  { path: '/wp-json/cal/events/v1/organizers', body: { organizer: TITLE } },
];

export interface Run {
  path: string;
  count: number;
  statuses: number[];
  ids: number[];
  slugs: string[];
  slowestMs: number;
}

const mock = await createMock();
const headers = { host: '127.0.0.1:4010', 'content-type': 'application/json' };
const post = (url: string, body: unknown) => {
  const bytes = Buffer.from(JSON.stringify(body));
  const t0 = performance.now();
  const res = mock.handleNow({ method: 'POST', url, headers: { ...headers, 'content-length': String(bytes.length) }, origin: 'http://127.0.0.1:4010', body: bytes });
  return { res, ms: performance.now() - t0 };
};

const runs: Run[] = [];
for (const { path, body } of RESOURCES) {
  for (const count of [2, 20]) {
    mock.reset();
    const run: Run = { path, count, statuses: [], ids: [], slugs: [], slowestMs: 0 };
    for (let i = 0; i < count; i++) {
      const { res, ms } = post(path, body);
      const json = JSON.parse(res.body) as { id?: number; slug?: string };
      run.statuses.push(res.status);
      run.ids.push(json.id ?? 0);
      run.slugs.push(json.slug ?? '');
      run.slowestMs = Math.max(run.slowestMs, ms);
    }
    runs.push(run);
  }
}

// The same twenty creates inside one batch (25 is the batch limit).
mock.reset();
const { res: batchRes, ms: batchMs } = post('/wp-json/batch/v1', { requests: Array.from({ length: 20 }, () => ({ method: 'POST', path: '/cal/v1/events', body: { title: TITLE } })) });
const batch = {
  status: batchRes.status,
  ms: batchMs,
  items: (JSON.parse(batchRes.body) as { responses: { status: number; body: { id?: number; slug?: string } }[] }).responses.map((r) => ({ status: r.status, id: r.body.id ?? 0, slug: r.body.slug ?? '' })),
};

process.stdout.write(`${JSON.stringify({ expectedSlug: sanitizeTitle(TITLE), runs, batch })}\n`);
