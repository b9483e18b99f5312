// oembed: the site embeds its own pages (001 §1 "an embed-discovery service", §4.2 `oembed/1.0/embed`, maxwidth
// default 600), as WordPress's oEmbed controller answers (get_oembed_response_data()): for a published cal/v1 event
// of the suite's own, an anonymous GET /oembed/1.0/embed?url=<its link> answers 200 {version: "1.0", type: "rich",
// title: its title, html: a blockquote or iframe of its link}; format=xml the same as XML; maxwidth=300 gives a width
// of at most 300, and without maxwidth the width is at most 600.
// What WordPress fills itself (convention, get_oembed_response_data()), variant `fields`: provider_name is the site's
// name and provider_url its home (the descriptor's `name` and `home`: get_bloginfo('name'), get_home_url()),
// author_name and author_url are strings, height is max(ceil(width / 16 * 9), 200) of the width it answers. Variant
// `unknown`: a link of the site that names no post answers 404 oembed_invalid_url (WP_oEmbed_Controller::get_item()).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { cannotWrite } from './kit/oracle_kit.ts';
import { calendarResources, createOwn, nameText, type CalendarResource } from './kit/resources.ts';
import { SIGNED_IN_BY_HEADERS, type Unit, type UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';

export const OEMBED = 'oembed';

const RULE = '001 §1, §4.2; WordPress get_oembed_response_data()';

async function embedOwn(env: UnitEnv, embed: Operation, res: CalendarResource): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: OEMBED, operation: embed, variant, severity: 'documented', outcome, message, ...(e ? { exchange: e } : {}) });
  const variants = ['json', 'fields', 'xml', 'maxwidth', 'unknown'];
  const why = cannotWrite(env, [res.create]) ?? (env.headersSignIn ? SIGNED_IN_BY_HEADERS : undefined);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the case embeds a published record of its own`));
  const own = await createOwn(env, res, `${OEMBED}:${res.namespace}/${res.resource}`, 'oembed');
  const rec = jsonBody(own.exchange.response) as { link?: unknown; status?: unknown } | undefined;
  const link = typeof rec?.link === 'string' ? rec.link : undefined;
  const title = nameText(rec, res.nameField);
  if (!own.record || !link || rec?.status !== 'publish' || !title) {
    return variants.forEach((v) => emit(v, 'inconclusive', `no published record of its own to embed: the create answered ${describeAnswer(own.exchange.response)}${link ? '' : ' without a link'}`, own.exchange));
  }
  const get = (query: Record<string, unknown>): Promise<Exchange> => env.send({ method: 'GET', route: embed.path, query: { url: link, ...query }, auth: false }, embed);

  const ej = await get({});
  const tj = transportOutcome(ej);
  let width: unknown;
  if (tj) emit('json', tj.outcome, tj.message, ej);
  else {
    const b = jsonBody(ej.response) as Record<string, unknown> | undefined;
    width = b?.['width'];
    const problems: string[] = [];
    if (ej.response!.status !== 200) problems.push(`answered ${describeAnswer(ej.response)}`);
    else {
      if (b?.['version'] !== '1.0') problems.push(`version ${JSON.stringify(b?.['version'] ?? null)}, not "1.0"`);
      if (b?.['type'] !== 'rich') problems.push(`type ${JSON.stringify(b?.['type'] ?? null)}, not "rich"`);
      if (b?.['title'] !== title) problems.push(`title ${JSON.stringify(b?.['title'] ?? null)}, not the record's ${JSON.stringify(title)}`);
      const html = typeof b?.['html'] === 'string' ? b['html'] : '';
      if (!/<(blockquote|iframe)\b/i.test(html) || !html.includes(link.replace(/\/$/, ''))) problems.push(`html ${JSON.stringify(html.slice(0, 80))} holds no blockquote or iframe of ${link}`);
      if (typeof width !== 'number' || width > 600) problems.push(`width ${JSON.stringify(width ?? null)} without maxwidth, not a number of at most 600 (maxwidth's default)`);
    }
    emit('json', problems.length ? 'fail' : 'pass', problems.length ? `expected an anonymous GET ${embed.path}?url=<the link of a published event of its own> to answer 200 {version: "1.0", type: "rich", title, html embedding it}, width at most 600 (${RULE}); got: ${problems.join('; ')}` : `200 rich embed of ${link}, width ${String(width)}`, ej);
  }

  fields(env, embed, ej);

  const ex = await get({ format: 'xml' });
  const tx = transportOutcome(ex);
  if (tx) emit('xml', tx.outcome, tx.message, ex);
  else {
    const body = ex.response!.body;
    const ok = ex.response!.status === 200 && /^<\?xml/.test(body.trimStart()) && /<oembed>/.test(body) && /<type>rich<\/type>/.test(body) && /<version>1\.0<\/version>/.test(body);
    emit('xml', ok ? 'pass' : 'fail', ok ? '200 <oembed> XML, type rich' : `expected format=xml to answer 200 with the same embed as XML (<?xml ...?><oembed><version>1.0</version>...<type>rich</type>) (${RULE}, _oembed_create_xml()); got ${describeAnswer(ex.response)} ${JSON.stringify(body.slice(0, 80))}`, ex);
  }

  const em = await get({ maxwidth: 300 });
  const tm = transportOutcome(em);
  const w = (jsonBody(em.response) as { width?: unknown } | undefined)?.width;
  if (tm) emit('maxwidth', tm.outcome, tm.message, em);
  else if (em.response!.status === 200 && typeof w === 'number' && w <= 300) emit('maxwidth', 'pass', `maxwidth=300: width ${w}`, em);
  else emit('maxwidth', 'fail', `expected maxwidth=300 to give a width of at most 300 (${RULE}); got ${describeAnswer(em.response)}, width ${JSON.stringify(w ?? null)}`, em);
  await unknownLink(env, embed);
}

const FILLED = 'WordPress convention, get_oembed_response_data()';

/** `fields`: what the server fills in the embed of `ej` (the plain JSON embed), beside the title the record gave. */
function fields(env: UnitEnv, embed: Operation, ej: Exchange): void {
  const emit = (outcome: Outcome, message: string): void => env.emit({ check: OEMBED, operation: embed, variant: 'fields', severity: 'convention', outcome, message, exchange: ej });
  const b = jsonBody(ej.response) as Record<string, unknown> | undefined;
  if (transportOutcome(ej) || ej.response!.status !== 200 || !b) return emit('skip', `not judged: the embed itself was not answered (see the json case)`);
  const { name, home } = env.descriptor.raw;
  const problems: string[] = [];
  if (typeof name === 'string' && b['provider_name'] !== name) problems.push(`provider_name ${JSON.stringify(b['provider_name'] ?? null)}, not the site's name ${JSON.stringify(name)} (the descriptor's)`);
  if (typeof home === 'string' && b['provider_url'] !== home) problems.push(`provider_url ${JSON.stringify(b['provider_url'] ?? null)}, not the site's home ${JSON.stringify(home)} (the descriptor's)`);
  for (const k of ['author_name', 'author_url']) if (typeof b[k] !== 'string' || b[k] === '') problems.push(`${k} ${JSON.stringify(b[k] ?? null)}, not a string (the author's, else the site's)`);
  const width = b['width'];
  const height = typeof width === 'number' ? Math.max(Math.ceil((width / 16) * 9), 200) : undefined;
  if (height !== undefined && b['height'] !== height) problems.push(`height ${JSON.stringify(b['height'] ?? null)} for width ${String(width)}, not ${height} (max(ceil(width / 16 * 9), 200))`);
  if (problems.length) return emit('fail', `expected the embed's fields WordPress fills itself (${FILLED}); got: ${problems.join('; ')}`);
  emit('pass', `provider ${JSON.stringify(name)} at ${String(home)}, author given, height ${String(height)} for width ${String(width)}`);
}

/** `unknown`: an address of the site that names no post is 404 oembed_invalid_url, not an embed nor another error. */
async function unknownLink(env: UnitEnv, embed: Operation): Promise<void> {
  const home = env.descriptor.raw['home'];
  const emit = (outcome: Outcome, message: string, e?: Exchange): void => env.emit({ check: OEMBED, operation: embed, variant: 'unknown', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  if (typeof home !== 'string') return emit('inconclusive', 'the descriptor gives no home to build an address of the site from');
  const url = `${home.replace(/\/$/, '')}/site-contracts-${env.runId}-none/`;
  const e = await env.send({ method: 'GET', route: embed.path, query: { url }, auth: false }, embed);
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message, e);
  const code = (jsonBody(e.response) as { code?: unknown } | undefined)?.code;
  if (e.response!.status === 404 && code === 'oembed_invalid_url') return emit('pass', `${url}: 404 oembed_invalid_url`, e);
  emit('fail', `expected an address of the site that names no post (${url}) to answer 404 oembed_invalid_url (WordPress convention, WP_oEmbed_Controller::get_item()); got ${describeAnswer(e.response)}`, e);
}

export function planOembed(contract: Contract): Unit[] {
  const embed = contract.operations.find((o) => o.namespace === 'oembed/1.0' && o.method === 'GET' && o.path.endsWith('/embed'));
  const res = calendarResources(contract).find((r) => r.namespace === 'cal/v1' && r.resource === 'event');
  if (!embed || !res) return [];
  return [{ id: `${OEMBED}:${embed.id}`, family: OEMBED, checks: [OEMBED], operations: [embed, res.create], writes: true, run: (env) => embedOwn(env, embed, res) }];
}
