// The operation table: every operationId of the contract and the handler that answers it. The route stage names
// the operation once; run looks its handler up here, and nothing else decides by namespace or path which code
// answers. operations.test.ts holds its keys to the contract's operations, so an operation added to the contract
// without a handler (or a handler left for one removed) fails a test.
import type { Contract } from '../../../contracts/lib/loader.ts';
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
import { batchHandler } from './batch.ts';
import { CURRENT, LEGACY } from './calendar/dialect.ts';
import { postHandlers } from './calendar/posts.ts';
import { termHandlers } from './calendar/terms.ts';
import { ok, type Handler } from './context.ts';
import type { Discovery } from './discovery.ts';
import { docsHandler } from './docs.ts';

interface OperationDeps {
  contract: Contract;
  discovery: Discovery;
}

/** operationId → handler, for the contract's 204 operations. */
export function operationTable(deps: OperationDeps): Readonly<Record<string, Handler>> {
  const root: Handler = (ctx) => ok(deps.discovery.root(ctx.links.apiRoot, ctx.links.home));
  const index = (namespace: string): Handler => (ctx) => ok(deps.discovery.namespaceIndex(namespace, ctx.links.apiRoot));
  const legacyEvents = postHandlers(LEGACY, 'event');
  const legacyVenues = postHandlers(LEGACY, 'venue');
  const legacyOrganizers = postHandlers(LEGACY, 'organizer');
  const legacyCategories = termHandlers('category');
  const legacyTags = termHandlers('tag');
  const calEvents = postHandlers(CURRENT, 'event');
  const calVenues = postHandlers(CURRENT, 'venue');
  const calOrganizers = postHandlers(CURRENT, 'organizer');
  return {
    // forms/v1
    getFormsV1: index('forms/v1'),
    getFormsV1ContactForms: formHandlers.list,
    postFormsV1ContactForms: formHandlers.create,
    getFormsV1ContactFormsById: formHandlers.read,
    postFormsV1ContactFormsById: formHandlers.update,
    putFormsV1ContactFormsById: formHandlers.update,
    patchFormsV1ContactFormsById: formHandlers.update,
    deleteFormsV1ContactFormsById: formHandlers.delete,
    postFormsV1ContactFormsByIdFeedback: formHandlers.feedback,
    getFormsV1ContactFormsByIdFeedbackSchema: formHandlers.schema,
    getFormsV1ContactFormsByIdRefill: formHandlers.refill,
    // lms/v1
    getLmsV1: index('lms/v1'),
    postLmsV1Token: lmsHandlers.issue,
    postLmsV1TokenValidate: lmsHandlers.validate,
    postLmsV1TokenRegister: lmsHandlers.register,
    // sliderrevolution
    getSliderrevolution: index('sliderrevolution'),
    getSliderrevolutionSliders: sliderHandlers.list,
    getSliderrevolutionSlidersBySlider: sliderHandlers.slider,
    getSliderrevolutionSlidersSlidesById: sliderHandlers.slides,
    getSliderrevolutionSlidersStreamById: sliderHandlers.stream,
    getSliderrevolutionSlidersModalBySlider: sliderHandlers.modal,
    // cal/events/v1
    getCalEventsV1: index('cal/events/v1'),
    getCalEventsV1Doc: docsHandler(deps.contract, 'cal/events/v1'),
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
    getCalViewsV2Html: calendarExtraHandlers.viewHtml,
    postCalViewsV2Html: calendarExtraHandlers.viewHtml,
    // cal/v2/onboarding
    getCalV2Onboarding: index('cal/v2/onboarding'),
    postCalV2OnboardingWizard: calendarExtraHandlers.onboardingWizard,
    // cal/importer/v1
    getCalImporterV1: index('cal/importer/v1'),
    postCalImporterV1ImportByImportIdBatch: calendarExtraHandlers.importBatch,
    postCalImporterV1ImportByImportIdState: calendarExtraHandlers.importState,
    // cal/v1
    getCalV1: index('cal/v1'),
    getCalV1Docs: docsHandler(deps.contract, 'cal/v1'),
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
    postBatchV1: batchHandler,
    // oembed/1.0
    getOembed10: index('oembed/1.0'),
    getOembed10Embed: oembedHandler,
    getOembed10Proxy: oembedHandler,
    // i18n/v1
    getI18nV1: index('i18n/v1'),
    getI18nV1CustomXmlConfig: xmlConfigHandlers.read,
    postI18nV1CustomXmlConfig: xmlConfigHandlers.save,
    postI18nV1CustomXmlConfigValidate: xmlConfigHandlers.validate,
    // i18n/st/v1
    getI18nStV1: index('i18n/st/v1'),
    getI18nStV1StringsSettings: stringHandlers.settings,
    postI18nStV1StringsSettings: stringHandlers.saveSettings,
    getI18nStV1StringsItemscount: stringHandlers.count,
    getI18nStV1Strings: stringHandlers.list,
    getI18nStV1StringsFilters: stringHandlers.filters,
    getI18nStV1StringPackages: stringHandlers.packages,
    postI18nStV1StringsProcessstringsqueue: stringHandlers.processQueue,
    // i18n/tm/v1
    getI18nTmV1: index('i18n/tm/v1'),
    postI18nTmV1AteJobsStore: managementHandlers.storeAteJob,
    getI18nTmV1XliffFetchByJobId: managementHandlers.fetchXliff,
    postI18nTmV1AmsRegisterManager: managementHandlers.registerManager,
    getI18nTmV1AmsSynchronizeTranslators: managementHandlers.translators,
    getI18nTmV1AmsSynchronizeManagers: managementHandlers.managers,
    getI18nTmV1AmsStatus: managementHandlers.amsStatus,
    // pagebuilder-one/v1
    getPagebuilderOneV1: index('pagebuilder-one/v1'),
    postPagebuilderOneV1ConnectAuthorize: pagebuilderHandlers.authorize,
    postPagebuilderOneV1ConnectDisconnect: pagebuilderHandlers.disconnect,
    postPagebuilderOneV1ConnectSwitchDomain: pagebuilderHandlers.switchDomain,
    postPagebuilderOneV1ConnectDeactivate: pagebuilderHandlers.disconnect,
    getPagebuilderOneV1TopBarNotifications: pagebuilderHandlers.notifications,
    postPagebuilderOneV1TopBarFeedback: pagebuilderHandlers.feedback,
    postPagebuilderOneV1Themes: pagebuilderHandlers.putTheme,
    postPagebuilderOneV1ThemesBySlugActivate: pagebuilderHandlers.activateTheme,
    getPagebuilderOneV1Plugins: pagebuilderHandlers.listPlugins,
    postPagebuilderOneV1Plugins: pagebuilderHandlers.putPlugin,
    postPagebuilderOneV1PluginsBySlugActivate: pagebuilderHandlers.activatePlugin,
    postPagebuilderOneV1PluginsBySlugDeactivate: pagebuilderHandlers.deactivatePlugin,
    postPagebuilderOneV1PluginsBySlugUpgrade: pagebuilderHandlers.upgradePlugin,
    postPagebuilderOneV1PluginsBySlugMigrationRun: pagebuilderHandlers.runMigration,
    postPagebuilderOneV1PluginsBySlugMigrationRollback: pagebuilderHandlers.rollBackMigration,
    getPagebuilderOneV1Settings: pagebuilderHandlers.settings,
    postPagebuilderOneV1Settings: pagebuilderHandlers.saveSettings,
    putPagebuilderOneV1Settings: pagebuilderHandlers.saveSettings,
    patchPagebuilderOneV1Settings: pagebuilderHandlers.saveSettings,
    getPagebuilderOneV1ManageDashboardWidgetState: pagebuilderHandlers.dashboardWidgetState,
    getPagebuilderOneV1Logs: pagebuilderHandlers.logs,
    deletePagebuilderOneV1Logs: pagebuilderHandlers.clearLogs,
    // seo/v1
    getSeoV1: index('seo/v1'),
    postSeoV1SaveModule: seoSiteHandlers.saveModule,
    putSeoV1SaveModule: seoSiteHandlers.saveModule,
    patchSeoV1SaveModule: seoSiteHandlers.saveModule,
    postSeoV1ToolsAction: seoSiteHandlers.toolsAction,
    putSeoV1ToolsAction: seoSiteHandlers.toolsAction,
    patchSeoV1ToolsAction: seoSiteHandlers.toolsAction,
    postSeoV1UpdateMode: seoSiteHandlers.updateMode,
    putSeoV1UpdateMode: seoSiteHandlers.updateMode,
    patchSeoV1UpdateMode: seoSiteHandlers.updateMode,
    getSeoV1DashboardWidget: seoSiteHandlers.dashboardWidget,
    postSeoV1UpdateSeoScore: seoObjectHandlers.updateSeoScore,
    putSeoV1UpdateSeoScore: seoObjectHandlers.updateSeoScore,
    patchSeoV1UpdateSeoScore: seoObjectHandlers.updateSeoScore,
    postSeoV1UpdateSettings: seoSiteHandlers.updateSettings,
    putSeoV1UpdateSettings: seoSiteHandlers.updateSettings,
    patchSeoV1UpdateSettings: seoSiteHandlers.updateSettings,
    getSeoV1SearchPage: seoSiteHandlers.searchPage,
    postSeoV1SearchPage: seoSiteHandlers.updateSearchPage,
    putSeoV1SearchPage: seoSiteHandlers.updateSearchPage,
    patchSeoV1SearchPage: seoSiteHandlers.updateSearchPage,
    deleteSeoV1SearchPage: seoSiteHandlers.deleteSearchPage,
    getSeoV1DisconnectSite: seoSiteHandlers.disconnectSite,
    postSeoV1GetFeaturedImageId: seoObjectHandlers.featuredImageId,
    putSeoV1GetFeaturedImageId: seoObjectHandlers.featuredImageId,
    patchSeoV1GetFeaturedImageId: seoObjectHandlers.featuredImageId,
    postSeoV1UpdateRedirection: seoObjectHandlers.updateRedirection,
    postSeoV1UpdateMeta: seoObjectHandlers.updateMeta,
    postSeoV1UpdateSchemas: seoObjectHandlers.updateSchemas,
    postSeoV1UpdateMetaBulk: seoObjectHandlers.updateMetaBulk,
    postSeoV1SaveTemplate: seoObjectHandlers.saveTemplate,
    postSeoV1GetVideoData: seoObjectHandlers.videoData,
    getSeoV1PingSettings: seoSiteHandlers.pingSettings,
    postSeoV1SearchIntent: seoObjectHandlers.searchIntent,
    postSeoV1ImportCSV: seoSiteHandlers.importCsv,
    postSeoV1CancelCsvImport: seoSiteHandlers.cancelCsvImport,
    // seo/v1/setupWizard
    getSeoV1SetupWizard: index('seo/v1/setupWizard'),
    postSeoV1SetupWizardGetStepData: seoSiteHandlers.wizardStep,
    postSeoV1SetupWizardUpdateStepData: seoSiteHandlers.updateWizardStep,
    postSeoV1SetupWizardUpdateTrackingOptin: seoSiteHandlers.updateTrackingOptin,
    // seo/v1/an
    getSeoV1An: index('seo/v1/an'),
    getSeoV1AnGetKeywordPages: seoAnalyticsHandlers.keywordPages,
    getSeoV1AnGetTrackedKeywordsRows: seoAnalyticsHandlers.trackedKeywordRows,
    getSeoV1AnPostsOverview: seoAnalyticsHandlers.postsOverview,
    getSeoV1AnGetTrackedKeywords: seoAnalyticsHandlers.trackedKeywords,
    getSeoV1AnGetTrackedKeywordSummary: seoAnalyticsHandlers.trackedKeywordSummary,
    getSeoV1AnTrackedKeywordsOverview: seoAnalyticsHandlers.trackedKeywordSummary,
    getSeoV1AnPostsRows: seoAnalyticsHandlers.postsRows,
    getSeoV1AnInspectionStats: seoAnalyticsHandlers.inspectionStats,
    postSeoV1AnAddTrackKeyword: seoAnalyticsHandlers.addTrackKeyword,
    postSeoV1AnAutoAddFocusKeywords: seoAnalyticsHandlers.autoAddFocusKeywords,
    postSeoV1AnRemoveTrackKeyword: seoAnalyticsHandlers.removeTrackKeyword,
    postSeoV1AnDeleteTrackedKeywords: seoAnalyticsHandlers.deleteTrackedKeywords,
    postSeoV1AnGetDesktopPagespeed: seoAnalyticsHandlers.desktopPagespeed,
    postSeoV1AnGetMobilePagespeed: seoAnalyticsHandlers.mobilePagespeed,
    postSeoV1AnGetPageSEOScore: seoAnalyticsHandlers.pageSeoScore,
  };
}
