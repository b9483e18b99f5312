// `--format har`: the run's requests and answers as an HTTP Archive (HAR 1.2), which browsers' devtools, proxies
// and HAR viewers open. It is written from the same redacted, size-limited run as every report (write.ts), so a
// secret is blanked here as everywhere. One entry per case that sent a request, in run order; the case's id,
// check and status ride in each entry's `comment`. Cases carry no clock time of their own, so every entry starts
// at the run's start and `time` is the case's duration.
import type { CaseResult, RunResult } from './model.ts';

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

function entryOf(c: CaseResult, startedAt: string): object | undefined {
  const req = c.request;
  if (!req) return undefined;
  const res = c.response;
  const requestBody = req.body === undefined ? undefined : { mimeType: headerOf(req.headers, 'content-type') ?? 'application/octet-stream', text: req.body };
  const time = Math.max(0, c.durationMs);
  return {
    startedDateTime: startedAt,
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
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(res?.headers ?? {}),
      content: {
        size: res?.bodyBytes ?? (res?.body === undefined ? 0 : Buffer.byteLength(res.body)),
        mimeType: (res && headerOf(res.headers, 'content-type')) ?? '',
        ...(res?.body !== undefined ? { text: res.body } : {}),
        ...(res?.bodyTruncated ? { comment: 'cut to the report limit by site-contracts' } : {}),
      },
      redirectURL: (res && headerOf(res.headers, 'location')) ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    comment: `${c.id} ${c.status}${c.message ? `: ${c.message.split('\n', 1)[0]}` : ''}`,
  };
}

export function renderHar(run: RunResult): string {
  const entries = run.cases.map((c) => entryOf(c, run.startedAt)).filter((e) => e !== undefined);
  const har = {
    log: {
      version: '1.2',
      creator: { name: run.tool.name, version: run.tool.version },
      pages: [],
      entries,
      comment: `${run.tool.name} run against ${run.target.baseUrl}, seed ${run.seed}: ${run.summary.verdict}`,
    },
  };
  return JSON.stringify(har, null, 1) + '\n';
}
