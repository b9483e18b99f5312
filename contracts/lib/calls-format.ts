// The recording format of a frontend's calls, `site-contracts-calls` version 2: written by the mock (`mock --record`,
// mock/src/calls-record.ts) and read by the suite (`test --calls`, suites/src/checks/calls.ts). It lives here because
// both need it and neither may import the other (.ci/layers). NDJSON, one line a call:
//
//   line 1   {"format":"site-contracts-calls","version":2,"contract":"<contract version>"}
//   then     {"method":"GET","path":"/wp-json/cal/v1/events?per_page=2","auth":"anonymous","status":200,
//             "headers":{"X-WP-Total":"12","X-WP-TotalPages":"6"},"shape":[{"id":"integer","title":{"rendered":"string"}}]}
//   or       {"note":"recording stopped at 33554432 bytes"}
//
// A call line: `method`, `path` (path and query as sent, secret query values hidden), `auth`: who made it as the mock
// saw it, "anonymous" or "authenticated" (never the credentials), with the user's `role` when the mock knew the user
// ("administrator", "contributor"...), the request's `contentType` and
// `body` (secrets hidden) or only `bodyBytes`, `status`, the `headers` a client reads, `code` of a WordPress error,
// `id` of the record an answer holds, and `shape`: the answer's JSON as types (a list by its first item, 4 levels).
// The reader refuses what it cannot trust whole: another format or version, a line that is not a call, a line cut
// short; the message names the line and what was expected. Version 1 (before `auth`) still reads: its calls carry no
// identity, and the replay says so (it sends them as it did then: with the run's credentials).
//
// Versions: 1 (2026-11-28) the fields above but `auth` and `role`; 2 `auth` on every call line, `role` when known.

import { isPlainObject } from '../wordpress/plain-object.ts';

export const CALLS_FORMAT = 'site-contracts-calls';
const CALLS_VERSION = 2;
/** Versions the reader takes: an older recording reads on as it was written. */
const READABLE_VERSIONS: readonly number[] = [1, 2];
const AUTH_VALUES = ['anonymous', 'authenticated'] as const;

/** Who made a call, as the mock saw it: never the credentials, only whether there were any that checked out, and the user's role. */
type CallAuth = (typeof AUTH_VALUES)[number];
export interface CallIdentity {
  auth: CallAuth;
  role?: string;
}
/** How deep `shape` describes an answer: enough for what a screen reads (`title.rendered`, `venues[0].id`). */
const SHAPE_DEPTH = 4;

/** A JSON value as the types a client reads: `"integer"`, `"string"`, `"null"`, `{...}`, `[first item's shape]`. */
export type Shape = string | Shape[] | { [k: string]: Shape };

export function shapeOf(v: unknown, depth = SHAPE_DEPTH): Shape {
  if (v === null) return 'null';
  if (Array.isArray(v)) return depth <= 0 || v.length === 0 ? [] : [shapeOf(v[0], depth - 1)];
  if (typeof v === 'object') return depth <= 0 ? 'object' : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shapeOf(x, depth - 1)]));
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** One recorded call, as written. */
export interface CallLine {
  method: string;
  path: string;
  /** Absent only in a version 1 recording (identity unknown). */
  auth?: CallAuth;
  role?: string;
  contentType?: string;
  body?: string;
  bodyBytes?: number;
  status: number;
  headers: Record<string, string>;
  code?: string;
  id?: number;
  shape?: Shape;
}

/** A call as read back, with its line in the file (the report names it). */
export interface RecordedCall extends CallLine {
  line: number;
}

export interface Recording {
  contract: string;
  /** The format version it was written in (1: calls carry no identity). */
  version: number;
  calls: RecordedCall[];
}

export function callsHeader(contract: string): string {
  return JSON.stringify({ format: CALLS_FORMAT, version: CALLS_VERSION, contract });
}

/** A recording the reader refuses; the message is one line naming the file, the line and what was expected. */
export class CallsFileError extends Error {
  override name = 'CallsFileError';
}

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** What is wrong with a call line, or undefined when it is one. */
function callProblem(v: Record<string, unknown>, version: number): string | undefined {
  if (typeof v['method'] !== 'string' || !METHODS.has(v['method'])) return `"method" one of ${[...METHODS].join(', ')}`;
  if (typeof v['path'] !== 'string' || !v['path'].startsWith('/')) return '"path" a path starting with /';
  if ((version >= 2 || v['auth'] !== undefined) && !(AUTH_VALUES as readonly unknown[]).includes(v['auth'])) return `"auth" one of ${AUTH_VALUES.map((a) => `"${a}"`).join(', ')}${version >= 2 ? ' (version 2 records who made each call)' : ''}`;
  if (v['role'] !== undefined && (typeof v['role'] !== 'string' || !/^[a-z][a-z0-9_-]{0,59}$/.test(v['role']) || v['auth'] !== 'authenticated')) return '"role" a WordPress role name (administrator, contributor...) beside "auth":"authenticated", when present';
  if (!Number.isInteger(v['status']) || (v['status'] as number) < 100 || (v['status'] as number) > 599) return '"status" an HTTP status from 100 to 599';
  if (!isPlainObject(v['headers']) || Object.values(v['headers']).some((h) => typeof h !== 'string')) return '"headers" an object of strings';
  for (const k of ['contentType', 'body', 'code'] as const) if (v[k] !== undefined && typeof v[k] !== 'string') return `"${k}" a string when present`;
  for (const k of ['bodyBytes', 'id'] as const) if (v[k] !== undefined && !Number.isSafeInteger(v[k])) return `"${k}" a whole number when present`;
  return undefined;
}

/** Reads a recording whole; throws CallsFileError at the first line it cannot trust. */
export function readRecording(text: string, file: string): Recording {
  const lines = text.split('\n');
  // A file ends with a newline; the last piece is then empty. Without one, the writer was stopped mid-line.
  const cutShort = lines.at(-1) !== '';
  if (!cutShort) lines.pop();
  const fail = (n: number, what: string): never => {
    throw new CallsFileError(`${file}: line ${n}: ${what}`);
  };
  const parse = (raw: string, n: number): unknown => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return fail(n, n === lines.length && cutShort ? 'cut short (the file ends inside a line): expected a whole JSON line; record again' : 'not JSON: expected one JSON object a line (NDJSON)');
    }
  };
  if (lines.length === 0 || (lines.length === 1 && lines[0] === '')) fail(1, `empty: expected the header line {"format":"${CALLS_FORMAT}","version":${CALLS_VERSION},...}`);
  const head = parse(lines[0]!, 1);
  if (!isPlainObject(head) || head['format'] !== CALLS_FORMAT) fail(1, `expected the header line {"format":"${CALLS_FORMAT}","version":${CALLS_VERSION},...} (a recording of site-contracts mock --record)`);
  const h = head as Record<string, unknown>;
  if (!READABLE_VERSIONS.includes(h['version'] as number)) fail(1, `${CALLS_FORMAT} version ${JSON.stringify(h['version'])}: expected version ${READABLE_VERSIONS.join(' or ')} (record again with this version's mock)`);
  const version = h['version'] as number;
  const calls: RecordedCall[] = [];
  for (let i = 1; i < lines.length; i++) {
    const n = i + 1;
    if (lines[i] === '' && !(n === lines.length && cutShort)) fail(n, 'empty line: expected one JSON object a line');
    const v = parse(lines[i]!, n);
    if (!isPlainObject(v)) fail(n, 'expected a JSON object');
    const o = v as Record<string, unknown>;
    if (typeof o['note'] === 'string' && o['method'] === undefined) continue;
    const problem = callProblem(o, version);
    if (problem) fail(n, `expected a recorded call with ${problem}`);
    calls.push({ ...(o as unknown as CallLine), line: n });
  }
  return { contract: typeof h['contract'] === 'string' ? h['contract'] : '', version, calls };
}
