// links_resolve: the addresses a site writes into its answers lead somewhere (get_rest_url(), rest_url()). Bounded: one
// GET per distinct route shape (the route with its numbers as {n}, the names of its query), at most RESOLVE_CAP per
// unit, each anonymous (what any client following the link gets):
// - self-links (documented, 001 §2: "on routes with a fixed path, _links.self[].href (the absolute address of the
//   route)"): every fixed route of the descriptor links itself under the API root; one GET per namespace (its first
//   fixed route serving GET) answers, not 404 rest_no_route;
// - rest-url: every address in the Link header (but the record's page, rel=alternate type=text/html) and in _links of
//   a list's first page and its first record, on the target's origin, sits under the API root as the suite reached it
//   (pretty or ?rest_route=) and answers 2xx or the refusal for an anonymous client (401/403), never 404
//   rest_no_route (another site's address, help, api.w.org's curies: not the site's to answer);
// - terms (rest_get_route_for_term()): each wp:term link of a cal/v1 record answers 200 with exactly the record's
//   terms of that taxonomy (the ids of its field: tags for post_tag, cal_events_cat);
// - about (WP_REST_Post_Types_Controller::get_item()): the record's about link answers its type with rest_namespace
//   its namespace, rest_base its collection and taxonomies naming every taxonomy field it shows (where it links one:
//   into wp/v2, which a site serving the documented namespaces alone does not have);
// - page (WP_REST_Posts_Controller::prepare_item_for_response(): link is get_permalink()): the link of the first
//   published record a cal/v1 list shows answers 200 text/html, anonymous;
// - permalink (get_permalink()): the run's own published event's link answers 200 text/html, and after a PATCH of
//   its slug its link changes and answers too.
// A page that does not answer is inconclusive, not failed, where the site's front end is not served (its home page
// answers no 200 text/html) or its pretty permalinks may not be (the suite reached the API through ?rest_route=).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import type { Severity } from '../report/model.ts';
import { apiRootShown, restAddress } from './kit/api_root.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { createdId } from './kit/ledger.ts';
import { linkValues } from './kit/link_header.ts';
import { allHrefs, firstHref, linksOf, TAXONOMY_FIELDS } from './kit/record_links.ts';
import { calendarResources, idOf, listRecords, minimalCreateBody, type CalendarResource } from './kit/resources.ts';
import { anonymousPage } from './kit/oracle_kit.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { writeBlocker } from './kit/writes.ts';
import { describeAnswer, header, transportOutcome, wpError } from './kit/wp.ts';

export const LINKS_RESOLVE = 'links_resolve';

/** At most this many links are followed per unit: one per route shape, the first seen of each. */
const RESOLVE_CAP = 12;

type Where = Pick<UnitEnv, 'baseUrl' | 'apiRoot'>;

/** `/cal/v1/events/12?post=3&x=1` → `/cal/v1/events/{n}?post&x`: one GET per shape is enough to know the route is there. */
function routeShape(route: string, query: string): string {
  const keys = [...new URLSearchParams(query).keys()].sort();
  return `${route.replace(/\/\d+(?=\/|$)/g, '/{n}').replace(/\/+$/, '')}${keys.length ? `?${keys.join('&')}` : ''}`;
}

/** Whether an address is on the origin the suite reaches the site by. */
function onTarget(href: string, where: Where): boolean {
  try {
    return new URL(href).origin === new URL(where.baseUrl ?? 'http://localhost').origin;
  } catch {
    return false;
  }
}

interface Followed {
  href: string;
  e: Exchange;
  /** undefined: it answers; else why it does not (404 rest_no_route), or 'inconclusive: …'. */
  problem?: string;
  inconclusive?: string;
}

/** GET of a REST address of the site, anonymous; what it answered. */
async function follow(env: UnitEnv, href: string, op?: Operation): Promise<Followed> {
  const a = restAddress(href, env)!;
  const e = await env.send({ method: 'GET', route: a.route, ...(a.query ? { rawQuery: a.query } : {}), auth: false }, op);
  const t = transportOutcome(e);
  if (t) return { href, e, inconclusive: t.message };
  const s = e.response!.status;
  if (s === 404 && wpError(e.response)?.code === 'rest_no_route') return { href, e, problem: `GET ${href} answered 404 rest_no_route` };
  if ((s >= 200 && s < 300) || s === 401 || s === 403) return { href, e };
  return { href, e, inconclusive: `GET ${href} answered ${describeAnswer(e.response)}` };
}

/** The addresses of one answer: its Link header but a page's, and every href of the _links of its records. */
function addressesOf(e: Exchange): { where: string; href: string }[] {
  const out: { where: string; href: string }[] = [];
  for (const v of linkValues(header(e.response, 'link'))) {
    const page = v.rels.includes('alternate') && (v.attributes['type'] ?? '').toLowerCase() === 'text/html';
    if (!page) out.push({ where: `Link rel="${v.rels.join(' ')}"`, href: v.url });
  }
  const body = jsonBody(e.response);
  const records = Array.isArray(body) ? body : [body];
  for (const r of records) for (const l of allHrefs(r)) out.push({ where: `_links.${l.rel}${isPlainObject(r) && r['id'] !== undefined ? ` of record ${String(r['id'])}` : ''}`, href: l.href });
  return out;
}

/**
 * Judges addresses: each on the target's origin is under the API root, and one per route shape (RESOLVE_CAP at most)
 * answers. Returns the problems, what stayed undecided, and how many were followed.
 */
async function judgeAddresses(env: UnitEnv, found: readonly { where: string; href: string }[], op?: Operation): Promise<{ problems: string[]; undecided: string[]; followed: number; seen: number }> {
  const problems: string[] = [];
  const undecided: string[] = [];
  const shapes = new Map<string, string>();
  let seen = 0;
  for (const f of found) {
    if (!onTarget(f.href, env)) continue;
    seen++;
    const a = restAddress(f.href, env);
    if (!a) {
      problems.push(`${f.where} ${JSON.stringify(f.href)} is not under the API root ${apiRootShown(env)}`);
      continue;
    }
    const shape = routeShape(a.route, a.query);
    if (!shapes.has(shape) && shapes.size < RESOLVE_CAP) shapes.set(shape, f.href);
  }
  for (const href of shapes.values()) {
    const r = await follow(env, href, op);
    if (r.problem) problems.push(r.problem);
    else if (r.inconclusive) undecided.push(r.inconclusive);
  }
  return { problems, undecided, followed: shapes.size, seen };
}

/** 001 §2: the descriptor's fixed routes link themselves; one per namespace is followed. */
async function selfLinks(env: UnitEnv, root: Operation): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LINKS_RESOLVE, operation: root, variant: 'self-links', severity: 'documented', outcome, message, ...(e ? { exchange: e } : {}) });
  const routes = env.descriptor.raw['routes'];
  if (!isPlainObject(routes)) return emit('inconclusive', 'the descriptor read at the start shows no routes');
  const problems: string[] = [];
  const perNamespace = new Map<string, string>();
  let fixed = 0;
  for (const [pattern, entry] of Object.entries(routes)) {
    if (/[({[]/.test(pattern) || !isPlainObject(entry)) continue;
    fixed++;
    const href = firstHref(entry, 'self');
    const a = href ? restAddress(href, env) : undefined;
    if (!href) problems.push(`${pattern} has no _links.self`);
    else if (!a || decodeURI(a.route).replace(/\/+$/, '') !== pattern.replace(/\/+$/, '')) problems.push(`${pattern}'s _links.self[0].href ${JSON.stringify(href)} does not name it under the API root ${apiRootShown(env)}`);
    else {
      const ns = typeof entry['namespace'] === 'string' ? entry['namespace'] : '';
      const methods = Array.isArray(entry['methods']) ? entry['methods'] : [];
      if (methods.includes('GET') && !perNamespace.has(ns) && perNamespace.size < RESOLVE_CAP * 2) perNamespace.set(ns, href);
    }
  }
  if (fixed === 0) return emit('inconclusive', 'the descriptor lists no route with a fixed path');
  const followed: string[] = [];
  for (const href of perNamespace.values()) {
    const r = await follow(env, href, root);
    if (r.problem) problems.push(r.problem);
    else followed.push(href);
  }
  const rule = "001 §2: on routes with a fixed path, _links.self[].href is the absolute address of the route";
  if (problems.length) return emit('fail', `expected every fixed route of the descriptor to link itself, and the link to answer (${rule}); ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; ${problems.length - 5} more` : ''}`);
  emit('pass', `${fixed} fixed routes link themselves under the API root; ${followed.length} of them (one per namespace) answer`);
}

/** The addresses of a list's first page and of its first record, read anonymously, lead somewhere. */
async function restUrls(env: UnitEnv, res: CalendarResource): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LINKS_RESOLVE, operation: res.list, variant: 'rest-url', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const { e: le, transport: lt, records } = await anonymousPage(env, res, 2);
  if (lt) return emit(lt.outcome, lt.message, le);
  const found = addressesOf(le);
  const id = idOf(records[0]);
  let re: Exchange | undefined;
  if (id !== undefined) {
    re = await env.send({ method: 'GET', route: fillTemplate(res.read.path, { id }), auth: false }, res.read);
    if (!transportOutcome(re)) found.push(...addressesOf(re));
  }
  const { problems, undecided, followed, seen } = await judgeAddresses(env, found, res.list);
  const rule = 'WordPress convention, get_rest_url(): every address the site writes is rest_url() of a route it serves';
  if (problems.length) return emit('fail', `expected the addresses in GET ${res.list.path}${id !== undefined ? ` and record ${id}` : ''} to sit under the API root and lead to a route (${rule}); ${problems.slice(0, 4).join('; ')}${problems.length > 4 ? `; ${problems.length - 4} more` : ''}`, le);
  if (seen === 0) return emit('inconclusive', `GET ${res.list.path}${id !== undefined ? ` and record ${id}` : ''} carry no address of the site to follow (${describeAnswer(le.response)})`, le);
  if (followed > 0 && undecided.length === followed) return emit('inconclusive', `no link followed could be judged: ${undecided.slice(0, 3).join('; ')}`, re ?? le);
  emit('pass', `${seen} addresses of the site sit under the API root; ${followed - undecided.length} of ${followed} route shapes followed answer${undecided.length ? ` (${undecided.length} undecided: ${undecided[0]})` : ''}`, re ?? le);
}

/** A field of the record holding the ids of `taxonomy`'s terms. */
const fieldOf = (taxonomy: string): string | undefined => Object.entries(TAXONOMY_FIELDS).find(([, t]) => t === taxonomy)?.[0];

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);

/** The terms and about links of the first record with terms of a cal/v1 list. */
async function recordLinks(env: UnitEnv, res: CalendarResource): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LINKS_RESOLVE, operation: res.read, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const both = (outcome: Outcome, message: string, e?: Exchange): void => ['terms', 'about'].forEach((v) => emit(v, outcome, message, e));
  const { e: le, transport: lt, records } = await anonymousPage(env, res, 10);
  if (lt) return both(lt.outcome, lt.message, le);
  const listed = records.filter(isPlainObject);
  const withTerms = listed.find((r) => Object.keys(TAXONOMY_FIELDS).some((f) => ids(r[f]).length > 0)) ?? listed[0];
  const id = idOf(withTerms);
  if (id === undefined) return both('inconclusive', `GET ${res.list.path} shows no record to read (${describeAnswer(le.response)})`, le);
  const route = fillTemplate(res.read.path, { id });
  const re = await env.send({ method: 'GET', route, auth: false }, res.read);
  const rt = transportOutcome(re);
  if (rt) return both(rt.outcome, rt.message, re);
  const record = jsonBody(re.response);
  if (re.response!.status !== 200 || !isPlainObject(record)) return both('inconclusive', `GET ${route} answered ${describeAnswer(re.response)}: the record listed a moment before cannot be read`, re);

  // terms: each wp:term link lists the record's terms of its taxonomy.
  const termLinks = linksOf(record, 'wp:term');
  const termProblems: string[] = [];
  let judged = 0;
  let last: Exchange = re;
  for (const l of termLinks.slice(0, RESOLVE_CAP)) {
    const taxonomy = typeof l['taxonomy'] === 'string' ? l['taxonomy'] : '';
    const field = fieldOf(taxonomy);
    const href = typeof l['href'] === 'string' ? l['href'] : '';
    if (!field || !Array.isArray(record[field]) || !restAddress(href, env)) continue;
    const want = ids(record[field]);
    if (want.length >= 10) continue;
    const f = await follow(env, href, res.read);
    last = f.e;
    if (f.problem) {
      termProblems.push(f.problem);
      continue;
    }
    if (f.inconclusive || f.e.response!.status !== 200) continue;
    judged++;
    const got = ids((listRecords(jsonBody(f.e.response)) ?? []).map((t) => (isPlainObject(t) ? t['id'] : undefined)));
    const same = got.length === want.length && want.every((x) => got.includes(x));
    if (!same) termProblems.push(`its wp:term link of ${taxonomy} (${href}) lists terms ${JSON.stringify(got)}, the record's ${field} is ${JSON.stringify(want)}`);
  }
  const termRule = "WordPress convention, rest_get_route_for_term(): a record's wp:term link lists its terms of that taxonomy";
  if (termProblems.length) emit('terms', 'fail', `expected each wp:term link of record ${id} to list the record's terms (${termRule}); ${termProblems.join('; ')}`, last);
  else if (judged === 0) emit('terms', 'inconclusive', `record ${id} carries no wp:term link for a taxonomy field it shows that could be followed (${termLinks.length} wp:term links)`, re);
  else emit('terms', 'pass', `${judged} wp:term links of record ${id} list exactly its terms`, last);

  // about: the record's type, as the post types controller shows it.
  const about = firstHref(record, 'about');
  if (!about || !restAddress(about, env)) {
    // WordPress links the type into wp/v2; a site serving the documented namespaces alone (a stand-in) has nowhere to.
    if (!env.descriptor.namespaces.includes('wp/v2')) return emit('about', 'skip', `record ${id} carries no about link, and the site's descriptor lists no wp/v2, where WordPress points it`, re);
    return emit('about', 'inconclusive', `record ${id} carries no about link under the API root, though the site serves wp/v2 (the links check judges its absence)`, re);
  }
  const f = await follow(env, about, res.read);
  const type = jsonBody(f.e.response);
  const base = res.list.path.split('/').pop();
  const aboutRule = 'WordPress convention, WP_REST_Post_Types_Controller::prepare_item_for_response(): rest_namespace and rest_base name the routes of the type, taxonomies the taxonomies its records show';
  if (f.problem) return emit('about', 'fail', `expected the about link of record ${id} to answer its type (${aboutRule}); ${f.problem}`, f.e);
  if (f.inconclusive || f.e.response!.status !== 200 || !isPlainObject(type)) return emit('about', 'inconclusive', f.inconclusive ?? `GET ${about} answered ${describeAnswer(f.e.response)}`, f.e);
  const p: string[] = [];
  if (type['rest_namespace'] !== res.namespace) p.push(`rest_namespace is ${JSON.stringify(type['rest_namespace'] ?? null)}, not ${JSON.stringify(res.namespace)}`);
  if (type['rest_base'] !== base) p.push(`rest_base is ${JSON.stringify(type['rest_base'] ?? null)}, not ${JSON.stringify(base)}`);
  const taxonomies = Array.isArray(type['taxonomies']) ? type['taxonomies'] : [];
  const missing = Object.entries(TAXONOMY_FIELDS).filter(([fld, t]) => Array.isArray(record[fld]) && !taxonomies.includes(t)).map(([, t]) => t);
  if (missing.length) p.push(`taxonomies ${JSON.stringify(taxonomies)} leave out ${missing.join(', ')}, whose terms the record shows`);
  if (typeof record['type'] === 'string' && type['slug'] !== undefined && type['slug'] !== record['type']) p.push(`slug is ${JSON.stringify(type['slug'])}, the record's type ${JSON.stringify(record['type'])}`);
  if (p.length) return emit('about', 'fail', `expected the about link of record ${id} (${about}) to answer its type (${aboutRule}); ${p.join('; ')}`, f.e);
  emit('about', 'pass', `the about link of record ${id} answers type ${JSON.stringify(type['slug'])}: ${res.namespace}, ${base}, taxonomies ${JSON.stringify(taxonomies)}`, f.e);
}

/** Why a page that did not answer 200 text/html may be the site's setup, not its links; undefined when nothing excuses it. */
async function pageExcuse(env: UnitEnv, link: string): Promise<string | undefined> {
  const home = typeof env.descriptor.raw['home'] === 'string' && onTarget(env.descriptor.raw['home'], env) ? `${env.descriptor.raw['home'].replace(/\/+$/, '')}/` : `${(env.baseUrl ?? '').replace(/\/+$/, '')}/`;
  const he = await env.send({ method: 'GET', route: '/', page: home, auth: false });
  if (transportOutcome(he) || he.response!.status !== 200 || !isHtml(he)) return `the site's front end is not served here (GET ${home} answered ${describeAnswer(he.response)})`;
  if (env.style === 'rest_route' && !new URL(link).search) return 'the suite reached the API through ?rest_route=, so the pretty permalinks this link uses may not be served';
  return undefined;
}

const isHtml = (e: Exchange): boolean => (header(e.response, 'content-type') ?? '').toLowerCase().startsWith('text/html');

/** GET of a record's page, anonymous: pass, or fail/inconclusive with the reason. */
async function judgePage(env: UnitEnv, link: unknown, who: string): Promise<{ outcome: Outcome; message: string; e?: Exchange }> {
  if (typeof link !== 'string' || !/^https?:\/\//.test(link)) return { outcome: 'inconclusive', message: `${who} shows no link to follow (${JSON.stringify(link ?? null)})` };
  if (!onTarget(link, env)) return { outcome: 'inconclusive', message: `${who}'s link ${link} is on another origin than --base-url: the suite sends nowhere else` };
  const e = await env.send({ method: 'GET', route: '/', page: link, auth: false });
  const t = transportOutcome(e);
  if (t) return { ...t, e };
  if (e.response!.status === 200 && isHtml(e)) return { outcome: 'pass', message: `${who}'s link ${link} answers 200 text/html`, e };
  const excuse = await pageExcuse(env, link);
  if (excuse) return { outcome: 'inconclusive', message: `${who}'s link ${link} answered ${describeAnswer(e.response)}, but ${excuse}`, e };
  return { outcome: 'fail', message: `expected ${who}'s link ${link} to answer its page, 200 text/html, to an anonymous client (WordPress convention, the link field is get_permalink() of a published record); it answered ${describeAnswer(e.response)} (${header(e.response, 'content-type') ?? 'no content type'})`, e };
}

/** The page of the first published record a cal/v1 list shows. */
async function listedPage(env: UnitEnv, res: CalendarResource): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LINKS_RESOLVE, operation: res.read, variant: 'page', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const { e: le, transport: lt, records } = await anonymousPage(env, res, 5);
  if (lt) return emit(lt.outcome, lt.message, le);
  const record = records.filter(isPlainObject).find((r) => r['status'] === undefined || r['status'] === 'publish');
  if (!record) return emit('inconclusive', `GET ${res.list.path} shows no published record (${describeAnswer(le.response)})`, le);
  const r = await judgePage(env, record['link'], `record ${String(record['id'])}`);
  emit(r.outcome, r.message, r.e ?? le);
}

/** The run's own published record: its link answers, and changes with its slug. */
async function ownPermalink(env: UnitEnv, res: CalendarResource): Promise<void> {
  const unitId = `${LINKS_RESOLVE}:permalink:${res.create.id}`;
  const emit = (outcome: Outcome, message: string, e?: Exchange, severity: Severity = 'convention'): void =>
    env.emit({ check: LINKS_RESOLVE, operation: res.update, variant: 'permalink', severity, outcome, message, ...(e ? { exchange: e } : {}) });
  const blocked = writeBlocker(env);
  if (blocked) return emit('skip', blocked);
  const made = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: minimalCreateBody(res, `${env.marker} permalink ${unitId}`, env.now()) }, intent: 'write' }, res.create);
  const id = createdId(made);
  if (id === undefined) return emit(transportOutcome(made)?.outcome ?? 'inconclusive', `the record was not made (${describeAnswer(made.response)})`, made);
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  const before = jsonBody(made.response);
  const link0 = isPlainObject(before) ? before['link'] : undefined;
  const first = await judgePage(env, link0, `record ${id}`);
  if (first.outcome !== 'pass') return emit(first.outcome, first.message, first.e ?? made);
  const slug = `site-contracts-${env.runId.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-moved-${id}`;
  const ue = await env.send({ method: res.update.method, route: fillTemplate(res.update.path, { id }), body: { kind: 'json', value: { slug } }, intent: 'write' }, res.update);
  const ut = transportOutcome(ue);
  if (ut) return emit(ut.outcome, ut.message, ue);
  const after = jsonBody(ue.response);
  if (ue.response!.status !== 200 || !isPlainObject(after)) return emit('inconclusive', `the slug was not changed (${describeAnswer(ue.response)})`, ue);
  const link1 = after['link'];
  const rule = 'WordPress convention, get_permalink(): a published record is reached by its slug';
  if (link1 === link0) return emit('fail', `expected record ${id}'s link to change when its slug became ${slug} (${rule}); it is still ${JSON.stringify(link0)}`, ue);
  const second = await judgePage(env, link1, `record ${id} (slug changed)`);
  if (second.outcome !== 'pass') return emit(second.outcome, second.message, second.e ?? ue);
  emit('pass', `record ${id}'s link ${String(link0)} answers its page; with slug ${slug} it became ${String(link1)}, which answers too`, second.e);
}

export function planLinksResolve(contract: Contract): Unit[] {
  const units: Unit[] = [];
  const root = contract.operations.find((op) => op.method === 'GET' && op.path === '/');
  if (root) units.push({ id: `${LINKS_RESOLVE}:self-links:${root.id}`, family: LINKS_RESOLVE, checks: [LINKS_RESOLVE], operations: [root], run: (env) => selfLinks(env, root) });
  const resources = calendarResources(contract);
  for (const r of resources) units.push({ id: `${LINKS_RESOLVE}:rest-url:${r.list.id}`, family: LINKS_RESOLVE, checks: [LINKS_RESOLVE], operations: [r.list, r.read], run: (env) => restUrls(env, r) });
  for (const r of resources.filter((x) => builtOnCoreControllers(contract, x.create))) {
    units.push({ id: `${LINKS_RESOLVE}:record:${r.read.id}`, family: LINKS_RESOLVE, checks: [LINKS_RESOLVE], operations: [r.list, r.read], run: (env) => recordLinks(env, r) });
    units.push({ id: `${LINKS_RESOLVE}:page:${r.read.id}`, family: LINKS_RESOLVE, checks: [LINKS_RESOLVE], operations: [r.list, r.read], run: (env) => listedPage(env, r) });
  }
  const events = resources.find((r) => builtOnCoreControllers(contract, r.create) && r.resource === 'event');
  if (events) units.push({ id: `${LINKS_RESOLVE}:permalink:${events.create.id}`, family: LINKS_RESOLVE, checks: [LINKS_RESOLVE], operations: [events.create, events.read, events.update], writes: true, run: (env) => ownPermalink(env, events) });
  return units;
}
