// language: on a site whose descriptor shows the translation add-on (an `i18n/...` namespace), a record written with
// `i18n_language=uk` (every route takes it, values en and uk: 000 and 001, conventions) is filed in Ukrainian: the
// list of its type read with `i18n_language=uk` shows it, and the same list read with `i18n_language=en` does not.
// One create per calendar resource, found by a label no other record has; ledgered and removed at the end.
//
// Severity assumed: the documents give the parameter and its values but not, in a sentence, what a write does with
// it. On a site without the add-on there is no second language to file a record in: inconclusive with that reason,
// never a failure.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { createdId } from './kit/ledger.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { writeBlocker } from './kit/writes.ts';
import { calendarResources, idOf, listRecords, minimalCreateBody, type CalendarResource } from './kit/resources.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';

export const LANGUAGE = 'language';

/** The translation add-on's namespaces as the site's descriptor lists them; empty when it has none. */
function translationNamespaces(namespaces: readonly string[]): string[] {
  return namespaces.filter((n) => /^i18n(\/|$)/.test(n));
}

async function language(env: UnitEnv, res: CalendarResource): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: LANGUAGE, operation: res.create, variant: 'uk', severity: 'assumed', outcome, message, ...(e ? { exchange: e } : {}) });
  const addOn = translationNamespaces(env.descriptor.namespaces);
  if (addOn.length === 0) return emit('inconclusive', "the site's descriptor lists no translation namespace (i18n/v1, i18n/st/v1...): without the add-on it has no second language to file a record in");
  const blocked = writeBlocker(env);
  if (blocked) return emit('skip', blocked);
  const unitId = `${LANGUAGE}:${res.namespace}/${res.resource}`;
  const label = `${env.marker} language ${res.namespace.replace(/\W+/g, '-')} ${res.resource}`;
  const created = await env.send(
    { method: 'POST', route: fillTemplate(res.create.path, {}), query: { i18n_language: 'uk' }, body: { kind: 'json', value: minimalCreateBody(res, label, env.now()) }, intent: 'write' },
    res.create,
  );
  const t = transportOutcome(created);
  if (t) return emit(t.outcome, t.message, created);
  const id = createdId(created);
  if (id === undefined) return emit('inconclusive', `the create with i18n_language=uk was not accepted (${describeAnswer(created.response)}), so where it is filed cannot be seen`, created);
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  // Terms with no posts are hidden from legacy term lists by default (hide_empty true).
  const hideEmpty = res.list.params.some((p) => p.in === 'query' && p.name === 'hide_empty') ? { hide_empty: 'false' } : {};
  const listed = async (lang: string): Promise<{ e: Exchange; has?: boolean }> => {
    const e = await env.send({ method: 'GET', route: fillTemplate(res.list.path, {}), query: { search: label, per_page: 100, i18n_language: lang, ...hideEmpty } }, res.list);
    const records = e.response?.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
    return { e, ...(records ? { has: records.some((r) => idOf(r) === id) } : {}) };
  };
  const uk = await listed('uk');
  const en = await listed('en');
  for (const x of [uk, en]) {
    const tx = transportOutcome(x.e);
    if (tx) return emit(tx.outcome, tx.message, x.e);
    if (x.has === undefined) return emit('inconclusive', `the list searched for the record answered ${describeAnswer(x.e.response)} without a list of records, so where it is filed cannot be seen`, x.e);
  }
  const expected = `expected record ${id}, written with i18n_language=uk on a site with the translation add-on (${addOn.join(', ')}), to be filed in Ukrainian: listed with i18n_language=uk, not with i18n_language=en`;
  const why = 'held as assumed because the documents give i18n_language and its values (en, uk) but do not say in a sentence what a write does with it';
  if (!uk.has) return emit('fail', `${expected}; the list with i18n_language=uk does not show it; ${why}`, uk.e);
  if (en.has) return emit('fail', `${expected}; the list with i18n_language=en shows it too; ${why}`, en.e);
  emit('pass', `record ${id} is listed with i18n_language=uk and not with i18n_language=en`, uk.e);
}

export function planLanguage(contract: Contract): Unit[] {
  return calendarResources(contract).map((res) => ({
    id: `${LANGUAGE}:${res.namespace}/${res.resource}`,
    family: LANGUAGE,
    checks: [LANGUAGE],
    operations: [res.create, res.list],
    writes: true,
    run: (env: UnitEnv) => language(env, res),
  }));
}
