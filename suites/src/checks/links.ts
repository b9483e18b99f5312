// links: the links a record of core's posts controller carries (WordPress convention, checked on WordPress 6.1.9, the
// CI sites), in a namespace built on that controller (its creates document the controller's fields: cal/v1):
// - `self`: GET of a record by id answers _links.self[0].href naming that record's route and
//   _links.collection[0].href naming its list (WP_REST_Posts_Controller::prepare_links()), under the API root the
//   suite reaches; a `wp:` rel comes with the curies entry {name: wp, href: https://api.w.org/{rel}}
//   (WP_REST_Server::response_to_data());
// - `collection`: the same record in the list carries the same _links.self (prepare_response_for_collection());
// - `alternate`: the answer by id carries Link: <the record's link>; rel="alternate"; type=text/html (get_item()).
// - `rels`: the rels prepare_links() adds for what the record shows: one wp:term (taxonomy, embeddable) per taxonomy
//   field (`tags`: post_tag, `cal_events_cat`: cal_events_cat, 000 §2.5; `categories`: category), and, where the
//   site serves wp/v2 (its descriptor lists the namespace, as every WordPress does; a stand-in serving the documented
//   namespaces alone has nowhere to point them), `about` (wp/v2/types/<type>), `author` (wp/v2/users/<author>, when
//   not 0), `replies` (wp/v2/comments?post=<id>, where the record shows comment_status), `wp:attachment`
//   (wp/v2/media?parent=<id>) and `wp:featuredmedia` (when featured_media is not 0).
// - `up` (legacy categories, core's terms controller behind The Events Calendar's routes): the run's own child
//   category links its parent (`_links.up[0].href`, or The Events Calendar's `urls.up`) at the route of its own
//   record with the parent's id in place of its own, and GET of it answers the parent
//   (WP_REST_Terms_Controller::prepare_links()).
// The record is the first of the list, read with the run's credentials where it has some (a site may refuse an
// anonymous read by id); one another client removes between the two reads makes the case inconclusive, not failed.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { restAddress } from './kit/api_root.ts';
import { linkValues } from './kit/link_header.ts';
import { calendarResources, listRecords } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, header, transportOutcome } from './kit/wp.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { createdId } from './kit/ledger.ts';
import { firstHref, linksOf, TAXONOMY_FIELDS } from './kit/record_links.ts';
import { writeBlocker } from './kit/writes.ts';
import type { CalendarResource } from './kit/resources.ts';

export const LINKS = 'links';

/** What is wrong with a record's self, collection and curies links, against the routes they should name. */
function selfLinkProblems(record: unknown, itemRoute: string, listRoute: string, where: Pick<UnitEnv, 'baseUrl' | 'apiRoot'>): string[] {
  const out: string[] = [];
  for (const [rel, want] of [['self', itemRoute], ['collection', listRoute]] as const) {
    const href = firstHref(record, rel);
    const a = href ? restAddress(href, where) : undefined;
    if (!href) out.push(`_links.${rel} is missing`);
    else if (!a || a.route.replace(/\/+$/, '') !== want) out.push(`_links.${rel}[0].href ${JSON.stringify(href)} does not name ${want} under the API root`);
  }
  const links = isPlainObject(record) && isPlainObject(record['_links']) ? record['_links'] : {};
  if (Object.keys(links).some((rel) => rel.startsWith('wp:'))) {
    const curies = links['curies'];
    const wp = Array.isArray(curies) ? curies.find((c) => isPlainObject(c) && c['name'] === 'wp') : undefined;
    if (!isPlainObject(wp) || wp['href'] !== 'https://api.w.org/{rel}' || wp['templated'] !== true) out.push(`wp: rels come without the curies entry {name: "wp", href: "https://api.w.org/{rel}", templated: true} (curies is ${JSON.stringify(curies ?? '(absent)')})`);
  }
  return out;
}

/**
 * What is missing or wrong among the rels WP_REST_Posts_Controller::prepare_links() adds for what `record` shows;
 * `wpV2`: the site serves wp/v2, where the about, author, replies, attachment and featured media links point.
 */
function relProblems(record: Record<string, unknown>, wpV2: boolean, where: Pick<UnitEnv, 'baseUrl' | 'apiRoot'>): string[] {
  const out: string[] = [];
  const id = record['id'];
  const terms = linksOf(record, 'wp:term');
  for (const [field, taxonomy] of Object.entries(TAXONOMY_FIELDS)) {
    if (!Array.isArray(record[field])) continue;
    const t = terms.filter((l) => l['taxonomy'] === taxonomy);
    if (t.length !== 1) out.push(`the record shows ${field} but carries ${t.length} wp:term links of taxonomy ${taxonomy} (one expected)`);
    else if (t[0]!['embeddable'] !== true || typeof t[0]!['href'] !== 'string') out.push(`its wp:term link of taxonomy ${taxonomy} is ${JSON.stringify(t[0])}, not {taxonomy, embeddable: true, href}`);
  }
  if (!wpV2) return out;
  const expect = (rel: string, route: string, query?: [string, string]): void => {
    const l = linksOf(record, rel);
    const href = typeof l[0]?.['href'] === 'string' ? (l[0]['href'] as string) : undefined;
    const a = href ? restAddress(href, where) : undefined;
    if (!href) out.push(`_links.${rel} is missing`);
    else if (!a || a.route !== route || (query && new URLSearchParams(a.query).get(query[0]) !== query[1])) out.push(`_links.${rel}[0].href ${JSON.stringify(href)} does not name ${route}${query ? `?${query[0]}=${query[1]}` : ''} under the API root`);
  };
  if (typeof record['type'] === 'string') expect('about', `/wp/v2/types/${record['type']}`);
  if (typeof record['author'] === 'number' && record['author'] !== 0) expect('author', `/wp/v2/users/${record['author']}`);
  if ('comment_status' in record) expect('replies', '/wp/v2/comments', ['post', String(id)]);
  expect('wp:attachment', '/wp/v2/media', ['parent', String(id)]);
  if (typeof record['featured_media'] === 'number' && record['featured_media'] !== 0) expect('wp:featuredmedia', `/wp/v2/media/${record['featured_media']}`);
  return out;
}

async function links(env: UnitEnv, list: Operation, read: Operation): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LINKS, operation: read, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const variants = ['self', 'collection', 'alternate', 'rels'];
  const le = await env.send({ method: 'GET', route: fillTemplate(list.path, {}), query: { per_page: 5 } }, list);
  const lt = transportOutcome(le);
  if (lt) return variants.forEach((v) => emit(v, lt.outcome, lt.message, le));
  const records = le.response!.status === 200 ? listRecords(jsonBody(le.response)) : undefined;
  const listed = records?.find((r) => isPlainObject(r) && typeof r['id'] === 'number');
  if (!isPlainObject(listed)) return variants.forEach((v) => emit(v, 'inconclusive', `GET ${list.path} answered ${describeAnswer(le.response)} with no record to read`, le));
  const id = listed['id'] as number;
  const route = fillTemplate(read.path, { id });
  const re = await env.send({ method: 'GET', route }, read);
  const rt = transportOutcome(re);
  if (rt) return variants.forEach((v) => emit(v, rt.outcome, rt.message, re));
  const record = jsonBody(re.response);
  if (re.response!.status !== 200 || !isPlainObject(record)) return variants.forEach((v) => emit(v, 'inconclusive', `GET ${route} answered ${describeAnswer(re.response)}: the record listed a moment before cannot be read (another client may have removed it, or the site refuses it to this client)`, re));

  const where = { baseUrl: env.baseUrl, apiRoot: env.apiRoot };
  const p = selfLinkProblems(record, route, fillTemplate(list.path, {}), where);
  if (p.length) emit('self', 'fail', `expected GET ${route} to link itself and its list (WordPress convention, WP_REST_Posts_Controller::prepare_links(), WP_REST_Server::response_to_data()); ${p.join('; ')}`, re);
  else emit('self', 'pass', `_links.self names ${route}, _links.collection ${list.path}${Object.keys(record['_links'] as object).some((r) => r.startsWith('wp:')) ? ', the wp: rels come with their curies' : ''}`, re);

  const mine = firstHref(record, 'self');
  const inList = firstHref(listed, 'self');
  if (inList === mine) emit('collection', 'pass', `record ${id} carries the same _links.self in the list as by id`, le);
  else emit('collection', 'fail', `expected record ${id} to carry in GET ${list.path} the _links.self it carries by id (WordPress convention, WP_REST_Controller::prepare_response_for_collection()); the list's is ${JSON.stringify(inList ?? '(absent)')}, by id ${JSON.stringify(mine ?? '(absent)')}`, le);

  const wpV2 = env.descriptor.namespaces.includes('wp/v2');
  const rels = relProblems(record, wpV2, where);
  if (rels.length) emit('rels', 'fail', `expected record ${id} to carry the links WordPress adds for what it shows (WordPress convention, WP_REST_Posts_Controller::prepare_links()); ${rels.join('; ')}`, re);
  else emit('rels', 'pass', `record ${id} carries a wp:term link per taxonomy field${wpV2 ? ', and about, author, replies and wp:attachment into wp/v2' : " (the site's descriptor lists no wp/v2, where about, author, replies and wp:attachment would point: not judged)"}`, re);

  const link = record['link'];
  const alternate = linkValues(header(re.response, 'link')).find((v) => v.rels.includes('alternate'));
  if (typeof link !== 'string') emit('alternate', 'inconclusive', `record ${id} shows no link field to compare the alternate link with`, re);
  else if (alternate && alternate.url === link && (alternate.attributes['type'] ?? '').toLowerCase() === 'text/html') emit('alternate', 'pass', `Link: <${link}>; rel="alternate"; type=text/html`, re);
  else emit('alternate', 'fail', `expected GET ${route} to answer Link: <${link}>; rel="alternate"; type=text/html, the record's link field (WordPress convention, WP_REST_Posts_Controller::get_item()); Link is ${JSON.stringify(header(re.response, 'link') ?? null)}`, re);
}

/** The up link of a term: core's `_links.up[0].href`, or The Events Calendar's `urls.up`. */
function upHref(term: unknown): string | undefined {
  const core = firstHref(term, 'up');
  if (core) return core;
  const urls = isPlainObject(term) ? term['urls'] : undefined;
  return isPlainObject(urls) && typeof urls['up'] === 'string' ? urls['up'] : undefined;
}

/** The self link of a term, either form. */
function selfHref(term: unknown): string | undefined {
  const urls = isPlainObject(term) ? term['urls'] : undefined;
  return firstHref(term, 'self') ?? (isPlainObject(urls) && typeof urls['self'] === 'string' ? urls['self'] : undefined);
}

/** The run's own parent and child category: the child's up link names the parent (WP_REST_Terms_Controller::prepare_links()). */
async function upLink(env: UnitEnv, res: CalendarResource): Promise<void> {
  const unitId = `${LINKS}:up:${res.read.id}`;
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LINKS, operation: res.read, variant: 'up', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const blocked = writeBlocker(env);
  if (blocked) return emit('skip', blocked);
  const make = async (label: string, parent?: number): Promise<{ id?: number; e: Exchange }> => {
    const e = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: { [res.nameField]: `${env.marker} ${label} ${unitId}`, ...(parent ? { parent } : {}) } }, intent: 'write' }, res.create);
    const id = createdId(e);
    if (id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
    return { ...(id !== undefined ? { id } : {}), e };
  };
  const parent = await make('up parent');
  if (parent.id === undefined) return emit(transportOutcome(parent.e)?.outcome ?? 'inconclusive', `the parent category was not made (${describeAnswer(parent.e.response)})`, parent.e);
  const child = await make('up child', parent.id);
  if (child.id === undefined) return emit(transportOutcome(child.e)?.outcome ?? 'inconclusive', `the child category was not made (${describeAnswer(child.e.response)})`, child.e);
  const route = fillTemplate(res.read.path, { id: child.id });
  const re = await env.send({ method: 'GET', route }, res.read);
  const t = transportOutcome(re);
  if (t) return emit(t.outcome, t.message, re);
  const term = jsonBody(re.response);
  if (re.response!.status !== 200 || !isPlainObject(term)) return emit('inconclusive', `GET ${route} answered ${describeAnswer(re.response)}`, re);
  if (term['parent'] !== parent.id) return emit('inconclusive', `category ${child.id} reads back parent ${JSON.stringify(term['parent'] ?? null)}, not ${parent.id} (write_read_back's business), so its up link cannot be judged`, re);
  const rule = 'WordPress convention, WP_REST_Terms_Controller::prepare_links(): a term with a parent links it as up';
  const where = { baseUrl: env.baseUrl, apiRoot: env.apiRoot };
  const up = upHref(term);
  const self = selfHref(term);
  const ua = up ? restAddress(up, where) : undefined;
  const sa = self ? restAddress(self, where) : undefined;
  const want = sa ? sa.route.replace(/\/\d+\/*$/, `/${parent.id}`) : `${fillTemplate(res.read.path, { id: parent.id })}`;
  if (!up) return emit('fail', `expected category ${child.id}, whose parent is ${parent.id}, to link its parent (${rule}); it carries neither _links.up nor urls.up`, re);
  if (!ua || ua.route.replace(/\/+$/, '') !== want) return emit('fail', `expected the up link of category ${child.id} to name ${want} under the API root, the route of its own record with the parent's id (${rule}); it is ${JSON.stringify(up)}`, re);
  const pe = await env.send({ method: 'GET', route: ua.route, ...(ua.query ? { rawQuery: ua.query } : {}) });
  const pt = transportOutcome(pe);
  if (pt) return emit(pt.outcome, pt.message, pe);
  const got = jsonBody(pe.response);
  if (pe.response!.status !== 200 || !isPlainObject(got) || got['id'] !== parent.id) return emit('fail', `expected GET of the up link ${up} to answer category ${parent.id} (${rule}); got ${describeAnswer(pe.response)}`, pe);
  emit('pass', `category ${child.id} links its parent ${parent.id} as up (${up}), which answers it`, re);
}

export function planLinks(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const units: Unit[] = resources
    .filter((r) => builtOnCoreControllers(contract, r.create))
    .map((r) => ({ id: `${LINKS}:${r.read.id}`, family: LINKS, checks: [LINKS], operations: [r.list, r.read], run: (env: UnitEnv) => links(env, r.list, r.read) }));
  const categories = resources.find((r) => r.namespace === 'cal/events/v1' && r.resource === 'category');
  if (categories) units.push({ id: `${LINKS}:up:${categories.read.id}`, family: LINKS, checks: [LINKS], operations: [categories.create, categories.read], writes: true, run: (env: UnitEnv) => upLink(env, categories) });
  return units;
}
