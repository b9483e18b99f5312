// links: the links a record of core's posts controller carries (WordPress convention, checked on WordPress 6.1.9, the
// CI sites), in a namespace built on that controller (its creates document the controller's fields: cal/v1):
// - `self`: GET of a record by id answers _links.self[0].href naming that record's route and
//   _links.collection[0].href naming its list (WP_REST_Posts_Controller::prepare_links()), under the API root the
//   suite reaches; a `wp:` rel comes with the curies entry {name: wp, href: https://api.w.org/{rel}}
//   (WP_REST_Server::response_to_data());
// - `collection`: the same record in the list carries the same _links.self (prepare_response_for_collection());
// - `alternate`: the answer by id carries Link: <the record's link>; rel="alternate"; type=text/html (get_item()).
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

export const LINKS = 'links';

/** The href of a record's first link of `rel`; undefined when there is none. */
function firstHref(record: unknown, rel: string): string | undefined {
  const links = isPlainObject(record) ? record['_links'] : undefined;
  const list = isPlainObject(links) ? links[rel] : undefined;
  const first = Array.isArray(list) ? list[0] : undefined;
  return isPlainObject(first) && typeof first['href'] === 'string' ? first['href'] : undefined;
}

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

async function links(env: UnitEnv, list: Operation, read: Operation): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LINKS, operation: read, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const variants = ['self', 'collection', 'alternate'];
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

  const link = record['link'];
  const alternate = linkValues(header(re.response, 'link')).find((v) => v.rels.includes('alternate'));
  if (typeof link !== 'string') emit('alternate', 'inconclusive', `record ${id} shows no link field to compare the alternate link with`, re);
  else if (alternate && alternate.url === link && (alternate.attributes['type'] ?? '').toLowerCase() === 'text/html') emit('alternate', 'pass', `Link: <${link}>; rel="alternate"; type=text/html`, re);
  else emit('alternate', 'fail', `expected GET ${route} to answer Link: <${link}>; rel="alternate"; type=text/html, the record's link field (WordPress convention, WP_REST_Posts_Controller::get_item()); Link is ${JSON.stringify(header(re.response, 'link') ?? null)}`, re);
}

export function planLinks(contract: Contract): Unit[] {
  return calendarResources(contract)
    .filter((r) => builtOnCoreControllers(contract, r.create))
    .map((r) => ({ id: `${LINKS}:${r.read.id}`, family: LINKS, checks: [LINKS], operations: [r.list, r.read], run: (env: UnitEnv) => links(env, r.list, r.read) }));
}
