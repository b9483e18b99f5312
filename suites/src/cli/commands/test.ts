// `site-contracts test`: read the baseline and prove the report directory writable, reach the target,
// check the credentials, plan the checks, run them within the budget, clean up what the run created,
// and hand the result to finishRun for reports, baseline and exit code. Everything that can be found
// wrong before the first request that could write is (exit 2). Ctrl-C/SIGTERM: cleanup and reports
// still happen, the verdict is INTERRUPTED and the exit code 130/143.

import { randomBytes, randomInt } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { Contract } from '../../../../contracts/lib/loader.ts';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { CALLS, planAll, planCalls, SELECTABLE_CHECKS } from '../../checks/registry.ts';
import { CallsFileError, readRecording, type Recording } from '../../../../contracts/lib/calls-format.ts';
import { foldCalls } from '../../runner/calls.ts';
import { createClient, type WritePolicy } from '../../http/client.ts';
import { checkCredentials, reachRoot } from '../../http/preflight.ts';
import type { LiveDescriptor } from '../../diff/descriptor.ts';
import type { HttpClient } from '../../http/client.ts';
import { failsRun } from '../../report/run.ts';
import { systemClock, tokenBucket, type Clock } from '../../http/rate.ts';
import { buildRun } from '../../report/run.ts';
import { inShard, parseFilter, select } from '../../runner/select.ts';
import { incompleteness, markerFor, runSuite, type SuiteResult } from '../../runner/run.ts';
import { phases } from '../../runner/order.ts';
import type { Unit } from '../../checks/kit/unit.ts';
import type { Leftover } from '../../runner/cleanup.ts';
import { removalRequest } from '../../runner/leftovers.ts';
import { toCurl } from '../../report/curl.ts';
import { durationLabel, reportableOptions, type RunArgs } from '../args.ts';
import type { CommandContext, CommandHandler } from '../context.ts';
import { ARCHIVED_BODIES_BYTES, type CaseResult } from '../../report/model.ts';
import { bodyBudget } from '../../report/case.ts';
import { CredentialsRefusedError, UsageError } from '../../errors.ts';
import { checkLowCredentials } from '../../http/low-preflight.ts';
import { headerRecord } from '../headers.ts';
import { finishRun, prepareReports, readInput } from '../finish.ts';
import { createProgress, type Progress } from '../progress.ts';
import { skipReasons } from '../../report/skips.ts';

export interface SignalSource {
  once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export interface TestDeps {
  loadContract(): Contract;
  randomSeed(): number;
  /** Names the run in every record it creates. */
  randomRunId(): string;
  signals?: SignalSource;
  clock?: Clock;
  dispatcher?: Dispatcher;
  concurrency?: number;
}

let cachedContract: Contract | undefined;

export const processTestDeps: TestDeps = {
  loadContract: () => (cachedContract ??= loadContractFile()),
  randomSeed: () => randomInt(0, 0xffff_ffff),
  randomRunId: () => randomBytes(4).toString('hex'),
  signals: process,
};

function writePolicy(args: RunArgs): WritePolicy {
  if (args.readOnly) return 'none';
  return args.auth ? 'all' : 'probes';
}

export function makeTestCommand(deps: TestDeps = processTestDeps): CommandHandler<RunArgs> {
  return async (args, ctx) => {
    const contract = deps.loadContract();
    const only = parseFilter(args.only, contract, SELECTABLE_CHECKS, '--only');
    const skip = parseFilter(args.skip, contract, SELECTABLE_CHECKS, '--skip');
    const seed = args.seed ?? deps.randomSeed();
    const runId = deps.randomRunId();
    const startedAt = ctx.now();
    // Before the first request: a missing baseline or an unwritable report directory found after
    // thousands of requests wastes the run (and the site's patience).
    const prepared = await prepareReports(args, ctx);
    const recording = args.calls === undefined ? undefined : await readCalls(ctx, args.calls);
    const contractVersion = String((contract.doc['info'] as { version?: unknown } | undefined)?.version ?? '');
    if (recording && recording.contract !== contractVersion) {
      ctx.stderr.write(`site-contracts: warning: ${args.calls} was recorded against contract ${recording.contract || '(unnamed)'}, this is ${contractVersion}: calls are judged by this one\n`);
    }

    const stop = new AbortController();
    let stoppedBy: 'SIGINT' | 'SIGTERM' | undefined;
    // Set once the units are known; a message then goes above the line it redraws, where no redraw erases it.
    let progress: Progress | undefined;
    const onSignal = (signal: 'SIGINT' | 'SIGTERM') => (): void => {
      stoppedBy = signal;
      const message = `\nsite-contracts: stopping (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'}): finishing requests in flight, removing created records, writing reports...\n`;
      if (progress) progress.note(message);
      else ctx.stderr.write(message);
      stop.abort(new Error(signal));
    };
    // --max-duration: the whole run's bound. It stops what is in flight as Ctrl-C does, but the run is errored, not interrupted.
    const deadline = new AbortController();
    const limit = setTimeout(() => deadline.abort(new Error('max-duration')), args.maxDurationMs ?? 3_600_000);
    limit.unref?.();
    const runSignal = AbortSignal.any([stop.signal, deadline.signal]);
    const onInt = onSignal('SIGINT');
    const onTerm = onSignal('SIGTERM');
    deps.signals?.once('SIGINT', onInt);
    deps.signals?.once('SIGTERM', onTerm);

    const client = createClient({
      target: { baseUrl: args.baseUrl, apiRoot: args.apiRoot },
      ...(args.auth ? { credentials: args.auth.credentials } : {}),
      ...(args.lowAuth ? { lowCredentials: args.lowAuth.credentials } : {}),
      timeoutMs: args.timeoutMs,
      maxRequests: args.maxRequests,
      writes: writePolicy(args),
      limiter: tokenBucket(args.rps, deps.clock ?? systemClock),
      ...(deps.clock ? { clock: deps.clock } : {}),
      signal: runSignal,
      ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
      userAgent: `${ctx.tool.name}/${ctx.tool.version}`,
      headers: headerRecord(args.headers),
      redact: { secrets: ctx.secrets, secretHeaders: ctx.secretHeaders },
    });
    // Planned before the first request, so that a run stopped before any check started still names them all.
    // --calls: one unit per recorded call, judged by every sweep, response_shape and calls' comparison (checks/calls.ts).
    const { units, checks } = recording
      ? { units: planCalls(contract, recording.calls), checks: new Set([...SELECTABLE_CHECKS, CALLS]) }
      : select(planAll(contract), SELECTABLE_CHECKS, only, skip);
    const mine = units.filter((u) => inShard(u.id, args.shard));
    let result: SuiteResult | undefined;
    try {
      const { descriptor } = await reachRoot(client);
      const headersSignIn = !args.auth && args.headers.length > 0 && (await refuseLoggingInHeaders(client, contract, descriptor, args));
      if (headersSignIn) {
        ctx.stderr.write(
          `site-contracts: warning: WordPress logs in with the headers given with -H (${args.headers.map((h) => h.name).join(', ')}); ` +
            `under --read-only nothing writes, but no request reaches the site anonymous, so the probes that must are skipped\n`,
        );
      }
      if (args.auth) {
        const check = await checkCredentials(client, contract, descriptor, { envVar: args.auth.envVar, readOnly: args.readOnly });
        ctx.stderr.write(
          ctx.redact(
            check.kind === 'accepted'
              ? `site-contracts: credentials from ${args.auth.envVar} accepted (${check.evidence})${check.note ? `; ${check.note}` : ''}\n`
              : `site-contracts: warning: could not check the credentials from ${args.auth.envVar} (${check.why}); a refusal will show up as failed writes\n`,
          ),
        );
        if (args.lowAuth) {
          const low = await checkLowCredentials(client, contract, descriptor, args.lowAuth.envVar);
          ctx.stderr.write(
            ctx.redact(
              low.kind === 'accepted'
                ? `site-contracts: credentials from ${args.lowAuth.envVar} (--low-auth-env) accepted (${low.evidence})\n`
                : `site-contracts: warning: could not check the credentials from ${args.lowAuth.envVar} (${low.why}); the low-user half of auth_status may blame the site for a refusal of credentials it did not take\n`,
            ),
          );
        }
      }
      ctx.stderr.write(
        `site-contracts: testing ${args.baseUrl} (API root ${args.apiRoot}), seed ${seed}, ${mine.length} units` +
          `${args.shard ? ` (shard ${args.shard.index}/${args.shard.total} of ${units.length})` : ''}, ` +
          `${args.readOnly ? 'read-only' : args.auth ? `writing as ${args.auth.envVar}` : 'no credentials: nothing is written'}` +
          `${args.disposableTarget ? `; DISPOSABLE TARGET (--disposable-target): writes the suite cannot undo are sent too, restore the site afterwards` : ''}` +
          `${args.headers.length > 0 ? `, with ${args.headers.map((h) => h.name).join(', ')} (-H) on every request` : ''}` +
          `${args.maxFailures !== undefined ? `, stopping after ${args.maxFailures} failing case(s)` : ''}\n`,
      );
      // Cases the baseline accepts do not fail the run, so they do not count towards --max-failures either.
      const accepted = new Set(prepared.baseline?.accepted.map((a) => a.id) ?? []);
      // In a CI log a line every 10 s at most: a few hundred for an hour's run.
      const shown = createProgress({ stream: ctx.stderr, env: ctx.env, units: mine.length, now: () => ctx.now().getTime() });
      progress = shown;
      const labelOf = (u: Unit) => ({ id: u.id, label: `${u.family} ${u.operations[0] ? `${u.operations[0].method.toUpperCase()} ${u.operations[0].path}` : (u.namespaces ?? []).map((n) => n || '/').join(', ')}` });
      result = await runSuite({
        contract,
        client,
        descriptor,
        units: mine,
        checks,
        seed,
        runs: args.runs,
        runId,
        readOnly: args.readOnly,
        ...(args.disposableTarget ? { disposable: true } : {}),
        ...(headersSignIn ? { headersSignIn: true } : {}),
        maxRequests: args.maxRequests,
        policy: args.policy,
        ...(args.formats.includes('har') ? { archive: bodyBudget(ARCHIVED_BODIES_BYTES) } : {}),
        ...(args.auth ? { authEnv: args.auth.envVar } : {}),
        ...(args.lowAuth ? { lowAuthEnv: args.lowAuth.envVar } : {}),
        // A recording's calls run one after the other: a read may need the record an earlier create made.
        concurrency: recording ? 1 : (deps.concurrency ?? args.workers ?? 4),
        ...(args.stateful !== undefined ? { statefulBudget: args.stateful } : {}),
        deadline: { signal: deadline.signal, label: durationLabel(args.maxDurationMs ?? 3_600_000) },
        ...(args.maxFailures !== undefined ? { maxFailures: { limit: args.maxFailures, counts: (c) => failsRun(c) && !accepted.has(c.id) } } : {}),
        signal: runSignal,
        now: () => ctx.now(),
        onCase: (c) => shown.record(c.status),
        onUnit: (u, phase) => (phase === 'start' ? shown.unitStarted(labelOf(u)) : shown.unitDone(labelOf(u))),
      });
      shown.finish();
      if (only.cases.size > 0) result = { ...result, cases: onlyCases(result.cases, only.cases, ctx, seed) };
      if (recording) result = { ...result, cases: foldCalls(result.cases, recording.calls) };
    } catch (e) {
      // Stopped while reaching the target or checking credentials: nothing was written, and the
      // report says the run was interrupted rather than that the target could not be reached.
      if (stoppedBy === undefined && !deadline.signal.aborted) throw e;
    } finally {
      clearTimeout(limit);
      deps.signals?.off('SIGINT', onInt);
      deps.signals?.off('SIGTERM', onTerm);
      await client.close();
    }
    if (!result) {
      const early = stoppedBy === undefined ? 'max-duration' : 'aborted';
      const incomplete = early === 'max-duration'
        ? incompleteness('max-duration', phases(mine).flat(), new Set(mine.map((u) => u.id)), new Set(), `--max-duration ${durationLabel(args.maxDurationMs ?? 3_600_000)}`)
        : incompleteness('signal', phases(mine).flat(), new Set(mine.map((u) => u.id)), new Set());
      result = { cases: [], cleanup: { removed: [], left: [], unconfirmed: [], swept: 0 }, requests: client.sent, marker: markerFor(runId), stoppedBy: early, incomplete };
    }

    ctx.stderr.write(ctx.redact(describeRunEnd(result, seed, args)));
    const run = buildRun({
      tool: ctx.tool,
      target: { baseUrl: args.baseUrl, apiRoot: args.apiRoot },
      startedAt,
      finishedAt: ctx.now(),
      seed,
      contract: { version: contractVersion },
      ...(args.shard ? { shard: args.shard } : {}),
      ...(stoppedBy ? { interrupted: { signal: stoppedBy } } : {}),
      ...(result.incomplete ? { incomplete: result.incomplete } : {}),
      options: {
        ...reportableOptions(args),
        seed,
        runId,
        requestsSent: result.requests,
        skippedBy: skipReasons(result.cases),
        ...(result.stoppedBy ? { stoppedBy: result.stoppedBy } : {}),
        cleanup: {
          removed: result.cleanup.removed.length,
          left: result.cleanup.left.map((l) => ({ ...l.record, reason: l.reason, curl: removalCurl(l, args) })),
          unconfirmed: result.cleanup.unconfirmed.map((l) => ({ ...l.record, reason: l.reason, curl: removalCurl(l, args) })),
          sweptUnrecorded: result.cleanup.swept,
        },
        ...(result.changes ? { changes: result.changes } : {}),
      },
      cases: result.cases,
    });
    return (await finishRun(run, args, ctx, prepared)).code;
  };
}

/** --calls FILE read whole before the first request; what it cannot trust is exit 2 with one line naming file and line. */
async function readCalls(ctx: CommandContext, path: string): Promise<Recording> {
  const text = await readInput(ctx, '--calls', path);
  try {
    return readRecording(text, path);
  } catch (e) {
    if (e instanceof CallsFileError) throw new UsageError(`--calls ${e.message}`, 'calls');
    throw e;
  }
}

/**
 * A replay by case id (--only check:operationId:variant) runs the check on that operation and keeps that case
 * alone; one that did not come up is named, since a different seed or shard generates different cases.
 */
function onlyCases(cases: CaseResult[], ids: ReadonlySet<string>, ctx: CommandContext, seed: number): CaseResult[] {
  const kept = cases.filter((c) => ids.has(c.id));
  const found = new Set(kept.map((c) => c.id));
  for (const id of ids) {
    if (!found.has(id)) ctx.stderr.write(`site-contracts: warning: case ${id} did not come up with seed ${seed}: replay it with the seed of the report that named it (--seed)\n`);
  }
  return kept;
}

export function describeRunEnd(r: SuiteResult, seed: number, args: RunArgs): string {
  const lines = [`site-contracts: ${r.requests} requests sent; seed ${seed} (${args.calls !== undefined ? `replay: the same command; the recording ${args.calls} is replayed whole` : `replay one case: --seed ${seed} --only <case id>`})`];
  const left = r.incomplete ? `${r.incomplete.unitsNotRun.length} unit(s) never ran, ${r.incomplete.unitsCutShort.length} were cut short` : '';
  if (r.stoppedBy === 'budget') lines.push(`  warning: the request budget (--max-requests ${args.maxRequests}) ran out: ${left}; the run is INCOMPLETE, never PASSED (raise --max-requests)`);
  if (r.stoppedBy === 'down') lines.push(`  warning: the target stopped answering: ${left}; the checks left are reported as errored`);
  if (r.stoppedBy === 'max-duration') {
    lines.push(`  warning: the run reached its time limit (--max-duration ${durationLabel(args.maxDurationMs ?? 0)}): ${left}; the run is INCOMPLETE, never PASSED (raise --max-duration, or add --workers)`);
  }
  if (r.stoppedBy === 'max-failures') {
    lines.push(`  stopped at --max-failures ${args.maxFailures}: no check started after ${args.maxFailures} case(s) had failed (checks already running finished); ${r.incomplete?.unitsNotRun.length ?? 0} unit(s) not run`);
  }
  if (args.disposableTarget) {
    const changed = r.changes ?? [];
    const restored = changed.filter((c) => c.restored === 'yes').length;
    lines.push(
      `  DISPOSABLE TARGET (--disposable-target): writes the suite cannot undo were sent; ${changed.length} change(s) to what the run did not create` +
        `${changed.length ? ` (${restored} restored, ${changed.length - restored} not)` : ''}; restore the site from its snapshot${changed.length ? ':' : ''}`,
    );
    for (const c of changed) lines.push(`    ${c.method} ${c.route}: ${c.kind}, ${c.accepted} request(s) taken, ${c.restored === 'yes' ? 'restored' : c.restored === 'no' ? 'NOT restored' : 'cannot be restored'}: ${c.note}`);
  }
  const skipped = Object.entries(skipReasons(r.cases));
  if (skipped.length) lines.push(`  skipped by reason: ${skipped.slice(0, 6).map(([why, n]) => `${n} ${why}`).join('; ')}${skipped.length > 6 ? `; ${skipped.length - 6} other reason(s) in the JSON report (options.skippedBy)` : ''}`);
  if (r.cleanup.removed.length) lines.push(`  removed ${r.cleanup.removed.length} record(s) the run created (marker "${r.marker}")`);
  if (r.cleanup.left.length) {
    lines.push(`  WARNING: ${r.cleanup.left.length} record(s) the run created are still on the target, as a read or a list after the delete showed (they carry "${r.marker}"); each line after it removes one:`);
    for (const l of r.cleanup.left) lines.push(`    ${l.record.namespace} ${l.record.resource} ${l.record.id}: ${l.reason}`, `      ${removalCurl(l, args)}`);
  }
  if (r.cleanup.unconfirmed.length) {
    lines.push(
      `  WARNING: ${r.cleanup.unconfirmed.length} record(s) the run created could not be confirmed removed ` +
        `(${r.cleanup.unconfirmed[0]!.reason}). Look for "${r.marker}" on the site; each line after it removes one:`,
    );
    for (const l of r.cleanup.unconfirmed) lines.push(`    ${l.record.namespace} ${l.record.resource} ${l.record.id}: ${l.reason}`, `      ${removalCurl(l, args)}`);
  }
  return lines.join('\n') + '\n';
}

/** A curl line that removes a record the run could not: the DELETE cleanup would send, credentials by the variable's name. */
export function removalCurl(l: Leftover, args: Pick<RunArgs, 'baseUrl' | 'apiRoot' | 'auth'>): string {
  return toCurl(removalRequest(l, { baseUrl: args.baseUrl, apiRoot: args.apiRoot }), args.auth ? { authEnv: args.auth.envVar } : {});
}

/**
 * Headers given with -H are sent on every request, the probes that must go anonymous included (a site behind HTTP
 * basic auth or a WAF refuses anything without them). That is safe only while WordPress does not log in with
 * them: with a header that does (an application password, a cookie and nonce), the probes built to be refused
 * would reach the handlers as a user. So the same harmless reads that check --auth-env's credentials are sent,
 * and a login ends the run before anything could write. Under --read-only nothing writes, so the run goes on, and
 * true says the probes that must go anonymous cannot (they would judge a signed-in answer as an anonymous one).
 */
async function refuseLoggingInHeaders(client: HttpClient, contract: Contract, descriptor: LiveDescriptor, args: RunArgs): Promise<boolean> {
  const names = args.headers.map((h) => h.name).join(', ');
  let check;
  try {
    check = await checkCredentials(client, contract, descriptor, { envVar: `the -H headers (${names})`, readOnly: true });
  } catch (e) {
    // Refused: WordPress treats the requests as anonymous, which is what the probes need.
    if (e instanceof CredentialsRefusedError) return false;
    throw e;
  }
  if (check.kind !== 'accepted') return false;
  if (args.readOnly) return true;
  throw new UsageError(
    `WordPress logs in with the headers given with -H (${names}): ${check.evidence}. Requests the suite sends without credentials ` +
      `would then reach the site as that user. Give WordPress credentials with --auth-env VAR (user:application-password) instead, ` +
      `or add --read-only`,
    'header',
  );
}

export const testCommand: CommandHandler<RunArgs> = (args: RunArgs, ctx: CommandContext) => makeTestCommand()(args, ctx);
