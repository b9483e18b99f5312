// The mock's log, one line per request as Prism prints them: method, path with query, status, time, and for an
// error the WordPress code and the parameters it names. `--log info` (the default, wherever it writes) prints that
// line, `debug` adds the request's headers and body size, `quiet` nothing; secrets hidden as on the mock's page
// (redact.ts). Colour only on a terminal, and never with NO_COLOR. A wrapper around the node:http handler: the core
// stays unaware.
import type { MockRequest, MockResponse } from '../core/types.ts';
import { formatMs, recordOf, type RequestRecord } from '../request-record.ts';
import { headersShown } from '../redact.ts';
import type { LogLevel } from '../cli-args.ts';
import type { Handle } from './node-http.ts';

interface RequestLogOptions {
  level: LogLevel;
  write(line: string): void;
  color: boolean;
  now?: () => Date;
  /** Milliseconds since some fixed point, for durations. */
  clock?: () => number;
}

const paint = (on: boolean, code: number, text: string): string => (on ? `\x1b[${code}m${text}\x1b[0m` : text);

function statusColor(status: number): number {
  if (status >= 500) return 31; // red
  if (status >= 400) return 33; // yellow
  if (status >= 300) return 36; // cyan
  return 32; // green
}

/** The line for one request: `12:04:05 GET /wp-json/cal/v1/events?per_page=101 400 rest_invalid_param (per_page) 3 ms`. */
export function formatLine(r: RequestRecord, color: boolean): string {
  const time = r.at.slice(11, 19);
  const error = r.code ? ` ${r.code}${r.params?.length ? ` (${r.params.join(', ')})` : ''}` : '';
  const deviation = r.deviation ? ` ${paint(color, 35, `deviation ${r.deviation}`)}` : '';
  return `${paint(color, 2, time)} ${paint(color, 1, r.method.padEnd(6))} ${r.path} ${paint(color, statusColor(r.status), String(r.status))}${paint(color, statusColor(r.status), error)}${deviation} ${paint(color, 2, formatMs(r.ms))}`;
}

function debugLine(req: MockRequest): string {
  const headers = headersShown(req.headers).map(([k, v]) => `${k}: ${v}`);
  return `         ${headers.join('; ')}${req.body !== undefined ? `; body ${typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.byteLength} bytes` : ''}`;
}

export function withRequestLog(handle: Handle, o: RequestLogOptions): Handle {
  if (o.level === 'quiet') return handle;
  const now = o.now ?? (() => new Date());
  const clock = o.clock ?? (() => performance.now());
  const log = (req: MockRequest, res: MockResponse, at: Date, t0: number): MockResponse => {
    o.write(formatLine(recordOf(req, res, at, clock() - t0), o.color));
    if (o.level === 'debug') o.write(debugLine(req));
    return res;
  };
  return (req) => {
    const at = now();
    const t0 = clock();
    const out = handle(req);
    return out instanceof Promise ? out.then((res) => log(req, res, at, t0)) : log(req, out, at, t0);
  };
}
