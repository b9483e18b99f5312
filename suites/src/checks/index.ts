// Every check family and the names of its checks, in the order a run reports them.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { NOT_A_SERVER_ERROR } from '../runner/run.ts';
import type { Unit } from '../runner/unit.ts';
import { BATCH_ITEM_STATUS, BATCH_LIMIT, BATCH_VALIDATION, planBatch } from './batch.ts';
import { CORS, METHOD_OVERRIDE, planConventions, REST_ROUTE_EQUIVALENCE } from './conventions.ts';
import { DEFAULTS, planDefaults } from './defaults.ts';
import { CREATE_STATUS, CROSS_NAMESPACE, LIFECYCLE, planLifecycle, TRASH } from './lifecycle.ts';
import { ERROR_ENVELOPE, NEGATIVE_REJECTION, planNegativeRejection } from './negative_rejection.ts';
import { PAGINATION, planPagination } from './pagination.ts';
import { PATH_PATTERN, planPathPattern } from './path_pattern.ts';
import { planPositiveAcceptance, POSITIVE_ACCEPTANCE } from './positive_acceptance.ts';
import { planResponseShape, RESPONSE_SHAPE } from './response_shape.ts';
import { planRoutePresence, ROUTE_PRESENCE } from './route_presence.ts';
import { planUnknownId, UNKNOWN_ID } from './unknown_id.ts';

export const CHECKS = [
  NOT_A_SERVER_ERROR,
  ROUTE_PRESENCE,
  POSITIVE_ACCEPTANCE,
  NEGATIVE_REJECTION,
  ERROR_ENVELOPE,
  DEFAULTS,
  UNKNOWN_ID,
  PATH_PATTERN,
  PAGINATION,
  LIFECYCLE,
  TRASH,
  CREATE_STATUS,
  CROSS_NAMESPACE,
  BATCH_LIMIT,
  BATCH_ITEM_STATUS,
  BATCH_VALIDATION,
  REST_ROUTE_EQUIVALENCE,
  METHOD_OVERRIDE,
  CORS,
  RESPONSE_SHAPE,
] as const;

export type CheckName = (typeof CHECKS)[number];

/** Every unit of work for the contract; selection and sharding happen afterwards. */
export function planAll(contract: Contract): Unit[] {
  const units = [
    ...planRoutePresence(contract),
    ...planPagination(contract),
    ...planDefaults(contract),
    ...planUnknownId(contract),
    ...planPathPattern(contract),
    ...planConventions(contract),
    ...planResponseShape(contract),
    ...planPositiveAcceptance(contract),
    ...planNegativeRejection(contract),
    ...planBatch(contract),
    ...planLifecycle(contract),
  ];
  // Every unit may find a 5xx, and an error answer without WordPress's envelope.
  return units.map((u) => ({ ...u, checks: [...new Set([...u.checks, NOT_A_SERVER_ERROR, ERROR_ENVELOPE])] }));
}
