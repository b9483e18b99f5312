// The checks, one row each, as Schemathesis's checks.py and msw's handler list are one table: the check's name, the
// module that spells its verdicts, the families whose units carry it, whether it judges every answer of a unit, its
// severities and when each applies, what it needs of the run, and the promises it judges. The planner (planAll), the
// runner (answerSweeps), --only/--skip (SELECTABLE_CHECKS), `test --help` and the README's check tables all read this
// table; no other list of check names exists (registry.test.ts fails on one).
//
// Adding a check: a module under checks/ that exports its name and plans its units (or a sweep), one entry in
// FAMILIES when it plans, and one row below. registry.test.ts proves the row and the module agree.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { CaseResult, Severity } from '../report/model.ts';
import type { AnswerSweep, Unit, UnitEnv } from './kit/unit.ts';
import { ALLOW_HEADER, AllowHeaders } from './allow_header.ts';
import { AUTH_STATUS, AuthRefusals, planAuthStatus } from './auth_status.ts';
import { BATCH_ITEM_STATUS, BATCH_LIMIT, BATCH_VALIDATION, planBatch } from './batch.ts';
import { CONTENT_TYPE, ContentTypes } from './content_type.ts';
import { CORS, METHOD_OVERRIDE, planConventions, REST_ROUTE_EQUIVALENCE } from './conventions.ts';
import { CREATE_DEFAULTS, planCreateDefaults } from './create_defaults.ts';
import { DEFAULTS, planDefaults } from './defaults.ts';
import { DESCRIPTOR_AUTH, DESCRIPTOR_ROUTES, planDescriptor } from './descriptor.ts';
import { ERROR_ENVELOPE, ErrorEnvelopes } from './error_envelope.ts';
import { FILTER_DATES, FILTER_STRICT_DATES, planDateFilters } from './filter_dates.ts';
import { FILTER_EVENT_LINKS, planEventLinks } from './filter_event_links.ts';
import { FILTER_LIMIT, FILTER_OFFSET, planWindowFilters } from './filter_window.ts';
import { FILTER_EXCLUDE, FILTER_INCLUDE, FILTER_SEARCH, FILTER_SLUG, planFilters } from './filters.ts';
import { FILTER_HAS_EVENTS, FILTER_HIDE_EMPTY, FILTER_PARENT, FILTER_POST, planRelatedFilters } from './filters_related.ts';
import { FIELDS_FILTER, planFieldsFilter } from './fields_filter.ts';
import { FORCED_DELETE } from './forced_delete.ts';
import { LINKS, planLinks } from './links.ts';
import { LINKS_RESOLVE, planLinksResolve } from './links_resolve.ts';
import { EMBED, planEmbed } from './embed.ts';
import { CORE_LIST_PARAMS, planCoreListParams } from './core_list_params.ts';
import { BODY_FORMS, planBodyForms } from './body_forms.ts';
import { OEMBED, planOembed } from './oembed.ts';
import { planViews, VIEWS } from './views.ts';
import { NAMESPACE_INDEX, planNamespaceIndex } from './namespace_index.ts';
import { LANGUAGE, planLanguage } from './language.ts';
import { CREATE_STATUS, CROSS_NAMESPACE, LIFECYCLE, planLifecycle, TRASH } from './lifecycle.ts';
import { LIST_ORDER, planListOrder } from './list_order.ts';
import { gatedByNamespace, planNamespaces } from './namespaces.ts';
import { ENVELOPE, HEAD, JSONP, LANGUAGE_PREFIX, planAddressForms, PRETTY, TRAILING_SLASH } from './address_forms.ts';
import { NEGATIVE_REJECTION, planNegativeRejection } from './negative_rejection.ts';
import { NOT_A_SERVER_ERROR, ServerErrors } from './not_a_server_error.ts';
import { OPTIONS, planOptions, UNDOCUMENTED_METHOD } from './options.ts';
import { PAGINATION, planPagination } from './pagination.ts';
import { PATH_PATTERN, planPathPattern } from './path_pattern.ts';
import { planPermissions } from './permissions.ts';
import { planPositiveAcceptance, POSITIVE_ACCEPTANCE } from './positive_acceptance.ts';
import { planResponseShape, RESPONSE_SHAPE } from './response_shape.ts';
import { planRoutePresence, ROUTE_PRESENCE } from './route_presence.ts';
import { planUnknownId, UNKNOWN_ID } from './unknown_id.ts';
import { planUpdateKeeps, UPDATE_KEEPS } from './update_keeps.ts';
import { DUPLICATE_TERM, planSlugs, SLUGS } from './slugs.ts';
import { PASSWORDS, planPasswords } from './passwords.ts';
import { planPostFlags, POST_FLAGS } from './post_flags.ts';
import { EVENT_FIELDS, planEventFields } from './event_fields.ts';
import { planPostTerms, POST_TERMS } from './post_terms.ts';
import { planStateful, STATEFUL } from './stateful.ts';
import { planWriteReadBack, WRITE_READ_BACK } from './write_read_back.ts';
import { planRenderedText, RENDERED_TEXT } from './rendered_text.ts';
import { planPostDates, POST_DATES } from './post_dates.ts';
import { planWriteRefusals, WRITE_REFUSALS } from './write_refusals.ts';
import { PERMISSIONS, planRights } from './rights.ts';
import { planLowRights } from './low_rights.ts';
import { CONTEXT, planContexts } from './contexts.ts';
import { planWire, WIRE_BYTES, WIRE_HEADERS, WireBytes, WireHeaders } from './wire.ts';
import { CALLS } from './calls.ts';
import { PROMISES_BY_CHECK } from './kit/promises.generated.ts';
import { deviationOf, type DeviationRule } from './kit/deviation.ts';

// `test --calls`: its units are planned from a recording, not from the contract (checks/calls.ts).
export { CALLS, callUnitId, planCalls } from './calls.ts';

/**
 * The families that plan units, by module (checks/<module>.ts), in the order their units run and are reported: the
 * same seed gives the same report only while this order holds.
 */
const FAMILIES = {
  namespaces: planNamespaces,
  route_presence: planRoutePresence,
  pagination: planPagination,
  defaults: planDefaults,
  unknown_id: planUnknownId,
  path_pattern: planPathPattern,
  conventions: planConventions,
  response_shape: planResponseShape,
  positive_acceptance: planPositiveAcceptance,
  negative_rejection: planNegativeRejection,
  batch: planBatch,
  lifecycle: planLifecycle,
  create_defaults: planCreateDefaults,
  write_refusals: planWriteRefusals,
  permissions: planPermissions,
  auth_status: planAuthStatus,
  rights: planRights,
  low_rights: planLowRights,
  contexts: planContexts,
  language: planLanguage,
  filters: planFilters,
  filters_related: planRelatedFilters,
  filter_dates: planDateFilters,
  filter_event_links: planEventLinks,
  filter_window: planWindowFilters,
  list_order: planListOrder,
  core_list_params: planCoreListParams,
  update_keeps: planUpdateKeeps,
  write_read_back: planWriteReadBack,
  rendered_text: planRenderedText,
  post_dates: planPostDates,
  slugs: planSlugs,
  passwords: planPasswords,
  post_flags: planPostFlags,
  post_terms: planPostTerms,
  event_fields: planEventFields,
  descriptor: planDescriptor,
  address_forms: planAddressForms,
  options: planOptions,
  fields_filter: planFieldsFilter,
  namespace_index: planNamespaceIndex,
  body_forms: planBodyForms,
  oembed: planOembed,
  views: planViews,
  links: planLinks,
  links_resolve: planLinksResolve,
  embed: planEmbed,
  stateful: planStateful,
  wire: planWire,
} satisfies Record<string, (contract: Contract) => Unit[]>;

export type Family = keyof typeof FAMILIES;

/** The planners by module, for registry.test.ts, which proves each row's `plannedBy` against what they plan. */
export const PLANNERS: Readonly<Record<Family, (contract: Contract) => Unit[]>> = FAMILIES;

/**
 * A row of the catalogue of promises (suites/promises/), which names the check that judges it. The catalogue is the
 * index of the checks: `npm run promises -- --write` turns its rows around into kit/promises.generated.ts, so a check's
 * promises are written once, where the row is.
 */
export type PromiseId = string;

/**
 * What a check needs of the run, as the code decides today; without it, the check's cases (all of them, or some)
 * are skipped or inconclusive with the reason, never passed.
 * - credentials: --auth-env (WordPress credentials that may edit the calendar);
 * - writes: the run may send what creates, changes or deletes (no --read-only);
 * - low-user: --low-auth-env, a user with fewer rights;
 * - disposable-target: --disposable-target, so writes the suite cannot undo may be sent;
 * - i18n-namespace: the site's descriptor lists a translation namespace (i18n/...);
 * - descriptor: the site's descriptor (GET {api_root}/, read at the start) lists the route judged;
 * - pretty-api-root: the site is reached through /wp-json, not --api-root rest_route.
 */
export type Need = 'credentials' | 'writes' | 'low-user' | 'disposable-target' | 'i18n-namespace' | 'descriptor' | 'pretty-api-root';

interface NeedRule {
  need: Need;
  /** Every case of the check needs it (true), or only some. */
  every: boolean;
  /** What happens without it. */
  without: string;
}

/** A severity the check's cases carry; `when` says which cases (none: the check's default). */
interface SeverityRule {
  level: Severity;
  when?: string;
}

export interface CheckRow {
  name: string;
  /**
   * Where its verdicts are spelled: checks/<module>.ts, which exports the name; 'runner' for the cases the runner
   * makes itself (leftover records, a run cut short), which no unit carries and --only does not select.
   */
  module: string;
  /** The families whose units carry it (checks/<family>.ts, in FAMILIES); empty for a sweep of its own or the runner. */
  plannedBy: readonly Family[];
  /** Planned from a frontend's recording (`test --calls`), not from the contract: no family plans it, --only does not select it. */
  fromRecording?: true;
  /**
   * Judged on every answer of every unit as it arrives, not only on the requests its own units send: planAll adds
   * it to every unit's checks and the runner makes one sweep per unit (answerSweeps()).
   */
  sweep?: (env: UnitEnv) => AnswerSweep;
  /**
   * Where the units of its family run in the plan (runner/order.ts), what a release depends on most first: 1 the
   * interface is there (routes served, the descriptor lists them); 2 the documents' promises about records (made,
   * read, changed, deleted; then each documented value taken and each documented constraint refused, then the
   * defaults); 3 the semantic oracles (filters, order); 4 WordPress's conventions; 5 what the documents never state.
   * Every family that plans units has one (order.test.ts); a check its family's units only carry needs none.
   */
  rank?: number;
  /** Its severities, the default first. A skipped case (not run, namespace not served) may carry any. */
  severity: readonly SeverityRule[];
  needs: readonly NeedRule[];
  /** The rows of the catalogue of promises (suites/promises/) it judges, by id. */
  promises: readonly PromiseId[];
  /**
   * What its failures mean beyond their answer's status (kit/deviation.ts): a route missing, a value refused, a
   * filter not applied (which parameters), a header missing (which). The report's cases carry it (`deviation`), and
   * `mock --deviations` plays them by it.
   */
  deviation?: DeviationRule;
}

/** The runner's own cases: a record the run could not remove (a run cut short is INCOMPLETE, runner/run.ts incompleteness()). */
export const CLEANUP = 'cleanup';

const CREDENTIALS = (every: boolean, without = 'skipped: "no credentials (--auth-env): the suite writes nothing"'): NeedRule => ({ need: 'credentials', every, without });
const WRITES = (every: boolean, without = 'skipped under --read-only'): NeedRule => ({ need: 'writes', every, without });
/** A check that works on records of its own: it makes them first. */
const OWN_RECORDS = [CREDENTIALS(true), WRITES(true)];
const ORACLE_OWN_RECORDS = [CREDENTIALS(true, 'skipped: the oracle works on records of its own'), WRITES(true, 'skipped under --read-only: the oracle works on records of its own')];

/** A filter or order check's failures: the parameters it judged were not applied. */
const filterOf = (...params: string[]): DeviationRule => ({ kind: 'filter-ignored', params });

const row = (r: Omit<CheckRow, 'promises' | 'plannedBy' | 'needs'> & Partial<Pick<CheckRow, 'plannedBy' | 'needs'>>): CheckRow => ({ plannedBy: [], needs: [], ...r, promises: PROMISES_BY_CHECK[r.name] ?? [] });

/** Every check, in the order of the README's tables (suites/README.md, The checks). */
export const CHECKS: readonly CheckRow[] = [
  row({
    name: NOT_A_SERVER_ERROR,
    module: 'not_a_server_error',
    sweep: (env) => new ServerErrors(env.contract),
    severity: [{ level: 'documented' }, { level: 'assumed', when: 'for a 5xx WordPress core itself answers to a value the documents allow (an empty term name, a slug another term has, a DELETE where the site keeps no trash), with the reason' }],
  }),
  row({ name: ROUTE_PRESENCE, deviation: { kind: 'route-missing' }, rank: 1, module: 'route_presence', plannedBy: ['namespaces', 'route_presence'], severity: [{ level: 'documented' }] }),
  row({
    name: POSITIVE_ACCEPTANCE, deviation: { kind: 'value-refused' }, rank: 2.1,
    module: 'positive_acceptance',
    plannedBy: ['positive_acceptance'],
    severity: [
      { level: 'documented' },
      { level: 'convention', when: 'for an integer written 10.0 or 1e1 (rest_is_integer())' },
      { level: 'assumed', when: 'where the documents leave the refused value open, with the reason (see Severities)' },
    ],
    needs: [
      CREDENTIALS(false, 'its writes are skipped'),
      WRITES(false, 'its writes are skipped under --read-only'),
      { need: 'disposable-target', every: false, without: 'a write that is not on a calendar record of its own is skipped (only its refusals are checked)' },
    ],
  }),
  row({
    name: NEGATIVE_REJECTION, rank: 2.2,
    module: 'negative_rejection',
    plannedBy: ['negative_rejection'],
    severity: [
      { level: 'documented' },
      { level: 'convention', when: 'for a 401/403 before validating, and for two invalid parameters of one request named together' },
      { level: 'assumed', when: 'where the contract is unsure or the descriptor does not list the parameter, with the reason (see Severities)' },
    ],
    needs: [
      WRITES(false, 'a write is not sent under --read-only'),
      CREDENTIALS(false, 'a write refused anonymously before validating is not sent again with credentials'),
      { need: 'disposable-target', every: false, without: 'that second try is sent only for a calendar write' },
    ],
  }),
  row({ name: ERROR_ENVELOPE, rank: 4.1, module: 'error_envelope', plannedBy: ['conventions', 'negative_rejection'], sweep: () => new ErrorEnvelopes(), severity: [{ level: 'convention' }] }),
  row({ name: DEFAULTS, rank: 2.3, module: 'defaults', plannedBy: ['defaults'], severity: [{ level: 'documented' }, { level: 'assumed', when: "where the target's descriptor does not declare the parameter" }] }),
  row({
    name: UNKNOWN_ID, rank: 4,
    module: 'unknown_id',
    plannedBy: ['unknown_id', 'path_pattern'],
    severity: [{ level: 'convention' }, { level: 'assumed', when: "for another code on a plugin's own controller" }],
    needs: [CREDENTIALS(false, 'PUT/PATCH/DELETE by id are skipped'), WRITES(false, 'PUT/PATCH/DELETE by id are skipped under --read-only')],
  }),
  row({ name: PATH_PATTERN, rank: 4.1, module: 'path_pattern', plannedBy: ['path_pattern'], severity: [{ level: 'convention' }], needs: [WRITES(false, 'a write method is not sent under --read-only')] }),
  row({ name: PAGINATION, deviation: { kind: 'header', headers: ['X-WP-Total', 'X-WP-TotalPages', 'Link'] }, rank: 4.1, module: 'pagination', plannedBy: ['pagination'], severity: [{ level: 'convention' }] }),
  row({ name: LIFECYCLE, rank: 2, module: 'lifecycle', plannedBy: ['lifecycle'], severity: [{ level: 'documented' }], needs: OWN_RECORDS }),
  row({ name: TRASH, module: 'lifecycle', plannedBy: ['lifecycle'], severity: [{ level: 'convention' }], needs: OWN_RECORDS }),
  row({ name: CREATE_STATUS, deviation: { kind: 'header', headers: ['Location'] }, module: 'lifecycle', plannedBy: ['lifecycle'], severity: [{ level: 'convention' }], needs: OWN_RECORDS }),
  row({ name: CREATE_DEFAULTS, rank: 2, module: 'create_defaults', plannedBy: ['create_defaults'], severity: [{ level: 'documented' }], needs: OWN_RECORDS }),
  row({ name: WRITE_REFUSALS, rank: 2, module: 'write_refusals', plannedBy: ['write_refusals'], severity: [{ level: 'convention' }, { level: 'documented', when: "for a term's parent (000 §2.4)" }], needs: OWN_RECORDS }),
  row({
    name: AUTH_STATUS, rank: 4,
    module: 'auth_status',
    plannedBy: ['permissions', 'auth_status'],
    sweep: (env) => new AuthRefusals(env.hasCredentials),
    severity: [{ level: 'convention' }, { level: 'assumed', when: "for a cal/v1 refusal's code (refusal-codes: a plugin's own controllers may name their own)" }],
    needs: [
      CREDENTIALS(false, 'the probes of each calendar resource are skipped (the sweep still judges every refusal)'),
      WRITES(false, 'the probes are skipped under --read-only'),
      { need: 'low-user', every: false, without: 'the low-user: cases are skipped' },
    ],
  }),
  row({
    name: PERMISSIONS, rank: 4,
    module: 'rights',
    plannedBy: ['rights', 'low_rights'],
    severity: [{ level: 'convention' }, { level: 'assumed', when: 'for a hidden record refused with another status or code than core\'s rest_forbidden (hidden-read:)' }],
    needs: [
      CREDENTIALS(false, "the administrator's cases are skipped, and the low user's writes (low_rights.ts) too"),
      { need: 'low-user', every: false, without: 'the low user\'s cases are skipped' },
    ],
  }),
  row({ name: CONTEXT, rank: 4, module: 'contexts', plannedBy: ['contexts'], severity: [{ level: 'convention' }], needs: [CREDENTIALS(false, 'the create-edit case is skipped'), WRITES(false, 'the create-edit case is skipped under --read-only')] }),
  row({
    name: ALLOW_HEADER, deviation: { kind: 'header', headers: ['Allow'] },
    module: 'allow_header',
    plannedBy: ['permissions', 'low_rights'],
    sweep: (env) => new AllowHeaders(env.contract, env.descriptor),
    severity: [{ level: 'convention' }],
    needs: [
      CREDENTIALS(false, "the anonymous reads of the suite's own records are skipped"),
      WRITES(false, "the anonymous reads of the suite's own records are skipped under --read-only"),
      { need: 'low-user', every: false, without: "the low user's Allow (allow:low) is skipped" },
    ],
  }),
  row({
    name: LANGUAGE, rank: 5,
    module: 'language',
    plannedBy: ['language'],
    severity: [{ level: 'assumed' }],
    needs: [...OWN_RECORDS, { need: 'i18n-namespace', every: true, without: 'inconclusive: the site shows no second language to file a record in' }],
  }),
  row({ name: CROSS_NAMESPACE, rank: 2, module: 'lifecycle', plannedBy: ['lifecycle'], severity: [{ level: 'documented' }], needs: OWN_RECORDS }),
  row({ name: BATCH_LIMIT, rank: 1, module: 'batch', plannedBy: ['batch'], severity: [{ level: 'documented' }], needs: [WRITES(true, 'skipped under --read-only: the batch is a POST')] }),
  row({
    name: BATCH_ITEM_STATUS, rank: 4.2,
    module: 'batch',
    plannedBy: ['batch'],
    severity: [{ level: 'convention' }, { level: 'assumed', when: "for allow_batch outside cal/v1 (001 §4.1 leaves open which routes take batch items; The Events Calendar's take none)" }],
    needs: [WRITES(false, "the batches are skipped under --read-only (the index's allow_batch is still judged)"), CREDENTIALS(false, 'the batch holds no create, only items for routes that do not exist, and the path-query case is skipped')],
  }),
  row({
    name: BATCH_VALIDATION, rank: 4.2,
    module: 'batch',
    plannedBy: ['batch'],
    severity: [{ level: 'convention' }],
    needs: [WRITES(true, 'skipped under --read-only: the batch is a POST'), CREDENTIALS(false, 'the batch holds no create, only items for routes that do not exist')],
  }),
  row({
    name: REST_ROUTE_EQUIVALENCE, rank: 4.2,
    module: 'conventions',
    plannedBy: ['conventions'],
    severity: [{ level: 'convention' }],
    needs: [{ need: 'pretty-api-root', every: true, without: 'skipped: there is no /wp-json form to compare' }],
  }),
  row({
    name: METHOD_OVERRIDE, rank: 4.2,
    module: 'conventions',
    plannedBy: ['conventions'],
    severity: [{ level: 'convention' }],
    needs: [WRITES(true, 'skipped under --read-only: the override travels on a POST'), CREDENTIALS(false, "the DELETE on a record of the suite's own is skipped")],
  }),
  row({ name: CORS, rank: 4.2, module: 'conventions', plannedBy: ['conventions'], severity: [{ level: 'convention' }] }),
  row({ name: CONTENT_TYPE, module: 'content_type', sweep: () => new ContentTypes(), severity: [{ level: 'convention' }, { level: 'assumed', when: 'for a success whose payload the documents do not show' }] }),
  row({
    name: WIRE_HEADERS, rank: 4.1,
    module: 'wire',
    plannedBy: ['wire'],
    sweep: (env) => new WireHeaders(env),
    severity: [{ level: 'convention' }],
    needs: [CREDENTIALS(false, 'no answer goes to a signed-in user, so the no-cache headers are judged only on the override probe'), WRITES(false, 'the X-HTTP-Method-Override probe (a POST) is skipped under --read-only')],
  }),
  row({ name: WIRE_BYTES, rank: 4.1, module: 'wire', sweep: () => new WireBytes(), severity: [{ level: 'convention' }] }),
  row({
    name: DESCRIPTOR_ROUTES, rank: 1,
    module: 'descriptor',
    plannedBy: ['descriptor'],
    severity: [
      { level: 'documented' },
      {
        level: 'assumed',
        when: "for a keyword the documents mark open or two-way, an argument or route they do not name, and a difference they cannot express or allow (a keyword left out: an argument \"may carry\" it; one they do not give; a body field's default; a path argument's rule; a pattern or type that takes every documented value tried; core's raw-and-rendered object for a documented string), with the reason (a method they deny, POST on `cal/v1` `{id}`, stays documented)",
      },
    ],
    needs: [{ need: 'descriptor', every: true, without: 'a route or method it does not list fails, and its arguments are skipped' }],
  }),
  row({
    name: DESCRIPTOR_AUTH, rank: 1,
    module: 'descriptor',
    plannedBy: ['descriptor'],
    severity: [{ level: 'documented' }],
    needs: [{ need: 'descriptor', every: true, without: 'fails: the descriptor is where the documents put it' }],
  }),
  row({ name: HEAD, rank: 4.2, module: 'address_forms', plannedBy: ['address_forms'], severity: [{ level: 'convention' }] }),
  row({ name: TRAILING_SLASH, rank: 4.2, module: 'address_forms', plannedBy: ['address_forms'], severity: [{ level: 'convention' }] }),
  row({ name: ENVELOPE, rank: 4.2, module: 'address_forms', plannedBy: ['address_forms'], severity: [{ level: 'convention' }] }),
  row({ name: JSONP, rank: 4.2, module: 'address_forms', plannedBy: ['address_forms'], severity: [{ level: 'convention' }] }),
  row({ name: PRETTY, rank: 4.2, module: 'address_forms', plannedBy: ['address_forms'], severity: [{ level: 'convention' }] }),
  row({
    name: LANGUAGE_PREFIX, rank: 4.2,
    module: 'address_forms',
    plannedBy: ['address_forms'],
    severity: [{ level: 'documented' }],
    needs: [
      { need: 'i18n-namespace', every: true, without: 'inconclusive: there is no language segment to expect' },
      { need: 'pretty-api-root', every: true, without: 'skipped: there is no path to put a language segment in' },
    ],
  }),
  row({
    name: OPTIONS, rank: 4.2,
    module: 'options',
    plannedBy: ['options'],
    severity: [{ level: 'convention' }, { level: 'documented', when: 'for a documented method missing' }, { level: 'assumed', when: "for a legacy route's missing item schema" }],
    needs: [{ need: 'descriptor', every: false, without: 'a route the descriptor does not list is skipped' }],
  }),
  row({ name: UNDOCUMENTED_METHOD, rank: 1, module: 'options', plannedBy: ['options'], severity: [{ level: 'documented' }], needs: [WRITES(true, 'skipped under --read-only: the probe is a POST')] }),
  row({ name: FORCED_DELETE, module: 'forced_delete', plannedBy: ['lifecycle'], severity: [{ level: 'convention' }], needs: OWN_RECORDS }),
  row({ name: FIELDS_FILTER, rank: 4.2, module: 'fields_filter', plannedBy: ['fields_filter'], severity: [{ level: 'convention' }] }),
  row({ name: NAMESPACE_INDEX, rank: 4.2, module: 'namespace_index', plannedBy: ['namespace_index'], severity: [{ level: 'convention' }] }),
  row({ name: BODY_FORMS, rank: 4.2, module: 'body_forms', plannedBy: ['body_forms'], severity: [{ level: 'convention' }], needs: [CREDENTIALS(false, 'the cases on records of its own (json-charset, precedence, form-body) are skipped'), WRITES(false, 'the cases on records of its own are skipped under --read-only')] }),
  row({ name: LINKS, rank: 4.2, module: 'links', plannedBy: ['links'], severity: [{ level: 'convention' }], needs: [CREDENTIALS(false, 'the up case (a category of its own with a parent) is skipped'), WRITES(false, 'the up case is skipped under --read-only')] }),
  row({ name: EMBED, rank: 4.2, module: 'embed', plannedBy: ['embed'], severity: [{ level: 'convention' }] }),
  row({
    name: LINKS_RESOLVE, rank: 4.2,
    module: 'links_resolve',
    plannedBy: ['links_resolve'],
    severity: [{ level: 'convention' }, { level: 'documented', when: "for the descriptor's _links.self of a fixed route (001 §2)" }],
    needs: [
      { need: 'descriptor', every: false, without: 'the self-links case is inconclusive' },
      CREDENTIALS(false, 'the permalink case (a record of its own whose slug changes) is skipped'),
      WRITES(false, 'the permalink case is skipped under --read-only'),
    ],
  }),
  row({ name: OEMBED, rank: 4.2, module: 'oembed', plannedBy: ['oembed'], severity: [{ level: 'documented' }, { level: 'convention', when: 'for the fields WordPress fills itself and an address that names no post' }], needs: OWN_RECORDS }),
  row({ name: VIEWS, rank: 4.2, module: 'views', plannedBy: ['views'], severity: [{ level: 'documented' }], needs: OWN_RECORDS }),
  row({
    name: RESPONSE_SHAPE, rank: 5,
    module: 'response_shape',
    plannedBy: ['response_shape', 'lifecycle'],
    severity: [
      { level: 'documented', when: 'for the site descriptor' },
      { level: 'convention', when: "for namespace indexes, batch answers and errors, and the root's site logo and icon" },
      { level: 'assumed', when: 'for records and the array envelope of lists (the documents show neither)' },
    ],
    needs: [CREDENTIALS(false, "the suite's own records are not read back"), WRITES(false, "the suite's own records are not read back under --read-only")],
  }),
  row({
    name: STATEFUL, rank: 4.3,
    module: 'stateful',
    plannedBy: ['stateful'],
    severity: [{ level: 'convention' }],
    needs: [...OWN_RECORDS, { need: 'low-user', every: false, without: "its sequences leave out --low-auth-env's user" }],
  }),
  row({
    name: CLEANUP,
    module: 'runner',
    severity: [{ level: 'documented' }],
    needs: [CREDENTIALS(true, 'no case: the run makes no record to remove'), WRITES(true, 'no case: the run makes no record to remove')],
  }),
  row({ name: FILTER_SEARCH, deviation: filterOf('search'), rank: 3, module: 'filters', plannedBy: ['filters'], severity: [{ level: 'documented', when: 'in the legacy lists' }, { level: 'convention', when: 'in cal/v1 and for case' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_INCLUDE, deviation: filterOf('include'), rank: 3, module: 'filters', plannedBy: ['filters'], severity: [{ level: 'documented' }, { level: 'assumed', when: "for the order of orderby=include (orderby's values are not shown)" }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_EXCLUDE, deviation: filterOf('exclude'), rank: 3, module: 'filters', plannedBy: ['filters'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_SLUG, deviation: filterOf('slug'), rank: 3, module: 'filters', plannedBy: ['filters'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_PARENT, deviation: filterOf('parent'), rank: 3, module: 'filters_related', plannedBy: ['filters_related'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_POST, deviation: filterOf('post'), rank: 3, module: 'filters_related', plannedBy: ['filters_related'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_HIDE_EMPTY, deviation: filterOf('hide_empty'), rank: 3, module: 'filters_related', plannedBy: ['filters_related'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_HAS_EVENTS, deviation: filterOf('has_events', 'only_with_upcoming'), rank: 3, module: 'filters_related', plannedBy: ['filters_related'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_DATES, deviation: filterOf('start_date', 'end_date', 'starts_after', 'starts_before', 'ends_after', 'ends_before'), rank: 3, module: 'filter_dates', plannedBy: ['filter_dates'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({
    name: FILTER_EVENT_LINKS, deviation: filterOf('categories', 'tags', 'venue', 'organizer'), rank: 3,
    module: 'filter_event_links',
    plannedBy: ['filter_event_links'],
    severity: [{ level: 'documented' }, { level: 'convention', when: 'for featured written TRUE, 1, FALSE or 0 on cal/v1 (rest_sanitize_boolean())' }, { level: 'assumed', when: 'for a category or tag slug on the legacy list (000 §4.1.1 contradicts itself: "slugs or IDs", typed integers)' }],
    // post_parent reads the site's own events (no documented write gives an event a parent): it runs without either.
    needs: [CREDENTIALS(false, 'skipped: the oracle works on records of its own (post_parent, which reads the site\'s events, still runs)'), WRITES(false, 'skipped under --read-only: the oracle works on records of its own (post_parent still runs)')],
  }),
  row({ name: FILTER_STRICT_DATES, deviation: filterOf('strict_dates'), rank: 3, module: 'filter_dates', plannedBy: ['filter_dates'], severity: [{ level: 'documented' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: FILTER_LIMIT, deviation: filterOf('limit'), rank: 3, module: 'filter_window', plannedBy: ['filter_window'], severity: [{ level: 'documented' }] }),
  row({ name: FILTER_OFFSET, deviation: filterOf('offset'), module: 'filter_window', plannedBy: ['filter_window'], severity: [{ level: 'convention' }] }),
  row({
    name: LIST_ORDER, deviation: filterOf('order', 'orderby'), rank: 3,
    module: 'list_order',
    plannedBy: ['list_order'],
    severity: [{ level: 'documented' }, { level: 'assumed', when: 'for the legacy terms' }, { level: 'convention', when: "for the posts controller's default order of cal/v1 venues" }],
    needs: [CREDENTIALS(false, 'the event and term orders are skipped: the oracle orders records of its own'), WRITES(false, 'the event and term orders are skipped under --read-only')],
  }),
  row({ name: CORE_LIST_PARAMS, rank: 3, module: 'core_list_params', plannedBy: ['core_list_params'], severity: [{ level: 'convention' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: UPDATE_KEEPS, rank: 4, module: 'update_keeps', plannedBy: ['update_keeps'], severity: [{ level: 'convention' }, { level: 'documented', when: 'for an update by slug (000 §4.1)' }], needs: ORACLE_OWN_RECORDS }),
  row({
    name: WRITE_READ_BACK,
    rank: 4,
    module: 'write_read_back',
    plannedBy: ['write_read_back', 'low_rights'],
    severity: [{ level: 'documented' }, { level: 'convention', when: 'for a field WordPress transforms on the way in (kses, sanitize_text_field, sanitize_url, convert_invalid_entities, a trim) and the fields the server fills itself (date_gmt, modified, slug, status, author, guid, the rendered forms)' }],
    needs: [...ORACLE_OWN_RECORDS, { need: 'low-user', every: false, without: "the low user's kses cases (low-kses*) are skipped" }],
  }),
  row({
    name: RENDERED_TEXT,
    rank: 4,
    module: 'rendered_text',
    plannedBy: ['rendered_text'],
    severity: [{ level: 'convention' }, { level: 'assumed', when: 'for a generated excerpt cut at another length or ending in another "more", and a private title under another prefix (the site\'s excerpt_length, excerpt_more, private_title_format or translation)' }],
    needs: ORACLE_OWN_RECORDS,
  }),
  row({ name: POST_DATES, rank: 4, module: 'post_dates', plannedBy: ['post_dates'], severity: [{ level: 'convention' }, { level: 'documented', when: 'for the date a write sets (date with an offset, date_gmt alone, an impossible day rolled over) and the status it decides: publish with a date ahead stored future, future with a past date stored publish (wp_insert_post())' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: SLUGS, rank: 4, module: 'slugs', plannedBy: ['slugs', 'low_rights'], severity: [{ level: 'convention' }, { level: 'documented', when: 'for a slug unique within its type (000 §2.5)' }], needs: [...ORACLE_OWN_RECORDS, { need: 'low-user', every: false, without: 'the pending slug of a user who may not publish (pending-slug:low) is skipped' }] }),
  row({ name: DUPLICATE_TERM, module: 'slugs', plannedBy: ['slugs'], severity: [{ level: 'convention' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: PASSWORDS, rank: 4, module: 'passwords', plannedBy: ['passwords'], severity: [{ level: 'convention' }, { level: 'documented', when: 'for the legacy read\'s password parameter (000 §2.1)' }], needs: ORACLE_OWN_RECORDS }),
  row({ name: POST_FLAGS, rank: 4, module: 'post_flags', plannedBy: ['post_flags'], severity: [{ level: 'documented' }, { level: 'convention', when: 'for a featured_media that names no attachment' }], needs: ORACLE_OWN_RECORDS }),
  row({
    name: POST_TERMS,
    rank: 4,
    module: 'post_terms',
    plannedBy: ['post_terms'],
    severity: [{ level: 'convention' }, { level: 'documented', when: 'for the tags a record is given (000 §2.5)' }, { level: 'assumed', when: 'for a legacy category given by name (000 §2.1)' }],
    needs: [...ORACLE_OWN_RECORDS, { need: 'disposable-target', every: false, without: 'a legacy category given by name is not sent (it would create a term)' }],
  }),
  row({
    name: EVENT_FIELDS,
    rank: 4,
    module: 'event_fields',
    plannedBy: ['event_fields'],
    severity: [{ level: 'documented' }, { level: 'convention', when: "for the modification date an update sets and a nested venue's name (wp_update_post(), clean_post_cache())" }, { level: 'assumed', when: "for the legacy *_details, an all-day event's times and the site's time zone as an event's default (The Events Calendar's; the documents are silent)" }],
    needs: ORACLE_OWN_RECORDS,
  }),
  row({
    name: CALLS,
    module: 'calls',
    fromRecording: true,
    severity: [{ level: 'convention' }, { level: 'documented', when: 'for a call whose worst deviation is documented' }, { level: 'assumed', when: 'for a call whose worst deviation is assumed (a response shape)' }],
    needs: [CREDENTIALS(false, 'a recorded write, and a call on a record of the recording, are skipped'), WRITES(false, 'a recorded write, and a call on a record of the recording, are skipped under --read-only')],
  }),
];

/** The checks --only and --skip name: every check a unit can carry (not the runner's own cases). */
export const SELECTABLE_CHECKS: readonly string[] = CHECKS.filter((c) => c.module !== 'runner' && !c.fromRecording).map((c) => c.name);

/** Every unit of work for the contract; selection and sharding happen afterwards. */
export function planAll(contract: Contract): Unit[] {
  const sweeps = CHECKS.filter((c) => c.sweep).map((c) => c.name);
  // A unit that would send to a namespace the site does not serve is not run (namespaces.ts); every unit's answers
  // are judged by every sweep.
  return Object.values(FAMILIES)
    .flatMap((plan) => plan(contract))
    .map((u) => gatedByNamespace({ ...u, checks: [...new Set([...u.checks, ...sweeps])] }));
}

/** One sweep per selected check that judges every answer, for one unit (the runner hands it each exchange). */
export function answerSweeps(env: UnitEnv, selected: ReadonlySet<string>): AnswerSweep[] {
  return CHECKS.flatMap((c) => (c.sweep && selected.has(c.name) ? [c.sweep(env)] : []));
}

/**
 * The cases of a run whose severity their check's row does not declare (or whose check has no row), as `id: severity`.
 * A skipped case and the runner's not-run and crash cases carry the documented default of any check: they gate nothing
 * of the check's own. The tests hold every run to this (testing/faulty-mock.ts, the mock's full run).
 */
export function undeclaredSeverities(cases: readonly Pick<CaseResult, 'id' | 'check' | 'status' | 'severity' | 'variant'>[]): string[] {
  return cases
    .filter((c) => c.status !== 'skipped' && !/^(not-run|crash):/.test(c.variant ?? '') && !CHECKS.find((row) => row.name === c.check)?.severity.some((s) => s.level === c.severity))
    .map((c) => `${c.id}: ${c.severity}`);
}

/** A row's severities as the README's tables write them: `documented; convention for a 401/403 before validating`. */
export function severityText(c: CheckRow): string {
  return c.severity.map((s) => (s.when ? `${s.level} ${s.when}` : s.level)).join('; ');
}

/** A failed or warned case's kind of deviation, by its check's row and its answer's status (report version 2). */
export function caseDeviation(check: string, status: number | undefined): ReturnType<typeof deviationOf> {
  return deviationOf(CHECKS.find((c) => c.name === check)?.deviation, status);
}
