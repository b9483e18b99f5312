// --disposable-target against the mock behind a counting wrapper: every write the site took is sorted into what the
// run made itself (a 201's id, an event it created) and what it did not. Before, a run deleted a contact form of the
// site's, left the four it made, changed the settings and said nothing; now it changes no record it did not make,
// restores every settings object it can read, and lists every other change in the report.

import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { createMock, listen } from '../../../mock/src/index.ts';
import { basicAuth, bodyText, harnessForFile, parse, plain, type Fault, type MockRequest } from '../testing/faulty-mock.ts';
import type { Exchange, Outgoing } from '../http/types.ts';
import { SiteChanges, type SiteChange } from './disposable.ts';
import { Ledger } from '../checks/kit/ledger.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'forms/v1,seo/v1,pagebuilder-one/v1,i18n/st/v1';
const SETTINGS = ['/pagebuilder-one/v1/settings', '/i18n/st/v1/strings/settings', '/seo/v1/searchPage'];

const read = (route: string): unknown => JSON.parse(h.mock.handleNow({ method: 'GET', url: `/wp-json${route}`, headers: { authorization: basicAuth(h.mock.credentials()!) }, body: '' }).body);

/** What the site took: each accepted write, as on the run's own record or not, with its route. */
function counting(): { fault: Fault; foreign: string[]; taken: { method: string; route: string }[] } {
  const made = new Set<number>();
  const foreign: string[] = [];
  const taken: { method: string; route: string }[] = [];
  const fault: Fault = (req: MockRequest, next) => {
    const res = plain(next(req));
    const { route } = parse(req);
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || res.status >= 300 || !req.headers['authorization']) return res;
    if (res.status === 201) {
      const id = (JSON.parse(res.body) as { id?: unknown }).id;
      if (typeof id === 'number') made.add(id);
    }
    if (/^\/cal\//.test(route) || route === '/batch/v1') return res;
    const form = /^\/forms\/v1\/contact-forms\/(\d+)/.exec(route);
    let objectID: unknown;
    try {
      objectID = (JSON.parse(bodyText(req)) as { objectID?: unknown }).objectID;
    } catch {
      objectID = undefined;
    }
    if (form && !made.has(Number(form[1]))) foreign.push(`${req.method} ${route}`);
    // 0 names no object (the documents' default on the analytics routes): nothing of the site's is changed by it.
    else if (typeof objectID === 'number' && objectID > 0 && !made.has(objectID)) foreign.push(`${req.method} ${route} objectID=${objectID}`);
    else if (!form && typeof objectID !== 'number' && !(req.method === 'POST' && route === '/forms/v1/contact-forms' && res.status === 201)) taken.push({ method: req.method, route });
    return res;
  };
  return { fault, foreign, taken };
}

describe('--disposable-target', () => {
  it('changes no record it did not make, leaves none it made, restores the settings it can read, and lists every other change', async () => {
    const forms = read('/forms/v1/contact-forms');
    const settings = SETTINGS.map(read);
    const c = counting();
    const r = await h.run(c.fault, ONLY, ['--disposable-target'], { seed: 1 });
    expect(r.exitCode, r.stderr).toBe(0);
    // Not one write reached a contact form the run did not make, nor an object (objectID) it did not make.
    expect(c.foreign).toEqual([]);
    // The site's forms as they were, and none of the run's left.
    expect(read('/forms/v1/contact-forms')).toEqual(forms);
    expect((r.run.options['cleanup'] as { left: unknown[]; unconfirmed: unknown[] }).left).toEqual([]);
    // Every settings object the site lets the suite read is as it was.
    expect(SETTINGS.map(read)).toEqual(settings);
    const changes = r.run.options['changes'] as SiteChange[];
    const listed = new Map(changes.map((ch) => [`${ch.method} ${ch.route}`, ch]));
    for (const s of SETTINGS) expect(changes.filter((ch) => ch.route === s).every((ch) => ch.kind === 'settings' && ch.restored === 'yes')).toBe(true);
    // Every other write the site took is on the list, under its route's template.
    const templates = [...listed.keys()].map((k) => ({ k, re: new RegExp(`^${k.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
    const unlisted = [...new Set(c.taken.map((t) => `${t.method} ${t.route}`))].filter((t) => !templates.some(({ re }) => re.test(t)));
    expect(unlisted).toEqual([]);
    expect(listed.get('DELETE /pagebuilder-one/v1/logs')).toMatchObject({ restored: 'no' });
    expect(listed.get('POST /seo/v1/updateMode')).toMatchObject({ kind: 'action', restored: 'not possible' });
    expect(r.stderr).toMatch(/DISPOSABLE TARGET \(--disposable-target\): writes the suite cannot undo were sent; \d+ change\(s\) to what the run did not create \(\d+ restored, \d+ not\)/);
    expect(r.stderr).toMatch(/^ {4}PUT \/pagebuilder-one\/v1\/settings: settings, \d+ request\(s\) taken, restored: read first/m);
    console.log(`--disposable-target on ${ONLY}: ${c.taken.length} writes taken on what the run did not make, on ${changes.length} listed operations (${changes.filter((ch) => ch.restored === 'yes').length} restored)`);
  });
});

describe('what --disposable-target may change', () => {
  const contract = loadContractFile();
  const op = (id: string) => contract.operations.find((o) => o.id === id)!;
  const answer = (status: number, body: unknown): Exchange => ({ request: { method: 'X', url: '', headers: {} }, response: { status, headers: {}, body: JSON.stringify(body) }, durationMs: 0 });

  it('refuses a write naming a record the run did not make, by its path or its objectID, and lets one naming its own through', async () => {
    const ledger = new Ledger();
    const changes = new SiteChanges({ contract, ledger, send: async () => answer(404, {}), served: () => true });
    const put: Outgoing = { method: 'PUT', route: '/forms/v1/contact-forms/7', body: { kind: 'json', value: { title: 'x' } }, intent: 'write' };
    expect(await changes.before(put, op('putFormsV1ContactFormsById'))).toBe(
      'PUT /forms/v1/contact-forms/7 names contact-form 7, which the run did not create: with --disposable-target too, the suite changes only records of its own',
    );
    ledger.add({ namespace: 'forms/v1', resource: 'contact-form', id: 7, itemPath: '/forms/v1/contact-forms/{id}', createdBy: 't', unmarked: true });
    expect(await changes.before(put, op('putFormsV1ContactFormsById'))).toBeUndefined();
    const meta: Outgoing = { method: 'POST', route: '/seo/v1/updateMeta', body: { kind: 'raw', text: '{"objectType":"post","objectID":12,"meta":{}}', contentType: 'application/json' }, intent: 'write' };
    expect(await changes.before(meta, undefined)).toMatch(/^objectID=12 names a record the run did not create/);
    ledger.add({ namespace: 'cal/v1', resource: 'event', id: 12, itemPath: '/cal/v1/events/{id}', createdBy: 't' });
    expect(await changes.before(meta, undefined)).toBeUndefined();
    // Anonymous, a write is refused before it changes anything: not the guard's to stop.
    expect(await changes.before({ ...put, route: '/forms/v1/contact-forms/8', auth: false }, undefined)).toBeUndefined();
  });

  it('reads a settings object before the first write and writes it back after, and says when it is not as it was', async () => {
    let stored: Record<string, unknown> = { theme: 'dark', beta: false };
    const sent: string[] = [];
    const send = async (o: Outgoing): Promise<Exchange> => {
      sent.push(`${o.method} ${o.route}`);
      if (o.method === 'GET') return answer(200, stored);
      // A site that merges what it is sent: a key the run added stays.
      stored = { ...stored, ...((o.body as { value: Record<string, unknown> }).value) };
      return answer(200, stored);
    };
    const changes = new SiteChanges({ contract, ledger: new Ledger(), send, served: () => true });
    const write: Outgoing = { method: 'PATCH', route: '/pagebuilder-one/v1/settings', body: { kind: 'json', value: { theme: 'light' } }, intent: 'write' };
    expect(await changes.before(write, undefined)).toBeUndefined();
    await changes.after(write, undefined, await send(write), 'u');
    await changes.restore(send);
    expect(sent).toEqual(['GET /pagebuilder-one/v1/settings', 'PATCH /pagebuilder-one/v1/settings', 'PUT /pagebuilder-one/v1/settings', 'GET /pagebuilder-one/v1/settings']);
    expect(changes.list()).toEqual([expect.objectContaining({ method: 'PATCH', kind: 'settings', accepted: 1, restored: 'yes' })]);

    const added = new SiteChanges({ contract, ledger: new Ledger(), send, served: () => true });
    const extra: Outgoing = { ...write, body: { kind: 'json', value: { debug: 1 } } };
    await added.before(extra, undefined);
    await added.after(extra, undefined, await send(extra), 'u');
    await added.restore(send);
    expect(added.list()[0]).toMatchObject({ restored: 'no' });
    expect(added.list()[0]!.note).toMatch(/read again, it differs from before the run in debug$/);
  });
});
