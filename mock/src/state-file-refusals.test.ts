// With a state file, a write is either acknowledged and durable, or refused and not applied (store/persist.ts,
// core/commit-trace.ts). Here the journal's file operations fail where the test says (a full disk, an I/O error),
// through the mock's own request path (`respond`, what the CLI's server calls): each kind of write answers
// WordPress's own 500 and is not visible to the reads after it, a read that saw it is answered without it, a batch
// answers its saved items as they ran and its refused ones as refused, and a restart finds exactly what was answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshMock, ORIGIN } from './testing/harness.ts';
import { faultyJournalFs } from './testing/faulty-fs.ts';
import type { Mock } from './index.ts';
import type { MockResponse } from './core/types.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const stateFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'refusals-'));
  dirs.push(d);
  return join(d, 'state.json');
};

interface Answer {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions walk arbitrary JSON
  res: MockResponse;
}

function send(mock: Mock, method: string, url: string, body?: unknown): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const out = mock.respond({ method, url, origin: ORIGIN, headers: { host: '127.0.0.1:4010', ...(text ? { 'content-type': 'application/json' } : {}) }, ...(text ? { body: text } : {}) });
  return Promise.resolve(out).then((res) => ({ status: res.status, json: res.body === '' ? undefined : JSON.parse(res.body), res }));
}

const titles = async (mock: Mock, kind: string): Promise<string[]> => {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const a = await send(mock, 'GET', `/wp-json/cal/v1/${kind}?per_page=100&page=${page}&status=publish,pending,draft,future,private&_fields=title`);
    if (a.status !== 200 || a.json.length === 0) return out;
    out.push(...(a.json as { title: { rendered: string } }[]).map((r) => r.title.rendered));
    if (a.json.length < 100) return out;
  }
};

describe('a write the state file cannot save', () => {
  it('is answered as WordPress answers a write its database refused, and is not applied: creates, updates, deletes, terms, add-ons, reset', async () => {
    let full = false;
    const path = stateFile();
    const mock = await freshMock({ stateFile: path, stateFs: faultyJournalFs(() => (full ? 'ENOSPC' : undefined)) });
    try {
      const venues = (await send(mock, 'GET', '/wp-json/cal/v1/venues?per_page=100')).json as { id: number; title: { rendered: string } }[];
      const [first, second] = venues;
      const listBefore = (await send(mock, 'GET', '/wp-json/cal/v1/venues?per_page=100')).res.body;
      full = true;

      const create = await send(mock, 'POST', '/wp-json/cal/v1/venues', { title: 'Never saved' });
      expect([create.status, create.json]).toEqual([500, { code: 'db_insert_error', message: 'Could not insert post into the database.', data: { status: 500 } }]);
      expect(create.res.headers['Location']).toBeUndefined();
      const update = await send(mock, 'PUT', `/wp-json/cal/v1/venues/${first!.id}`, { title: 'Never renamed' });
      expect([update.status, update.json]).toEqual([500, { code: 'db_update_error', message: 'Could not update post in the database.', data: { status: 500 } }]);
      const trash = await send(mock, 'DELETE', `/wp-json/cal/v1/venues/${second!.id}`);
      expect([trash.status, trash.json]).toEqual([500, { code: 'rest_cannot_delete', message: 'The post cannot be deleted.', data: { status: 500 } }]);
      const gone = await send(mock, 'DELETE', `/wp-json/cal/v1/venues/${second!.id}?force=true`);
      expect([gone.status, gone.json.code]).toEqual([500, 'rest_cannot_delete']);
      const term = await send(mock, 'POST', '/wp-json/cal/events/v1/categories', { name: 'Never a category' });
      expect([term.status, term.json]).toEqual([500, { code: 'db_insert_error', message: 'Could not insert term into the database.', data: { status: 500 } }]);
      const addon = await send(mock, 'POST', '/wp-json/seo/v1/updateMode', { mode: 'custom' });
      expect([addon.status, addon.json.code]).toEqual([500, 'db_update_error']);
      const reset = await send(mock, 'POST', '/__mock/reset');
      expect([reset.status, reset.json.code]).toEqual([500, 'mock_state_not_saved']);

      // None of them took effect: the reads after them see the store as it was, byte for byte.
      expect((await send(mock, 'GET', '/wp-json/cal/v1/venues?per_page=100')).res.body).toBe(listBefore);
      expect((await send(mock, 'GET', `/wp-json/cal/v1/venues/${first!.id}`)).json.title.rendered).toBe(first!.title.rendered);
      expect((await send(mock, 'GET', `/wp-json/cal/v1/venues/${second!.id}`)).json.status).toBe('publish');
      expect((await send(mock, 'GET', '/wp-json/cal/events/v1/categories?search=Never')).json).toEqual([]);

      // Space again: the next write is saved, and takes the ID the refused create never had.
      full = false;
      const saved = await send(mock, 'POST', '/wp-json/cal/v1/venues', { title: 'Saved at last' });
      expect(saved.status).toBe(201);
    } finally {
      await mock.close();
    }
    const again = await freshMock({ stateFile: path });
    try {
      const all = await titles(again, 'venues');
      expect(all).toContain('Saved at last');
      expect(all.filter((t) => t.startsWith('Never'))).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('a read that saw the refused write is answered without it', async () => {
    let full = false;
    const mock = await freshMock({ stateFile: stateFile(), stateFs: faultyJournalFs(() => (full ? 'EIO' : undefined)) });
    try {
      const before = (await send(mock, 'GET', '/wp-json/cal/v1/venues?per_page=100&orderby=id&order=desc')).res.body;
      full = true;
      // In the same turn: the create commits, the list reads it; neither answer goes before the journal decides.
      const write = send(mock, 'POST', '/wp-json/cal/v1/venues', { title: 'Seen, then refused' });
      const read = send(mock, 'GET', '/wp-json/cal/v1/venues?per_page=100&orderby=id&order=desc');
      expect((await write).status).toBe(500);
      expect((await read).res.body).toBe(before);
    } finally {
      full = false;
      await mock.close();
    }
  });

  it('a batch answers its saved items as they ran and its refused ones as refused; the disk holds what it answered', async () => {
    // Items of 40K characters take a turn each (handlers/batch.ts), so their commits reach the journal in several
    // groups: the second group's write fails.
    let writes = 0;
    let failAt = -1;
    const path = stateFile();
    const mock = await freshMock({ stateFile: path, stateFs: faultyJournalFs(() => (++writes === failAt ? 'ENOSPC' : undefined)) });
    const names = Array.from({ length: 12 }, (_, i) => `Batch item ${i}`);
    let answers: { status: number; body: { code?: string; title?: { raw: string } } }[] = [];
    try {
      failAt = writes + 2;
      const batch = await send(mock, 'POST', '/wp-json/batch/v1', { requests: names.map((title) => ({ method: 'POST', path: '/cal/v1/events', body: { title, content: 'x'.repeat(40_000) } })) });
      expect(batch.status).toBe(207);
      answers = batch.json.responses;
      const statuses = answers.map((a) => a.status);
      expect(statuses).toContain(201);
      expect(statuses).toContain(500);
      for (const a of answers) {
        if (a.status === 500) expect(a.body).toEqual({ code: 'db_insert_error', message: 'Could not insert post into the database.', data: { status: 500 } });
      }
    } finally {
      await mock.close();
    }
    const again = await freshMock({ stateFile: path });
    try {
      const all = await titles(again, 'events');
      names.forEach((name, i) => expect(all.includes(name), `${name}: answered ${answers[i]!.status}`).toBe(answers[i]!.status === 201));
    } finally {
      await again.close();
    }
  });
});
