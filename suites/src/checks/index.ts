// Every check family and the names of its checks, in the order a run reports them.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { NOT_A_SERVER_ERROR } from '../runner/run.ts';
import type { Send, Unit } from '../runner/unit.ts';
import { ALLOW_HEADER, AllowHeaders } from './allow_header.ts';
import { AUTH_STATUS, AuthRefusals } from './auth_status.ts';
import { BATCH_ITEM_STATUS, BATCH_LIMIT, BATCH_VALIDATION, planBatch } from './batch.ts';
import { CORS, METHOD_OVERRIDE, planConventions, REST_ROUTE_EQUIVALENCE } from './conventions.ts';
import { CREATE_DEFAULTS, planCreateDefaults } from './create_defaults.ts';
import { DEFAULTS, planDefaults } from './defaults.ts';
import { FILTER_DATES, FILTER_STRICT_DATES, planDateFilters } from './filter_dates.ts';
import { FILTER_LIMIT, FILTER_OFFSET, planWindowFilters } from './filter_window.ts';
import { LIST_ORDER, planListOrder } from './list_order.ts';
import { planUpdateKeeps, UPDATE_KEEPS } from './update_keeps.ts';
import { FILTER_EVENT_LINKS, planEventLinks } from './filter_event_links.ts';
import { FILTER_HAS_EVENTS, FILTER_HIDE_EMPTY, FILTER_PARENT, FILTER_POST, planRelatedFilters } from './filters_related.ts';
import { FILTER_EXCLUDE, FILTER_INCLUDE, FILTER_SEARCH, FILTER_SLUG, planFilters } from './filters.ts';
import { CREATE_STATUS, CROSS_NAMESPACE, FORCED_DELETE, LIFECYCLE, planLifecycle, TRASH } from './lifecycle.ts';
import { ENVELOPE, HEAD, JSONP, LANGUAGE_PREFIX, planAddressForms, TRAILING_SLASH } from './address_forms.ts';
import { CONTENT_TYPE } from './content_type.ts';
import { DESCRIPTOR_AUTH, DESCRIPTOR_ROUTES, planDescriptor } from './descriptor.ts';
import { ERROR_ENVELOPE, NEGATIVE_REJECTION, planNegativeRejection } from './negative_rejection.ts';
import { OPTIONS, planOptions, UNDOCUMENTED_METHOD } from './options.ts';
import { PAGINATION, planPagination } from './pagination.ts';
import { LANGUAGE, planLanguage } from './language.ts';
import { gatedByNamespace, planNamespaces } from './namespaces.ts';
import { planPermissions } from './permissions.ts';
import { PATH_PATTERN, planPathPattern } from './path_pattern.ts';
import { planPositiveAcceptance, POSITIVE_ACCEPTANCE } from './positive_acceptance.ts';
import { planResponseShape, RESPONSE_SHAPE } from './response_shape.ts';
import { planRoutePresence, ROUTE_PRESENCE } from './route_presence.ts';
import { planUnknownId, UNKNOWN_ID } from './unknown_id.ts';
import { planStateful, STATEFUL } from './stateful.ts';

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
  FORCED_DELETE,
  CREATE_STATUS,
  CREATE_DEFAULTS,
  AUTH_STATUS,
  ALLOW_HEADER,
  LANGUAGE,
  CROSS_NAMESPACE,
  BATCH_LIMIT,
  BATCH_ITEM_STATUS,
  BATCH_VALIDATION,
  REST_ROUTE_EQUIVALENCE,
  METHOD_OVERRIDE,
  CORS,
  RESPONSE_SHAPE,
  FILTER_SEARCH,
  FILTER_INCLUDE,
  FILTER_EXCLUDE,
  FILTER_SLUG,
  FILTER_PARENT,
  FILTER_POST,
  FILTER_HIDE_EMPTY,
  FILTER_HAS_EVENTS,
  FILTER_DATES,
  FILTER_STRICT_DATES,
  FILTER_EVENT_LINKS,
  FILTER_LIMIT,
  FILTER_OFFSET,
  LIST_ORDER,
  UPDATE_KEEPS,
  CONTENT_TYPE,
  DESCRIPTOR_ROUTES,
  DESCRIPTOR_AUTH,
  HEAD,
  TRAILING_SLASH,
  ENVELOPE,
  JSONP,
  LANGUAGE_PREFIX,
  OPTIONS,
  UNDOCUMENTED_METHOD,
  STATEFUL,
] as const;

/** Every unit of work for the contract; selection and sharding happen afterwards. */
export function planAll(contract: Contract): Unit[] {
  const units = [
    ...planNamespaces(contract),
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
    ...planCreateDefaults(contract),
    ...planPermissions(contract),
    ...planLanguage(contract),
    ...planFilters(contract),
    ...planRelatedFilters(contract),
    ...planDateFilters(contract),
    ...planEventLinks(contract),
    ...planWindowFilters(contract),
    ...planListOrder(contract),
    ...planUpdateKeeps(contract),
    ...planDescriptor(contract),
    ...planAddressForms(contract),
    ...planOptions(contract),
    ...planStateful(contract),
  ];
  // A unit that would send to a namespace the site does not serve is not run (namespaces.ts). Every unit may find a
  // 5xx, an error answer without WordPress's envelope, a refusal with the wrong status for who asked, an answer
  // whose Allow is not WordPress's, and an answer that is not JSON.
  return units.map((u) => withSweeps(gatedByNamespace({ ...u, checks: [...new Set([...u.checks, NOT_A_SERVER_ERROR, ERROR_ENVELOPE, CONTENT_TYPE, AUTH_STATUS, ALLOW_HEADER])] })));
}

/** The unit, with every answer it gets judged by auth_status's and allow_header's sweeps as it arrives. */
function withSweeps(u: Unit): Unit {
  return {
    ...u,
    run: async (env) => {
      const refusals = new AuthRefusals(env.hasCredentials);
      const allows = new AllowHeaders(env.contract, env.descriptor);
      const send: Send = async (o, op) => {
        const e = await env.send(o, op);
        // The low user's refusals have their own case (permissions.ts, low-user:…): one cause, one finding.
        if (o.auth !== 'low') refusals.add(op, e);
        allows.add(op, e);
        return e;
      };
      try {
        await u.run({ ...env, send });
      } finally {
        for (const f of [...refusals.findings(u), ...allows.findings(u)]) env.emit(f);
      }
    },
  };
}
