// The pieces a run is made of. A check family plans units (one per operation, resource or global
// probe); a unit sends its requests and emits findings, and the runner turns findings into report
// cases. Sharding, --only/--skip and seeds work on units, whose ids do not change between runs.

import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import type { WritePolicy } from '../../http/client.ts';
import type { RouteStyle } from '../../http/target.ts';
import type { Exchange, Outgoing } from '../../http/types.ts';
import type { Severity } from '../../report/model.ts';
import type { Outcome } from '../../report/policy.ts';
import type { LiveDescriptor } from '../../diff/descriptor.ts';
import type { Ledger } from './ledger.ts';

/** What a check concluded about one thing it looked at; the runner turns it into a report case. */
export interface Finding {
  check: string;
  /** The operation the finding is about; gives namespace, method and route to the report. */
  operation?: Operation;
  /** When there is no operation: the namespace ('' for the root) the finding is about. */
  namespace?: string;
  method?: string;
  route?: string;
  /** Tells several findings of one check on one operation apart; stable across runs. */
  variant?: string;
  severity: Severity;
  outcome: Outcome;
  message?: string;
  /** The exchange that shows it: request and response go into the report. */
  exchange?: Exchange;
  /** The env var its curl line names for credentials, when not the run's --auth-env (--low-auth-env's). */
  authEnv?: string;
}

/** Sends a request on behalf of a unit; `op` attributes it, for not_a_server_error. */
type Send = (o: Outgoing, op?: Operation) => Promise<Exchange>;

export interface UnitEnv {
  contract: Contract;
  send: Send;
  descriptor: LiveDescriptor;
  /** Seed of this unit, derived from the run's seed and the unit id: a unit replays alone. */
  seed: number;
  /** --runs: generated cases per parameter. */
  runs: number;
  runId: string;
  /** Text every record the suite creates carries, so it can be told from the site's own. */
  marker: string;
  ledger: Ledger;
  /**
   * The run's reads of the target's lists, by list operation id, shared by its units so each list is read once per run
   * (references.ts); owned by the run, gone with it.
   */
  listReads: Map<string, Promise<unknown[]>>;
  writes: WritePolicy;
  readOnly: boolean;
  hasCredentials: boolean;
  /** --low-auth-env's variable: requests sent with `auth: 'low'` go as that user, who has fewer rights. */
  lowAuthEnv?: string;
  /** --auth-env's variable, for scripts a check writes out (curl lines name it, never the value). */
  authEnv?: string;
  /** --stateful: requests the stateful phase may send per resource (0: off); absent, its default. */
  statefulBudget?: number;
  /** --disposable-target: the site is restored after the run, so writes the suite cannot undo may be sent. */
  disposable?: boolean;
  /**
   * The -H headers log WordPress in (allowed under --read-only only, where nothing writes): a request sent with
   * `auth: false` still reaches the site as that user, so a probe whose verdict rests on being anonymous skips.
   */
  headersSignIn?: boolean;
  /** How the configured --api-root reaches routes. */
  style: RouteStyle;
  /** The configured --api-root (`/wp-json`, `/uk/wp-json`, or the rest_route form); absent: WordPress's `/wp-json`. */
  apiRoot?: string;
  /** --base-url (`http://host:port`, no trailing slash): where the addresses the site writes into its answers should lead. */
  baseUrl?: string;
  now(): Date;
  emit(f: Finding): void;
  signal: AbortSignal;
  /**
   * Runs a comparison of two or more reads of the operations' lists while no other unit of the run writes to their
   * record types (runner/steady.ts): a check that compares reads wraps them in it.
   */
  steady<T>(ops: readonly Operation[], fn: () => Promise<T>): Promise<T>;
}

/** Why a probe that must go anonymous skips when env.headersSignIn: one wording for every check. */
export const SIGNED_IN_BY_HEADERS = 'the headers given with -H log WordPress in (allowed under --read-only), so no request reaches the site anonymous: a run without those headers (credentials in --auth-env VAR) judges it';

export interface Unit {
  /** `<family>:<subject>`; stable: shards, seeds and skipped-unit cases hang on it. */
  id: string;
  /** The check family (its main check name). */
  family: string;
  /** Every check name this unit may emit findings for. */
  checks: readonly string[];
  /** Operations it sends requests to (for namespace and route selection). */
  operations: readonly Operation[];
  /** Namespaces when it has no operation of its own ('' = root). */
  namespaces?: readonly string[];
  /** Creates, changes or deletes records: runs after every unit that does not, so lists hold still meanwhile. */
  writes?: boolean;
  run(env: UnitEnv): Promise<void>;
}

/**
 * A check judged on every answer of every unit as it arrives (not_a_server_error, error_envelope, content_type,
 * auth_status, allow_header): the runner makes one per unit, hands it each exchange, and emits its findings when the
 * unit ends. It keeps what it judges, never every body: a unit may send hundreds of requests.
 */
export interface AnswerSweep {
  /** One answer the unit got; `op` attributes it, `sent` is the request as the unit asked for it. */
  add(op: Operation | undefined, e: Exchange, sent: Outgoing): void;
  findings(unit: Unit): Finding[];
}

/** Display name of a namespace in reports and in --only/--skip. */
export function namespaceLabel(ns: string): string {
  return ns === '' ? 'root' : ns;
}
