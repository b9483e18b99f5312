import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCase } from './case.ts';
import { DEFAULT_POLICY } from './model.ts';
import { collectCredentialValues, createRedactor, REDACTED, redactDeep, secretVariants } from './redact.ts';
import { sampleRun } from './sample.ts';
import { SECRET_ENCODINGS } from './secret-encodings.ts';
import { writeReports } from './write.ts';

const USER = 'editor';
const PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';
const SECRET = `${USER}:${PASSWORD}`;
const BASIC = Buffer.from(SECRET).toString('base64');
const OTHER = 'tok"en-0f9e8d7c';

/** Every spelling a leaked secret could take in some report format. */
function leakForms(secret: string): string[] {
  const forms = new Set<string>();
  const add = (s: string): void => {
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    forms.add(s.replace(/"/g, '&quot;'));
    forms.add(encodeURIComponent(s));
  };
  add(secret);
  const colon = secret.indexOf(':');
  if (colon >= 0) {
    add(secret.slice(colon + 1));
    add(secret.slice(colon + 1).replace(/ /g, ''));
    add(Buffer.from(secret).toString('base64'));
  }
  return [...forms];
}

describe('secretVariants', () => {
  it('covers the password alone, without spaces, and the Basic encoding', () => {
    const v = secretVariants(SECRET);
    expect(v).toEqual(expect.arrayContaining([SECRET, PASSWORD, PASSWORD.replace(/ /g, ''), BASIC, encodeURIComponent(PASSWORD)]));
    expect(secretVariants('')).toEqual([]);
  });
});

describe('every encoding of the secret', () => {
  const odd = `${USER}:p/ss w&rd'+é=%`;
  const r = createRedactor([odd]);
  const password = odd.slice(odd.indexOf(':') + 1);
  it.each(SECRET_ENCODINGS)('%s of the pair and of the password is redacted', (_name, encode) => {
    for (const s of [odd, password]) {
      const form = encode(s);
      expect(r.text(`before ${form} after`), form).toBe(`before ${REDACTED} after`);
    }
  });

  it('catches a secret cut at the end of a text that was cut short, and only there', () => {
    const start = encodeURIComponent(password).slice(0, 7);
    expect(r.cut(`padding ${start}`)).toBe(`padding ${REDACTED}`);
    expect(r.cut(`padding ${PASSWORD.slice(0, 3)}`)).toBe(`padding ${PASSWORD.slice(0, 3)}`);
    expect(r.text(`padding ${start}`)).toBe(`padding ${start}`);
  });

  it('blanks headers marked secret and learns their values for echoes', () => {
    const marked = createRedactor([], { secretHeaders: ['X-Api-Key'] });
    expect(marked.value({ headers: { 'x-api-key': 'k', 'X-Other': 'v' } })).toEqual({ headers: { 'x-api-key': REDACTED, 'X-Other': 'v' } });
    const out = redactDeep({ headers: { 'X-Api-Key': 'key-0123456789' }, body: 'echo a2V5LTAxMjM0NTY3ODk= and key-0123456789' }, [], { secretHeaders: ['x-api-key'] });
    expect(out).toEqual({ headers: { 'X-Api-Key': REDACTED }, body: `echo ${REDACTED} and ${REDACTED}` });
  });
});

describe('createRedactor', () => {
  const r = createRedactor([SECRET]);
  it('redacts secrets, Authorization text and URL userinfo in free text', () => {
    expect(r.text(`login with ${SECRET}`)).toBe(`login with ${REDACTED}`);
    expect(r.text('Authorization: Bearer abc.def')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(r.text('{"authorization":"Basic Zm9vOmJhcg=="}')).toBe(`{"authorization":"Basic ${REDACTED}"}`);
    expect(r.text('see https://bob:hunter22@example.org/x')).toBe(`see https://bob:${REDACTED}@example.org/x`);
    expect(r.text('nothing here: https://example.org/wp-json')).toBe('nothing here: https://example.org/wp-json');
    // A URL and an email side by side in JSON are no userinfo: the quote between them ends it.
    const organizer = '{"website":"http://a.example","email":"contact@a.example"}';
    expect(r.text(organizer)).toBe(organizer);
    expect(r.text('<a href="https://x.example">x</a> mail:me@x.example')).toBe('<a href="https://x.example">x</a> mail:me@x.example');
  });

  it('blanks credential headers wherever they sit, whatever their case', () => {
    expect(r.value({ headers: { AUTHORIZATION: 'Digest x', 'Set-Cookie': 'wp=1', accept: 'a' } })).toEqual({
      headers: { AUTHORIZATION: REDACTED, 'Set-Cookie': REDACTED, accept: 'a' },
    });
  });

  it('learns credentials from headers so echoes of them elsewhere go too', () => {
    const found = collectCredentialValues({ request: { headers: { Authorization: `Basic ${BASIC}` } } });
    expect(found).toEqual(expect.arrayContaining([`Basic ${BASIC}`, BASIC, SECRET]));
    const out = redactDeep({ headers: { Authorization: `Basic ${BASIC}` }, body: `you sent ${BASIC} i.e. ${PASSWORD}` }, []);
    expect(JSON.stringify(out)).not.toContain(BASIC);
    expect(JSON.stringify(out)).not.toContain(PASSWORD);
  });
});

describe('writing reports', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('leaves no trace of the secrets in any format', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-redact-'));
    const auth = { Authorization: `Basic ${BASIC}` };
    const leaky = buildCase(
      {
        check: 'echo',
        namespace: 'wp/v2',
        operationId: 'wpV2.users.me',
        method: 'POST',
        route: '/wp/v2/users/me',
        variant: PASSWORD,
        severity: 'documented',
        outcome: 'fail',
        message: `server echoed ${SECRET} and ${PASSWORD.replace(/ /g, '')} and Authorization: Basic ${BASIC}; ${OTHER}`,
        request: {
          method: 'POST',
          url: `https://${USER}:${encodeURIComponent(PASSWORD)}@staging.example.org/wp-json/wp/v2/users/me?pw=${encodeURIComponent(PASSWORD)}`,
          headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: 'wordpress_logged_in=abc' },
          body: new URLSearchParams({ password: PASSWORD, token: OTHER }).toString(),
        },
        response: {
          status: 200,
          headers: { 'set-cookie': `session=${BASIC}`, 'x-debug': SECRET },
          body: JSON.stringify({ headers: { authorization: `Basic ${BASIC}` }, you: SECRET, other: OTHER }),
        },
        durationMs: 5,
      },
      { policy: DEFAULT_POLICY },
    );
    const run = sampleRun([leaky]);
    run.options = { auth: SECRET, note: `password ${PASSWORD}`, [SECRET]: 'as a key' };
    expect(JSON.stringify(run)).toContain(PASSWORD); // the test would prove nothing otherwise

    const written = await writeReports(run, { dir, formats: ['junit', 'json', 'html'], secrets: [SECRET, OTHER] });
    expect(written.map((w) => w.format)).toEqual(['junit', 'json', 'html']);
    expect((await readdir(dir)).sort()).toEqual(['site-contracts.html', 'site-contracts.json', 'site-contracts.junit.xml']);
    for (const { path } of written) {
      const text = await readFile(path, 'utf8');
      expect(text).toContain(REDACTED);
      for (const form of [...leakForms(SECRET), ...leakForms(OTHER), 'wordpress_logged_in=abc']) {
        expect(text.includes(form), `${path} contains ${JSON.stringify(form)}`).toBe(false);
      }
    }
  });
});
