// Runs the selected units against a target and turns their findings into report cases. The units run in
// phases (order.ts): what a release depends on most first, and within that units that do not write before
// units that do, so that lists hold still while their reads are compared, and no write of the run lands between two reads a check
// compares (steady.ts). Whatever ends the run (all done,
// budget, time limit, a dead target, Ctrl-C), the ledger is cleaned up before the cases are handed back, and
// a run that ended before its plan was done says which checks did not run.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { HttpClient } from '../http/client.ts';
import { configuredStyle, routeUrl } from '../http/target.ts';
import { encodeQuery } from '../http/encode.ts';
import { describeCut, type Exchange, type Outgoing } from '../http/types.ts';
import { buildCase, type BodyBudget, type CaseContext } from '../report/case.ts';
import type { CaseResult, IncompleteBy, Incompleteness, SeverityPolicy } from '../report/model.ts';
import { GLOBAL_NAMESPACE } from '../report/model.ts';
import { liveEndpoint, type LiveDescriptor } from '../diff/descriptor.ts';
import { requireJson } from '../checks/kit/bodies.ts';
import { answerSweeps, caseDeviation } from '../checks/registry.ts';
import { cleanup, type CleanupReport } from './cleanup.ts';
import { leftoverCases } from './leftovers.ts';
import { Ledger, writtenResources } from '../checks/kit/ledger.ts';
import { changesLists, ListLock, routeTypes, typeOf } from './steady.ts';
import { phases } from './order.ts';
import { SiteChanges, type SiteChange } from './disposable.ts';
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
  /** The -H headers log WordPress in (allowed under --read-only only): no request reaches the site anonymous. */
  headersSignIn?: boolean;
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
  /** When the run ended before its plan was done: why, and which checks did not (wholly) run. */
  incomplete?: Incompleteness;
  /** --disposable-target: every change to something the run did not create, and whether it was restored. */
  changes?: SiteChange[];
  marker: string;
}

const INCOMPLETE_BY: Record<StopReason, IncompleteBy> = { 'max-duration': 'max-duration', budget: 'max-requests', aborted: 'signal', 'max-failures': 'max-failures', down: 'target-down' };

/** Requests the client never sent: the write policy, the breaker or the budget stopped them. */
const NOT_SENT: ReadonlySet<string> = new Set(['refused', 'down', 'budget']);

export function markerFor(runId: string): string {
  return `site-contracts ${runId}`;
}

export async function runSuite(o: SuiteOptions): Promise<SuiteResult> {
  /** Cases by the unit's place in the plan: side by side, units end in any order, and the report must not show it. */
  const slots: CaseResult[][] = [];
  const ledger = new Ledger();
  // The run's writes and its comparisons of two reads never overlap on one record type (steady.ts).
  const lock = new ListLock();
  const typeOfRoute = routeTypes(o.contract);
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

  const notRun = new Set<string>();
  const cutShort = new Set<string>();
  const served = (template: string, method: string): boolean => liveEndpoint(o.descriptor, template, method) !== undefined;
  // --disposable-target: what the run changes that it did not create, read first where it can be written back.
  const changes = o.disposable ? new SiteChanges({ contract: o.contract, ledger, send: (out) => o.client.send(out), served }) : undefined;
  const runUnit = async (unit: Unit, slot: number): Promise<void> => {
    const stop = stopReason();
    const first = unit.operations[0];
    if (stop) {
      notRun.add(unit.id);
      push(
        slot,
        buildCase(
          {
            check: unit.family,
            namespace: first ? namespaceLabel(first.namespace) : namespaceLabel(unit.namespaces?.[0] ?? GLOBAL_NAMESPACE),
            ...(first ? { operationId: first.id, method: first.method, route: first.path } : {}),
            variant: `not-run:${unit.id}`,
            severity: 'documented',
            // Not run is not a finding: the run's verdict says it is incomplete (INCOMPLETE, INTERRUPTED) or failed
            // (--max-failures). A target that stopped answering is one: what it left undone is errored.
            outcome: stop === 'down' ? 'error' : 'skip',
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
      const refusal = await changes?.before(out, op);
      const e = refusal ? notSent(o.client, out, refusal) : changesLists(out) ? await lock.write(typeOfRoute(out.route), unit.id, () => o.client.send(out)) : await o.client.send(out);
      if (changes && !refusal) await changes.after(out, op, e, unit.id);
      // Whatever it answered, a write that left the suite may have made records: their types are swept at the end.
      if (!e.error || !NOT_SENT.has(e.error.kind)) for (const r of writtenResources(o.contract, out, op)) ledger.wroteTo(r);
      // A page of the front end (Outgoing.page: a record's link) is not a REST answer: the sweeps judge those alone.
      if (out.page === undefined) for (const s of sweeps) s.add(op, e, out);
      return e;
    };
    const emit = (f: Finding): void => {
      if (!o.checks.has(f.check)) return;
      push(slot, toCase(requireJson(notSentByBudget(f)), ctx));
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
      ...(o.headersSignIn ? { headersSignIn: true } : {}),
      ...(o.authEnv ? { authEnv: o.authEnv } : {}),
      ...(o.statefulBudget !== undefined ? { statefulBudget: o.statefulBudget } : {}),
      style: configuredStyle(o.client.target),
      apiRoot: o.client.target.apiRoot,
      baseUrl: o.client.target.baseUrl,
      now: o.now,
      emit,
      signal: o.signal,
      steady: (ops, fn) => lock.read(ops.map(typeOf), unit.id, fn),
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
    // Ended after the run stopped: its requests from then on were not sent (or were aborted), so it is cut short.
    const after = stopReason();
    if (after && after !== 'max-failures') cutShort.add(unit.id);
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
  // What a release depends on most runs first, each phase whole before the next (order.ts).
  const plan = phases(o.units);
  try {
    let slot = 0;
    for (const phase of plan) {
      await pool(phase, slot);
      slot += phase.length;
    }
  } finally {
    if (o.client.writes !== 'none') {
      report = await cleanup({
        contract: o.contract,
        ledger,
        marker,
        send: (out) => o.client.send({ ...out, intent: 'cleanup' }),
        served,
        sweep: o.client.hasCredentials,
        written: ledger.written(),
        concurrency: o.concurrency ?? 4,
      });
      await changes?.restore((out) => o.client.send({ ...out, intent: 'cleanup' }));
    }
  }
  const stoppedBy = stopReason();
  const cases = [...slots.flat(), ...leftoverCases(report, o.client.target, ctx, marker)];
  const limits: Partial<Record<StopReason, string>> = {
    'max-duration': `--max-duration ${o.deadline?.label}`,
    budget: `--max-requests ${o.maxRequests}`,
    'max-failures': `--max-failures ${o.maxFailures?.limit}`,
  };
  const incomplete = stoppedBy ? incompleteness(INCOMPLETE_BY[stoppedBy], plan.flat(), notRun, cutShort, limits[stoppedBy]) : undefined;
  return {
    cases,
    cleanup: report,
    requests: o.client.sent,
    marker,
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(incomplete ? { incomplete } : {}),
    ...(changes ? { changes: changes.list() } : {}),
  };
}

/** A write the run keeps from leaving, as the client answers a write its policy refuses: not sent, and why. */
function notSent(client: HttpClient, out: Outgoing, why: string): Exchange {
  const query = [out.query ? encodeQuery(out.query) : '', out.rawQuery ?? ''].filter((q) => q !== '').join('&');
  return { request: { method: out.method, url: routeUrl(client.target, out.route, query, out.style), headers: {} }, error: { kind: 'refused', message: why }, durationMs: 0 };
}

/** Which checks did not wholly run, by the units' families, in the run's order. */
export function incompleteness(stoppedBy: IncompleteBy, units: readonly Unit[], notRun: ReadonlySet<string>, cutShort: ReadonlySet<string>, limit?: string): Incompleteness {
  const byCheck = new Map<string, { check: string; notRun: number; cutShort: number; planned: number }>();
  for (const u of units) {
    const c = byCheck.get(u.family) ?? { check: u.family, notRun: 0, cutShort: 0, planned: 0 };
    byCheck.set(u.family, c);
    c.planned++;
    if (notRun.has(u.id)) c.notRun++;
    else if (cutShort.has(u.id)) c.cutShort++;
  }
  return {
    stoppedBy,
    ...(limit ? { limit } : {}),
    checks: [...byCheck.values()].filter((c) => c.notRun + c.cutShort > 0),
    unitsNotRun: units.filter((u) => notRun.has(u.id)).map((u) => u.id),
    unitsCutShort: units.filter((u) => !notRun.has(u.id) && cutShort.has(u.id)).map((u) => u.id),
  };
}

/**
 * A request the budget kept from being sent is not a finding about the target: the case is not run (skipped), and
 * the run's verdict says it is incomplete.
 */
function notSentByBudget(f: Finding): Finding {
  return f.outcome === 'error' && f.exchange?.error?.kind === 'budget' ? { ...f, outcome: 'skip' } : f;
}

function toCase(f: Finding, ctx0: CaseContext): CaseResult {
  const ctx = f.authEnv ? { ...ctx0, authEnv: f.authEnv } : ctx0;
  const op = f.operation;
  const r = f.exchange?.response;
  // A verdict that read a body the client cut short says so first: the check saw only its beginning.
  const cut = r?.bodyCut && f.outcome !== 'pass' && f.outcome !== 'skip' ? describeCut(r.bodyCut) : undefined;
  const message = cut ? `${cut}. ${f.message ?? ''}`.trim() : f.message;
  const c = buildCase(
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
  if (c.status !== 'failed' && c.status !== 'warned') return c;
  const deviation = caseDeviation(f.check, r?.status);
  return deviation ? { ...c, deviation } : c;
}
