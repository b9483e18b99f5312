// Search-optimisation add-on (001 §4.7), the site-wide operations: modules on/off, the settings mode, settings and
// the search page's settings, the setup wizard's steps, tools, the dashboard widget and the account connection.
import type { JsonObject, JsonValue } from '../../../../../contracts/model/records.ts';
import { ok, type HandlerCtx, type Reply } from '../../context.ts';
import { json, settingsInput, storeRefusal } from '../util.ts';
import { settingsPatch } from './shared.ts';

function saveModule(ctx: HandlerCtx): Reply {
  const { store, params: p } = ctx;
  const modules = { ...json(store.get('seoModules')), [String(p.module)]: p.state === 'on' ? ('on' as const) : ('off' as const) };
  store.set('seoModules', modules);
  return ok({ success: true, module: p.module, state: modules[String(p.module)], modules });
}

function updateMode(ctx: HandlerCtx): Reply {
  ctx.store.set('seoMode', ctx.params.mode as 'easy' | 'advanced' | 'custom');
  return ok({ success: true, mode: ctx.store.get('seoMode') });
}

function dashboardWidget(ctx: HandlerCtx): Reply {
  const { store } = ctx;
  const modules = store.get('seoModules');
  return ok({
    mode: store.get('seoMode'),
    active_modules: Object.values(modules).filter((s) => s === 'on').length,
    redirections: store.table('seoRedirections').size,
    tracked_keywords: store.table('trackedKeywords').size,
    average_score: Math.round(store.table('seoObjects').values().reduce((s, o) => s + (o.score ?? 0), 0) / Math.max(1, store.table('seoObjects').values().filter((o) => o.score !== undefined).length)),
  });
}

function updateSettings(ctx: HandlerCtx): Reply {
  try {
    return ok({ success: true, settings: ctx.store.set('seoSettings', { ...json(ctx.store.get('seoSettings')), ...settingsInput(ctx) }) });
  } catch (e) {
    return storeRefusal(e);
  }
}

const searchPageSettings = (ctx: HandlerCtx): JsonObject => (ctx.store.get('seoSettings').search_page ?? {}) as JsonObject;

const wizardOf = (ctx: HandlerCtx): JsonObject => (ctx.store.get('seoSettings').wizard ?? {}) as JsonObject;

function wizardStep(ctx: HandlerCtx): Reply {
  const p = ctx.params;
  return ok({ step: p.step, data: (wizardOf(ctx)[String(p.step)] ?? {}) as JsonValue, mode: ctx.store.get('seoMode') });
}

function updateWizardStep(ctx: HandlerCtx): Reply {
  const p = ctx.params;
  const wizard = json(wizardOf(ctx));
  wizard[String(p.step)] = json(p.value) as JsonValue;
  wizard.step = String(p.step);
  return settingsPatch(ctx, 'wizard', wizard);
}

function updateTrackingOptin(ctx: HandlerCtx): Reply {
  const wizard = json(wizardOf(ctx));
  const v = String(ctx.params.enable_tracking).toLowerCase();
  wizard.tracking_optin = v === 'on' || v === 'true' || v === '1' || v === 'yes';
  return settingsPatch(ctx, 'wizard', wizard);
}

/** The SEO add-on's site-wide operations, each its own handler. */
export const seoSiteHandlers = {
  saveModule,
  toolsAction: (ctx: HandlerCtx): Reply => ok({ success: true, action: ctx.params.action, message: `The action ${String(ctx.params.action)} has been run.` }),
  updateMode,
  dashboardWidget,
  updateSettings,
  searchPage: (ctx: HandlerCtx): Reply => ok(searchPageSettings(ctx)),
  updateSearchPage: (ctx: HandlerCtx): Reply => settingsPatch(ctx, 'search_page', { ...json(searchPageSettings(ctx)), ...settingsInput(ctx) }),
  deleteSearchPage: (ctx: HandlerCtx): Reply => settingsPatch(ctx, 'search_page', {}),
  disconnectSite: (): Reply => ok({ success: true, connected: false }),
  pingSettings: (ctx: HandlerCtx): Reply => ok({ success: true, plan: ctx.params.plan, username: ctx.params.username }),
  importCsv: (): Reply => ok({ success: true, status: 'queued', message: 'The CSV import has been scheduled.' }),
  cancelCsvImport: (): Reply => ok({ success: true, status: 'cancelled' }),
  wizardStep,
  updateWizardStep,
  updateTrackingOptin,
} as const;
