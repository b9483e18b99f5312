// defaults: a parameter left out behaves as its documented default (000 §4.1.1–4.2.2, §8; 001 §4).
//   - every read with a documented query default answers the same without the parameter as with the default
//     written out (per_page=10, status=publish, orderby=event_date, order=ASC, context=view...), clock aside;
//   - a list without per_page holds at most the default number of records (10, "all lists", 000 §8), and its
//     X-WP-TotalPages, when sent, is computed with it;
//   - a list whose status default is [publish] shows no record of another status.
// Severity documented: each default is a sentence of the documents (cited in the message). A parameter the
// target's descriptor does not declare is ignored by WordPress, so a difference there is held as assumed.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { documentedDefaults, edgeCases, EDGE_STYLE } from '../../../contracts/lib/arbitraries/index.ts';
import { render } from '../../../contracts/lib/arbitraries/wire.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Outcome } from '../report/policy.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { answerDifference } from './kit/compare.ts';
import { toOutgoing, type WireRequest } from './kit/generate.ts';
import { undeclared } from './kit/marks.ts';
import { referenceFields, referenceValues, withReferences } from './kit/references.ts';
import { listRecords } from './kit/resources.ts';
import { describeAnswer, sourceOf, transportOutcome, wholeNumberHeader } from './kit/wp.ts';

export const DEFAULTS = 'defaults';

const ok = (e: Exchange): boolean => !!e.response && e.response.status >= 200 && e.response.status < 300;

async function defaults(env: UnitEnv, op: Operation): Promise<void> {
  const source = sourceOf(op);
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange, severity: Severity = 'documented'): void =>
    env.emit({ check: DEFAULTS, operation: op, variant, severity, outcome, message, ...(e ? { exchange: e } : {}) });
  const documented = documentedDefaults(op);
  const minimal = edgeCases(env.contract, op, (d) => d.family === 'minimal')[0]!;
  // What names a record names one the target has (a read by id, oEmbed's url), as a client would ask.
  const fields = referenceFields(env.contract, op);
  let base: WireRequest = minimal.request;
  if (fields.length) base = withReferences(op, base, fields, await referenceValues(env, fields, op)).req;

  const plain = await env.send(toOutgoing(base), op);
  const t = transportOutcome(plain);
  const variants = [...documented.map((d) => `default:${d.param.name}`), ...(op.kind === 'list' && documented.some((d) => d.param.name === 'per_page') ? ['per_page:count'] : [])];
  if (t) return variants.forEach((v) => emit(v, t.outcome, t.message, plain));
  if (!ok(plain)) return variants.forEach((v) => emit(v, 'inconclusive', `the request without the parameter was not accepted (${describeAnswer(plain.response)}), so no default can be seen`, plain));

  const records = op.kind === 'list' ? listRecords(jsonBody(plain.response)) : undefined;
  /** The answer with per_page written out as its default, when it was accepted: per_page:count compares its totals. */
  let explicitPerPage: Exchange | undefined;
  for (const d of documented) {
    const variant = `default:${d.param.name}`;
    const value = render(d.param.schema, d.value, 'query', EDGE_STYLE);
    const explicit = await env.send(toOutgoing({ ...base, query: { ...base.query, [d.param.name]: value } }), op);
    const te = transportOutcome(explicit);
    if (te) {
      emit(variant, te.outcome, te.message, explicit);
      continue;
    }
    const shownValue = JSON.stringify(d.value);
    if (d.param.name === 'per_page' && ok(explicit)) explicitPerPage = explicit;
    if (!ok(explicit)) {
      emit(variant, 'inconclusive', `${d.param.name}=${shownValue} written out was not accepted (${describeAnswer(explicit.response)}; see positive_acceptance), so the default cannot be compared`, explicit);
      continue;
    }
    const diff = answerDifference(explicit, plain, op.kind === 'list' ? ['x-wp-total', 'x-wp-totalpages'] : []);
    if (!diff) {
      emit(variant, 'pass', `left out, ${d.param.name} behaves as ${shownValue}, its documented default`, plain);
    } else {
      const why = undeclared(env.descriptor, op, d.param.name);
      const message = `expected the answer without ${d.param.name} to be the one with ${d.param.name}=${shownValue}, its documented default (${source}); without it the answer has ${diff}`;
      emit(variant, 'fail', why ? `${message}; held as assumed because ${why}` : message, plain, why ? 'assumed' : 'documented');
    }
    if (d.param.name === 'status' && Array.isArray(d.value) && records) {
      const off = records.filter((r) => typeof (r as { status?: unknown } | null)?.status === 'string' && !(d.value as unknown[]).includes((r as { status: string }).status));
      if (off.length) emit('default:status:records', 'fail', `expected only records with status in ${shownValue}, the documented default (${source}); got ${off.length} other(s), e.g. status "${(off[0] as { status: string }).status}"`, plain);
      else emit('default:status:records', 'pass', `every record of the default list has status in ${shownValue}`, plain);
    }
  }

  const perPage = documented.find((d) => d.param.name === 'per_page');
  if (op.kind === 'list' && perPage) {
    const n = perPage.value as number;
    if (!records) return emit('per_page:count', 'inconclusive', `the list answered ${describeAnswer(plain.response)} without a list of records to count`, plain);
    const problems: string[] = [];
    if (records.length > n) problems.push(`it holds ${records.length} records`);
    const total = wholeNumberHeader(plain.response, 'x-wp-total');
    const pages = wholeNumberHeader(plain.response, 'x-wp-totalpages');
    // Pages of n: X-WP-TotalPages as with per_page=n written out. Whether the totals count the records at all is
    // pagination's finding (a wrong X-WP-Total would otherwise be blamed here as well, on the header derived from it).
    const explicitPages = wholeNumberHeader(explicitPerPage?.response, 'x-wp-totalpages');
    if (pages !== undefined && explicitPages !== undefined && pages !== explicitPages) problems.push(`X-WP-TotalPages is ${pages}, where per_page=${n} written out gives ${explicitPages}`);
    if (problems.length) emit('per_page:count', 'fail', `expected a list without per_page to hold at most ${n} records, per_page's documented default (${source}; 000 §8), and its totals to count pages of ${n}; ${problems.join('; ')}`, plain);
    else emit('per_page:count', 'pass', `without per_page: ${records.length} record(s)${total !== undefined ? `, X-WP-Total ${total}, X-WP-TotalPages ${pages}` : ''}; pages of ${n}`, plain);
  }
}

export function planDefaults(contract: Contract): Unit[] {
  return contract.operations
    .filter((op) => op.method === 'GET' && documentedDefaults(op).length > 0)
    // The read without a parameter and each read with its default written out are compared: no write of the run between them.
    .map((op) => ({ id: `${DEFAULTS}:${op.id}`, family: DEFAULTS, checks: [DEFAULTS], operations: [op], run: (env) => env.steady([op], () => defaults(env, op)) }));
}
