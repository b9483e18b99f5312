// The public add-on routes keep bounded data (limits.ts): learning-module users and tokens, contact-form
// submissions. Each bound is shown at its edge: the last record that fits is kept, the next one is a 429 that
// keeps nothing; a value one character over its maxlength is refused and stored only up to it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Mock } from '../../index.ts';
import type { FeedbackSubmission } from '../../../../contracts/model/records.ts';
import { call, freshMock, TEST_NOW } from '../../testing/harness.ts';
import { formTags } from './forms.ts';
import { LIMITS } from './limits.ts';

const register = (mock: Mock, username: string, password = 'pw-123456') => call(mock, 'POST', '/wp-json/lms/v1/token/register', { body: { username, password } });
const login = (mock: Mock, username: string, password: string) => call(mock, 'POST', '/wp-json/lms/v1/token', { body: { username, password } });
const validate = (mock: Mock, token: string) => call(mock, 'POST', '/wp-json/lms/v1/token/validate', { headers: { authorization: `Bearer ${token}` } });

describe('lms/v1: users and tokens are bounded, tokens expire', () => {
  it(`registration stops at ${LIMITS.lmsUsers} users with a 429, keeping nothing`, async () => {
    const mock = await freshMock({ auth: true });
    const users = mock.store.table('lmsUsers');
    for (let i = users.size; i < LIMITS.lmsUsers - 1; i++) mock.store.put('lmsUsers', { username: `filler.${i}`, password: 'x' });
    expect(register(mock, 'last.one').status).toBe(200);
    expect(users.size).toBe(LIMITS.lmsUsers);
    const over = register(mock, 'one.more');
    expect(over.status).toBe(429);
    expect(over.json).toEqual({ code: 'lms_register_limit', message: 'The mock keeps at most 10,000 learning-module users; POST /__mock/reset clears them.', data: { status: 429 } });
    expect(users.has('one.more')).toBe(false);
    expect(users.size).toBe(LIMITS.lmsUsers);
  });

  it(`a password is at most ${LIMITS.lmsPasswordChars} characters`, async () => {
    const mock = await freshMock();
    expect(register(mock, 'long.enough', 'p'.repeat(LIMITS.lmsPasswordChars)).status).toBe(200);
    const over = register(mock, 'too.long', 'p'.repeat(LIMITS.lmsPasswordChars + 1));
    expect(over.json).toEqual({ code: 'lms_register_invalid_password', message: 'The password may be at most 255 characters long.', data: { status: 400 } });
    expect(mock.store.table('lmsUsers').has('too.long')).toBe(false);
  });

  it('a token lasts seven days: valid one second before, expired at the second; tokens expired 30 days ago are dropped at a login', async () => {
    let now = TEST_NOW;
    const mock = await freshMock({ clock: { now: () => now } });
    // The fixture token of teacher.iryna expired on 2026-10-09, more than 30 days before "now": the next login drops it.
    const old = 'c7dd2e478f2812b0cf6453cd4ad063c7f3942ba54d947db1';
    expect(validate(mock, old).json.code).toBe('lms_auth_expired_token');
    const issued = login(mock, 'student.anna', 'lantern-99b13b');
    expect(issued.json.expires_at).toBe('2026-11-29T12:00:00Z');
    expect(validate(mock, old).json.code).toBe('lms_auth_invalid_token');
    now = TEST_NOW + LIMITS.lmsTokenSeconds * 1000 - 1000;
    expect(validate(mock, issued.json.token).json.code).toBe('lms_auth_valid_token');
    now = TEST_NOW + LIMITS.lmsTokenSeconds * 1000;
    expect(validate(mock, issued.json.token).json.code).toBe('lms_auth_expired_token');
    // Within 30 days after it expired a login keeps it, so it is still told apart from a wrong token...
    const dropAt = TEST_NOW + (LIMITS.lmsTokenSeconds + LIMITS.lmsExpiredTokenSeconds) * 1000;
    now = dropAt - 1000;
    login(mock, 'student.bohdan', 'copper-238eea');
    expect(validate(mock, issued.json.token).json.code).toBe('lms_auth_expired_token');
    // ...and at 30 days after, the next login drops it.
    now = dropAt;
    login(mock, 'student.bohdan', 'copper-238eea');
    expect(validate(mock, issued.json.token).json.code).toBe('lms_auth_invalid_token');
  });

  it(`a user keeps at most ${LIMITS.lmsTokensPerUser} tokens: the next login revokes the oldest`, async () => {
    let now = TEST_NOW;
    const mock = await freshMock({ clock: { now: () => now } });
    const tokens: string[] = [];
    for (let i = 0; i < LIMITS.lmsTokensPerUser + 1; i++) {
      now = TEST_NOW + i * 1000;
      tokens.push(login(mock, 'student.bohdan', 'copper-238eea').json.token);
    }
    expect(validate(mock, tokens[0]!).json.code).toBe('lms_auth_invalid_token');
    expect(validate(mock, tokens[1]!).json.code).toBe('lms_auth_valid_token');
    expect(validate(mock, tokens.at(-1)!).json.code).toBe('lms_auth_valid_token');
    expect(mock.store.table('lmsTokens').values().filter((t) => t.username === 'student.bohdan')).toHaveLength(LIMITS.lmsTokensPerUser);
  });

  it(`all tokens together stop at ${LIMITS.lmsTokens} with a 429`, async () => {
    const mock = await freshMock();
    const table = mock.store.table('lmsTokens');
    for (const t of table.values()) mock.store.remove('lmsTokens', t.token);
    for (let i = 0; i < LIMITS.lmsTokens - 1; i++) {
      mock.store.put('lmsTokens', { token: `f${String(i).padStart(47, '0')}`, username: 'teacher.iryna', issued_at: '2026-11-22 11:00:00', expires_at: '2026-11-29 11:00:00' });
    }
    // teacher.iryna's own bound would revoke hers; student.bohdan has none, so his login needs a free place.
    expect(login(mock, 'student.bohdan', 'copper-238eea').status).toBe(200);
    expect(table.size).toBe(LIMITS.lmsTokens);
    const over = login(mock, 'student.anna', 'lantern-99b13b');
    expect(over.status).toBe(429);
    expect(over.json.code).toBe('lms_auth_too_many_tokens');
    expect(table.size).toBe(LIMITS.lmsTokens);
  });
});

describe('contact-form submissions: maxlength and bounded storage', () => {
  const submit = (mock: Mock, body: Record<string, string>) => call(mock, 'POST', '/wp-json/forms/v1/contact-forms/5/feedback', { body });
  const valid = { 'your-name': 'Ann', 'your-email': 'ann@example.com', 'your-subject': 'Hello' };

  it('a text field takes 400 characters, a textarea 2,000; one more is "too long" and is stored cut to the limit', async () => {
    const mock = await freshMock();
    expect(submit(mock, { ...valid, 'your-name': 'n'.repeat(400), 'your-message': 'm'.repeat(2000) }).json.status).toBe('mail_sent');
    const over = submit(mock, { ...valid, 'your-name': 'n'.repeat(401), 'your-message': 'm'.repeat(2001) });
    expect(over.json.status).toBe('validation_failed');
    expect(over.json.invalid_fields.map((f: { field: string; message: string }) => [f.field, f.message])).toEqual([
      ['your-name', 'This field has a too long input.'],
      ['your-message', 'This field has a too long input.'],
    ]);
    const stored = mock.store.table('feedback').values().at(-1)!;
    expect(stored.fields['your-name']).toHaveLength(400);
    expect(stored.fields['your-message']).toHaveLength(2000);
    const schema = call(mock, 'GET', '/wp-json/forms/v1/contact-forms/5/feedback/schema').json;
    expect(schema.rules).toContainEqual({ rule: 'maxlength', field: 'your-message', threshold: 2000, error: 'This field has a too long input.' });
  });

  it('a maxlength option of the tag wins over the default', () => {
    expect(formTags('[text* your-name maxlength:80 autocomplete:name] [textarea msg] [email e maxlength:x] [number n] [submit "Go"]')).toEqual([
      { type: 'text', required: true, name: 'your-name', maxlength: 80 },
      { type: 'textarea', required: false, name: 'msg', maxlength: 2000 },
      { type: 'email', required: false, name: 'e', maxlength: 400 },
      { type: 'number', required: false, name: 'n' },
    ]);
  });

  it(`stored submissions stop at ${LIMITS.feedbackRecords} with a 429 that keeps nothing`, async () => {
    const mock = await freshMock({ auth: true });
    const table = mock.store.table('feedback');
    const filler = (id: number): FeedbackSubmission => ({ id, form_id: 5, submitted_at: '2026-11-22 10:00:00', status: 'mail_sent', fields: {}, invalid_fields: [] });
    while (table.size < LIMITS.feedbackRecords - 1) mock.store.insert('feedback', filler);
    expect(submit(mock, valid).json.status).toBe('mail_sent');
    expect(table.size).toBe(LIMITS.feedbackRecords);
    const over = submit(mock, valid);
    expect(over.status).toBe(429);
    expect(over.json).toEqual({ code: 'wpcf7_feedback_limit', message: 'The mock keeps at most 10,000 submissions; POST /__mock/reset clears them.', data: { status: 429 } });
    expect(table.size).toBe(LIMITS.feedbackRecords);
  });

  it(`and at ${LIMITS.feedbackBytes.toLocaleString('en')} bytes (UTF-8) of names and values in all`, async () => {
    const mock = await freshMock();
    const table = mock.store.table('feedback');
    const bytes = (v: Record<string, string>) => Object.entries(v).reduce((n, [k, x]) => n + Buffer.byteLength(k) + Buffer.byteLength(x), 0);
    const used = () => table.values().reduce((n, f) => n + bytes(f.fields), 0);
    // Two-byte characters: counted as UTF-8 bytes (two each), not as characters.
    const big = 'б'.repeat(512 * 1024);
    while (LIMITS.feedbackBytes - used() > 2 * big.length + 1000) mock.store.insert('feedback', (id) => ({ id, form_id: 5, submitted_at: '2026-11-22 10:00:00', status: 'mail_sent', fields: { big }, invalid_fields: [] }));
    const fieldsBytes = (v: Record<string, string>) => bytes(v) + 'your-message'.length;
    const room = LIMITS.feedbackBytes - used() - fieldsBytes(valid);
    mock.store.insert('feedback', (id) => ({ id, form_id: 5, submitted_at: '2026-11-22 10:00:00', status: 'mail_sent', fields: { f: 'x'.repeat(room - 1) }, invalid_fields: [] }));
    expect(LIMITS.feedbackBytes - used()).toBe(fieldsBytes(valid));
    expect(submit(mock, valid).status).toBe(200);
    const over = submit(mock, { ...valid, 'your-name': 'Anna' });
    expect(over.status).toBe(429);
    expect(over.json.message).toBe('The mock keeps at most 16,777,216 bytes of submissions; POST /__mock/reset clears them.');
  });

  it('a stored submission does not keep its upload alive: 24 anonymous 7 MB submissions leave the heap about where it was', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const mock = await freshMock();
    const upload = (i: number) => JSON.stringify({ ...valid, 'your-message': `${i}`.padEnd(7 * 1024 * 1024, 'm') });
    // Warm up (compiled validators, memos), then measure.
    submit(mock, JSON.parse(upload(0)) as Record<string, string>);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 1; i <= 24; i++) {
      const res = call(mock, 'POST', '/wp-json/forms/v1/contact-forms/5/feedback', { body: upload(i), headers: { 'content-type': 'application/json' } });
      expect(res.json.status).toBe('validation_failed');
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // 24 stored values of 2,000 characters are 48 KB; uploads kept alive by their slices would be 168 MB.
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    expect(mock.store.table('feedback').values().at(-1)!.fields['your-message']).toHaveLength(2000);
  });
});
