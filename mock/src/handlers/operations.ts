// The operation table: every operationId of the contract and the handler that answers it. The route stage names
// the operation once; run looks its handler up here, and nothing else decides by namespace or path which code
// answers. operations.test.ts holds its keys to the contract's operations, so an operation added to the contract
// without a handler (or a handler left for one removed) fails a test.
import type { Contract } from '../../../contracts/lib/loader.ts';
import { calendarExtraHandlers } from './addons/calendar-extras.ts';
import { formHandlers } from './addons/forms.ts';
import { i18nHandler } from './addons/i18n.ts';
import { lmsHandlers } from './addons/lms.ts';
import { oembedHandler } from './addons/oembed.ts';
import { pagebuilderHandler } from './addons/pagebuilder.ts';
import { seoHandler } from './addons/seo.ts';
import { sliderHandlers } from './addons/sliders.ts';
import { batchHandler } from './batch.ts';
import { handlePosts } from './calendar/posts.ts';
import { handleTerms } from './calendar/terms.ts';
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
  const docs = docsHandler(deps.contract);
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
    getCalEventsV1Doc: docs,
    getCalEventsV1Events: handlePosts,
    postCalEventsV1Events: handlePosts,
    getCalEventsV1EventsById: handlePosts,
    postCalEventsV1EventsById: handlePosts,
    putCalEventsV1EventsById: handlePosts,
    patchCalEventsV1EventsById: handlePosts,
    deleteCalEventsV1EventsById: handlePosts,
    getCalEventsV1EventsBySlugBySlug: handlePosts,
    postCalEventsV1EventsBySlugBySlug: handlePosts,
    putCalEventsV1EventsBySlugBySlug: handlePosts,
    patchCalEventsV1EventsBySlugBySlug: handlePosts,
    deleteCalEventsV1EventsBySlugBySlug: handlePosts,
    getCalEventsV1Venues: handlePosts,
    postCalEventsV1Venues: handlePosts,
    getCalEventsV1VenuesById: handlePosts,
    postCalEventsV1VenuesById: handlePosts,
    putCalEventsV1VenuesById: handlePosts,
    patchCalEventsV1VenuesById: handlePosts,
    deleteCalEventsV1VenuesById: handlePosts,
    getCalEventsV1VenuesBySlugBySlug: handlePosts,
    postCalEventsV1VenuesBySlugBySlug: handlePosts,
    putCalEventsV1VenuesBySlugBySlug: handlePosts,
    patchCalEventsV1VenuesBySlugBySlug: handlePosts,
    deleteCalEventsV1VenuesBySlugBySlug: handlePosts,
    getCalEventsV1Organizers: handlePosts,
    postCalEventsV1Organizers: handlePosts,
    getCalEventsV1OrganizersById: handlePosts,
    postCalEventsV1OrganizersById: handlePosts,
    putCalEventsV1OrganizersById: handlePosts,
    patchCalEventsV1OrganizersById: handlePosts,
    deleteCalEventsV1OrganizersById: handlePosts,
    getCalEventsV1OrganizersBySlugBySlug: handlePosts,
    postCalEventsV1OrganizersBySlugBySlug: handlePosts,
    putCalEventsV1OrganizersBySlugBySlug: handlePosts,
    patchCalEventsV1OrganizersBySlugBySlug: handlePosts,
    deleteCalEventsV1OrganizersBySlugBySlug: handlePosts,
    getCalEventsV1Categories: handleTerms,
    postCalEventsV1Categories: handleTerms,
    getCalEventsV1CategoriesById: handleTerms,
    postCalEventsV1CategoriesById: handleTerms,
    putCalEventsV1CategoriesById: handleTerms,
    patchCalEventsV1CategoriesById: handleTerms,
    deleteCalEventsV1CategoriesById: handleTerms,
    getCalEventsV1Tags: handleTerms,
    postCalEventsV1Tags: handleTerms,
    getCalEventsV1TagsById: handleTerms,
    postCalEventsV1TagsById: handleTerms,
    putCalEventsV1TagsById: handleTerms,
    patchCalEventsV1TagsById: handleTerms,
    deleteCalEventsV1TagsById: handleTerms,
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
    getCalV1Docs: docs,
    getCalV1Events: handlePosts,
    postCalV1Events: handlePosts,
    getCalV1EventsById: handlePosts,
    putCalV1EventsById: handlePosts,
    patchCalV1EventsById: handlePosts,
    deleteCalV1EventsById: handlePosts,
    getCalV1Organizers: handlePosts,
    postCalV1Organizers: handlePosts,
    getCalV1OrganizersById: handlePosts,
    putCalV1OrganizersById: handlePosts,
    patchCalV1OrganizersById: handlePosts,
    deleteCalV1OrganizersById: handlePosts,
    getCalV1Venues: handlePosts,
    postCalV1Venues: handlePosts,
    getCalV1VenuesById: handlePosts,
    putCalV1VenuesById: handlePosts,
    patchCalV1VenuesById: handlePosts,
    deleteCalV1VenuesById: handlePosts,
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
    getI18nV1CustomXmlConfig: i18nHandler,
    postI18nV1CustomXmlConfig: i18nHandler,
    postI18nV1CustomXmlConfigValidate: i18nHandler,
    // i18n/st/v1
    getI18nStV1: index('i18n/st/v1'),
    getI18nStV1StringsSettings: i18nHandler,
    postI18nStV1StringsSettings: i18nHandler,
    getI18nStV1StringsItemscount: i18nHandler,
    getI18nStV1Strings: i18nHandler,
    getI18nStV1StringsFilters: i18nHandler,
    getI18nStV1StringPackages: i18nHandler,
    postI18nStV1StringsProcessstringsqueue: i18nHandler,
    // i18n/tm/v1
    getI18nTmV1: index('i18n/tm/v1'),
    postI18nTmV1AteJobsStore: i18nHandler,
    getI18nTmV1XliffFetchByJobId: i18nHandler,
    postI18nTmV1AmsRegisterManager: i18nHandler,
    getI18nTmV1AmsSynchronizeTranslators: i18nHandler,
    getI18nTmV1AmsSynchronizeManagers: i18nHandler,
    getI18nTmV1AmsStatus: i18nHandler,
    // pagebuilder-one/v1
    getPagebuilderOneV1: index('pagebuilder-one/v1'),
    postPagebuilderOneV1ConnectAuthorize: pagebuilderHandler,
    postPagebuilderOneV1ConnectDisconnect: pagebuilderHandler,
    postPagebuilderOneV1ConnectSwitchDomain: pagebuilderHandler,
    postPagebuilderOneV1ConnectDeactivate: pagebuilderHandler,
    getPagebuilderOneV1TopBarNotifications: pagebuilderHandler,
    postPagebuilderOneV1TopBarFeedback: pagebuilderHandler,
    postPagebuilderOneV1Themes: pagebuilderHandler,
    postPagebuilderOneV1ThemesBySlugActivate: pagebuilderHandler,
    getPagebuilderOneV1Plugins: pagebuilderHandler,
    postPagebuilderOneV1Plugins: pagebuilderHandler,
    postPagebuilderOneV1PluginsBySlugActivate: pagebuilderHandler,
    postPagebuilderOneV1PluginsBySlugDeactivate: pagebuilderHandler,
    postPagebuilderOneV1PluginsBySlugUpgrade: pagebuilderHandler,
    postPagebuilderOneV1PluginsBySlugMigrationRun: pagebuilderHandler,
    postPagebuilderOneV1PluginsBySlugMigrationRollback: pagebuilderHandler,
    getPagebuilderOneV1Settings: pagebuilderHandler,
    postPagebuilderOneV1Settings: pagebuilderHandler,
    putPagebuilderOneV1Settings: pagebuilderHandler,
    patchPagebuilderOneV1Settings: pagebuilderHandler,
    getPagebuilderOneV1ManageDashboardWidgetState: pagebuilderHandler,
    getPagebuilderOneV1Logs: pagebuilderHandler,
    deletePagebuilderOneV1Logs: pagebuilderHandler,
    // seo/v1
    getSeoV1: index('seo/v1'),
    postSeoV1SaveModule: seoHandler,
    putSeoV1SaveModule: seoHandler,
    patchSeoV1SaveModule: seoHandler,
    postSeoV1ToolsAction: seoHandler,
    putSeoV1ToolsAction: seoHandler,
    patchSeoV1ToolsAction: seoHandler,
    postSeoV1UpdateMode: seoHandler,
    putSeoV1UpdateMode: seoHandler,
    patchSeoV1UpdateMode: seoHandler,
    getSeoV1DashboardWidget: seoHandler,
    postSeoV1UpdateSeoScore: seoHandler,
    putSeoV1UpdateSeoScore: seoHandler,
    patchSeoV1UpdateSeoScore: seoHandler,
    postSeoV1UpdateSettings: seoHandler,
    putSeoV1UpdateSettings: seoHandler,
    patchSeoV1UpdateSettings: seoHandler,
    getSeoV1SearchPage: seoHandler,
    postSeoV1SearchPage: seoHandler,
    putSeoV1SearchPage: seoHandler,
    patchSeoV1SearchPage: seoHandler,
    deleteSeoV1SearchPage: seoHandler,
    getSeoV1DisconnectSite: seoHandler,
    postSeoV1GetFeaturedImageId: seoHandler,
    putSeoV1GetFeaturedImageId: seoHandler,
    patchSeoV1GetFeaturedImageId: seoHandler,
    postSeoV1UpdateRedirection: seoHandler,
    postSeoV1UpdateMeta: seoHandler,
    postSeoV1UpdateSchemas: seoHandler,
    postSeoV1UpdateMetaBulk: seoHandler,
    postSeoV1SaveTemplate: seoHandler,
    postSeoV1GetVideoData: seoHandler,
    getSeoV1PingSettings: seoHandler,
    postSeoV1SearchIntent: seoHandler,
    postSeoV1ImportCSV: seoHandler,
    postSeoV1CancelCsvImport: seoHandler,
    // seo/v1/setupWizard
    getSeoV1SetupWizard: index('seo/v1/setupWizard'),
    postSeoV1SetupWizardGetStepData: seoHandler,
    postSeoV1SetupWizardUpdateStepData: seoHandler,
    postSeoV1SetupWizardUpdateTrackingOptin: seoHandler,
    // seo/v1/an
    getSeoV1An: index('seo/v1/an'),
    getSeoV1AnGetKeywordPages: seoHandler,
    getSeoV1AnGetTrackedKeywordsRows: seoHandler,
    getSeoV1AnPostsOverview: seoHandler,
    getSeoV1AnGetTrackedKeywords: seoHandler,
    getSeoV1AnGetTrackedKeywordSummary: seoHandler,
    getSeoV1AnTrackedKeywordsOverview: seoHandler,
    getSeoV1AnPostsRows: seoHandler,
    getSeoV1AnInspectionStats: seoHandler,
    postSeoV1AnAddTrackKeyword: seoHandler,
    postSeoV1AnAutoAddFocusKeywords: seoHandler,
    postSeoV1AnRemoveTrackKeyword: seoHandler,
    postSeoV1AnDeleteTrackedKeywords: seoHandler,
    postSeoV1AnGetDesktopPagespeed: seoHandler,
    postSeoV1AnGetMobilePagespeed: seoHandler,
    postSeoV1AnGetPageSEOScore: seoHandler,
  };
}
