// Runs the selected units against a target and turns their findings into report cases. Units that do
// not write run first, so that lists hold still while pagination is checked; units that write run
// after. Whatever ends the run (all done, budget, a dead target, Ctrl-C), the ledger is cleaned up
// before the cases are handed back.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { HttpClient } from '../http/client.ts';
import { configuredStyle } from '../http/target.ts';
import { describeCut, type Exchange, type Outgoing } from '../http/types.ts';
import { buildCase, type BodyBudget, type CaseContext } from '../report/case.ts';
import type { CaseResult, SeverityPolicy } from '../report/model.ts';
import { GLOBAL_NAMESPACE } from '../report/model.ts';
import { liveEndpoint, type LiveDescriptor } from '../diff/descriptor.ts';
import { requireJson } from '../checks/kit/bodies.ts';
import { answerSweeps, RUN } from '../checks/registry.ts';
import { cleanup, type CleanupReport } from './cleanup.ts';
import { leftoverCases } from './leftovers.ts';
import { Ledger } from '../checks/kit/ledger.ts';
import { unitSeed } from './select.ts';
import { namespaceLabel, type AnswerSweep, type Finding, type Unit, type UnitEnv } from '../checks/kit/unit.ts';

interface SuiteOptions {
  contract: Contract;
  client: HttpClient;
  descriptor: LiveDescriptor;
  units: readonly Unit[];
  /** Checks whose findings are kept. */
  checks: ReadonlySet<string>;
  seed: number;
  runs: number;
  runId: string;
  readOnly: boolean;
  /** --disposable-target */
  disposable?: boolean;
  maxRequests: number;
  policy: SeverityPolicy;
  authEnv?: string;
  /** The run writes a HAR: cases keep their answers' bodies within this budget (CaseContext.archive). */
  archive?: BodyBudget;
  /** --low-auth-env's variable, when the client has those credentials. */
  lowAuthEnv?: string;
  /** --stateful: the stateful phase's request budget per resource. */
  statefulBudget?: number;
  /**
   * --workers: units run side by side. Cases are reported in the order of the units, not of their ends, so
   * the same seed gives the same report for every number.
   */
  concurrency?: number;
  /** --max-duration: aborted when the run's time is up (and then `signal` is aborted too). */
  deadline?: { signal: AbortSignal; label: string };
  /**
   * --max-failures: once `limit` cases count as failing, no further unit starts (units already running finish,
   * and their cases are kept); the units left are reported as not run.
   */
  maxFailures?: { limit: number; counts(c: CaseResult): boolean };
  signal: AbortSignal;
  now(): Date;
  onCase?(c: CaseResult): void;
  /** A unit starts and ends (for the progress display). */
  onUnit?(unit: Unit, phase: 'start' | 'end'): void;
}

type StopReason = 'budget' | 'down' | 'aborted' | 'max-failures' | 'max-duration';

export interface SuiteResult {
  cases: CaseResult[];
  cleanup: CleanupReport;
  requests: number;
  stoppedBy?: StopReason;
  marker: string;
}

export function markerFor(runId: string): string {
  return `site-contracts ${runId}`;
}

export async function runSuite(o: SuiteOptions): Promise<SuiteResult> {
  /** Cases by the unit's place in the plan: side by side, units end in any order, and the report must not show it. */
  const slots: CaseResult[][] = [];
  const ledger = new Ledger();
  const listReads = new Map<string, Promise<unknown[]>>();
  const marker = markerFor(o.runId);
  const ctx: CaseContext = { policy: o.policy, ...(o.authEnv ? { authEnv: o.authEnv } : {}), ...(o.archive ? { archive: o.archive } : {}) };
  let failing = 0;
  const push = (slot: number, c: CaseResult): void => {
    (slots[slot] ??= []).push(c);
    if (o.maxFailures?.counts(c)) failing++;
    o.onCase?.(c);
  };

  const stopReason = (): StopReason | undefined => {
    if (o.deadline?.signal.aborted) return 'max-duration';
    if (o.signal.aborted) return 'aborted';
    if (o.maxFailures && failing >= o.maxFailures.limit) return 'max-failures';
    if (o.client.down) return 'down';
    if (o.client.sent >= o.maxRequests) return 'budget';
    return undefined;
  };
  const STOP_MESSAGES: Record<StopReason, string> = {
    aborted: 'not run: the run was stopped',
    down: 'not run: the target stopped answering',
    budget: `not run: the request budget (--max-requests ${o.maxRequests}) was used up`,
    'max-failures': `not run: the run stopped once ${o.maxFailures?.limit} case(s) had failed (--max-failures ${o.maxFailures?.limit})`,
    'max-duration': `not run: the run reached its time limit (--max-duration ${o.deadline?.label})`,
  };

  const runUnit = async (unit: Unit, slot: number): Promise<void> => {
    const stop = stopReason();
    const first = unit.operations[0];
    if (stop) {
      push(
        slot,
        buildCase(
          {
            check: unit.family,
            namespace: first ? namespaceLabel(first.namespace) : namespaceLabel(unit.namespaces?.[0] ?? GLOBAL_NAMESPACE),
            ...(first ? { operationId: first.id, method: first.method, route: first.path } : {}),
            variant: `not-run:${unit.id}`,
            severity: 'documented',
            // An incomplete run must not pass a gate; only a stop the person asked for is a plain skip (and
            // --max-failures stops a run that has already failed).
            outcome: stop === 'aborted' || stop === 'max-failures' ? 'skip' : 'error',
            message: STOP_MESSAGES[stop],
            durationMs: 0,
          },
          ctx,
        ),
      );
      return;
    }
    // Every answer of the unit goes to the selected sweeps of the registry as it arrives (filled once env exists).
    const sweeps: AnswerSweep[] = [];
    const send = async (out: Outgoing, op?: Operation): Promise<Exchange> => {
      const e = await o.client.send(out);
      for (const s of sweeps) s.add(op, e, out);
      return e;
    };
    const emit = (f: Finding): void => {
      if (!o.checks.has(f.check)) return;
      push(slot, toCase(requireJson(f), ctx));
    };
    const env: UnitEnv = {
      contract: o.contract,
      send,
      descriptor: o.descriptor,
      seed: unitSeed(o.seed, unit.id),
      runs: o.runs,
      runId: o.runId,
      marker,
      ledger,
      listReads,
      writes: o.client.writes,
      readOnly: o.readOnly,
      hasCredentials: o.client.hasCredentials,
      ...(o.lowAuthEnv && o.client.hasLowCredentials ? { lowAuthEnv: o.lowAuthEnv } : {}),
      ...(o.disposable ? { disposable: true } : {}),
      ...(o.authEnv ? { authEnv: o.authEnv } : {}),
      ...(o.statefulBudget !== undefined ? { statefulBudget: o.statefulBudget } : {}),
      style: configuredStyle(o.client.target),
      apiRoot: o.client.target.apiRoot,
      baseUrl: o.client.target.baseUrl,
      now: o.now,
      emit,
      signal: o.signal,
    };
    sweeps.push(...answerSweeps(env, o.checks));
    try {
      await unit.run(env);
    } catch (e) {
      emit({
        check: unit.family,
        ...(first ? { operation: first } : { namespace: unit.namespaces?.[0] ?? '' }),
        variant: `crash:${unit.id}`,
        severity: 'documented',
        outcome: 'error',
        message: `the check itself failed (a bug in site-contracts): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      });
    }
    for (const s of sweeps) for (const f of s.findings(unit)) emit(f);
  };

  const pool = async (units: readonly Unit[], first: number): Promise<void> => {
    const queue = units.map((unit, i) => ({ unit, slot: first + i }));
    const workers = Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 4, queue.length)) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        o.onUnit?.(next.unit, 'start');
        await runUnit(next.unit, next.slot);
        o.onUnit?.(next.unit, 'end');
      }
    });
    await Promise.all(workers);
  };

  let report: CleanupReport = { removed: [], left: [], unconfirmed: [], swept: 0 };
  const reading = o.units.filter((u) => !writes(u));
  try {
    await pool(reading, 0);
    await pool(o.units.filter(writes), reading.length);
  } finally {
    if (o.client.writes !== 'none') {
      report = await cleanup({
        contract: o.contract,
        ledger,
        marker,
        send: (out) => o.client.send({ ...out, intent: 'cleanup' }),
        served: (template, method) => liveEndpoint(o.descriptor, template, method) !== undefined,
        sweep: o.client.hasCredentials,
        concurrency: o.concurrency ?? 4,
      });
    }
  }
  const stoppedBy = stopReason();
  const cases = [...slots.flat(), ...leftoverCases(report, o.client.target, ctx, marker)];
  if (stoppedBy === 'max-duration') {
    // Checks cut short by the limit report their unsent requests as skipped, and every check may already have
    // started: this case is what keeps a run the limit cut short from passing.
    cases.push(
      buildCase(
        { check: RUN, namespace: GLOBAL_NAMESPACE, variant: 'max-duration', severity: 'documented', outcome: 'error', message: `the run reached its time limit (--max-duration ${o.deadline?.label}): checks still running were cut short, the rest did not run`, durationMs: 0 },
        ctx,
      ),
    );
  }
  return { cases, cleanup: report, requests: o.client.sent, marker, ...(stoppedBy ? { stoppedBy } : {}) };
}

function writes(u: Unit): boolean {
  return u.writes === true;
}

function toCase(f: Finding, ctx0: CaseContext): CaseResult {
  const ctx = f.authEnv ? { ...ctx0, authEnv: f.authEnv } : ctx0;
  const op = f.operation;
  const r = f.exchange?.response;
  // A verdict that read a body the client cut short says so first: the check saw only its beginning.
  const cut = r?.bodyCut && f.outcome !== 'pass' && f.outcome !== 'skip' ? describeCut(r.bodyCut) : undefined;
  const message = cut ? `${cut}. ${f.message ?? ''}`.trim() : f.message;
  return buildCase(
    {
      check: f.check,
      namespace: op ? namespaceLabel(op.namespace) : f.namespace !== undefined ? namespaceLabel(f.namespace) : GLOBAL_NAMESPACE,
      ...(op ? { operationId: op.id } : {}),
      ...((f.method ?? op?.method) ? { method: f.method ?? op!.method } : {}),
      ...((f.route ?? op?.path) ? { route: f.route ?? op!.path } : {}),
      ...(f.variant ? { variant: f.variant } : {}),
      severity: f.severity,
      outcome: f.outcome,
      ...(message !== undefined ? { message } : {}),
      ...(f.exchange ? { request: f.exchange.request } : {}),
      ...(r ? { response: { status: r.status, headers: r.headers, body: r.body, ...(r.bodyBytes !== undefined ? { bodyBytes: r.bodyBytes } : {}) } } : {}),
      durationMs: f.exchange?.durationMs ?? 0,
      ...(f.exchange?.startedAt !== undefined ? { startedAt: f.exchange.startedAt } : {}),
    },
    ctx,
  );
}
