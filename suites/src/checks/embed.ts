// embed: `?_embed` (WP_REST_Server::embed_links(), rest_parse_embed_param()), asked anonymously of the first record a
// cal/v1 list shows, read by id:
// - embedded: every rel with an embeddable link (compacted: wp:term) is in _embedded when any of its links answers
//   something, one entry per link in order (a link that is not embeddable holds an empty place), and each entry is
//   what GET of the link's href in the embed context answers the same anonymous client (a list: the same records; a
//   record or a refusal: no field beyond it, clock aside), so an embed shows no more than its reader may see. Followed: at most
//   EMBED_CAP links.
// - filter: `_embed=<one of those rels>` embeds that rel alone, and `_embed=site-contracts-no-such-rel` embeds nothing
//   (no _embedded at all).
// Severity convention: the documents do not mention _embed.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { restAddress } from './kit/api_root.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { linksOf } from './kit/record_links.ts';
import { firstDifference } from './kit/compare.ts';
import { calendarResources, idOf, type CalendarResource } from './kit/resources.ts';
import { anonymousPage } from './kit/oracle_kit.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';

export const EMBED = 'embed';

/** At most this many links are followed to compare with what was embedded. */
const EMBED_CAP = 8;

/** The rels of a record with at least one embeddable link, as _links names them. */
function embeddableRels(record: Record<string, unknown>): string[] {
  const links = isPlainObject(record['_links']) ? record['_links'] : {};
  return Object.keys(links).filter((rel) => rel !== 'curies' && linksOf(record, rel).some((l) => l['embeddable'] === true));
}

/**
 * What an embedded answer shows beyond what GET of its link in the embed context shows the same client, clock aside
 * (kit/compare.ts): a field it adds, or one it shows otherwise. A field it leaves out is not judged (a site may add
 * fields to the outermost answer alone, rest_pre_echo_response: the embed shows less, never more). A list is judged
 * by its records' ids (the embed reads it with per_page at its maximum). Undefined when there is nothing beyond.
 */
function beyond(embedded: unknown, fetched: unknown): string | undefined {
  if (Array.isArray(embedded) && Array.isArray(fetched)) {
    const a = embedded.map((r) => (isPlainObject(r) ? r['id'] : r));
    const b = fetched.map((r) => (isPlainObject(r) ? r['id'] : r));
    const same = b.length < 10 ? JSON.stringify(a) === JSON.stringify(b) : JSON.stringify(a.slice(0, b.length)) === JSON.stringify(b);
    return same ? undefined : `lists ${shown(a)}, where GET of its link in the embed context lists ${shown(b)}`;
  }
  if (!isPlainObject(embedded) || !isPlainObject(fetched)) return firstDifference(embedded, fetched) ? `is ${shown(embedded)}, where GET of its link in the embed context answers ${shown(fetched)}` : undefined;
  const added = Object.keys(embedded).filter((k) => !(k in fetched));
  const changed = Object.keys(embedded).filter((k) => k in fetched && firstDifference(embedded[k], fetched[k], k, k) !== undefined);
  const parts = [
    added.length ? `holds ${added.map((k) => `${k} ${shown(embedded[k])}`).join(', ')}, which GET of its link in the embed context does not` : '',
    changed.length ? `differs in ${changed.map((k) => `${k} (${shown(embedded[k])}, by GET ${shown(fetched[k])})`).join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : undefined;
}

const shown = (v: unknown): string => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
};

async function embed(env: UnitEnv, res: CalendarResource): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: EMBED, operation: res.read, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const both = (outcome: Outcome, message: string, e?: Exchange): void => ['embedded', 'filter'].forEach((v) => emit(v, outcome, message, e));
  const { e: le, transport: lt, records } = await anonymousPage(env, res, 1);
  if (lt) return both(lt.outcome, lt.message, le);
  const id = idOf(records[0]);
  if (id === undefined) return both('inconclusive', `GET ${res.list.path} shows no record to read (${describeAnswer(le.response)})`, le);
  const route = fillTemplate(res.read.path, { id });
  const get = (query: Record<string, unknown>): Promise<Exchange> => env.send({ method: 'GET', route, query, auth: false }, res.read);
  const ee = await get({ _embed: 1 });
  const et = transportOutcome(ee);
  if (et) return both(et.outcome, et.message, ee);
  const record = jsonBody(ee.response);
  if (ee.response!.status !== 200 || !isPlainObject(record)) return both('inconclusive', `GET ${route}?_embed answered ${describeAnswer(ee.response)}`, ee);
  const rels = embeddableRels(record);
  if (rels.length === 0) return both('inconclusive', `record ${id} carries no embeddable link`, ee);
  const embedded = isPlainObject(record['_embedded']) ? record['_embedded'] : {};

  // embedded: each rel's entries are what its links answer.
  const problems: string[] = [];
  let followed = 0;
  for (const rel of rels) {
    const expected: unknown[] = [];
    for (const l of linksOf(record, rel)) {
      const href = typeof l['href'] === 'string' ? l['href'] : '';
      const a = restAddress(href, env);
      if (l['embeddable'] !== true || !a || !a.sameOrigin || followed >= EMBED_CAP) {
        expected.push(l['embeddable'] === true ? undefined : []);
        continue;
      }
      followed++;
      const q = new URLSearchParams(a.query);
      if (!q.has('context')) q.set('context', 'embed');
      const fe = await env.send({ method: 'GET', route: a.route, rawQuery: q.toString(), auth: false }, res.read);
      expected.push(transportOutcome(fe) ? undefined : jsonBody(fe.response));
    }
    const got = embedded[rel];
    const anything = expected.some((x) => x === undefined || (Array.isArray(x) ? x.length > 0 : isPlainObject(x) && Object.keys(x).length > 0));
    if (!anything) {
      if (got !== undefined && Array.isArray(got) && got.some((x) => (Array.isArray(x) ? x.length > 0 : isPlainObject(x) && Object.keys(x).length > 0))) problems.push(`_embedded.${rel} is ${shown(got)}, though its links answer nothing`);
      continue;
    }
    if (!Array.isArray(got)) {
      problems.push(`_embedded.${rel} is missing, though GET of its link answers ${shown(expected.find((x) => x !== undefined))}`);
      continue;
    }
    if (got.length !== expected.length) problems.push(`_embedded.${rel} holds ${got.length} entries for its ${expected.length} links`);
    else expected.forEach((x, i) => {
      const b = x === undefined ? undefined : beyond(got[i], x);
      if (b) problems.push(`_embedded.${rel}[${i}] ${b}`);
    });
  }
  const rule = 'WordPress convention, WP_REST_Server::embed_links(): each embeddable link is dispatched in the embed context for the same client';
  if (problems.length) emit('embedded', 'fail', `expected GET ${route}?_embed to embed what each embeddable link answers (${rule}); ${problems.slice(0, 3).join('; ')}`, ee);
  else if (followed === 0) emit('embedded', 'inconclusive', `no embeddable link of record ${id} could be followed`, ee);
  else emit('embedded', 'pass', `record ${id} embeds ${rels.join(', ')} as ${followed} GETs of their links answer them`, ee);

  // filter: one rel by name, and a rel no record has.
  const one = rels.find((r) => Array.isArray(embedded[r])) ?? rels[0]!;
  const oe = await get({ _embed: one });
  const ne = await get({ _embed: 'site-contracts-no-such-rel' });
  const t = transportOutcome(oe) ?? transportOutcome(ne);
  if (t) return emit('filter', t.outcome, t.message, oe);
  const ob = jsonBody(oe.response);
  const nb = jsonBody(ne.response);
  const fr = 'WordPress convention, rest_parse_embed_param(): _embed names the rels to embed';
  if (!isPlainObject(ob) || !isPlainObject(nb) || oe.response!.status !== 200 || ne.response!.status !== 200) return emit('filter', 'inconclusive', `GET ${route} with _embed=${one} answered ${describeAnswer(oe.response)}, with _embed=site-contracts-no-such-rel ${describeAnswer(ne.response)}`, oe);
  const keys = isPlainObject(ob['_embedded']) ? Object.keys(ob['_embedded']) : [];
  if (Array.isArray(embedded[one]) && (keys.length !== 1 || keys[0] !== one)) return emit('filter', 'fail', `expected GET ${route}?_embed=${one} to embed ${one} alone (${fr}); _embedded holds ${JSON.stringify(keys)}`, oe);
  if ('_embedded' in nb) return emit('filter', 'fail', `expected GET ${route}?_embed=site-contracts-no-such-rel to embed nothing (${fr}); _embedded holds ${JSON.stringify(isPlainObject(nb['_embedded']) ? Object.keys(nb['_embedded']) : nb['_embedded'])}`, ne);
  emit('filter', 'pass', `_embed=${one} embeds ${one} alone; _embed=site-contracts-no-such-rel embeds nothing`, oe);
}

export function planEmbed(contract: Contract): Unit[] {
  return calendarResources(contract)
    .filter((r) => builtOnCoreControllers(contract, r.create))
    .map((r) => ({ id: `${EMBED}:${r.read.id}`, family: EMBED, checks: [EMBED], operations: [r.list, r.read] as Operation[], run: (env: UnitEnv) => embed(env, r) }));
}
