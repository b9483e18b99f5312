// `--format har`: the run's requests and answers as an HTTP Archive (HAR 1.2), which browsers' devtools, proxies
// and HAR viewers open. It is written from the same redacted run as every report (write.ts), so a secret is blanked
// here as everywhere, but with room for the answers a HAR is opened to see: every case's body, up to 64 KiB each
// and 32 MiB in all (model.ts ARCHIVED_BODY_LIMIT, ARCHIVED_BODIES_BYTES), `content.size` the body's whole size and
// a `comment` where it was cut or left out. One entry per case that sent a request, in the order the requests went
// out (startedDateTime, as the spec prefers); the case's id, check and status ride in each entry's `comment`.
// Several cases may judge one request (negative_rejection and error_envelope the same answer): it is one entry, its
// comment naming each, since a HAR lists what went over the wire. Written without indentation, which a viewer does
// not need and which was a fifth of the file.
// HTTP/1.1 answers need not carry a reason phrase (RFC 9112 §4), and undici does not pass one on, so statusText is
// the standard one for the code.
import { STATUS_CODES } from 'node:http';
import { ARCHIVED_BODIES_BYTES, ARCHIVED_BODY_LIMIT, type CaseResult, type RecordedResponse, type RunResult } from './model.ts';

interface NameValue {
  name: string;
  value: string;
}

const pairs = (headers: Record<string, string>): NameValue[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const KIB = 1024;

/** HAR's `content`: the body as kept, its whole size, and a comment where the HAR holds less than the whole. */
function contentOf(res: RecordedResponse | undefined): object {
  if (!res) return { size: 0, mimeType: '' };
  const mimeType = headerOf(res.headers, 'content-type') ?? '';
  const declared = Number(headerOf(res.headers, 'content-length'));
  const size = res.bodyBytes ?? (res.body !== undefined ? Buffer.byteLength(res.body) : Number.isSafeInteger(declared) ? declared : 0);
  if (res.body === undefined) {
    if (!res.bodyTruncated && size === 0) return { size, mimeType };
    return { size, mimeType, comment: `body not kept: site-contracts keeps up to ${ARCHIVED_BODY_LIMIT / KIB} KiB of each answer and ${ARCHIVED_BODIES_BYTES / KIB / KIB} MiB in all` };
  }
  if (!res.bodyTruncated) return { size, mimeType, text: res.body };
  return { size, mimeType, text: res.body, _truncated: true, comment: `cut by site-contracts to its first ${Buffer.byteLength(res.body)} of ${size} bytes` };
}

/** What this module reads of an entry it wrote; the rest is HAR 1.2's. */
interface Entry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; postData?: { text: string }; [field: string]: unknown };
  response: { status: number; content: { text?: string }; [field: string]: unknown };
  comment: string;
  [field: string]: unknown;
}

function entryOf(c: CaseResult, runStartedAt: string): Entry | undefined {
  const req = c.request;
  if (!req) return undefined;
  const res = c.response;
  const requestBody = req.body === undefined ? undefined : { mimeType: headerOf(req.headers, 'content-type') ?? 'application/octet-stream', text: req.body };
  const time = Math.max(0, c.durationMs);
  return {
    // A request never sent (refused by the write policy, past the budget) has no time of its own.
    startedDateTime: c.startedAt ?? runStartedAt,
    time,
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers),
      queryString: queryOf(req.url),
      ...(requestBody ? { postData: requestBody } : {}),
      headersSize: -1,
      bodySize: req.body === undefined ? 0 : Buffer.byteLength(req.body),
    },
    // No answer (a timeout, a refused connection): HAR's convention is status 0.
    response: {
      status: res?.status ?? 0,
      statusText: res ? (STATUS_CODES[res.status] ?? '') : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(res?.headers ?? {}),
      content: contentOf(res),
      redirectURL: (res && headerOf(res.headers, 'location')) ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    comment: `${c.id} ${c.status}${c.message ? `: ${c.message.split('\n', 1)[0]}` : ''}`,
  };
}

/** Cases judged by one exchange share its start, time, request and status (and two requests alike in all of them are one to a reader too). */
const exchangeKey = (e: Entry): string => JSON.stringify([e.startedDateTime, e.time, e.request.method, e.request.url, e.request.postData?.text, e.response.status]);

/** One entry per exchange: the first case's, with every case's comment and the body one of them kept. */
function oneEntryPerExchange(entries: readonly Entry[]): Entry[] {
  const byKey = new Map<string, Entry>();
  for (const e of entries) {
    const key = exchangeKey(e);
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, e);
    else {
      seen.comment += `\n${e.comment}`;
      if (seen.response.content.text === undefined && e.response.content.text !== undefined) seen.response.content = e.response.content;
    }
  }
  return [...byKey.values()];
}

export function renderHar(run: RunResult): string {
  // ISO 8601 times in UTC sort as text; the sort is stable, so requests of one millisecond keep the run's order.
  const entries = oneEntryPerExchange(run.cases.map((c) => entryOf(c, run.startedAt)).filter((e) => e !== undefined)).sort((a, b) =>
    a.startedDateTime < b.startedDateTime ? -1 : a.startedDateTime > b.startedDateTime ? 1 : 0,
  );
  const har = {
    log: {
      version: '1.2',
      creator: { name: run.tool.name, version: run.tool.version },
      pages: [],
      entries,
      comment: `${run.tool.name} run against ${run.target.baseUrl}, seed ${run.seed}: ${run.summary.verdict}`,
    },
  };
  return JSON.stringify(har) + '\n';
}
