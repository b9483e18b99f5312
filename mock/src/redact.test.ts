// One redaction for the log, the mock's page and a request's own page: which names are secrets, how a header, a
// query and a body are shown, and what is withheld rather than shown.
import { describe, expect, it } from 'vitest';
import { bodyShown, HIDDEN, headerShown, headersShown, MAX_SHOWN_BODY_BYTES, secretName, urlShown } from './redact.ts';

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

describe('secretName', () => {
  it.each(['password', 'pass', 'pwd', 'token', 'apiKey', 'api_key', 'key', 'secret', '_wpnonce', 'access_token', 'user_pass', 'new_password', 'client_secret', 'data[password]', 'X-Api-Key', 'x-wp-nonce', 'Cookie', 'set-cookie', 'refresh-token', 'credentials'])('%s is a secret', (name) => {
    expect(secretName(name)).toBe(true);
  });
  it.each(['per_page', 'keyword', 'focus_keyword', 'keys_total', 'hash', 'username', 'search', 'passage', 'id', 'content-type', 'x-wp-total'])('%s is not', (name) => {
    expect(secretName(name)).toBe(false);
  });
});

describe('headers', () => {
  it("keep Basic credentials' user (who called) and hide the application password; hide other credentials whole", () => {
    expect(headerShown('authorization', basic('admin:ACk6 qp4z jfOW 6dsy HMWV G0x1'))).toBe(`Basic admin:${HIDDEN}`);
    expect(headerShown('Authorization', 'Bearer eyJhbGciOi.x.y')).toBe(`Bearer ${HIDDEN}`);
    expect(headerShown('authorization', 'garbage-without-scheme')).toBe(HIDDEN);
    expect(headerShown('proxy-authorization', basic('p:q'))).toBe(`Basic p:${HIDDEN}`);
    expect(headersShown({ cookie: 'wordpress_logged_in=abc', 'x-api-key': 'k', accept: 'application/json', absent: undefined })).toEqual([
      ['cookie', HIDDEN],
      ['x-api-key', HIDDEN],
      ['accept', 'application/json'],
    ]);
  });
});

describe('urlShown', () => {
  it('hides the values of secret keys, keeps everything else byte for byte', () => {
    expect(urlShown('/wp-json/x?per_page=2&password=a%20b&Pass=c&pwd&token=&keyword=k#frag')).toBe(`/wp-json/x?per_page=2&password=${HIDDEN}&Pass=${HIDDEN}&pwd&token=${HIDDEN}&keyword=k#frag`);
    expect(urlShown('/?rest_route=/lms/v1/token&username=a&p%61ssword=s')).toBe(`/?rest_route=/lms/v1/token&username=a&p%61ssword=${HIDDEN}`);
    expect(urlShown('/wp-json/x?data[password]=s&a=%E0%A4')).toBe(`/wp-json/x?data[password]=${HIDDEN}&a=%E0%A4`);
    expect(urlShown('/wp-json/x')).toBe('/wp-json/x');
  });
});

describe('bodyShown', () => {
  it('hides secret fields of JSON at any depth and of form bodies', () => {
    const json = JSON.stringify({ username: 'anna', password: 'p', nested: [{ api_key: 'k', keep: 1 }], secret: { inner: 'x' }, tokens: ['t1', 't2'], count: null });
    const shown = bodyShown(json, 'application/json', json.length);
    // All of a value under a secret key, whatever its shape.
    expect(shown).toEqual({ text: JSON.stringify({ username: 'anna', password: HIDDEN, nested: [{ api_key: HIDDEN, keep: 1 }], secret: { inner: HIDDEN }, tokens: [HIDDEN, HIDDEN], count: null }, null, 2) });
    expect(bodyShown('a=1&password=p&_wpnonce=n', 'application/x-www-form-urlencoded; charset=UTF-8', 25)).toEqual({ text: `a=1&password=${HIDDEN}&_wpnonce=${HIDDEN}` });
    // JSON sent without its media type is read as JSON all the same; other text as a form would be.
    expect(bodyShown('{"token":"t"}', undefined, 13)).toEqual({ text: `{\n  "token": "${HIDDEN}"\n}` });
    expect(bodyShown('user=a&pass=b', 'text/plain', 13)).toEqual({ text: `user=a&pass=${HIDDEN}` });
  });

  it('withholds what it cannot read for secrets: too large, multipart, not UTF-8, JSON that does not parse', () => {
    expect(bodyShown(undefined, 'application/json', MAX_SHOWN_BODY_BYTES + 1)).toMatchObject({ withheld: expect.stringContaining('not kept') });
    expect(bodyShown('--b\r\n', 'multipart/form-data; boundary=b', 5)).toMatchObject({ withheld: expect.stringContaining('multipart') });
    expect(bodyShown(new Uint8Array([0xff, 0xfe]), 'application/octet-stream', 2)).toEqual({ withheld: '2 bytes, not UTF-8 text' });
    expect(bodyShown('{"password": "p"', 'application/json', 16)).toMatchObject({ withheld: expect.stringContaining('does not parse') });
    expect(bodyShown('', 'application/json', 0)).toBeUndefined();
  });
});
