// The operation table: every operationId of the contract, the handler that answers it and the permission it takes
// (its permission callback, stated in the row as Prism reads security off the matched operation). The route stage
// names the operation once; the later stages read its row, and nothing else decides by namespace or path which code
// answers or who may call it. operations.test.ts holds the keys to the contract's operations, every write to a
// permission of its own, and each permission to what it lets through.
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { JsonSchema } from '../../../contracts/lib/types.ts';
import type { PostType, TermType } from '../../../contracts/model/records.ts';
import { ADMINISTRATORS, canEditPosts, EDITORS, needs, posts, PUBLIC_READ, publicWrite, terms, type Permission, type RecordAction } from '../auth/permissions.ts';
import { userCan } from '../auth/capabilities.ts';
import { calendarExtraHandlers } from './addons/calendar-extras.ts';
import { formHandlers } from './addons/forms.ts';
import { managementHandlers } from './addons/i18n/management.ts';
import { stringHandlers } from './addons/i18n/strings.ts';
import { xmlConfigHandlers } from './addons/i18n/xml-config.ts';
import { lmsHandlers } from './addons/lms.ts';
import { oembedHandler } from './addons/oembed.ts';
import { pagebuilderHandlers } from './addons/pagebuilder.ts';
import { seoAnalyticsHandlers } from './addons/seo/analytics.ts';
import { seoObjectHandlers } from './addons/seo/objects.ts';
import { seoSiteHandlers } from './addons/seo/site.ts';
import { sliderHandlers } from './addons/sliders.ts';
import { err } from './addons/util.ts';
import { batchHandler } from './batch.ts';
import { CURRENT, LEGACY, type Dialect } from './calendar/dialect.ts';
import { postHandlers } from './calendar/posts.ts';
import { checkStatus, checkTemplate } from './calendar/write.ts';
import { termSlugsAccepted } from './calendar/common.ts';
import { termHandlers } from './calendar/terms.ts';
import { ok, type Handler, type HandlerCtx, type OperationRow } from './context.ts';
import type { Discovery } from './discovery.ts';
import { docsHandler } from './docs.ts';

interface OperationDeps {
  contract: Contract;
  discovery: Discovery;
}

const read = (handler: Handler): OperationRow => ({ handler, permission: PUBLIC_READ });
const editors = (handler: Handler): OperationRow => ({ handler, permission: EDITORS });
const administrators = (handler: Handler): OperationRow => ({ handler, permission: ADMINISTRATORS });
const open = (handler: Handler, why: string): OperationRow => ({ handler, permission: publicWrite(why) });

/** WP_oEmbed_Controller::get_proxy_item_permissions_check(): edit_posts. */
const OEMBED_PROXY: Permission = needs('edit_posts', { code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.' });

/**
 * The `context` arg WP_REST_Controller::get_context_param() registers on the posts controller's reads (a list's
 * collection params, an item's args): the documents list it for neither (000 §4.2), so it is the controller's.
 */
const CONTEXT_ARG: Readonly<Record<string, JsonSchema>> = { context: { type: 'string', enum: ['view', 'embed', 'edit'], default: 'view' } };
/**
 * The order args of the posts controller's collection params (WP_REST_Posts_Controller::get_collection_params()),
 * with its include and exclude (post__in, post__not_in), offset, slug (post_name__in), author and author_exclude, after and before (a date_query on post_date),
 * on the lists whose documents give none (cal/v1 venues and organizers; the events document their own): date,
 * newest first, by default; `order` in lower case only (live :8090: order=ASC is 400 rest_invalid_param).
 */
const ORDER_ARGS: Readonly<Record<string, JsonSchema>> = {
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
  orderby: { type: 'string', enum: ['date', 'id', 'modified', 'slug', 'title'], default: 'date' },
  include: { type: 'array', items: { type: 'integer' }, default: [] },
  exclude: { type: 'array', items: { type: 'integer' }, default: [] },
  offset: { type: 'integer' },
  slug: { type: 'array', items: { type: 'string' } },
  author: { type: 'array', items: { type: 'integer' }, default: [] },
  author_exclude: { type: 'array', items: { type: 'integer' }, default: [] },
  after: { type: 'string', format: 'date-time' },
  before: { type: 'string', format: 'date-time' },
};
/**
 * The events list's tags_exclude (WP_REST_Posts_Controller::get_collection_params(), one per taxonomy): the documents
 * list tags only; and its include and exclude (post__in, post__not_in), which the live calendar site's events list
 * takes too (OPTIONS /cal/v1/events on :8090), the rest of ORDER_ARGS being the events' own documented ones.
 */
const TAX_EXCLUDE_ARGS: Readonly<Record<string, JsonSchema>> = { tags_exclude: { type: 'array', items: { type: 'integer' }, default: [] } };
/** An item read's args add `password` (WP_REST_Posts_Controller::register_routes(): "The password for the post if it is password protected."). */
const READ_ARGS: Readonly<Record<string, JsonSchema>> = { ...CONTEXT_ARG, password: { type: 'string' } };
/** The item schema's `password` field, which a create and an update take (prepare_item_for_database()). */
const WRITE_ARGS: Readonly<Record<string, JsonSchema>> = { password: { type: 'string' } };

const RECORD_ACTIONS: readonly RecordAction[] = ['list', 'read', 'create', 'update', 'delete'];

/** The rows of one post type's routes in one generation: its handlers, the posts controller's permissions and args. */
function postRows(dialect: Dialect, type: PostType): Record<RecordAction, OperationRow> {
  const handlers = postHandlers(dialect, type);
  const context = dialect.postsController;
  const row = (action: RecordAction): OperationRow => ({
    handler: handlers[action],
    permission: posts(type, action, { core: context }),
    ...(context ? { list: { args: type === 'event' ? { ...CONTEXT_ARG, ...TAX_EXCLUDE_ARGS, include: ORDER_ARGS['include']!, exclude: ORDER_ARGS['exclude']! } : { ...CONTEXT_ARG, ...ORDER_ARGS } }, read: { args: READ_ARGS }, create: { args: WRITE_ARGS }, update: { args: WRITE_ARGS }, delete: {} }[action] : {}),
    ...(context && (action === 'create' || action === 'update') ? { validate: checkTemplate(type) } : {}),
    ...(context && action === 'update' ? { accepts: checkStatus(type) } : {}),
    ...(!context && action === 'list' && type === 'event' ? { accepts: termSlugsAccepted } : {}),
  });
  return Object.fromEntries(RECORD_ACTIONS.map((a) => [a, row(a)])) as Record<RecordAction, OperationRow>;
}

/** The rows of one taxonomy's routes (the legacy namespace's categories and tags). */
function termRows(type: TermType): Record<RecordAction, OperationRow> {
  const handlers = termHandlers(type);
  return Object.fromEntries(RECORD_ACTIONS.map((a) => [a, { handler: handlers[a], permission: terms(type, a) }])) as Record<RecordAction, OperationRow>;
}

/**
 * WP_REST_Server::add_active_theme_link_to_index(): switch_themes (an administrator's: manage_options stands for it
 * here) or edit_posts of some post type shown in REST. Not a permission callback but the shape of a public answer, so
 * open mode answers it by who the credentials name too: an anonymous client sees the root WordPress shows it.
 */
function seesActiveTheme(ctx: HandlerCtx): boolean {
  return userCan(ctx.user, 'manage_options') || canEditPosts(ctx.user);
}

/** operationId → its row, for the contract's 204 operations. */
export function operationTable(deps: OperationDeps): Readonly<Record<string, OperationRow>> {
  const root = read((ctx) => ok(deps.discovery.root(ctx.links.apiRoot, ctx.links.home, { activeTheme: seesActiveTheme(ctx) })));
  // get_namespace_index() reads $request['namespace'], whose default is the route's own namespace: a ?namespace= of
  // the query names another (checked on WordPress 6.1.9: /wp-json/cal/v1?namespace=nothing answers 404).
  const index = (namespace: string): OperationRow =>
    read((ctx) => {
      const asked = ctx.params['namespace'];
      const name = typeof asked === 'string' ? asked : namespace;
      if (!deps.discovery.namespaces().includes(name)) return err('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
      return ok(deps.discovery.namespaceIndex(name, ctx.links.apiRoot));
    });
  const legacyEvents = postRows(LEGACY, 'event');
  const legacyVenues = postRows(LEGACY, 'venue');
  const legacyOrganizers = postRows(LEGACY, 'organizer');
  const legacyCategories = termRows('category');
  const legacyTags = termRows('tag');
  const calEvents = postRows(CURRENT, 'event');
  const calVenues = postRows(CURRENT, 'venue');
  const calOrganizers = postRows(CURRENT, 'organizer');
  return {
    // forms/v1
    getFormsV1: index('forms/v1'),
    getFormsV1ContactForms: read(formHandlers.list),
    postFormsV1ContactForms: editors(formHandlers.create),
    getFormsV1ContactFormsById: read(formHandlers.read),
    postFormsV1ContactFormsById: editors(formHandlers.update),
    putFormsV1ContactFormsById: editors(formHandlers.update),
    patchFormsV1ContactFormsById: editors(formHandlers.update),
    deleteFormsV1ContactFormsById: editors(formHandlers.delete),
    postFormsV1ContactFormsByIdFeedback: open(formHandlers.feedback, "a site's visitors submit its contact forms"),
    getFormsV1ContactFormsByIdFeedbackSchema: read(formHandlers.schema),
    getFormsV1ContactFormsByIdRefill: read(formHandlers.refill),
    // lms/v1
    getLmsV1: index('lms/v1'),
    postLmsV1Token: open(lmsHandlers.issue, 'logging in: the credentials are the body'),
    postLmsV1TokenValidate: open(lmsHandlers.validate, 'checking a token: the token is the body'),
    postLmsV1TokenRegister: open(lmsHandlers.register, 'registering: a visitor has no account yet'),
    // sliderrevolution
    getSliderrevolution: index('sliderrevolution'),
    getSliderrevolutionSliders: read(sliderHandlers.list),
    getSliderrevolutionSlidersBySlider: read(sliderHandlers.slider),
    getSliderrevolutionSlidersSlidesById: read(sliderHandlers.slides),
    getSliderrevolutionSlidersStreamById: read(sliderHandlers.stream),
    getSliderrevolutionSlidersModalBySlider: read(sliderHandlers.modal),
    // cal/events/v1
    getCalEventsV1: index('cal/events/v1'),
    getCalEventsV1Doc: read(docsHandler(deps.contract, 'cal/events/v1')),
    getCalEventsV1Events: legacyEvents.list,
    postCalEventsV1Events: legacyEvents.create,
    getCalEventsV1EventsById: legacyEvents.read,
    postCalEventsV1EventsById: legacyEvents.update,
    putCalEventsV1EventsById: legacyEvents.update,
    patchCalEventsV1EventsById: legacyEvents.update,
    deleteCalEventsV1EventsById: legacyEvents.delete,
    getCalEventsV1EventsBySlugBySlug: legacyEvents.read,
    postCalEventsV1EventsBySlugBySlug: legacyEvents.update,
    putCalEventsV1EventsBySlugBySlug: legacyEvents.update,
    patchCalEventsV1EventsBySlugBySlug: legacyEvents.update,
    deleteCalEventsV1EventsBySlugBySlug: legacyEvents.delete,
    getCalEventsV1Venues: legacyVenues.list,
    postCalEventsV1Venues: legacyVenues.create,
    getCalEventsV1VenuesById: legacyVenues.read,
    postCalEventsV1VenuesById: legacyVenues.update,
    putCalEventsV1VenuesById: legacyVenues.update,
    patchCalEventsV1VenuesById: legacyVenues.update,
    deleteCalEventsV1VenuesById: legacyVenues.delete,
    getCalEventsV1VenuesBySlugBySlug: legacyVenues.read,
    postCalEventsV1VenuesBySlugBySlug: legacyVenues.update,
    putCalEventsV1VenuesBySlugBySlug: legacyVenues.update,
    patchCalEventsV1VenuesBySlugBySlug: legacyVenues.update,
    deleteCalEventsV1VenuesBySlugBySlug: legacyVenues.delete,
    getCalEventsV1Organizers: legacyOrganizers.list,
    postCalEventsV1Organizers: legacyOrganizers.create,
    getCalEventsV1OrganizersById: legacyOrganizers.read,
    postCalEventsV1OrganizersById: legacyOrganizers.update,
    putCalEventsV1OrganizersById: legacyOrganizers.update,
    patchCalEventsV1OrganizersById: legacyOrganizers.update,
    deleteCalEventsV1OrganizersById: legacyOrganizers.delete,
    getCalEventsV1OrganizersBySlugBySlug: legacyOrganizers.read,
    postCalEventsV1OrganizersBySlugBySlug: legacyOrganizers.update,
    putCalEventsV1OrganizersBySlugBySlug: legacyOrganizers.update,
    patchCalEventsV1OrganizersBySlugBySlug: legacyOrganizers.update,
    deleteCalEventsV1OrganizersBySlugBySlug: legacyOrganizers.delete,
    getCalEventsV1Categories: legacyCategories.list,
    postCalEventsV1Categories: legacyCategories.create,
    getCalEventsV1CategoriesById: legacyCategories.read,
    postCalEventsV1CategoriesById: legacyCategories.update,
    putCalEventsV1CategoriesById: legacyCategories.update,
    patchCalEventsV1CategoriesById: legacyCategories.update,
    deleteCalEventsV1CategoriesById: legacyCategories.delete,
    getCalEventsV1Tags: legacyTags.list,
    postCalEventsV1Tags: legacyTags.create,
    getCalEventsV1TagsById: legacyTags.read,
    postCalEventsV1TagsById: legacyTags.update,
    putCalEventsV1TagsById: legacyTags.update,
    patchCalEventsV1TagsById: legacyTags.update,
    deleteCalEventsV1TagsById: legacyTags.delete,
    // cal/views/v2
    getCalViewsV2: index('cal/views/v2'),
    getCalViewsV2Html: read(calendarExtraHandlers.viewHtml),
    postCalViewsV2Html: open(calendarExtraHandlers.viewHtml, 'the calendar views render for visitors (a POST only carries the view state)'),
    // cal/v2/onboarding
    getCalV2Onboarding: index('cal/v2/onboarding'),
    postCalV2OnboardingWizard: administrators(calendarExtraHandlers.onboardingWizard),
    // cal/importer/v1
    getCalImporterV1: index('cal/importer/v1'),
    postCalImporterV1ImportByImportIdBatch: open(calendarExtraHandlers.importBatch, "the import service's callback, authenticated by the batch hash it holds"),
    postCalImporterV1ImportByImportIdState: open(calendarExtraHandlers.importState, "the import service's callback, authenticated by the batch hash it holds"),
    // cal/v1
    getCalV1: index('cal/v1'),
    getCalV1Docs: read(docsHandler(deps.contract, 'cal/v1')),
    getCalV1Events: calEvents.list,
    postCalV1Events: calEvents.create,
    getCalV1EventsById: calEvents.read,
    putCalV1EventsById: calEvents.update,
    patchCalV1EventsById: calEvents.update,
    deleteCalV1EventsById: calEvents.delete,
    getCalV1Organizers: calOrganizers.list,
    postCalV1Organizers: calOrganizers.create,
    getCalV1OrganizersById: calOrganizers.read,
    putCalV1OrganizersById: calOrganizers.update,
    patchCalV1OrganizersById: calOrganizers.update,
    deleteCalV1OrganizersById: calOrganizers.delete,
    getCalV1Venues: calVenues.list,
    postCalV1Venues: calVenues.create,
    getCalV1VenuesById: calVenues.read,
    putCalV1VenuesById: calVenues.update,
    patchCalV1VenuesById: calVenues.update,
    deleteCalV1VenuesById: calVenues.delete,
    // (root)
    getRoot: root,
    // batch/v1
    postBatchV1: open(batchHandler, 'anyone may send a batch; each item is checked on its own (sample 73)'),
    // oembed/1.0
    getOembed10: index('oembed/1.0'),
    getOembed10Embed: { handler: oembedHandler(true), permission: PUBLIC_READ, xmlErrors: true },
    getOembed10Proxy: { handler: oembedHandler(false), permission: OEMBED_PROXY },
    // i18n/v1
    getI18nV1: index('i18n/v1'),
    getI18nV1CustomXmlConfig: read(xmlConfigHandlers.read),
    postI18nV1CustomXmlConfig: administrators(xmlConfigHandlers.save),
    postI18nV1CustomXmlConfigValidate: administrators(xmlConfigHandlers.validate),
    // i18n/st/v1
    getI18nStV1: index('i18n/st/v1'),
    getI18nStV1StringsSettings: read(stringHandlers.settings),
    postI18nStV1StringsSettings: administrators(stringHandlers.saveSettings),
    getI18nStV1StringsItemscount: read(stringHandlers.count),
    getI18nStV1Strings: read(stringHandlers.list),
    getI18nStV1StringsFilters: read(stringHandlers.filters),
    getI18nStV1StringPackages: read(stringHandlers.packages),
    postI18nStV1StringsProcessstringsqueue: administrators(stringHandlers.processQueue),
    // i18n/tm/v1
    getI18nTmV1: index('i18n/tm/v1'),
    postI18nTmV1AteJobsStore: editors(managementHandlers.storeAteJob),
    getI18nTmV1XliffFetchByJobId: read(managementHandlers.fetchXliff),
    postI18nTmV1AmsRegisterManager: administrators(managementHandlers.registerManager),
    getI18nTmV1AmsSynchronizeTranslators: read(managementHandlers.translators),
    getI18nTmV1AmsSynchronizeManagers: read(managementHandlers.managers),
    getI18nTmV1AmsStatus: read(managementHandlers.amsStatus),
    // pagebuilder-one/v1
    getPagebuilderOneV1: index('pagebuilder-one/v1'),
    postPagebuilderOneV1ConnectAuthorize: administrators(pagebuilderHandlers.authorize),
    postPagebuilderOneV1ConnectDisconnect: administrators(pagebuilderHandlers.disconnect),
    postPagebuilderOneV1ConnectSwitchDomain: administrators(pagebuilderHandlers.switchDomain),
    postPagebuilderOneV1ConnectDeactivate: administrators(pagebuilderHandlers.disconnect),
    getPagebuilderOneV1TopBarNotifications: read(pagebuilderHandlers.notifications),
    postPagebuilderOneV1TopBarFeedback: editors(pagebuilderHandlers.feedback),
    postPagebuilderOneV1Themes: administrators(pagebuilderHandlers.putTheme),
    postPagebuilderOneV1ThemesBySlugActivate: administrators(pagebuilderHandlers.activateTheme),
    getPagebuilderOneV1Plugins: read(pagebuilderHandlers.listPlugins),
    postPagebuilderOneV1Plugins: administrators(pagebuilderHandlers.putPlugin),
    postPagebuilderOneV1PluginsBySlugActivate: administrators(pagebuilderHandlers.activatePlugin),
    postPagebuilderOneV1PluginsBySlugDeactivate: administrators(pagebuilderHandlers.deactivatePlugin),
    postPagebuilderOneV1PluginsBySlugUpgrade: administrators(pagebuilderHandlers.upgradePlugin),
    postPagebuilderOneV1PluginsBySlugMigrationRun: administrators(pagebuilderHandlers.runMigration),
    postPagebuilderOneV1PluginsBySlugMigrationRollback: administrators(pagebuilderHandlers.rollBackMigration),
    getPagebuilderOneV1Settings: read(pagebuilderHandlers.settings),
    postPagebuilderOneV1Settings: administrators(pagebuilderHandlers.saveSettings),
    putPagebuilderOneV1Settings: administrators(pagebuilderHandlers.saveSettings),
    patchPagebuilderOneV1Settings: administrators(pagebuilderHandlers.saveSettings),
    getPagebuilderOneV1ManageDashboardWidgetState: read(pagebuilderHandlers.dashboardWidgetState),
    getPagebuilderOneV1Logs: read(pagebuilderHandlers.logs),
    deletePagebuilderOneV1Logs: administrators(pagebuilderHandlers.clearLogs),
    // seo/v1
    getSeoV1: index('seo/v1'),
    postSeoV1SaveModule: administrators(seoSiteHandlers.saveModule),
    putSeoV1SaveModule: administrators(seoSiteHandlers.saveModule),
    patchSeoV1SaveModule: administrators(seoSiteHandlers.saveModule),
    postSeoV1ToolsAction: administrators(seoSiteHandlers.toolsAction),
    putSeoV1ToolsAction: administrators(seoSiteHandlers.toolsAction),
    patchSeoV1ToolsAction: administrators(seoSiteHandlers.toolsAction),
    postSeoV1UpdateMode: administrators(seoSiteHandlers.updateMode),
    putSeoV1UpdateMode: administrators(seoSiteHandlers.updateMode),
    patchSeoV1UpdateMode: administrators(seoSiteHandlers.updateMode),
    getSeoV1DashboardWidget: read(seoSiteHandlers.dashboardWidget),
    postSeoV1UpdateSeoScore: editors(seoObjectHandlers.updateSeoScore),
    putSeoV1UpdateSeoScore: editors(seoObjectHandlers.updateSeoScore),
    patchSeoV1UpdateSeoScore: editors(seoObjectHandlers.updateSeoScore),
    postSeoV1UpdateSettings: administrators(seoSiteHandlers.updateSettings),
    putSeoV1UpdateSettings: administrators(seoSiteHandlers.updateSettings),
    patchSeoV1UpdateSettings: administrators(seoSiteHandlers.updateSettings),
    getSeoV1SearchPage: read(seoSiteHandlers.searchPage),
    postSeoV1SearchPage: administrators(seoSiteHandlers.updateSearchPage),
    putSeoV1SearchPage: administrators(seoSiteHandlers.updateSearchPage),
    patchSeoV1SearchPage: administrators(seoSiteHandlers.updateSearchPage),
    deleteSeoV1SearchPage: administrators(seoSiteHandlers.deleteSearchPage),
    getSeoV1DisconnectSite: read(seoSiteHandlers.disconnectSite),
    postSeoV1GetFeaturedImageId: editors(seoObjectHandlers.featuredImageId),
    putSeoV1GetFeaturedImageId: editors(seoObjectHandlers.featuredImageId),
    patchSeoV1GetFeaturedImageId: editors(seoObjectHandlers.featuredImageId),
    postSeoV1UpdateRedirection: editors(seoObjectHandlers.updateRedirection),
    postSeoV1UpdateMeta: editors(seoObjectHandlers.updateMeta),
    postSeoV1UpdateSchemas: editors(seoObjectHandlers.updateSchemas),
    postSeoV1UpdateMetaBulk: editors(seoObjectHandlers.updateMetaBulk),
    postSeoV1SaveTemplate: editors(seoObjectHandlers.saveTemplate),
    postSeoV1GetVideoData: editors(seoObjectHandlers.videoData),
    getSeoV1PingSettings: read(seoSiteHandlers.pingSettings),
    postSeoV1SearchIntent: editors(seoObjectHandlers.searchIntent),
    postSeoV1ImportCSV: administrators(seoSiteHandlers.importCsv),
    postSeoV1CancelCsvImport: administrators(seoSiteHandlers.cancelCsvImport),
    // seo/v1/setupWizard
    getSeoV1SetupWizard: index('seo/v1/setupWizard'),
    postSeoV1SetupWizardGetStepData: editors(seoSiteHandlers.wizardStep),
    postSeoV1SetupWizardUpdateStepData: administrators(seoSiteHandlers.updateWizardStep),
    postSeoV1SetupWizardUpdateTrackingOptin: administrators(seoSiteHandlers.updateTrackingOptin),
    // seo/v1/an
    getSeoV1An: index('seo/v1/an'),
    getSeoV1AnGetKeywordPages: read(seoAnalyticsHandlers.keywordPages),
    getSeoV1AnGetTrackedKeywordsRows: read(seoAnalyticsHandlers.trackedKeywordRows),
    getSeoV1AnPostsOverview: read(seoAnalyticsHandlers.postsOverview),
    getSeoV1AnGetTrackedKeywords: read(seoAnalyticsHandlers.trackedKeywords),
    getSeoV1AnGetTrackedKeywordSummary: read(seoAnalyticsHandlers.trackedKeywordSummary),
    getSeoV1AnTrackedKeywordsOverview: read(seoAnalyticsHandlers.trackedKeywordSummary),
    getSeoV1AnPostsRows: read(seoAnalyticsHandlers.postsRows),
    getSeoV1AnInspectionStats: read(seoAnalyticsHandlers.inspectionStats),
    postSeoV1AnAddTrackKeyword: editors(seoAnalyticsHandlers.addTrackKeyword),
    postSeoV1AnAutoAddFocusKeywords: editors(seoAnalyticsHandlers.autoAddFocusKeywords),
    postSeoV1AnRemoveTrackKeyword: editors(seoAnalyticsHandlers.removeTrackKeyword),
    postSeoV1AnDeleteTrackedKeywords: editors(seoAnalyticsHandlers.deleteTrackedKeywords),
    postSeoV1AnGetDesktopPagespeed: editors(seoAnalyticsHandlers.desktopPagespeed),
    postSeoV1AnGetMobilePagespeed: editors(seoAnalyticsHandlers.mobilePagespeed),
    postSeoV1AnGetPageSEOScore: editors(seoAnalyticsHandlers.pageSeoScore),
  };
}
