// For tests: the spellings in which a secret can reach a report, written independently of redact.ts so
// that they check it rather than repeat it. The list (raw, base64 of the pair and of the
// password, URL- and double-URL-encoded, hex in both cases) and what servers add (form encoding,
// PHP's json_encode with and without escaped Unicode, HTML escaping).

export const SECRET_ENCODINGS: readonly [string, (s: string) => string][] = [
  ['raw', (s) => s],
  ['base64', (s) => Buffer.from(s).toString('base64')],
  ['URL-encoded', (s) => encodeURIComponent(s)],
  ['double-URL-encoded', (s) => encodeURIComponent(encodeURIComponent(s))],
  ['form-encoded', (s) => new URLSearchParams({ x: s }).toString().slice(2)],
  ['hex', (s) => Buffer.from(s).toString('hex')],
  ['HEX', (s) => Buffer.from(s).toString('hex').toUpperCase()],
  ['PHP json_encode', (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
  ['PHP json_encode, JSON_UNESCAPED_UNICODE', (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/')],
  ['HTML-escaped', (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;')],
];
