// `pagebuilder-one/v1` (001 §4.8): the suite's connection, themes and plugins with their inactive/active status
// (one theme active at a time, as WordPress themes), migrations, settings and logs. The eight plugin slugs are
// omitted by the documents; the fixtures' `pagebuilder-one-addon-a` ... `-h` stand in, and an unknown slug is 404.
import type { PageBuilderConnection, PageBuilderPlugin } from '../../../../contracts/model/records.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { err, json, nowWall, settingsInput, storeRefusal, str } from './util.ts';

function setConnection(ctx: HandlerCtx, patch: Partial<PageBuilderConnection>): Reply {
  const next = { ...json(ctx.store.get('pageBuilderConnection')), ...patch };
  try {
    return ok({ success: true, connection: ctx.store.set('pageBuilderConnection', next) });
  } catch (e) {
    return storeRefusal(e);
  }
}

function savePlugin(ctx: HandlerCtx, plugin: PageBuilderPlugin, status = 200): Reply {
  try {
    return ok(ctx.store.put('pbPlugins', plugin), status);
  } catch (e) {
    return storeRefusal(e);
  }
}

function authorize(ctx: HandlerCtx): Reply {
  if (ctx.params.clearSession === true) ctx.store.set('pageBuilderConnection', { ...json(ctx.store.get('pageBuilderConnection')), connected: false, connected_at: null });
  return setConnection(ctx, { connected: true, connected_at: nowWall(ctx) });
}

function notifications(ctx: HandlerCtx): Reply {
  return ok([
    { id: 'welcome', title: 'Welcome to Page Builder One', description: 'Connect your site to get templates and updates.', type: 'info', app: str(ctx.params.app_name) ?? '' },
    { id: `release-${str(ctx.params.app_version) ?? '0'}`, title: 'What is new', description: `Release notes for version ${str(ctx.params.app_version) ?? ''}.`, type: 'update', app: str(ctx.params.app_name) ?? '' },
  ]);
}

/** POST themes: the theme the body names, installed when it is new (201), activated when asked. */
function putTheme(ctx: HandlerCtx): Reply {
  const { store } = ctx;
  const slug = str(ctx.params.slug) ?? '';
  const status = ctx.params.status === 'active' ? 'active' : 'inactive';
  const existing = store.table('pbThemes').get(slug);
  try {
    if (!existing) store.put('pbThemes', { slug, name: slug.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()), status: 'inactive' });
    const theme = status === 'active' ? store.activateTheme(slug) : store.table('pbThemes').get(slug)!;
    return ok(theme, existing ? 200 : 201);
  } catch (e) {
    return storeRefusal(e);
  }
}

function activateTheme(ctx: HandlerCtx): Reply {
  const slug = ctx.pathParams.slug ?? '';
  if (!ctx.store.table('pbThemes').has(slug)) return err('pagebuilder_theme_not_found', `The theme ${slug} is not installed.`, 404);
  return ok(ctx.store.activateTheme(slug));
}

function listPlugins(ctx: HandlerCtx): Reply {
  const search = str(ctx.params.search)?.toLowerCase();
  const statuses = Array.isArray(ctx.params.status) ? ctx.params.status.map(String) : [];
  return ok(
    ctx.store.table('pbPlugins').values().filter((p) => (!search || `${p.slug} ${p.name}`.toLowerCase().includes(search)) && (statuses.length === 0 || statuses.includes(p.status))),
  );
}

/** POST plugins: the plugin the body names gets the status asked for, installed when it is new (201). */
function putPlugin(ctx: HandlerCtx): Reply {
  const slug = str(ctx.params.slug) ?? '';
  const existing = ctx.store.table('pbPlugins').get(slug);
  const status = ctx.params.status === 'active' ? 'active' : 'inactive';
  if (existing) return savePlugin(ctx, { ...(json(existing) as PageBuilderPlugin), status });
  return savePlugin(ctx, { slug, name: slug, status, version: '1.0.0', migration_supported: false, migration_state: 'none' }, 201);
}

/** An operation on the plugin the path names (a copy to change); 404 when the suite has none of that slug. */
const onPlugin = (f: (ctx: HandlerCtx, plugin: PageBuilderPlugin) => Reply) => (ctx: HandlerCtx): Reply => {
  const slug = ctx.pathParams.slug ?? '';
  const plugin = ctx.store.table('pbPlugins').get(slug);
  if (!plugin) return err('pagebuilder_plugin_not_found', `The plugin ${slug} is not part of the suite.`, 404);
  return f(ctx, json(plugin) as PageBuilderPlugin);
};

/** A migration operation, for a plugin that has a migration (400 for one that has none). */
const onMigration = (f: (ctx: HandlerCtx, plugin: PageBuilderPlugin) => Reply) =>
  onPlugin((ctx, p) => (p.migration_supported ? f(ctx, p) : err('pagebuilder_migration_not_supported', `The plugin ${p.slug} has no migration.`, 400)));

function upgrade(ctx: HandlerCtx, p: PageBuilderPlugin): Reply {
  const [major, minor, patch] = p.version.split('.').map(Number);
  return savePlugin(ctx, { ...p, version: `${major ?? 1}.${minor ?? 0}.${(patch ?? 0) + 1}`, ...(ctx.params.status === 'active' ? { status: 'active' } : {}) });
}

function runMigration(ctx: HandlerCtx, p: PageBuilderPlugin): Reply {
  if (p.migration_state === 'migrated' && ctx.params.force === false) return err('pagebuilder_already_migrated', `The plugin ${p.slug} is already migrated.`, 409);
  return savePlugin(ctx, { ...p, migration_state: 'migrated' });
}

function rollBackMigration(ctx: HandlerCtx, p: PageBuilderPlugin): Reply {
  if (p.migration_state !== 'migrated') return err('pagebuilder_nothing_to_roll_back', `The plugin ${p.slug} has no migration to roll back.`, 409);
  return savePlugin(ctx, { ...p, migration_state: 'rolled_back' });
}

function saveSettings(ctx: HandlerCtx): Reply {
  try {
    return ok(ctx.store.set('pageBuilderSettings', { ...json(ctx.store.get('pageBuilderSettings')), ...settingsInput(ctx) }));
  } catch (e) {
    return storeRefusal(e);
  }
}

function clearLogs(ctx: HandlerCtx): Reply {
  for (const l of ctx.store.table('pbLogs').values()) ctx.store.remove('pbLogs', l.id);
  return ok({ success: true, deleted: true });
}

/** The page-builder suite's operations, each its own handler. */
export const pagebuilderHandlers = {
  authorize,
  disconnect: (ctx: HandlerCtx): Reply => setConnection(ctx, { connected: false, connected_at: null }),
  switchDomain: (ctx: HandlerCtx): Reply => setConnection(ctx, { site_domain: new URL(ctx.links.home).host }),
  notifications,
  feedback: (): Reply => ok({ success: true, message: 'Thank you for your feedback.' }),
  putTheme,
  activateTheme,
  listPlugins,
  putPlugin,
  activatePlugin: onPlugin((ctx, p) => savePlugin(ctx, { ...p, status: 'active' })),
  deactivatePlugin: onPlugin((ctx, p) => savePlugin(ctx, { ...p, status: 'inactive' })),
  upgradePlugin: onPlugin(upgrade),
  runMigration: onMigration(runMigration),
  rollBackMigration: onMigration(rollBackMigration),
  settings: (ctx: HandlerCtx): Reply => ok(ctx.store.get('pageBuilderSettings')),
  saveSettings,
  dashboardWidgetState: (ctx: HandlerCtx): Reply => ok({ state: ctx.store.get('pageBuilderConnection').dashboard_widget }),
  logs: (ctx: HandlerCtx): Reply => ok(ctx.store.table('pbLogs').values().slice().reverse()),
  clearLogs,
} as const;
