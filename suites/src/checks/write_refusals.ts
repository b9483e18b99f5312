// write_refusals: the writes WordPress's controllers refuse for what they carry, whoever sends them, each sent by the
// run's administrator at the edge, beside the same write that is taken:
// - cal/v1 (core's posts controller, WP_REST_Posts_Controller): a create naming an `id` is 400 rest_post_exists
//   (create_item_permissions_check(), "Cannot create existing post."), the id of the run's own record; `template`
//   other than "" must be one of the theme's page templates (check_template(), a validate_callback: 400
//   rest_invalid_param naming template), while template "" is taken; `author` naming no user is 400
//   rest_invalid_author (prepare_item_for_database()), while the run's own user (the author of its own record) is
//   taken and read back.
// - cal/events/v1 terms (core's terms controller, WP_REST_Terms_Controller::create_item()): a tag takes no parent
//   (400 rest_taxonomy_not_hierarchical), a category's parent must exist (400 rest_term_invalid).
// A refused write must create nothing: a record the site made anyway goes into the ledger (and the finding fails).
// Not for the legacy posts (The Events Calendar's own controllers, which read neither id, template nor author so).
//
// Severity: convention (WordPress's controllers; the documents are silent), documented for a term's parent (000 §2.4
// gives parent to categories only, "parent category ID"). Needs credentials and writes; the accepted halves are records of the run's own.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Outcome } from '../report/policy.ts';
import { createdId } from './kit/ledger.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { writeBlocker } from './kit/writes.ts';
import { calendarResources, createOwn, minimalCreateBody, type CalendarResource } from './kit/resources.ts';
import { blamedParams, describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const WRITE_REFUSALS = 'write_refusals';

/** An id no WordPress site has reached: a user or term that does not exist. */
const NO_SUCH_ID = 2_000_000_001;
/** A template file no theme has. */
const NO_SUCH_TEMPLATE = 'site-contracts-no-such.php';

interface Refusal {
  /** WordPress's code; `param` when the refusal is rest_invalid_param and must name that parameter. */
  code: string;
  param?: string;
  rule: string;
}

interface Verdict {
  outcome: Outcome;
  message: string;
  exchange?: Exchange;
}

/** Sends a create the site must refuse; a record it made anyway goes into the ledger. */
async function refusedCreate(env: UnitEnv, res: CalendarResource, unitId: string, body: Record<string, unknown>, want: Refusal, what: string): Promise<Verdict> {
  const e = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: body }, intent: 'write' }, res.create);
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const made = createdId(e);
  if (made !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id: made, itemPath: res.read.path, createdBy: unitId });
  const r = e.response!;
  const err = wpError(r);
  const expected = `expected ${what} to be refused 400 ${want.code}${want.param ? ` naming ${want.param}` : ''} (${want.rule}) and to create nothing`;
  if (r.status >= 200 && r.status < 300) return { outcome: 'fail', message: `${expected}; it was taken (${r.status}${made !== undefined ? `, record ${made} made` : ''})`, exchange: e };
  if (r.status === 401 || r.status === 403) return { outcome: 'inconclusive', message: `${what} was refused for permission (${describeAnswer(r)}), so what the site does with the value cannot be seen`, exchange: e };
  if (r.status !== 400 || err?.code !== want.code) return { outcome: 'fail', message: `${expected}; it answered ${describeAnswer(r)}`, exchange: e };
  if (want.param && !blamedParams(err).includes(want.param)) return { outcome: 'fail', message: `${expected}; the 400 names ${blamedParams(err).join(', ') || 'no parameter'}`, exchange: e };
  return { outcome: 'pass', message: `${what} was refused 400 ${err.code}${want.param ? ` naming ${want.param}` : ''}, and nothing was made`, exchange: e };
}

/** Sends a create the site must take; the record goes into the ledger, and `field` must read back as sent. */
async function takenCreate(env: UnitEnv, res: CalendarResource, unitId: string, body: Record<string, unknown>, field: string, what: string, rule: string): Promise<Verdict> {
  const e = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: body }, intent: 'write' }, res.create);
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const made = createdId(e);
  if (made === undefined) {
    const r = e.response!;
    const outcome: Outcome = r.status === 401 || r.status === 403 ? 'inconclusive' : 'fail';
    return { outcome, message: `expected ${what} to be taken (${rule}); it answered ${describeAnswer(r)}`, exchange: e };
  }
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id: made, itemPath: res.read.path, createdBy: unitId });
  const got = (jsonBody(e.response) as Record<string, unknown> | undefined)?.[field];
  if (got === undefined) return { outcome: 'inconclusive', message: `${what} was taken (record ${made}), but the answer shows no ${field}`, exchange: e };
  if (got !== body[field]) return { outcome: 'fail', message: `expected ${what} to be taken with ${field} ${JSON.stringify(body[field])} (${rule}); record ${made} has ${field} ${JSON.stringify(got)}`, exchange: e };
  return { outcome: 'pass', message: `${what} was taken: record ${made} has ${field} ${JSON.stringify(got)}`, exchange: e };
}

const POSTS_RULE = 'WordPress convention, WP_REST_Posts_Controller';

async function postRefusals(env: UnitEnv, res: CalendarResource): Promise<void> {
  const unitId = `${WRITE_REFUSALS}:${res.namespace}/${res.resource}`;
  const emit = (variant: string, v: Verdict): void =>
    env.emit({ check: WRITE_REFUSALS, operation: res.create, variant, severity: 'convention', outcome: v.outcome, message: v.message, ...(v.exchange ? { exchange: v.exchange } : {}) });
  const variants = ['id', 'template', 'template-empty', 'author', 'author-own'];
  const blocked = writeBlocker(env);
  if (blocked) return variants.forEach((v) => emit(v, { outcome: 'skip', message: blocked }));
  const { record, exchange } = await createOwn(env, res, unitId, 'refusals');
  if (!record) {
    const t = transportOutcome(exchange);
    const v: Verdict = { outcome: t?.outcome ?? 'inconclusive', message: t?.message ?? `could not create a record of its own (${describeAnswer(exchange.response)})`, exchange };
    return variants.forEach((x) => emit(x, v));
  }
  const body = (label: string, extra: Record<string, unknown>): Record<string, unknown> => ({ ...minimalCreateBody(res, `${env.marker} ${label} ${unitId}`, env.now()), ...extra });
  emit('id', await refusedCreate(env, res, unitId, body('with id', { id: record.id }), { code: 'rest_post_exists', rule: `${POSTS_RULE}::create_item_permissions_check()` }, `a create naming the id of record ${record.id}`));
  const checkTemplate = `${POSTS_RULE}::check_template(): a template the theme lacks`;
  emit('template', await refusedCreate(env, res, unitId, body('template', { template: NO_SUCH_TEMPLATE }), { code: 'rest_invalid_param', param: 'template', rule: checkTemplate }, `a create with template ${JSON.stringify(NO_SUCH_TEMPLATE)}`));
  emit('template-empty', await takenCreate(env, res, unitId, body('template empty', { template: '' }), 'template', 'a create with template ""', `${POSTS_RULE}::check_template(): "" is the theme's default`));
  const authorRule = `${POSTS_RULE}::prepare_item_for_database()`;
  emit('author', await refusedCreate(env, res, unitId, body('author', { author: NO_SUCH_ID }), { code: 'rest_invalid_author', rule: `${authorRule}: an author that is no user` }, `a create with author ${NO_SUCH_ID}`));
  const own = (jsonBody(record.exchange.response) as Record<string, unknown> | undefined)?.['author'];
  if (typeof own !== 'number' || own <= 0) emit('author-own', { outcome: 'inconclusive', message: `the run's own record shows no author (${JSON.stringify(own)}), so the run's user is not known`, exchange: record.exchange });
  else emit('author-own', await takenCreate(env, res, unitId, body('author own', { author: own }), 'author', `a create with author ${own} (the run's own user)`, `${authorRule}: an author that is a user`));
}

async function termRefusals(env: UnitEnv, category: CalendarResource, tag: CalendarResource): Promise<void> {
  const unitId = `${WRITE_REFUSALS}:${category.namespace}/terms`;
  const severity: Severity = 'documented';
  const emit = (res: CalendarResource, variant: string, v: Verdict): void =>
    env.emit({ check: WRITE_REFUSALS, operation: res.create, variant, severity, outcome: v.outcome, message: v.message, ...(v.exchange ? { exchange: v.exchange } : {}) });
  const blocked = writeBlocker(env);
  if (blocked) {
    emit(tag, 'parent', { outcome: 'skip', message: blocked });
    return emit(category, 'parent', { outcome: 'skip', message: blocked });
  }
  const { record, exchange } = await createOwn(env, category, unitId, 'parent');
  const name = (label: string): Record<string, unknown> => ({ [tag.nameField]: `${env.marker} ${label} ${unitId}` });
  if (!record) {
    const t = transportOutcome(exchange);
    emit(tag, 'parent', { outcome: t?.outcome ?? 'inconclusive', message: t?.message ?? `could not create a category of its own (${describeAnswer(exchange.response)})`, exchange });
  } else {
    const rule = 'WP_REST_Terms_Controller::create_item(): a flat taxonomy takes no parent';
    emit(tag, 'parent', await refusedCreate(env, tag, unitId, { ...name('tag'), parent: record.id }, { code: 'rest_taxonomy_not_hierarchical', rule }, `a tag with parent ${record.id} (a category of the run's own)`));
  }
  const rule = 'WP_REST_Terms_Controller::create_item(): "Parent term does not exist."';
  emit(category, 'parent', await refusedCreate(env, category, unitId, { ...name('category'), parent: NO_SUCH_ID }, { code: 'rest_term_invalid', rule }, `a category with parent ${NO_SUCH_ID}`));
}

export function planWriteRefusals(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const units: Unit[] = resources
    .filter((r) => r.namespace === 'cal/v1')
    .map((res) => ({ id: `${WRITE_REFUSALS}:${res.namespace}/${res.resource}`, family: WRITE_REFUSALS, checks: [WRITE_REFUSALS], operations: [res.create], writes: true, run: (env: UnitEnv) => postRefusals(env, res) }));
  const category = resources.find((r) => r.namespace === 'cal/events/v1' && r.resource === 'category');
  const tag = resources.find((r) => r.namespace === 'cal/events/v1' && r.resource === 'tag');
  if (category && tag) {
    const ops: Operation[] = [category.create, tag.create];
    units.push({ id: `${WRITE_REFUSALS}:${category.namespace}/terms`, family: WRITE_REFUSALS, checks: [WRITE_REFUSALS], operations: ops, writes: true, run: (env: UnitEnv) => termRefusals(env, category, tag) });
  }
  return units;
}
