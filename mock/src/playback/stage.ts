// The deviations a report showed, played as a stage of the mock (core/serve.ts puts it between the control routes
// and the response memo): a table of matchers by operation, built once at start; a request it matches is answered
// as the site answered (or read as the site reads it), every other request goes on as WordPress would answer it. Each
// deviation can be switched off and on while the mock runs (--deviations-skip, POST /__mock/deviation-off/<id>).
import type { Contract } from '../../../contracts/lib/contract.ts';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { andThen, type Work } from '../base/work.ts';
import { callOf, type Call } from './call.ts';
import type { Deviation, Shape, Unplayable } from './derive.ts';

export interface PlayedDeviations {
  /** The report's site, for the page. */
  site: string;
  deviations: readonly Deviation[];
  unplayable: readonly Unplayable[];
  /** Ids switched off at start (--deviations-skip). */
  skip?: readonly string[];
}

export interface DeviationStage {
  serve(mreq: MockRequest, next: (m: MockRequest) => MockResponse | Work<MockResponse>): MockResponse | Work<MockResponse>;
  /** Each deviation and whether it is played now. */
  list(): { deviation: Deviation; on: boolean }[];
  readonly unplayable: readonly Unplayable[];
  readonly site: string;
  /** Switches one on or off; false when no deviation has that id. */
  set(id: string, on: boolean): boolean;
}

function fits(shape: Shape | undefined, call: Call): boolean {
  if (!shape) return true;
  if (shape.signedIn !== call.signedIn) return false;
  if (shape.names.length !== call.params.size || shape.names.some((n) => !call.params.has(n))) return false;
  for (const [k, v] of Object.entries(shape.values)) if (call.params.get(k) !== v) return false;
  for (const [k, v] of Object.entries(shape.path)) if (call.pathParams[k] !== v) return false;
  return true;
}

/** `filter-ignored`'s shape is the parameter's presence alone: every request carrying it is read without it. */
const carries = (d: Deviation, call: Call): boolean => (d.params ?? []).some((p) => call.params.has(p));

function withoutParams(mreq: MockRequest, params: readonly string[]): MockRequest {
  const q = mreq.url.indexOf('?');
  if (q < 0) return mreq;
  const kept = mreq.url.slice(q + 1).split('&').filter((pair) => {
    const name = decodeURIComponent((pair.split('=')[0] ?? '').replace(/\+/g, ' '));
    const top = name.includes('[') ? name.slice(0, name.indexOf('[')) : name;
    return !params.includes(top);
  });
  return { ...mreq, url: mreq.url.slice(0, q) + (kept.length ? `?${kept.join('&')}` : '') };
}

/** The JSON answer with `edit` applied to each record (the object, or each item of a list); undefined if not JSON. */
function editRecords(res: MockResponse, edit: (rec: Record<string, unknown>) => boolean): MockResponse | undefined {
  if (res.status >= 300 || !res.body.startsWith('{') && !res.body.startsWith('[')) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch {
    return undefined;
  }
  const records = Array.isArray(doc) ? doc : [doc];
  let changed = false;
  for (const r of records) if (r && typeof r === 'object' && edit(r as Record<string, unknown>)) changed = true;
  if (!changed) return undefined;
  const { bodyBytes: _stale, ...rest } = res;
  return { ...rest, body: JSON.stringify(doc) };
}

function atField(rec: Record<string, unknown>, at: readonly string[], leaf: (holder: Record<string, unknown>, key: string) => boolean): boolean {
  let holder: unknown = rec;
  for (const s of at.slice(0, -1)) holder = (holder as Record<string, unknown> | undefined)?.[s];
  return holder !== null && typeof holder === 'object' && leaf(holder as Record<string, unknown>, at[at.length - 1]!);
}

const tagged = (res: MockResponse, id: string): MockResponse => ({ ...res, deviation: res.deviation ? `${res.deviation} ${id}` : id });

function played(d: Deviation, mreq: MockRequest, next: (m: MockRequest) => MockResponse | Work<MockResponse>): MockResponse | Work<MockResponse> {
  if (d.answer) {
    const head = mreq.method.toUpperCase() === 'HEAD';
    return { status: d.answer.status, headers: { 'Content-Type': d.answer.contentType }, body: head ? '' : d.answer.body, deviation: d.id };
  }
  // Read as the site reads it: the parameter is validated (the site's report shows refusals of bad values as
  // WordPress's), then not applied: a refused request keeps its refusal, an accepted one is answered without it.
  if (d.params) return andThen(next(mreq), (first) => (first.status >= 400 ? first : andThen(next(withoutParams(mreq, d.params!)), (res) => tagged(res, d.id))));
  if (d.header) {
    return andThen(next(mreq), (res) => {
      const key = Object.keys(res.headers).find((k) => k.toLowerCase() === d.header!.toLowerCase());
      if (key === undefined) return res;
      const headers = { ...res.headers };
      delete headers[key];
      return tagged({ ...res, headers }, d.id);
    });
  }
  const field = d.field!;
  const edit = d.kind === 'field-absent'
    ? (r: Record<string, unknown>) => atField(r, field.at, (h, k) => Object.hasOwn(h, k) && delete h[k])
    : (r: Record<string, unknown>) => atField(r, field.at, (h, k) => Object.hasOwn(h, k) && ((h[k] = field.value), true));
  return andThen(next(mreq), (res) => {
    const out = editRecords(res, edit);
    return out ? tagged(out, d.id) : res;
  });
}

export function deviationStage(contract: Contract, input: PlayedDeviations): DeviationStage {
  const byOperation = new Map<string, Deviation[]>();
  for (const d of input.deviations) byOperation.set(d.operationId, [...(byOperation.get(d.operationId) ?? []), d]);
  const off = new Set(input.skip ?? []);
  return {
    site: input.site,
    unplayable: input.unplayable,
    serve(mreq, next) {
      const call = callOf(contract, mreq);
      const candidates = call && byOperation.get(call.op.id);
      const matching = candidates?.filter((x) => !off.has(x.id) && (x.kind === 'filter-ignored' ? carries(x, call!) : fits(x.shape, call!))) ?? [];
      // A recorded answer is the site's whole answer to that shape; otherwise every rereading and reshaping applies.
      const answering = matching.find((x) => x.answer !== undefined);
      if (answering) return played(answering, mreq, next);
      let through = next;
      for (const d of matching) {
        const inner = through;
        through = (m) => played(d, m, inner);
      }
      return through(mreq);
    },
    list: () => input.deviations.map((deviation) => ({ deviation, on: !off.has(deviation.id) })),
    set(id, on) {
      if (!input.deviations.some((d) => d.id === id)) return false;
      if (on) off.delete(id);
      else off.add(id);
      return true;
    },
  };
}
