// stateful: random sequences of the documented operations on the suite's own cal/v1 records (create, read, list
// with statuses, PATCH and PUT, a refused update anonymously or as --low-auth-env's user, trash, delete for good, a
// batch of updates, a read through the legacy namespace), each answer held to a model that predicts it from the
// sequence so far (stateful/model.ts). fast-check drives it (fc.commands with fc.asyncModelRun, as its
// model-based testing does), and shrinks a failing sequence to the shortest one that still fails; the case then
// shows that sequence step by step, with a curl script that replays it. What one request shows is other checks'
// work; this check finds what only a sequence shows: a trashed record still listed, a refused write applied, a
// second update undoing the first.
//
// Bounded by a request budget shared by every sequence and every shrink (--stateful, default below); each
// sequence deletes its records for good as it ends, and they are in the run's ledger too. Quiet where the target
// cannot take part: no credentials, a route it does not serve, a create it refuses (inconclusive, saying so).

import fc from 'fast-check';
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { templateKey } from '../diff/descriptor.ts';
import { fillTemplate } from '../http/target.ts';
import type { Exchange } from '../http/types.ts';
import { toCurl } from '../report/curl.ts';
import { createdId } from './kit/ledger.ts';
import type { Outcome } from '../report/policy.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { writeBlocker } from './kit/writes.ts';
import { describeAnswer } from './kit/wp.ts';
import { ownWord } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import { commandArbitraries, firstCreate, Real, SequenceBreak, Unanswered, type Budget, type Step } from './stateful/commands.ts';
import { emptyModel, type Offers, type Traits } from './stateful/model.ts';

export const STATEFUL = 'stateful';

/** Requests the phase may send per resource, sequences and shrinking together, when the run does not say. */
const STATEFUL_DEFAULT_BUDGET = 300;
/** At most this many sequences per resource (each up to MAX_STEPS commands); the budget ends the search sooner. */
const SEQUENCES = 1000;
const MAX_STEPS = 12;
/** Share of the budget the search for a failing sequence may spend; the rest is kept for shrinking one. */
const SEARCH_SHARE = 0.6;

interface Failure {
  message: string;
  steps: Step[];
  ids: ReadonlyMap<number, number>;
}

/** A curl script that replays the steps: each create's id is kept in a shell variable the later steps use. */
function replayScript(steps: readonly Step[], ids: ReadonlyMap<number, number>, env: Pick<UnitEnv, 'authEnv' | 'lowAuthEnv'>): string {
  const varOf = new Map([...ids].map(([slot, id]) => [id, `ID${slot}`]));
  const lines = ['#!/bin/sh', '# the sequence, as curl commands; each create keeps its id in $IDn for the steps after it'];
  for (const s of steps) {
    const authEnv = s.auth === 'low' ? env.lowAuthEnv : env.authEnv;
    let curl = toCurl(s.exchange.request, authEnv ? { authEnv } : {});
    for (const [id, v] of varOf) curl = curl.replace(new RegExp(`/${id}(?=[/?'" ]|$)`, 'g'), `/'"$${v}"'`).replace(new RegExp(`"path":"([^"]*)/${id}"`, 'g'), `"path":"$1/'"$${v}"'"`);
    lines.push(`# ${s.text}`);
    if (s.created !== undefined) lines.push(`ID${s.created}=$(${curl.replace(' -i ', ' ')} | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).id')`);
    else lines.push(curl);
  }
  return lines.join('\n');
}

/** Deletes a sequence's records for good as it ends, so shrinking does not pile records up on the target. */
async function removeRecords(env: UnitEnv, res: CalendarResource, ids: Iterable<number>): Promise<void> {
  for (const id of ids) await env.send({ method: 'DELETE', route: fillTemplate(res.delete.path, { id }), query: { force: true }, intent: 'cleanup' }, res.delete);
}

/** One try at a create, before any sequence: a target that refuses it gives the phase nothing to work on. */
async function canCreate(env: UnitEnv, res: CalendarResource, unitId: string): Promise<{ ok: true } | { ok: false; e: Exchange }> {
  const e = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: { title: `${env.marker} stateful probe`, status: 'draft' } }, intent: 'write' }, res.create);
  const id = createdId(e);
  if (id === undefined) return { ok: false, e };
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  await removeRecords(env, res, [id]);
  return { ok: true };
}

async function runSequences(env: UnitEnv, res: CalendarResource, legacy: CalendarResource | undefined, batch: Operation | undefined, unitId: string): Promise<void> {
  const variant = `${res.namespace}/${res.resource}`;
  const emit = (outcome: Outcome, message: string, exchange?: Exchange): void =>
    env.emit({ check: STATEFUL, operation: res.create, variant, severity: 'convention', outcome, message, ...(exchange ? { exchange } : {}) });
  const probe = await canCreate(env, res, unitId);
  if (!probe.ok) return emit('inconclusive', `no sequence was run: the target did not create a ${res.resource} for the suite's user (${probe.e.response ? `${probe.e.response.status}` : probe.e.error?.message ?? 'no answer'}), so there was nothing to follow`, probe.e);

  const offers: Offers = { low: env.lowAuthEnv !== undefined, batch: batch !== undefined, legacy: legacy !== undefined };
  const traits: Traits = {};
  let learned: Exchange | undefined;
  const total = env.statefulBudget ?? STATEFUL_DEFAULT_BUDGET;
  const budget: Budget = { left: total };
  let sequences = 0;
  let unanswered: string | undefined;
  let failure: Failure | undefined;
  // Every sequence starts with a create, so that its commands have a record to work on from the first.
  const property = fc.asyncProperty(firstCreate(), fc.commands(commandArbitraries(), { maxCommands: MAX_STEPS, size: 'max' }), async (first, cmds) => {
    // Out of budget or answers: every further try passes at once, which ends the search and the shrinking.
    const searching = failure === undefined;
    if (budget.left <= (searching ? total * (1 - SEARCH_SHARE) : 0) || unanswered !== undefined || env.signal.aborted) return;
    sequences++;
    const real = new Real(env, res, legacy, batch, ownWord(env.runId, `${unitId}#${sequences}`), budget, unitId);
    try {
      const model = emptyModel(offers, traits);
      await first.run(model, real);
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    } catch (err) {
      if (err instanceof Unanswered) {
        unanswered = err.message;
        return;
      }
      if (err instanceof SequenceBreak) failure = { message: err.message, steps: [...real.steps], ids: new Map(real.ids) };
      throw err;
    } finally {
      learned ??= real.learned;
      await removeRecords(env, res, real.ids.values());
    }
  });
  const details = await fc.check(property, { seed: env.seed, numRuns: SEQUENCES });
  emitAnonymousRead(env, res, traits, learned);
  const spent = total - budget.left;
  if (details.failed && failure) {
    const last = failure.steps.at(-1)!;
    const steps = failure.steps.map((s) => `${s.text} → ${s.exchange.response ? `${s.exchange.response.status}` : 'no answer'}`).join('\n');
    const script = replayScript(failure.steps, failure.ids, env);
    return emit(
      'fail',
      `after these ${failure.steps.length} steps (shrunk from the sequence that first failed, ${details.numShrinks} shrinks), the site answered what the sequence so far rules out: ${failure.message}\n${steps}\nreplay the sequence (ids as shell variables):\n${script}`,
      last.exchange,
    );
  }
  // Not the site's doing: the phase itself broke, which the report shows as errored, never as the site's failure.
  if (details.failed) return emit('error', `the stateful phase broke: ${String(details.errorInstance)}`);
  if (sequences === 0 || (unanswered !== undefined && sequences === 1)) return emit('inconclusive', `no sequence ran to its end: ${unanswered ?? 'the phase had no budget'}`);
  emit('pass', `${sequences} sequence(s) of up to ${MAX_STEPS} steps, ${spent} requests: every answer as the sequence predicted${unanswered ? ` (the last one stopped: ${unanswered})` : ''}`);
}

/**
 * Whether a published record reads anonymously by id, as the sequences first saw it: WordPress lets anyone read a
 * published post (check_read_permission()); a site that refuses it is held to that refusal in every sequence, and
 * this one case says so.
 */
function emitAnonymousRead(env: UnitEnv, res: CalendarResource, traits: Traits, e: Exchange | undefined): void {
  const variant = `${res.namespace}/${res.resource}/anonymous_read`;
  const base = { check: STATEFUL, operation: res.read, variant, severity: 'convention' as const, ...(e ? { exchange: e } : {}) };
  if (traits.anonReadsPublished === undefined) return env.emit({ ...base, outcome: 'inconclusive', message: 'no sequence read a published record of its own anonymously' });
  if (traits.anonReadsPublished) return env.emit({ ...base, outcome: 'pass', message: 'a published record of the suite\'s own reads anonymously by id' });
  env.emit({ ...base, outcome: 'fail', message: `expected a published record to read anonymously by id (WordPress convention, WP_REST_Posts_Controller::check_read_permission(): a published post is readable by anyone); got ${e?.response ? describeAnswer(e.response) : 'no answer'}. The sequences were held to this refusal from then on` });
}

export function planStateful(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const batch = contract.operations.find((o) => o.method === 'POST' && o.path === '/batch/v1');
  return resources
    .filter((r) => r.namespace === 'cal/v1')
    .map((res) => {
      const unitId = `${STATEFUL}:${res.namespace}/${res.resource}`;
      const legacy = resources.find((r) => r.namespace === 'cal/events/v1' && r.resource === res.resource);
      return {
        id: unitId,
        family: STATEFUL,
        checks: [STATEFUL],
        operations: [res.create, res.read, res.list, res.update, res.delete],
        writes: true,
        run: async (env: UnitEnv) => {
          const why = writeBlocker(env) ?? (env.statefulBudget === 0 ? '--stateful 0: the stateful phase is off' : undefined) ?? (served(env, [res.create, res.read, res.list, res.update, res.delete]) ? undefined : `the target does not list ${res.create.path} (see route_presence and diff)`);
          if (why) return env.emit({ check: STATEFUL, operation: res.create, variant: `${res.namespace}/${res.resource}`, severity: 'convention', outcome: 'skip', message: why });
          await runSequences(env, res, legacy && served(env, [legacy.read]) ? legacy : undefined, batch && served(env, [batch]) ? batch : undefined, unitId);
        },
      };
    });
}

function served(env: UnitEnv, ops: readonly Operation[]): boolean {
  return !env.descriptor.byKey.size || ops.every((op) => env.descriptor.byKey.has(templateKey(op.path)));
}
