// The deviations a report showed, played as a stage of the mock (core/serve.ts puts it between the control routes
// and the response memo): a table of matchers by operation, built once at start; a request it matches is answered
// as the site answered (or read as the site reads it), every other request goes on as WordPress would answer it. Each
// deviation can be switched off and on while the mock runs (--deviations-skip, POST /__mock/deviation-off/<id>).
// A recorded answer and a record's edits are handed to the pipeline (core/types.ts Played), which builds, encodes and
// heads them as every other answer (wp_json_encode(), serve_request()'s headers): the site's deviation, nothing else.
import type { Contract } from '../../../contracts/lib/contract.ts';
import type { MockRequest, MockResponse, Played } from '../core/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
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

/** The rest of the way: the mock's answer to a request, with what a played deviation asks of it. */
type Next = (m: MockRequest, play?: Played) => MockResponse | Work<MockResponse>;

export interface DeviationStage {
  serve(mreq: MockRequest, next: Next): MockResponse | Work<MockResponse>;
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

/**
 * `holder` with the field at `at` removed or set by `leaf`, copied along the way (the data is the handlers', shared
 * with their memos); undefined when the path is not there or nothing changed.
 */
function withField(holder: unknown, at: readonly string[], leaf: (h: Record<string, unknown>, key: string) => Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!isPlainObject(holder) || at.length === 0) return undefined;
  const [key, ...rest] = at as [string, ...string[]];
  if (rest.length === 0) return leaf(holder, key);
  const inner = withField(holder[key], rest, leaf);
  return inner === undefined ? undefined : { ...holder, [key]: inner };
}

/** A field deviation as an edit of the answer's data (the record, or each record of a list): the edited copy or undefined. */
function fieldEdit(d: Deviation): (data: unknown) => unknown {
  const field = d.field!;
  const leaf = d.kind === 'field-absent'
    ? (h: Record<string, unknown>, k: string) => {
        if (!Object.hasOwn(h, k)) return undefined;
        const { [k]: _gone, ...rest } = h;
        return rest;
      }
    : (h: Record<string, unknown>, k: string) => (Object.hasOwn(h, k) ? { ...h, [k]: field.value } : undefined);
  return (data) => {
    if (!Array.isArray(data)) return withField(data, field.at, leaf);
    let changed = false;
    const out = data.map((rec) => {
      const e = withField(rec, field.at, leaf);
      if (e === undefined) return rec;
      changed = true;
      return e;
    });
    return changed ? out : undefined;
  };
}

const tagged = (res: MockResponse, id: string): MockResponse => ({ ...res, deviation: res.deviation ? `${res.deviation} ${id}` : id });

/** A deviation that rereads the request or reshapes the answer's headers, around the rest of the way. */
function played(d: Deviation, mreq: MockRequest, next: (m: MockRequest) => MockResponse | Work<MockResponse>): MockResponse | Work<MockResponse> {
  // Read as the site reads it: the parameter is validated (the site's report shows refusals of bad values as
  // WordPress's), then not applied: a refused request keeps its refusal, an accepted one is answered without it.
  if (d.params) return andThen(next(mreq), (first) => (first.status >= 400 ? first : andThen(next(withoutParams(mreq, d.params!)), (res) => tagged(res, d.id))));
  return andThen(next(mreq), (res) => {
    const key = Object.keys(res.headers).find((k) => k.toLowerCase() === d.header!.toLowerCase());
    if (key === undefined) return res;
    const headers = { ...res.headers };
    delete headers[key];
    return tagged({ ...res, headers }, d.id);
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
      if (answering) return andThen(next(mreq, { answer: answering.answer! }), (res) => tagged(res, answering.id));
      // Field edits go into the pipeline with the request; rereadings and header removals wrap it.
      const edits = matching.filter((x) => x.field !== undefined).map((x) => ({ id: x.id, edit: fieldEdit(x) }));
      const play: Played | undefined = edits.length ? { edits } : undefined;
      let through = (m: MockRequest): MockResponse | Work<MockResponse> => next(m, play);
      for (const d of matching) {
        if (d.field !== undefined) continue;
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
