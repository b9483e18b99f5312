// core_list_params: the collection params core's posts controller gives every list built on it, which the documents
// do not list for cal/v1 venues (WP_REST_Posts_Controller::get_collection_params(), get_items(): include is post__in,
// exclude post__not_in). On two venues of the suite's own, published, narrowed by a word only they carry, read
// anonymously:
// - include: ?include=<a> lists a alone, ?include=<a>,<b> both;
// - exclude: ?exclude=<a> lists b alone.
// Severity convention: WordPress's controller does it and the documents are silent.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody } from '../http/types.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { cannotWrite, emitterFor, ownWord } from './kit/oracle_kit.ts';
import { calendarResources, idOf, listRecords, type CalendarResource } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';
import { makeAll } from './filters.ts';

export const CORE_LIST_PARAMS = 'core_list_params';

async function includeExclude(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, CORE_LIST_PARAMS, op, 'convention');
  const variants = ['include', 'exclude'];
  const why = cannotWrite(env, [op, res.create]);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the check reads records of its own`));
  const word = ownWord(env.runId, unitId);
  const made = await makeAll(env, res, unitId, ['alpha', 'bravo'].map((n) => ({ name: `params ${word} ${n} ${unitId}` })));
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  const [a, b] = made.own.map((o) => o.id) as [number, number];
  const rule = 'WordPress convention, WP_REST_Posts_Controller::get_items(): include is post__in, exclude post__not_in';
  const read = async (variant: string, query: Record<string, unknown>, want: number[]): Promise<boolean> => {
    const shown = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&');
    const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { search: word.toLowerCase(), ...query }, auth: false }, op);
    const t = transportOutcome(e);
    if (t) return emit(variant, t.outcome, t.message, e), false;
    const records = e.response!.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
    if (!records) return emit(variant, 'inconclusive', `GET ${op.path}?${shown} answered ${describeAnswer(e.response)}, not a list`, e), false;
    const got = records.map(idOf).filter((x): x is number => x !== undefined).sort((x, y) => x - y);
    if (JSON.stringify(got) === JSON.stringify([...want].sort((x, y) => x - y))) return true;
    emit(variant, 'fail', `expected GET ${op.path}?search=<own word>&${shown} to list ${want.map((x) => `#${x}`).join(' and ')} alone of the two venues of its own (#${a}, #${b}) (${rule}); it listed ${got.length ? got.map((x) => `#${x}`).join(', ') : 'none'}`, e);
    return false;
  };
  if ((await read('include', { include: a }, [a])) && (await read('include', { include: `${a},${b}` }, [a, b]))) emit('include', 'pass', `include=${a} lists #${a} alone, include=${a},${b} both`);
  if (await read('exclude', { exclude: a }, [b])) emit('exclude', 'pass', `exclude=${a} lists #${b} alone of the two`);
}

export function planCoreListParams(contract: Contract): Unit[] {
  return calendarResources(contract)
    .filter((r) => r.resource === 'venue' && builtOnCoreControllers(contract, r.create))
    .map((r) => {
      const id = `${CORE_LIST_PARAMS}:${r.list.id}`;
      return { id, family: CORE_LIST_PARAMS, checks: [CORE_LIST_PARAMS], operations: [r.list, r.create], writes: true, run: (env: UnitEnv) => includeExclude(env, r, id) };
    });
}
