// The control routes under /__mock/: under --auth only an administrator's credentials open them (reset wipes the
// store and, with --state-file, the file); from another origin they are readable without credentialed CORS; OPTIONS
// answers what each allows.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../contracts/model/records.ts';
import { call, freshMock } from '../testing/harness.ts';

const ADMIN = { username: 'admin', password: 'ACk6 qp4z jfOW 6dsy HMWV G0x1' };
const EDITOR = { username: 'olena.kovalenko', password: 'wUMD HQOr sjrb fVae VcAH d7tB' };
const PAGE = 'http://127.0.0.1:5173';
const err = (code: string, message: string, status: number) => ({ code, message, data: { status } });

describe('/__mock/* under --auth', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('reset needs an administrator: anonymous 401, an editor 403, and neither changes the store or the state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-control-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.json');
    const mock = await freshMock({ auth: true, stateFile });
    const created = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: ADMIN, body: { title: 'Keep me' } });
    expect(created.status).toBe(201);
    await mock.close();
    const reopened = await freshMock({ auth: true, stateFile });
    const before = readFileSync(stateFile, 'utf8');
    expect(before).toContain('Keep me');
    const version = reopened.store.version;

    const anonymous = call(reopened, 'POST', '/__mock/reset', { headers: { origin: 'http://localhost:3000' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual(err('rest_forbidden', 'Sorry, you are not allowed to do that.', 401));
    const wrongPassword = call(reopened, 'POST', '/__mock/reset', { auth: { username: 'admin', password: 'nope' } });
    expect(wrongPassword.status).toBe(401);
    const editor = call(reopened, 'POST', '/__mock/reset', { auth: EDITOR });
    expect(editor.status).toBe(403);
    expect(editor.json).toEqual(err('rest_forbidden', 'Sorry, you are not allowed to do that.', 403));
    expect(reopened.store.version).toBe(version);
    expect(reopened.store.events.get(created.json.id)?.title).toBe('Keep me');
    await reopened.close();
    expect(readFileSync(stateFile, 'utf8')).toBe(before);

    const last = await freshMock({ auth: true, stateFile });
    const admin = call(last, 'POST', '/__mock/reset', { auth: ADMIN });
    expect(admin.status).toBe(200);
    expect(admin.json.reset).toBe(true);
    expect(last.store.events.get(created.json.id)).toBeUndefined();
    await last.close();
  });

  it('state too; with an administrator it answers', async () => {
    const mock = await freshMock({ auth: true });
    expect(call(mock, 'GET', '/__mock/state').status).toBe(401);
    expect(call(mock, 'GET', '/__mock/state', { auth: EDITOR }).status).toBe(403);
    expect(call(mock, 'GET', '/__mock/state', { auth: ADMIN }).json).toMatchObject({ auth: true });
  });

  it('a user that is no administrator stays out even with a role list that only names others', async () => {
    const mock = await freshMock({ auth: true });
    const u = mock.store.table('users').get(4)! as UserRecord;
    mock.store.put('users', { ...u, roles: ['subscriber', 'author'], application_passwords: [{ uuid: '1f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5', name: 't', password: 'SUBS crib erpw 1234 5678 abcd', created: '2026-01-01 00:00:00' }] });
    expect(call(mock, 'POST', '/__mock/reset', { auth: { username: 'reader', password: 'SUBS crib erpw 1234 5678 abcd' } }).status).toBe(403);
  });
});

describe('/__mock/* in open mode', () => {
  it('stays open (a frontend resets it between tests), without credentialed CORS', async () => {
    const mock = await freshMock();
    const res = call(mock, 'POST', '/__mock/reset', { headers: { origin: PAGE } });
    expect(res.status).toBe(200);
    expect(res.headers).toEqual({ 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json; charset=UTF-8' });
    expect(call(mock, 'GET', '/__mock/state').headers).toEqual({ 'Content-Type': 'application/json; charset=UTF-8' });
  });

  it('OPTIONS: 204 with Allow; a preflight also gets the method and the headers, never credentials', async () => {
    const mock = await freshMock({ auth: true });
    const plain = call(mock, 'OPTIONS', '/__mock/reset');
    expect(plain.status).toBe(204);
    expect(plain.body).toBe('');
    expect(plain.headers).toEqual({ Allow: 'POST, OPTIONS' });
    const preflight = call(mock, 'OPTIONS', '/__mock/state/', { headers: { origin: PAGE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, OPTIONS',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, Prefer',
      Allow: 'GET, OPTIONS',
    });
  });

  it('a method the route does not answer is 405 with Allow; an unknown route 404', async () => {
    const mock = await freshMock();
    const res = call(mock, 'GET', '/__mock/reset');
    expect(res.status).toBe(405);
    expect(res.headers.Allow).toBe('POST, OPTIONS');
    expect(res.json).toEqual(err('mock_method_not_allowed', '/__mock/reset answers POST only.', 405));
    expect(call(mock, 'HEAD', '/__mock/state').status).toBe(200);
    expect(call(mock, 'HEAD', '/__mock/state').body).toBe('');
    const unknown = call(mock, 'POST', '/__mock/resetx');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('No control route /__mock/resetx. Known: POST /__mock/reset, GET /__mock/state, GET /__mock/, GET /__mock/requests/<n>, GET /__mock/page.js, GET /__mock/page.css.');
    expect(call(mock, 'POST', '/__mock/toString').status).toBe(404);
    expect(call(mock, 'POST', '/__mock/__proto__').status).toBe(404);
  });
});
