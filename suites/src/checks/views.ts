// views: the calendar views route renders the site's events (000 §4.3 `cal/views/v2/html`, u required, view) and
// leaves out what is hidden (000 §2.1 hide_from_listings: "hides the event in the calendar view"). Three legacy
// events of the suite's own, each running from 2000-01-01 until two days from now so that a list of upcoming events
// ordered by start (The Events Calendar's list view, 12 to a page) shows them first: one published, one a draft, one
// published with hide_from_listings. Two days, not hours: the end is written as the site's wall-clock time, and a
// site east of UTC (Kyiv at +2, Tokyo at +9) would read "two hours from now" in UTC as ending now or already over. An anonymous
// GET ?u=<the site's events page>&view=list must name the first and neither of the others.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody } from '../http/types.ts';
import { cannotWrite, emitterFor, makeOwn, ownWord } from './kit/oracle_kit.ts';
import { calendarResources, localDateTime, type CalendarResource } from './kit/resources.ts';
import { SIGNED_IN_BY_HEADERS, type Unit, type UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';

export const VIEWS = 'views';

async function rendered(env: UnitEnv, html: Operation, res: CalendarResource, unitId: string): Promise<void> {
  const emit = emitterFor(env, VIEWS, html, 'documented');
  const variants = ['render', 'hide_from_listings'];
  const why = cannotWrite(env, [res.create, html]) ?? (env.headersSignIn ? SIGNED_IN_BY_HEADERS : undefined);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the case renders events of its own`));
  const word = ownWord(env.runId, unitId);
  const dates = { start_date: '2000-01-01 00:00:00', end_date: localDateTime(new Date(env.now().getTime() + 2 * 86_400_000)) };
  const shown = await makeOwn(env, res, unitId, `view ${word} shown`, { ...dates, status: 'publish' });
  const draft = await makeOwn(env, res, unitId, `view ${word} draft`, { ...dates, status: 'draft' });
  const hidden = await makeOwn(env, res, unitId, `view ${word} hidden`, { ...dates, status: 'publish', hide_from_listings: true });
  const failed = [shown, draft, hidden].find((m) => !m.own);
  if (failed) return variants.forEach((v) => emit(v, 'inconclusive', `creating the events of its own to render answered ${describeAnswer(failed.exchange.response)}: nothing to compare`, failed.exchange));
  const link = (jsonBody(shown.exchange.response) as { url?: unknown; link?: unknown } | undefined);
  const page = String(link?.url ?? link?.link ?? '');
  const origin = /^https?:\/\/[^/]+/.exec(page)?.[0];
  if (!origin) return variants.forEach((v) => emit(v, 'inconclusive', `the published event's answer names no address to find the site's events page by: ${JSON.stringify(page)}`, shown.exchange));
  const u = `${origin}/events/`;
  const e = await env.send({ method: 'GET', route: html.path, query: { u, view: 'list' }, auth: false }, html);
  const t = transportOutcome(e);
  if (t) return variants.forEach((v) => emit(v, t.outcome, t.message, e));
  const body = jsonBody(e.response);
  const text = typeof body === 'string' ? body : e.response!.body;
  // The title as sent (makeOwn() prefixes the run's marker): plain words, the same once rendered and escaped.
  const names = (m: typeof shown, name: string): boolean => m.own !== undefined && text.includes(`${env.marker} ${name}`);
  if (e.response!.status !== 200) return variants.forEach((v) => emit(v, 'fail', `expected an anonymous GET ${html.path}?u=${u}&view=list to answer 200 with the rendered view (000 §4.3); got ${describeAnswer(e.response)}`, e));
  if (!names(shown, `view ${word} shown`)) return variants.forEach((v) => emit(v, 'fail', `expected the rendered list view to name the suite's published ${shown.own!.label}, running now (000 §4.3); it does not (${text.length} characters)`, e));
  emit('render', names(draft, `view ${word} draft`) ? 'fail' : 'pass', names(draft, `view ${word} draft`) ? `expected the rendered list view to leave out the suite's draft ${draft.own!.label} (000 §4.3: a view for visitors); it names it` : `the list view names ${shown.own!.label} and not the draft`, e);
  emit('hide_from_listings', names(hidden, `view ${word} hidden`) ? 'fail' : 'pass', names(hidden, `view ${word} hidden`) ? `expected the rendered list view to leave out ${hidden.own!.label}, created with hide_from_listings true (000 §2.1: hides the event in the calendar view); it names it` : `the list view leaves out ${hidden.own!.label} (hide_from_listings)`, e);
}

export function planViews(contract: Contract): Unit[] {
  const html = contract.operations.find((o) => o.namespace === 'cal/views/v2' && o.method === 'GET' && o.path.endsWith('/html'));
  const res = calendarResources(contract).find((r) => r.namespace === 'cal/events/v1' && r.resource === 'event');
  if (!html || !res) return [];
  const id = `${VIEWS}:${html.id}`;
  return [{ id, family: VIEWS, checks: [VIEWS], operations: [html, res.create], writes: true, run: (env) => rendered(env, html, res, id) }];
}
