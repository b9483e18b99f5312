// The recording format's reader: what the mock writes reads back whole; what it cannot trust is refused with the
// file, the line and what was expected.
import { describe, expect, it } from 'vitest';
import { CALLS_FORMAT, CallsFileError, callsHeader, readRecording, shapeOf } from './calls-format.ts';

const head = `${callsHeader('1.0.0')}\n`;
const call = (extra: Record<string, unknown> = {}): string => `${JSON.stringify({ method: 'GET', path: '/wp-json/cal/v1/events', status: 200, headers: {}, auth: 'anonymous', ...extra })}\n`;
const refusal = (text: string): string => {
  try {
    readRecording(text, 'calls.ndjson');
  } catch (e) {
    if (e instanceof CallsFileError) return e.message;
    throw e;
  }
  throw new Error('read without complaint');
};

describe('the site-contracts-calls reader', () => {
  it('reads the calls with their lines, skips the note of a recording that stopped growing, takes a last line without its newline', () => {
    const text = head + call({ id: 12, shape: shapeOf({ id: 12, title: { rendered: 'x' }, tags: [1, 2] }) }) + '{"note":"recording stopped at 200 bytes"}\n' + call().trimEnd();
    const r = readRecording(text, 'calls.ndjson');
    expect(r.contract).toBe('1.0.0');
    expect(r.calls.map((c) => c.line)).toEqual([2, 4]);
    expect(r.calls[0]).toMatchObject({ id: 12, shape: { id: 'integer', title: { rendered: 'string' }, tags: ['integer'] } });
    expect(r.calls[0]).toMatchObject({ auth: 'anonymous' });
    expect(JSON.parse(head)).toEqual({ format: CALLS_FORMAT, version: 2, contract: '1.0.0' });
  });

  it('refuses, naming the line and what it expected', () => {
    expect(refusal('')).toBe('calls.ndjson: line 1: empty: expected the header line {"format":"site-contracts-calls","version":2,...}');
    expect(refusal('{"format":"har"}\n')).toMatch(/^calls\.ndjson: line 1: expected the header line/);
    expect(refusal('{"format":"site-contracts-calls","version":3}\n')).toMatch(/^calls\.ndjson: line 1: site-contracts-calls version 3: expected version 1 or 2/);
    expect(refusal(head + call({ auth: undefined }))).toMatch(/^calls\.ndjson: line 2: expected a recorded call with "auth" one of "anonymous", "authenticated" \(version 2 records who made each call\)/);
    expect(refusal(head + call().slice(0, 20))).toMatch(/^calls\.ndjson: line 2: cut short \(the file ends inside a line\)/);
    expect(refusal(head + '{"method":\n' + call())).toMatch(/^calls\.ndjson: line 2: not JSON: expected one JSON object a line/);
    expect(refusal(head + '\n' + call())).toBe('calls.ndjson: line 2: empty line: expected one JSON object a line');
    expect(refusal(head + '[1]\n')).toBe('calls.ndjson: line 2: expected a JSON object');
    expect(refusal(head + call({ method: 'FETCH' }))).toMatch(/^calls\.ndjson: line 2: expected a recorded call with "method" one of GET, /);
    expect(refusal(head + call({ path: 'events' }))).toMatch(/line 2: expected a recorded call with "path" a path starting with \//);
    expect(refusal(head + call({ status: 600 }))).toMatch(/line 2: expected a recorded call with "status" an HTTP status from 100 to 599/);
    expect(refusal(head + call({ headers: { 'X-WP-Total': 3 } }))).toMatch(/line 2: expected a recorded call with "headers" an object of strings/);
    expect(refusal(head + call({ id: '12' }))).toMatch(/line 2: expected a recorded call with "id" a whole number when present/);
  });
});
