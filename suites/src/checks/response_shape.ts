// response_shape: a successful answer has the shape the contract gives for it. The documents show
// almost no payloads, so most shapes are marked `x-basis: assumed` in the contract and only warn unless
// --response-shapes error: records, and the array envelope of lists; the site descriptor is documented
// (always fails), namespace indexes, batch answers and error objects are WordPress conventions. The
// severity of a finding is the x-basis of the schema node that failed.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { JsonSchema, Operation } from '../../../contracts/lib/types.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { toOutgoing, validRequests } from './kit/generate.ts';
import { describeAnswer, sourceOf, transportOutcome } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

export const RESPONSE_SHAPE = 'response_shape';

type ErrorLike = { schemaPath: string; instancePath: string; keyword: string; message?: string };

const RANK: Record<Severity, number> = { assumed: 0, convention: 1, documented: 2 };

export function responseSpec(op: Operation, status: number): { schema: JsonSchema; basis: Severity; key: string } | undefined {
  const responses = (op.raw['responses'] ?? {}) as Record<string, JsonSchema>;
  const key = responses[String(status)] ? String(status) : responses[`${String(status)[0]}XX`] ? `${String(status)[0]}XX` : undefined;
  if (!key) return undefined;
  const resp = responses[key]!;
  const schema = resp['content']?.['application/json']?.['schema'] as JsonSchema | undefined;
  if (!schema) return undefined;
  // The body schema's own basis is the more specific one: a list response is convention (status, headers), the
  // array envelope of its body is not shown by the documents (assumed), nor is a record's shape.
  const basis = (schema['x-basis'] ?? resp['x-basis'] ?? 'assumed') as Severity;
  return { schema, basis, key };
}

/** The last x-basis met walking from the response schema to the node an error points at. */
export function basisAt(schema: JsonSchema, schemaPath: string, start: Severity): Severity {
  let node: unknown = schema;
  let basis = start;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (raw === '' || typeof node !== 'object' || node === null) break;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
    const b = (node as JsonSchema | undefined)?.['x-basis'];
    if (b === 'documented' || b === 'convention' || b === 'assumed') basis = b;
  }
  return basis;
}

export function severityOf(schema: JsonSchema, start: Severity, errors: readonly ErrorLike[]): Severity {
  const alternatives = errors.some((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const bases = errors.filter((e) => !alternatives || (e.keyword !== 'anyOf' && e.keyword !== 'oneOf')).map((e) => basisAt(schema, e.schemaPath, start));
  if (bases.length === 0) return start;
  // Failing every alternative does not say which one was meant: judge by the least sure of them.
  const pick = alternatives ? Math.min(...bases.map((b) => RANK[b])) : Math.max(...bases.map((b) => RANK[b]));
  return (Object.keys(RANK) as Severity[]).find((s) => RANK[s] === pick) ?? start;
}

/** Where the shape comes from, by its basis: a section of the documents, WordPress, or nobody. */
function basisSource(op: Operation, basis: Severity): string {
  if (basis === 'documented') return sourceOf(op);
  if (basis === 'convention') return 'WordPress convention';
  return 'assumed: the documents show no payload here';
}

/** A finding about the body of a 2xx answer; undefined when there is nothing to judge. */
export function shapeFinding(contract: Contract, op: Operation, e: Exchange, variant: string): Finding | undefined {
  const r = e.response;
  if (!r || r.status < 200 || r.status >= 300) return undefined;
  const spec = responseSpec(op, r.status);
  const base = { check: RESPONSE_SHAPE, operation: op, variant, exchange: e };
  // Which status is right is other checks' business (create_status, batch_item_status); here only bodies.
  if (!spec) return { ...base, severity: 'assumed', outcome: 'skip', message: `answered ${r.status}, a status the contract gives no body shape for` };
  const body = jsonBody(r);
  if (body === undefined && r.body !== '') return { ...base, severity: spec.basis, outcome: 'fail', message: `expected a JSON ${r.status} body (${basisSource(op, spec.basis)}); got ${r.headers['content-type'] ?? 'no content type'}` };
  const errors = contract.responseCheck(op, spec.key)?.(body) ?? [];
  if (errors.length === 0) return { ...base, severity: spec.basis, outcome: 'pass', message: `the ${r.status} body matches the contract's shape` };
  const severity = severityOf(spec.schema, spec.basis, errors);
  const shown = errors.filter((x) => x.keyword !== 'anyOf').slice(0, 3).map((x) => `${x.instancePath || '(body)'} ${x.message ?? x.keyword}`);
  return { ...base, severity, outcome: 'fail', message: `expected the ${r.status} body in the contract's shape (${basisSource(op, severity)}); got: ${shown.join('; ')}${errors.length > 3 ? `; ${errors.length - 3} more` : ''}` };
}

async function readShape(env: UnitEnv, op: Operation): Promise<void> {
  const [req] = validRequests(env.contract, op, env.seed, 1, { optional: 'none' });
  const e = await env.send(toOutgoing(req!), op);
  const t = transportOutcome(e);
  const base = { check: RESPONSE_SHAPE, operation: op, variant: 'minimal', severity: 'assumed' as Severity };
  if (t) return env.emit({ ...base, ...t, exchange: e });
  const f = shapeFinding(env.contract, op, e, 'minimal');
  if (f) return env.emit(f);
  env.emit({ ...base, outcome: 'skip', message: `answered ${e.response!.status}: no successful answer to compare${op.kind === 'read' ? ' (records are compared in the lifecycle check)' : ''}`, exchange: e });
}

/**
 * What is wrong with the site logo and icon of the root's index (WP_REST_Server::add_site_logo_to_index(),
 * add_site_icon_to_index(), add_image_to_index()): site_logo and site_icon are integers, site_icon_url a string, and
 * each image that is not 0 comes with one https://api.w.org/featuredmedia link of its type, one that is 0 with none.
 */
function indexImageProblems(index: Record<string, unknown>): string[] {
  const out: string[] = [];
  const links = isPlainObject(index['_links']) ? index['_links'] : {};
  const media = [...(Array.isArray(links['wp:featuredmedia']) ? links['wp:featuredmedia'] : []), ...(Array.isArray(links['https://api.w.org/featuredmedia']) ? links['https://api.w.org/featuredmedia'] : [])];
  for (const type of ['site_logo', 'site_icon']) {
    const id = index[type];
    if (!Number.isInteger(id)) {
      out.push(`${type} is ${JSON.stringify(id ?? '(absent)')}, not an integer`);
      continue;
    }
    const linked = media.filter((l) => isPlainObject(l) && l['type'] === type).length;
    if (id !== 0 && linked !== 1) out.push(`${type} is ${String(id)} but ${linked} wp:featuredmedia link${linked === 1 ? '' : 's'} of type ${type} come${linked === 1 ? 's' : ''} with it (one expected)`);
    if (id === 0 && linked > 0) out.push(`${type} is 0 but a wp:featuredmedia link of type ${type} comes with it`);
  }
  const url = index['site_icon_url'];
  if (typeof url !== 'string') out.push(`site_icon_url is ${JSON.stringify(url ?? '(absent)')}, not a string`);
  else if (url !== '' && !/^https?:\/\/\S+$/.test(url)) out.push(`site_icon_url ${JSON.stringify(url)} is neither empty nor an absolute URL`);
  return out;
}

/** The root's site logo and icon, read anonymously (what a client without rights to the settings reads). */
async function indexImages(env: UnitEnv, op: Operation): Promise<void> {
  const e = await env.send({ method: 'GET', route: '/', auth: false }, op);
  const base = { check: RESPONSE_SHAPE, operation: op, variant: 'index-images', severity: 'convention' as Severity, exchange: e };
  const t = transportOutcome(e);
  if (t) return env.emit({ ...base, ...t });
  const body = jsonBody(e.response);
  if (e.response!.status !== 200 || !isPlainObject(body)) return env.emit({ ...base, outcome: 'inconclusive', message: `GET {api_root}/ answered ${describeAnswer(e.response)}: no index to read` });
  const p = indexImageProblems(body);
  if (p.length) return env.emit({ ...base, outcome: 'fail', message: `expected the root's index to show the site logo and icon as WordPress does (WordPress convention, WP_REST_Server::add_image_to_index(): an integer each, a featuredmedia link of its type exactly when it is not 0; site_icon_url a string); ${p.join('; ')}` });
  env.emit({ ...base, outcome: 'pass', message: `site_logo ${String(body['site_logo'])}, site_icon ${String(body['site_icon'])}, site_icon_url ${JSON.stringify(body['site_icon_url'])}, with the featuredmedia links they call for` });
}

export function planResponseShape(contract: Contract): Unit[] {
  const units: Unit[] = contract.operations
    .filter((op) => op.method === 'GET')
    .map((op) => ({
      id: `${RESPONSE_SHAPE}:${op.id}`,
      family: RESPONSE_SHAPE,
      checks: [RESPONSE_SHAPE],
      operations: [op],
      run: (env) => readShape(env, op),
    }));
  const root = contract.operations.find((op) => op.method === 'GET' && op.path === '/');
  if (root) units.push({ id: `${RESPONSE_SHAPE}:index-images:${root.id}`, family: RESPONSE_SHAPE, checks: [RESPONSE_SHAPE], operations: [root], run: (env) => indexImages(env, root) });
  return units;
}
