// positive_acceptance: requests the documents call valid are accepted.
//
// Two phases, the edge phase first. Edges (contracts/lib/arbitraries/edges.ts) are fixed: each operation's
// minimal request (required parameters only: a cal/v1 create with no field at all) and a full one, every
// valid value at a bound (per_page 1 and 100, 25 batch items), and the coverage phase (singles.ts): each
// optional parameter alone, every enum value, 0 and "" where the documents allow them; one case each. A
// request refused naming another parameter than its case's is sent once more without it (retry.ts). Then --runs random requests carrying
// every parameter, one case per parameter. All values are plausible (words, URLs, numeric IDs where the schema
// leaves text free, integers within 1..100 where it gives no bound), and parameters that name records get ids
// the target lists (references.ts): a value that is valid by the documents and for this site.
//
// A parameter fails when a 400 names it (rest_invalid_param, rest_missing_callback_param). It fails as
// documented only when a sentence of the documents makes the value valid: a refusal of a value the documents
// leave open (an untyped parameter, "allowed values: not shown", "ID or URL", a parameter tied to an absent
// extension, a bound they never give), of an id that may name nothing, or of a value another reading of an
// x-contradictions mark refuses, is held as assumed, with the reason. A case none of whose requests was
// accepted (all 404, 401, or refused for another parameter) is inconclusive: it never passes on nothing. An edge
// answered with WordPress core's own server error for it (an empty term name: 500 empty_term_name, kit/core_answers.ts)
// is held as assumed with that reason, like core's own 400s for an empty name.
//
// Reads are always sent, and so are actions the documents describe as reads (a POST named get..., validate...,
// search...: describedAsReading()), with credentials. Writes only where the suite can undo them: creating, changing
// and deleting calendar records of its own, with credentials and without --read-only. Other writes (settings, plugins, imports)
// would change the site in ways the suite cannot take back, so they are skipped (counted by reason at the run's end),
// unless --disposable-target says the site is restored after the run: then they are sent as planned.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation, ParamLocation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { edgeCases, toTyped, type EdgeCase } from '../../../contracts/lib/arbitraries/index.ts';
import { SAFE_METHODS, jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Outcome } from '../report/policy.ts';
import { createdId } from './kit/ledger.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { sentParams, toOutgoing, validRequests, withBody, withPath, type WireRequest } from './kit/generate.ts';
import { openValue, otherReadingRefuses, otherReadingRequires } from './kit/marks.ts';
import { orderedEventDates, refKey, referenceFields, referenceValues, withReferences, type ReferenceField, type ReferenceValues } from './kit/references.ts';
import { answers, collapsing, refusedForWho, unknowables } from './kit/identifiers.ts';
import { createOwn, listRecords, resourceFor, type CalendarResource } from './kit/resources.ts';
import { retryWithout } from './kit/retry.ts';
import { builtOnCoreControllers, wordpressOwnServerError } from './kit/core_answers.ts';
import { blamedParams, describeAnswer, refusedForPermission, sourceOf, transportOutcome, wpError } from './kit/wp.ts';
import { describedAsReading } from './kit/reading.ts';

export const POSITIVE_ACCEPTANCE = 'positive_acceptance';

const PARAM_CODES = new Set(['rest_invalid_param', 'rest_missing_callback_param']);

export interface Sent {
  req: WireRequest;
  e: Exchange;
  /** Reference fields (`location.param`) whose values name records the target lists. */
  named?: ReadonlySet<string>;
  /** A retry: the parameters the first request's refusal named, left out of this one. */
  removed?: readonly string[];
}

/** A planned request: a random one, or an edge case. */
interface Planned {
  req: WireRequest;
  edge?: EdgeCase;
}

function paramVariant(location: ParamLocation, name: string): string {
  return `${location}.${name}`;
}

function edgeVariant(edge: EdgeCase): string {
  return `edge:${edge.id.slice(edge.operationId.length + 1)}`;
}

function typedValue(op: Operation, req: WireRequest, location: ParamLocation, name: string): unknown {
  try {
    return toTyped(op, req)[location]?.[name];
  } catch {
    return undefined;
  }
}

/**
 * Why a refusal of this valid value is not a documented failure, if it is not: the documents leave the value
 * open, it names records the target may not have, or another reading of the documents refuses it.
 */
function refusalExcuse(contract: Contract, op: Operation, req: WireRequest, location: ParamLocation, name: string, refs: readonly ReferenceField[], named: ReadonlySet<string> | undefined): string | undefined {
  const value = typedValue(op, req, location, name);
  const ref = refs.find((f) => f.location === location && f.param === name);
  const unnamed = ref && !named?.has(refKey(ref)) ? `${name} names other records, and the suite found none on the target to name, so this value may name nothing there` : undefined;
  return openValue(op, location, name, value) ?? unnamed ?? ref?.assumed ?? otherReadingRefuses(contract, op, location, name, value) ?? otherReadingRequires(op, name);
}

const accepted = (e: Exchange): boolean => !!e.response && e.response.status >= 200 && e.response.status < 300;

/** One finding per parameter, from every random request that carried it; `notes` say how a parameter's values were chosen. */
export function judge(env: UnitEnv, op: Operation, sent: readonly Sent[], notes: ReadonlyMap<string, string> = new Map(), refs: readonly ReferenceField[] = []): void {
  const source = sourceOf(op);
  for (const p of op.params) {
    const variant = paramVariant(p.in, p.name);
    const carrying = sent.filter(({ req }) => sentParams(req)[p.in].includes(p.name));
    const base = { check: POSITIVE_ACCEPTANCE, operation: op, variant, severity: 'documented' as const };
    const note = notes.get(refKey({ location: p.in, param: p.name }));
    if (carrying.length === 0) {
      const none = note?.startsWith('left out');
      env.emit({ ...base, outcome: none ? 'inconclusive' : 'skip', message: none ? `no request could carry a valid value (${note})` : `no generated request carried it${note ? ` (${note})` : ''}` });
      continue;
    }
    let refusal: { message: string; e: Exchange; severity: Severity } | undefined;
    for (const { req, e, named } of carrying) {
      const r = e.response;
      const err = wpError(r);
      if (!r || r.status !== 400 || !err || !PARAM_CODES.has(err.code) || !blamedParams(err).includes(p.name)) continue;
      if (refusedForPermission(err, p.name)) continue;
      const value = typedValue(op, req, p.in, p.name);
      const why = refusalExcuse(env.contract, op, req, p.in, p.name, refs, named);
      const message = `expected ${p.name}=${JSON.stringify(value)} to be accepted: it is valid by the documents (${source}); got 400 ${err.code} naming ${p.name}: ${err.message}`;
      if (!why) {
        // Refused with nothing in the documents to excuse it: that decides, whatever the other requests got.
        refusal = { message, e, severity: 'documented' };
        break;
      }
      refusal ??= { message: `${message}; held as assumed because ${why}`, e, severity: 'assumed' };
    }
    if (refusal) {
      env.emit({ ...base, outcome: 'fail', severity: refusal.severity, message: refusal.message, exchange: refusal.e });
      continue;
    }
    const ok = carrying.filter(({ e }) => accepted(e));
    const last = carrying[carrying.length - 1]!.e;
    if (ok.length === 0) {
      const t = carrying.map(({ e }) => transportOutcome(e)).find((x) => x !== undefined);
      if (t) {
        env.emit({ ...base, ...t, exchange: carrying.find(({ e }) => transportOutcome(e))!.e });
        continue;
      }
      env.emit({
        ...base,
        outcome: 'inconclusive',
        message: `none of the ${carrying.length} valid request(s) carrying it was accepted (${answers(carrying.map(({ e }) => e))}), so nothing shows the target takes its values${note ? `; ${note}` : ''}`,
        exchange: last,
      });
      continue;
    }
    env.emit({ ...base, outcome: 'pass', message: `${carrying.length} valid request(s) carried it, none refused for it (${ok.length} accepted)${note ? `; ${note}` : ''}`, exchange: ok[ok.length - 1]!.e });
  }
}

/**
 * The query and body parameters whose values differ between two requests, but those the unit varies itself from
 * request to request (a name carrying the marker, a slug no other record has). Path parameters name the record.
 */
function differing(op: Operation, a: WireRequest, b: WireRequest, varied: ReadonlySet<string>): string[] {
  let ta: ReturnType<typeof toTyped>;
  let tb: ReturnType<typeof toTyped>;
  try {
    ta = toTyped(op, a);
    tb = toTyped(op, b);
  } catch {
    return ['(unreadable)'];
  }
  const out: string[] = [];
  for (const loc of ['query', 'body'] as const) {
    const x = ta[loc] ?? {};
    const y = tb[loc] ?? {};
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!varied.has(k) && JSON.stringify(x[k]) !== JSON.stringify(y[k])) out.push(k);
    }
  }
  return out;
}

/** What an edge sent, in its own words: its parameter with the value that went out (references fill some), or its label. */
function sentLabel(op: Operation, edge: EdgeCase, s: Sent): string {
  if (!edge.param || !edge.location || edge.family === 'minimal' || edge.family === 'full') return edge.label;
  const value = typedValue(op, s.req, edge.location, edge.param);
  if (value === undefined) return edge.label;
  const shown = `${edge.param}=${JSON.stringify(value)}`;
  return edge.family === 'alone' ? `${shown} alone` : edge.label.startsWith(`${edge.param}=`) ? shown : `${edge.label} (${shown})`;
}

/** The minimal request as the unit sent it, for an edge judged against it; and the parameters the unit varies itself. */
interface EdgeContext {
  minimal?: Sent;
  varied: ReadonlySet<string>;
}

/** Why an empty name refused is not a documented failure: WordPress's own insert functions refuse it. */
function emptyNameExcuse(op: Operation): string {
  return op.resource === 'category' || op.resource === 'tag'
    ? "WordPress's wp_insert_term() and wp_update_term() refuse an empty term name (empty_term_name), and a site built on its terms inherits that"
    : "WordPress's wp_insert_post() refuses a post whose title, content and excerpt are all empty (empty_content), and a site built on its posts controller inherits that";
}

/**
 * The post text a create sent that WordPress certainly stores non-empty, named with its value (`title="x" was
 * sent`), or undefined. wp_insert_post() raises empty_content only when title, content and excerpt are all empty as
 * PHP reads them after sanitize_post() ('' and '0' are empty; the title is trimmed; kses may strip markup for a user
 * without unfiltered_html), so only a value with a letter or digit, no markup, and not "0" counts as certainly
 * filled: in every doubtful case the refusal stays WordPress's own. The name field is the title (legacy venues and
 * organizers: venue, organizer), description the legacy content.
 */
function filledPostText(contract: Contract, op: Operation, req: WireRequest): string | undefined {
  const res = resourceFor(contract, op);
  if (!res || res.resource === 'category' || res.resource === 'tag') return undefined;
  for (const name of [res.nameField, 'content', 'description', 'excerpt']) {
    const v = typedValue(op, req, 'body', name);
    const text = typeof v === 'string' ? v : v !== null && typeof v === 'object' && typeof (v as { raw?: unknown }).raw === 'string' ? (v as { raw: string }).raw : undefined;
    if (text === undefined) continue;
    const t = text.trim();
    if (t !== '0' && !t.includes('<') && /[\p{L}\p{N}]/u.test(t)) return `${name}=${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} was sent`;
  }
  return undefined;
}

/** One finding for an edge case that should be accepted. */
function judgeEdge(env: UnitEnv, op: Operation, edge: EdgeCase, s: Sent, refs: readonly ReferenceField[] = [], ctx: EdgeContext = { varied: new Set() }): void {
  const base = { check: POSITIVE_ACCEPTANCE, operation: op, variant: edgeVariant(edge), severity: 'documented' as Severity, exchange: s.e };
  const emit = (outcome: Outcome, message: string, severity: Severity = 'documented'): void => env.emit({ ...base, outcome, message, severity });
  const t = transportOutcome(s.e);
  if (t) return emit(t.outcome, t.message);
  const r = s.e.response!;
  const kind = edge.family === 'minimal' || edge.family === 'full' ? `the ${edge.family} request` : edge.constraint ? `the edge ${edge.tag} of ${edge.constraint.keyword}` : `the ${edge.family} case`;
  const what = `${sentLabel(op, edge, s)} (${kind}${s.removed ? `; sent again without ${s.removed.join(', ')}, which the first answer refused` : ''})`;
  // Nothing but this edge's value sets it apart from a minimal request the site accepted: a refusal (the site's own
  // code included) can only be of that value. Refusals for who asks (401, 403) and server errors are other checks'.
  const minimal = ctx.minimal;
  const onlyThis = (): string | undefined => {
    if (!edge.param || !edge.location || edge.family === 'minimal' || edge.family === 'full' || !minimal || !accepted(minimal.e)) return undefined;
    if (r.status < 400 || r.status >= 500 || r.status === 401 || r.status === 403) return undefined;
    // Not found: the value names nothing on this site, unless it names a record the suite saw the target list.
    const ref = refs.find((f) => f.location === edge.location && f.param === edge.param);
    if ((r.status === 404 || r.status === 410) && !(ref && s.named?.has(refKey(ref)))) return undefined;
    const others = differing(op, minimal.req, s.req, ctx.varied).filter((n) => n !== edge.param);
    return others.length === 0 ? `the minimal request without it was accepted (${minimal.e.response!.status}), and nothing else sets this one apart from it, so the refusal is of ${edge.param}` : undefined;
  };
  const emptyName = edge.family === 'empty' && edge.param === resourceFor(env.contract, op)?.nameField;
  const refusedAlone = (): boolean => {
    const why = onlyThis();
    if (!why) return false;
    const excuse = (emptyName ? emptyNameExcuse(op) : undefined) ?? refusalExcuse(env.contract, op, s.req, edge.location!, edge.param!, refs, s.named);
    const message = `expected ${what} to be accepted: it is valid by the documents (${sourceOf(op)}); got ${describeAnswer(r)}${wpError(r) ? `: ${wpError(r)!.message}` : ''}; ${why}`;
    emit('fail', excuse ? `${message}; held as assumed because ${excuse}` : message, excuse ? 'assumed' : 'documented');
    return true;
  };
  if (accepted(s.e)) return emit('pass', `accepted ${what}: ${r.status}`);
  const err = wpError(r);
  const expected = `expected ${what} to be accepted: it is valid by the documents (${sourceOf(op)})`;
  if (r.status === 400 && emptyName && err && blamedParams(err).concat(err.code).some((x) => x === edge.param || x === 'empty_content' || x === 'empty_term_name')) {
    return emit('fail', `${expected}; got 400 ${err.code}: ${err.message}; held as assumed because ${emptyNameExcuse(op)}`, 'assumed');
  }
  if (r.status === 400 && err && PARAM_CODES.has(err.code)) {
    const blamed = blamedParams(err).filter((n) => !refusedForPermission(err, n));
    const sent = sentParams(s.req);
    const mine = edge.param ? blamed.filter((n) => n === edge.param) : blamed;
    if (mine.length > 0) {
      const locate = (n: string): ParamLocation => (sent.body.includes(n) ? 'body' : sent.query.includes(n) ? 'query' : 'path');
      const reasons = mine.map((n) => refusalExcuse(env.contract, op, s.req, locate(n), n, refs, s.named));
      const message = `${expected}; got 400 ${err.code} naming ${mine.join(', ')}: ${err.message}`;
      if (reasons.some((x) => x === undefined)) return emit('fail', message);
      return emit('fail', `${message}; held as assumed because ${reasons.join('; ')}`, 'assumed');
    }
    if (edge.param && refusedForPermission(err, edge.param)) {
      return emit('inconclusive', `refused ${sentLabel(op, edge, s)} for who is asking (a detail of ${err.code} says so: rest_forbidden_status and the like), not for the value; with credentials that may ask for it, it is judged`);
    }
    if (blamed.length === 0 && refusedAlone()) return;
    return emit('inconclusive', `refused for ${blamed.join(', ') || 'no named parameter'} (${err.code}), not for what this edge is about; nothing shown about ${sentLabel(op, edge, s)}`);
  }
  if (r.status === 400 && err?.code === 'empty_content' && op.kind === 'create') {
    const filled = filledPostText(env.contract, op, s.req);
    if (filled) {
      return emit('fail', `${expected}; got 400 empty_content: ${err.message}; but ${filled}, and WordPress's wp_insert_post() refuses only a post whose title, content and excerpt are all empty: one of them is enough`);
    }
    return emit(
      'fail',
      `${expected}: no field is marked required; got 400 empty_content: ${err.message}; held as assumed because WordPress's wp_insert_post() refuses a post whose title, content and excerpt are all empty, and a site built on its posts controller inherits that`,
      'assumed',
    );
  }
  if (refusedAlone()) return;
  const core = wordpressOwnServerError(env.contract, op, s.e);
  if (core) return emit('fail', `${expected}; got ${describeAnswer(r)}: ${err?.message ?? ''}; held as assumed because ${core}`, 'assumed');
  emit('inconclusive', `not accepted: ${describeAnswer(r)}; that says nothing about ${sentLabel(op, edge, s)}`);
}

function skipAll(env: UnitEnv, op: Operation, message: string): void {
  for (const p of op.params) env.emit({ check: POSITIVE_ACCEPTANCE, operation: op, variant: paramVariant(p.in, p.name), severity: 'documented', outcome: 'skip', message });
  for (const edge of acceptEdges(env.contract, op)) env.emit({ check: POSITIVE_ACCEPTANCE, operation: op, variant: edgeVariant(edge), severity: 'documented', outcome: 'skip', message });
}

function acceptEdges(contract: Contract, op: Operation): EdgeCase[] {
  return edgeCases(contract, op, (d) => d.expect === 'accept');
}

/** The edge phase's requests, then --runs random plausible ones (every parameter each). */
function plan(env: UnitEnv, op: Operation): Planned[] {
  return [...acceptEdges(env.contract, op).map((edge) => ({ req: edge.request, edge })), ...validRequests(env.contract, op, env.seed, env.runs, { optional: 'all', plausible: true }).map((req) => ({ req }))];
}

interface Filler {
  fields: ReferenceField[];
  values?: ReferenceValues;
}

async function filler(env: UnitEnv, op: Operation, fields: ReferenceField[]): Promise<Filler> {
  return { fields, ...(fields.length ? { values: await referenceValues(env, fields, op) } : {}) };
}

/** A field an edge is about keeps its value where the value is the point (0 names no record: that is the edge). */
function ownField(edge: EdgeCase | undefined): ((f: ReferenceField) => boolean) | undefined {
  return edge && (edge.family === 'zero' || edge.family === 'empty') ? (f) => f.location === edge.location && f.param === edge.param : undefined;
}

function fill(op: Operation, req: WireRequest, f: Filler, notes: Map<string, string>, edge?: EdgeCase): { req: WireRequest; named: Set<string> } {
  if (!f.values) return { req, named: new Set() };
  const own = ownField(edge);
  const filled = withReferences(op, req, own ? f.fields.filter((x) => !own(x)) : f.fields, f.values);
  for (const [k, v] of filled.notes) notes.set(k, v);
  return { req: filled.req, named: filled.named };
}

/**
 * The retry of a request refused naming another parameter than the one it is about: an edge about one parameter
 * (not the minimal or full request, which are about all of them), or a random request, about each it carries.
 */
function retryOf(op: Operation, planned: Planned, s: Sent): { req: WireRequest; removed: string[] } | undefined {
  const edge = planned.edge;
  if (!edge) return retryWithout(op, s.req, s.e);
  return edge.param && edge.family !== 'minimal' && edge.family !== 'full' ? retryWithout(op, s.req, s.e, new Set([edge.param])) : undefined;
}

/** Reads, and with --disposable-target the writes the suite cannot undo (`intent` write), sent as they are planned. */
async function reads(env0: UnitEnv, op: Operation, intent?: 'write'): Promise<void> {
  const refs = await filler(env0, op, referenceFields(env0.contract, op));
  const col = collapsing(env0, op, POSITIVE_ACCEPTANCE, unknowables(op, refs.fields, refs.values), (held) => !held.some((f) => f.outcome === 'pass'));
  const perm = refusedForWho(col.env, op, POSITIVE_ACCEPTANCE);
  const env = perm.env;
  const notes = new Map<string, string>();
  const sent: Sent[] = [];
  // A path identifier no list names: random requests take the minimal request's, which may name a record (1);
  // a random one never does, and every request would be refused for it alone.
  const planned0 = plan(env, op);
  const unnamed = unknowables(op, refs.fields, refs.values).filter((u) => op.params.some((p) => p.in === 'path' && p.name === u.param));
  const minimalPath = planned0.find((p) => p.edge?.family === 'minimal')?.req.pathParams ?? {};
  const fixed = Object.fromEntries(unnamed.flatMap((u) => (minimalPath[u.param] !== undefined ? [[u.param, minimalPath[u.param]!]] : [])));
  let minimal: Sent | undefined;
  for (const planned of planned0) {
    const base = planned.edge || Object.keys(fixed).length === 0 ? planned.req : withPath(op, planned.req, fixed);
    const { req, named } = fill(op, base, refs, notes, planned.edge);
    const first: Sent = { req, e: await env.send(toOutgoing(req, intent), op), named };
    const again = retryOf(op, planned, first);
    const retried: Sent | undefined = again && { req: again.req, e: await env.send(toOutgoing(again.req, intent), op), named, removed: again.removed };
    if (planned.edge?.family === 'minimal') minimal = retried ?? first;
    if (planned.edge) judgeEdge(env, op, planned.edge, retried ?? first, refs.fields, { ...(minimal ? { minimal } : {}), varied: new Set() });
    else sent.push(first, ...(retried ? [retried] : []));
  }
  judge(env, op, sent, notes, refs.fields);
  perm.done();
  col.done();
}

/** Creates, updates and deletes on records the suite makes for the purpose; all of them go into the ledger. */
async function calendarWrites(env: UnitEnv, op: Operation, res: CalendarResource): Promise<void> {
  const unitId = `${POSITIVE_ACCEPTANCE}:${op.id}`;
  const label = `${env.marker} ${res.resource} positive`;
  const sent: Sent[] = [];
  let own: { id: number; slug?: string } | undefined;
  let made = 0;
  const fresh = async (): Promise<{ id: number; slug?: string } | undefined> => {
    // A delete makes one record per request; a refused delete leaves its record, whose name the next may not take.
    const { record } = await createOwn(env, res, unitId, `positive target ${++made}`);
    if (!record) return undefined;
    const slug = (jsonBody(record.exchange.response) as { slug?: unknown } | undefined)?.slug;
    return { id: record.id, ...(typeof slug === 'string' ? { slug } : {}) };
  };
  // The path names the suite's own record, never one the references found.
  const refs = await filler(env, op, referenceFields(env.contract, op, res.nameField).filter((f) => f.location !== 'path'));
  const notes = new Map<string, string>();
  let n = 0;
  let minimal: Sent | undefined;
  for (const planned of plan(env, op)) {
    n++;
    // The marker goes into the name field, except where a minimal request has none to carry it (a cal/v1
    // create with no field at all): that record gets the marker by an update right after (markOwn). Names
    // and slugs differ from request to request: a term whose name or slug is taken is refused (term_exists).
    // An edge about the name field itself ("" for a title) keeps its value, and the marker comes the same way.
    const edge = planned.edge;
    const ownName = edge?.param === res.nameField && (edge.family === 'empty' || edge.family === 'zero');
    const bare = (edge?.family === 'minimal' && !sentParams(planned.req).body.includes(res.nameField)) || ownName;
    let req = op.kind === 'delete' || bare ? planned.req : withBody(planned.req, { [res.nameField]: `${label} ${op.id} ${n}` });
    if (sentParams(req).body.includes('slug')) req = withBody(req, { slug: `site-contracts-${env.runId}-${op.id.toLowerCase()}-${n}` });
    const filled = fill(op, req, refs, notes, edge);
    req = filled.req;
    if (res.resource === 'event') {
      const ordered = orderedEventDates(req);
      req = ordered.req;
      for (const k of ordered.swapped) notes.set(`body.${k}`, 'sent in order: an event ends no earlier than it starts');
    }
    if (op.kind !== 'create') {
      if (op.kind === 'delete' || !own) own = await fresh();
      if (!own) {
        skipAll(env, op, `could not create a record of its own to ${op.kind} (POST ${res.create.path} failed)`);
        return;
      }
      const path: Record<string, string | number> = {};
      if (op.params.some((p) => p.in === 'path' && p.name === 'id')) path['id'] = own.id;
      if (op.params.some((p) => p.in === 'path' && p.name === 'slug')) {
        if (!own.slug) {
          skipAll(env, op, 'the record the suite created has no slug to address it by');
          return;
        }
        path['slug'] = own.slug;
      }
      req = withPath(op, req, path);
    }
    const target = own;
    const write = async (r: WireRequest): Promise<Exchange> => {
      const e = await env.send(toOutgoing(r, 'write'), op);
      if (op.kind === 'create') {
        const id = createdId(e);
        if (id !== undefined) {
          env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
          if (bare) await markOwn(env, res, id, label);
        }
      } else if (target && op.kind === 'update') {
        // A slug may change with the update; the next request must address the record by its new one. The record
        // as read back by its id says which: an update's answer may show the slug from before it, or none, and a
        // plugin may store the slug before refusing another field (the quirky CI target does).
        if (accepted(e)) {
          const slug = (jsonBody(e.response) as { slug?: unknown } | undefined)?.slug;
          if (typeof slug === 'string') target.slug = slug;
        }
        if (op.params.some((p) => p.in === 'path' && p.name === 'slug') && sentParams(r).body.includes('slug')) {
          const read = await env.send({ method: 'GET', route: fillTemplate(res.read.path, { id: target.id }), query: { context: 'edit' } }, res.read);
          const now = read.response?.status === 200 ? (jsonBody(read.response) as { slug?: unknown } | undefined)?.slug : undefined;
          if (typeof now === 'string') target.slug = now;
        }
        if (ownName && accepted(e)) await markOwn(env, res, target.id, label);
      }
      return e;
    };
    const first: Sent = { req, e: await write(req), named: filled.named };
    const again = retryOf(op, planned, first);
    const retried: Sent | undefined = again && { req: again.req, e: await write(again.req), named: filled.named, removed: again.removed };
    if (edge?.family === 'minimal') minimal = retried ?? first;
    // The unit gives each request a name of its own (and a slug): those differ from the minimal request by design.
    if (edge) judgeEdge(env, op, edge, retried ?? first, refs.fields, { ...(minimal ? { minimal } : {}), varied: new Set([res.nameField, 'slug']) });
    else sent.push(first, ...(retried ? [retried] : []));
  }
  judge(env, op, sent, notes, refs.fields);
}

/** Whole numbers PHP's is_numeric() and round() take as integers: rest_is_integer() accepts them, (int) makes them 10. */
const INTEGER_FORMS = ['10.0', '1e1'] as const;

/**
 * An integer query parameter written as 10.0 or 1e1 is the integer 10 (WordPress convention: rest_is_integer(), then
 * (int)), judged on per_page of the lists a namespace built on core's controllers serves: as many records as
 * per_page=10. A server that reads 1e1 as 1 (parseInt, PHP's intval() before 7.1) answers one record. The counts are
 * compared, not the ids: the run's own writes (and other clients') change which records a page holds between reads.
 */
async function integerForms(env: UnitEnv, op: Operation): Promise<void> {
  const read = (perPage: string): Promise<Exchange> => env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { per_page: perPage } }, op);
  const count = (e: Exchange): number | undefined => (e.response?.status === 200 ? listRecords(jsonBody(e.response))?.length : undefined);
  const emit = (form: string, outcome: Outcome, message: string, e: Exchange): void =>
    env.emit({ check: POSITIVE_ACCEPTANCE, operation: op, variant: `integer-form:per_page=${form}`, severity: 'convention', outcome, message, exchange: e });
  const plain = await read('10');
  const want = count(plain);
  for (const form of INTEGER_FORMS) {
    const t = transportOutcome(plain);
    if (t) {
      emit(form, t.outcome, t.message, plain);
      continue;
    }
    if (want === undefined || want < 2) {
      emit(form, 'inconclusive', want === undefined ? `per_page=10 answered ${describeAnswer(plain.response)}, not a list: nothing to compare` : `per_page=10 lists ${want} record(s): nothing tells per_page=1 from per_page=10 here`, plain);
      continue;
    }
    const e = await read(form);
    const t2 = transportOutcome(e);
    const got = count(e);
    if (t2) emit(form, t2.outcome, t2.message, e);
    else if (got === undefined) emit(form, 'fail', `expected per_page=${form} to be taken as the integer 10 (WordPress convention: rest_is_integer() takes a whole number in any form PHP reads as numeric); got ${describeAnswer(e.response)}`, e);
    else if (got !== want) emit(form, 'fail', `expected per_page=${form} to answer as per_page=10 (WordPress convention: rest_is_integer(), then (int)); per_page=10 lists ${want} record(s), per_page=${form} ${got}`, e);
    else emit(form, 'pass', `per_page=${form} lists ${got} records, as per_page=10 does`, e);
  }
}

/** Gives a record the suite created without a name the marker, so that cleanup recognises it as the run's own. */
async function markOwn(env: UnitEnv, res: CalendarResource, id: number, label: string): Promise<void> {
  await env.send({ method: res.update.method, route: res.update.path.replace('{id}', String(id)), body: { kind: 'json', value: { [res.nameField]: label } }, intent: 'write' }, res.update);
}

export function planPositiveAcceptance(contract: Contract): Unit[] {
  return contract.operations.map((op): Unit => {
    const id = `${POSITIVE_ACCEPTANCE}:${op.id}`;
    const res = resourceFor(contract, op);
    const safe = SAFE_METHODS.has(op.method);
    return {
      id,
      family: POSITIVE_ACCEPTANCE,
      checks: [POSITIVE_ACCEPTANCE],
      operations: [op],
      ...(safe ? {} : { writes: true }),
      run: async (env) => {
        if (safe) {
          await reads(env, op);
          if (op.kind === 'list' && builtOnCoreControllers(contract, op) && op.params.some((p) => p.in === 'query' && p.name === 'per_page')) await integerForms(env, op);
          return;
        }
        if (op.kind === 'batch') return skipAll(env, op, 'batch requests are checked by the batch_* checks (25 requests taken, 26 refused, items answered one by one)');
        if (!res || !['create', 'update', 'delete'].includes(op.kind)) {
          if ((env.disposable || describedAsReading(env.contract, op)) && env.hasCredentials && !env.readOnly) return reads(env, op, 'write');
          return skipAll(env, op, 'a write the suite could not undo (not a calendar record of its own); only its refusals are checked; --disposable-target sends it, on a site restored after the run');
        }
        if (env.readOnly) return skipAll(env, op, `--read-only: ${op.method} is not sent`);
        if (!env.hasCredentials) return skipAll(env, op, 'no credentials (--auth-env): the suite writes nothing');
        return calendarWrites(env, op, res);
      },
    };
  });
}
