// `--record calls.ndjson`: one line per REST call a frontend makes to the mock, for `site-contracts test --calls` to
// replay against staging. The format (version 2, documented in mock/README.md) keeps what a client sends and what it
// reads back, and who sent it (anonymous, or authenticated with the user's role when the mock knows the user: the
// mock's identityOf()), never credentials. The format itself (header line, call lines, shape) is contracts/lib/calls-format.ts,
// whose reader the suite uses. Here: `body` (the request's, secrets hidden as on the mock's page: redact.ts) when it had one of at most 64 KiB, else
// `bodyBytes`; `code` for a WordPress error; `id` for the record an answer holds (so a replay can map it to a record
// of its own); `shape`: the answer's JSON as types, a list by its first item, 4 levels deep. The file stops growing at
// `maxBytes` (a note is written instead): a frontend left running all day does not fill the disk.
import type { MockRequest, MockResponse } from './core/types.ts';
import type { Handle } from './adapters/node-http.ts';
import { bodyShown, urlShown } from './redact.ts';
import { CONTROL_PREFIX } from './core/control.ts';
import { callsHeader, shapeOf, type CallIdentity, type CallLine } from '../../contracts/lib/calls-format.ts';

export { CALLS_FORMAT } from '../../contracts/lib/calls-format.ts';

/** The headers a client reads of an answer: the list's totals, the created record's address, the pages. */
const READ_HEADERS = ['X-WP-Total', 'X-WP-TotalPages', 'Location', 'Link', 'Content-Type'];
const DEFAULT_RECORD_MAX_BYTES = 32 * 1024 * 1024;

const isRestCall = (url: string): boolean => !url.startsWith(CONTROL_PREFIX) && (/^(\/[a-z]{2})?\/wp-json(\/|$|\?)/.test(url) || /[?&]rest_route=/.test(url));

/**
 * Who made a call when no mock is asked: credentials sent or not. The mock's own identityOf() knows better (credentials
 * that do not check out leave a request anonymous, as on WordPress, and it knows the user's role).
 */
const byHeaders = (req: MockRequest): CallIdentity => ({ auth: req.headers['authorization'] ? 'authenticated' : 'anonymous' });

function callLine(req: MockRequest, res: MockResponse, identityOf: (req: MockRequest) => CallIdentity): string | undefined {
  if (!isRestCall(req.url)) return undefined;
  const sent: Pick<CallLine, 'contentType' | 'body' | 'bodyBytes'> = {};
  if (req.body !== undefined && req.body.length > 0) {
    const bytes = typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.byteLength;
    const shown = bodyShown(req.body, req.headers['content-type'], bytes);
    if (shown && 'text' in shown) {
      const type = req.headers['content-type'];
      if (type !== undefined) sent.contentType = type;
      sent.body = shown.text;
    } else sent.bodyBytes = bytes;
  }
  const headers: Record<string, string> = {};
  const line: CallLine = { method: req.method.toUpperCase(), path: urlShown(req.url), ...identityOf(req), ...sent, status: res.status, headers };
  for (const h of READ_HEADERS) {
    const key = Object.keys(res.headers).find((k) => k.toLowerCase() === h.toLowerCase());
    if (key !== undefined) headers[h] = res.headers[key]!;
  }
  if (res.body.startsWith('{') || res.body.startsWith('[')) {
    try {
      const doc = JSON.parse(res.body) as unknown;
      if (res.status >= 400 && doc && typeof doc === 'object' && typeof (doc as { code?: unknown }).code === 'string') line.code = (doc as { code: string }).code;
      else if (doc && typeof doc === 'object' && !Array.isArray(doc) && typeof (doc as { id?: unknown }).id === 'number') line.id = (doc as { id: number }).id;
      line.shape = shapeOf(doc);
    } catch {
      // Not JSON after all: the status and headers are what a client reads.
    }
  }
  return JSON.stringify(line);
}

interface RecordSink {
  write(line: string): void;
}

/**
 * The handler that also writes each REST call's line to `sink`, up to `maxBytes` in all (the header line included).
 * `identityOf`: who made a request (the mock's); without it, whether it carried credentials.
 */
export function withCallRecord(handle: Handle, sink: RecordSink, header: { contract: string; identityOf?: (req: MockRequest) => CallIdentity }, maxBytes = DEFAULT_RECORD_MAX_BYTES): Handle {
  const identityOf = header.identityOf ?? byHeaders;
  const first = callsHeader(header.contract);
  sink.write(`${first}\n`);
  let written = first.length + 1;
  let full = false;
  const record = (req: MockRequest, res: MockResponse): MockResponse => {
    if (full) return res;
    const line = callLine(req, res, identityOf);
    if (line === undefined) return res;
    const bytes = Buffer.byteLength(line) + 1;
    if (written + bytes > maxBytes) {
      full = true;
      sink.write(`${JSON.stringify({ note: `recording stopped at ${maxBytes} bytes` })}\n`);
      return res;
    }
    written += bytes;
    sink.write(`${line}\n`);
    return res;
  };
  return (req) => {
    const out = handle(req);
    return out instanceof Promise ? out.then((res) => record(req, res)) : record(req, out);
  };
}
