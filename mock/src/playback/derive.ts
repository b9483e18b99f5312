// From a run report's failed cases to the deviations the mock can play: each derived from the case's evidence (the
// request the suite sent and the answer the site gave), never written by hand. What kind of deviation a case shows
// is the case's own `deviation` (report version 2: the suite's check says it through its registry row), never read
// off a check's name, so the mock knows no list of the suite's checks. A case whose evidence does not say what the
// site did, or says it only about records of that site, is listed with the reason instead.
//
//   case's kind     evidence                                         played as
//   route-missing   404 rest_no_route                                 the method and route answer 404 rest_no_route
//   status          another status or error code for a request        requests of that shape get the recorded error
//   value-refused   a valid value answered 4xx naming its parameter   requests with that value get the recorded error
//   server-error    a 5xx                                             requests of that exact shape get the recorded 5xx
//   field           a success without a field the contract requires   the field is removed from that operation's answers
//                   (field-absent), or with one of another type       (field-type) the field holds the recorded value
//   filter-ignored  the case's parameters in the request              the parameter is dropped before the mock reads it
//   header          the case's headers, one absent from the answer    the header is removed from that operation's answers
//
// A request's shape is its operation, the names of its query and body parameters, and the values the evidence ties
// the deviation to (the parameters an error names, the path's among them only when named; every value and the
// path's for a 5xx or an error that names no parameter), and whether it was
// sent with credentials: narrower than the
// site may be, so that nothing is played where the evidence does not reach.
import type { Contract } from '../../../contracts/lib/contract.ts';
import type { ReportCase } from './report-reader.ts';
import { callOf, type Call } from './call.ts';

type DeviationKind = 'no-route' | 'status' | 'value-refused' | 'server-error' | 'field-absent' | 'field-type' | 'filter-ignored' | 'header-missing';

/** Which requests a deviation touches besides its operation: all of these names present, these values equal. */
export interface Shape {
  names: string[];
  values: Record<string, string>;
  path: Record<string, string>;
  /** Sent with credentials or without: a refusal of the anonymous is not the signed-in user's answer. */
  signedIn: boolean;
}

export interface Deviation {
  /** Stable for the same evidence: kind, operation and what is deviated (`field-absent:calV1.events.read:cost`). */
  id: string;
  kind: DeviationKind;
  operationId: string;
  method: string;
  path: string;
  shape?: Shape;
  /** The recorded answer (no-route, status, value-refused, server-error). */
  answer?: { status: number; body: string; contentType: string };
  /** JSON pointer segments of the field, and for field-type the recorded value. */
  field?: { at: string[]; value?: unknown };
  /** The parameters the site does not apply (filter-ignored). */
  params?: string[];
  /** The header the site leaves out (header-missing). */
  header?: string;
  /** One line for people: what the site does. */
  summary: string;
  /** The report's cases it came from. */
  cases: string[];
}

export interface Unplayable {
  caseId: string;
  reason: string;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable name for a request shape. */
function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function header(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

function jsonOf(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** `[first, ...` of a list cut short: `[first]` when the first element is whole in `body`, else undefined. */
function firstItemOf(body: string | undefined): unknown[] | undefined {
  if (body === undefined || !body.startsWith('[')) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 1; i < body.length; i++) {
    const ch = body[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) {
        const item = jsonOf(body.slice(1, i + 1));
        return item === undefined ? undefined : [item];
      }
    }
  }
  return undefined;
}

function wpErrorOf(body: string | undefined): { code: string; params: string[] } | undefined {
  const doc = jsonOf(body) as { code?: unknown; data?: { params?: unknown } } | undefined;
  if (!doc || typeof doc !== 'object' || typeof doc.code !== 'string') return undefined;
  const p = doc.data?.params;
  return { code: doc.code, params: p && typeof p === 'object' && !Array.isArray(p) ? Object.keys(p) : [] };
}

function shapeOf(call: Call, valuesOf: readonly string[] | 'all', pathOf: readonly string[] | 'all' = 'all'): Shape {
  const names = [...call.params.keys()].sort();
  const values: Record<string, string> = {};
  for (const n of valuesOf === 'all' ? names : valuesOf) {
    const v = call.params.get(n);
    if (v !== undefined) values[n] = v;
  }
  const path = Object.fromEntries(Object.entries(call.pathParams).filter(([k]) => pathOf === 'all' || pathOf.includes(k)));
  return { names, values, path, signedIn: call.signedIn };
}

/** Where a failed case's evidence leads: a deviation, or the reason none can be played. */
function deriveOne(c: ReportCase, contract: Contract): Omit<Deviation, 'cases'> | string {
  if (!c.deviation) return 'the case names no kind of deviation (no answer showed one)';
  if ('unknown' in c.deviation) return `the case's kind of deviation "${c.deviation.unknown}" is not one this mock plays (a report of a newer site-contracts?)`;
  const kind = c.deviation.kind;
  if (!c.request || !c.response) return 'the case recorded no request and answer';
  const call = callOf(contract, c.request);
  if (!call) return `${c.request.method} ${c.request.url} is no operation of the contract`;
  const { op } = call;
  const base = { operationId: op.id, method: op.method, path: op.path };
  const res = c.response;
  const contentType = header(res.headers, 'content-type') ?? 'application/json; charset=UTF-8';
  const err = res.status >= 400 ? wpErrorOf(res.body) : undefined;
  // The kind and the answer agree, or the evidence says too little to play (a hand-edited or foreign report).
  const expects: Record<typeof kind, (s: number) => boolean> = {
    'route-missing': () => true,
    'server-error': (s) => s >= 500,
    status: (s) => s >= 400 && s < 500,
    'value-refused': (s) => s >= 400 && s < 500,
    'filter-ignored': (s) => s < 400,
    header: (s) => s < 400,
    field: (s) => s < 400,
  };
  if (!expects[kind](res.status)) return `the case says ${kind} but its answer is ${res.status}: not played`;

  if (kind === 'route-missing') {
    if (res.status === 404 && err?.code === 'rest_no_route') {
      return { ...base, id: `no-route:${op.id}`, kind: 'no-route', answer: { status: 404, body: res.body!, contentType }, summary: `${op.method} ${op.path}: no route (404 rest_no_route)` };
    }
    return `the route answered ${res.status}${err ? ` ${err.code}` : ''}: not a missing route`;
  }
  if (kind === 'server-error') {
    if (res.bodyTruncated) return 'the 5xx answer was cut short in the report';
    const shape = shapeOf(call, 'all');
    return { ...base, id: `server-error:${op.id}:${res.status}-${shortHash(JSON.stringify(shape))}`, kind: 'server-error', shape, answer: { status: res.status, body: res.body ?? '', contentType }, summary: `${op.method} ${op.path} with ${shape.names.join(', ') || 'no parameters'}: ${res.status}` };
  }
  if (kind === 'status' || kind === 'value-refused') {
    if (!err) return `a ${res.status} without WordPress's error body: not played`;
    const named = err.params.length > 0;
    // A list page past the site's end refused (TEC's archive-page-not-found): whether page N is past the end depends on
    // how many records the site holds, and the playing mock holds others (its own, and those a run makes): played on
    // the page number alone, a page the mock does hold was refused (CI's quirky site: organizers page 48 of 2 a page).
    const page = Number(call.params.get('page'));
    if (!named && op.params.some((p) => p.in === 'query' && p.name === 'page') && page > 1) {
      return `a ${res.status} ${err.code} to page ${page}, naming no parameter: whether that page is past the end depends on how many records the site holds, which the mock's are not`;
    }
    const valueRefused = kind === 'value-refused' && named;
    // An error that names its parameters ties the answer to their values (a path's `id` among them when it names it),
    // not to the record the path names otherwise. One that names none (a refusal of who asks, a record not found) is
    // tied to the request as sent, the record included: its other values may be what the site judged first, and a
    // refusal of the anonymous is not always the same for every record (CI's quirky site refuses an anonymous update
    // of one record 403 and of another 400: played for any record, 7 findings came back that the site never showed).
    const shape = shapeOf(call, named ? err.params : 'all', named ? err.params : 'all');
    const played = valueRefused ? 'value-refused' : 'status';
    const what = valueRefused ? err.params.map((p) => `${p}=${call.params.get(p) ?? ''}`).join(', ') : shape.names.join(', ') || 'no parameters';
    return { ...base, id: `${played}:${op.id}:${res.status}-${err.code}-${shortHash(JSON.stringify(shape))}`, kind: played, shape, answer: { status: res.status, body: res.body!, contentType }, summary: `${op.method} ${op.path} with ${what}: ${res.status} ${err.code}` };
  }
  if (kind === 'filter-ignored') {
    const filtered = c.deviation.params;
    const params = filtered.filter((p) => call.params.has(p));
    if (params.length === 0) return `${c.check}: the request carries none of ${filtered.join(', ') || '(no parameters named)'}`;
    return { ...base, id: `filter-ignored:${op.id}:${params.join('+')}`, kind: 'filter-ignored', params, shape: shapeOf(call, []), summary: `${op.method} ${op.path}: ${params.join(', ')} not applied` };
  }
  if (kind === 'header') {
    const missing = c.deviation.headers.find((h) => header(res.headers, h) === undefined);
    if (!missing) return `${c.check}: every header it reads is in the answer; their values differ, which is not played`;
    return { ...base, id: `header-missing:${op.id}:${missing}`, kind: 'header-missing', header: missing, summary: `${op.method} ${op.path}: no ${missing} header` };
  }
  // A list cut short in the report (4 KiB kept) still holds its first record whole, most often: that is the evidence.
  const doc = res.bodyTruncated ? firstItemOf(res.body) : jsonOf(res.body);
  if (doc === undefined && res.bodyTruncated) return 'the answer body was cut short in the report before its first record ended: which field deviates cannot be read';
  if (doc === undefined) return 'the answer is not JSON';
  const check = contract.responseCheck(op, String(res.status)) ?? contract.responseCheck(op, '2XX');
  const issue = check?.(doc).find((e) => e.keyword === 'required' || e.keyword === 'type');
  if (!issue) return `${c.check}: the answer fits the contract's schema; what the check judged (state, order, values) is not in one answer`;
  const at = issue.instancePath.split('/').slice(1).filter((s, i) => !(i === 0 && Array.isArray(doc) && /^\d+$/.test(s)));
  if (issue.keyword === 'required') {
    const name = String((issue.params as { missingProperty?: unknown }).missingProperty);
    const field = [...at, name];
    return { ...base, id: `field-absent:${op.id}:${field.join('.')}`, kind: 'field-absent', field: { at: field }, summary: `${op.method} ${op.path}: no ${field.join('.')} field` };
  }
  if (at.length === 0) return `${c.check}: the whole answer is of another type than the contract's (${issue.message ?? issue.keyword}): not played, it would stand for every answer of the operation`;
  let value: unknown = Array.isArray(doc) ? doc[Number(issue.instancePath.split('/')[1])] : doc;
  for (const s of at) value = (value as Record<string, unknown> | undefined)?.[s];
  return { ...base, id: `field-type:${op.id}:${at.join('.')}`, kind: 'field-type', field: { at, value }, summary: `${op.method} ${op.path}: ${at.join('.')} is ${JSON.stringify(value)}` };
}

/** The report's failed and warned cases as deviations (one per id, with every case that led to it) and what cannot be played. */
export function deriveDeviations(cases: readonly ReportCase[], contract: Contract): { played: Deviation[]; unplayable: Unplayable[] } {
  const played = new Map<string, Deviation>();
  const unplayable: Unplayable[] = [];
  for (const c of cases) {
    // A warned case is a deviation the policy only warns of (a response shape the documents never showed): the site
    // has it all the same, so the frontend meets it.
    if (c.status !== 'failed' && c.status !== 'warned') continue;
    const d = deriveOne(c, contract);
    if (typeof d === 'string') unplayable.push({ caseId: c.id, reason: d });
    else {
      const known = played.get(d.id);
      if (known) known.cases.push(c.id);
      else played.set(d.id, { ...d, cases: [c.id] });
    }
  }
  return { played: [...played.values()], unplayable };
}
