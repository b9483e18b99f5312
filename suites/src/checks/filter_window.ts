// limit and offset on the translation lists (001 §4.3, §8: "limit / offset, default 10 / 0, translation string and
// package lists"). The suite cannot make strings or packages (no documented route creates them), so the oracles read
// the site's own: the first records with limit=6, then a window of it.
//   filter_limit: limit=2 answers the first two of them, no more, no fewer.
//   filter_offset: limit=2&offset=1 answers the second and third (the documents name offset without defining it;
//     its meaning is the universal one, at severity convention).
// A list with fewer than three records shows neither: inconclusive, with the count.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeRecord, emitterFor, readList, unreadable, type ListRead } from './kit/oracle_kit.ts';
import { idOf } from './kit/resources.ts';
import { windowOf } from '../../../contracts/wordpress/list-window.ts';

export const FILTER_LIMIT = 'filter_limit';
export const FILTER_OFFSET = 'filter_offset';

const BASE = 6;

/** How a record is told apart: its id, else its whole JSON (a list whose records carry no id). */
const keyOf = (rec: unknown): string => {
  const id = idOf(rec);
  return id !== undefined ? `#${id}` : JSON.stringify(rec);
};

function windowProblem(base: ListRead, got: ListRead, from: number, count: number): string | undefined {
  const want = windowOf(base.records!, from, count);
  const have = got.records!;
  const same = have.length === want.length && have.every((r, i) => keyOf(r) === keyOf(want[i]));
  if (same) return undefined;
  const show = (rs: readonly unknown[]): string => (rs.length ? rs.map(describeRecord).join(', ') : 'nothing');
  return `expected records ${from + 1}-${from + want.length} of limit=${BASE}: ${show(want)}; got ${have.length}: ${show(have.slice(0, 8))}${have.length > 8 ? ', ...' : ''}`;
}

async function windowOracle(env: UnitEnv, op: Operation): Promise<void> {
  const limitEmit = emitterFor(env, FILTER_LIMIT, op, 'documented');
  const offsetEmit = emitterFor(env, FILTER_OFFSET, op, 'convention');
  const base = await readList(env, op, { limit: BASE, offset: 0 });
  const bu = unreadable(base, `limit=${BASE}`);
  if (bu) {
    limitEmit('limit', bu.outcome, bu.message, base.e);
    return offsetEmit('offset', bu.outcome, bu.message, base.e);
  }
  const n = base.records!.length;
  if (n > BASE) {
    limitEmit('limit', 'fail', `expected at most ${BASE} records for limit=${BASE} (001 §8: limit); got ${n}`, base.e);
    return offsetEmit('offset', 'skip', 'not judged: the list does not keep to its limit (see filter_limit)');
  }
  if (n < 3) {
    const why = `the list holds ${n} record(s) with limit=${BASE}: a window needs at least 3 to show anything`;
    limitEmit('limit', 'inconclusive', why, base.e);
    return offsetEmit('offset', 'inconclusive', why, base.e);
  }
  const first = await readList(env, op, { limit: 2, offset: 0 });
  const fu = unreadable(first, 'limit=2');
  if (fu) limitEmit('limit', fu.outcome, fu.message, first.e);
  else {
    const p = windowProblem(base, first, 0, 2);
    limitEmit('limit', p ? 'fail' : 'pass', p ? `compared limit=2 with the first records of limit=${BASE} (001 §8: limit); ${p}` : `compared limit=2 with the first two of limit=${BASE}: ${first.records!.map(describeRecord).join(', ')}`, first.e);
  }
  const win = await readList(env, op, { limit: 2, offset: 1 });
  const wu = unreadable(win, 'limit=2&offset=1');
  if (wu) return offsetEmit('offset', wu.outcome, wu.message, win.e);
  const p = windowProblem(base, win, 1, 2);
  offsetEmit('offset', p ? 'fail' : 'pass', p ? `compared limit=2&offset=1 with records 2-3 of limit=${BASE} (offset skips that many records); ${p}` : `compared limit=2&offset=1 with records 2-3 of limit=${BASE}: ${win.records!.map(describeRecord).join(', ')}`, win.e);
}

export function planWindowFilters(contract: Contract): Unit[] {
  return contract.operations
    .filter((op) => op.method === 'GET' && op.resource !== undefined && ['limit', 'offset'].every((n) => op.params.some((p) => p.name === n && p.in === 'query')))
    .map((op) => ({ id: `${FILTER_LIMIT}:${op.id}`, family: FILTER_LIMIT, checks: [FILTER_LIMIT, FILTER_OFFSET], operations: [op], run: (env: UnitEnv) => windowOracle(env, op) }));
}
