// `pagebuilder-one/v1` (001 §4.8): the suite's connection, themes and plugins with their inactive/active status
// (one theme active at a time, as WordPress themes), migrations, settings and logs. The eight plugin slugs are
// omitted by the documents; the fixtures' `pagebuilder-one-addon-a` ... `-h` stand in, and an unknown slug is 404.
import type { PageBuilderConnection, PageBuilderPlugin, JsonObject } from '../../../../contracts/model/records.ts';
import type { Stored } from '../../store/store.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { err, json, nowWall, storeRefusal, str } from './util.ts';

import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';
const PREFIX = '/pagebuilder-one/v1';

function pluginOf(ctx: HandlerCtx): Stored<PageBuilderPlugin> | Reply {
  const slug = ctx.pathParams.slug ?? '';
  const p = ctx.store.table('pbPlugins').get(slug);
  return p ?? err('pagebuilder_plugin_not_found', `The plugin ${slug} is not part of the suite.`, 404);
}

function isReply(v: unknown): v is Reply {
  return isPlainObject(v) && typeof v.status === 'number' && 'body' in v;
}

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

export function pagebuilderHandler(ctx: HandlerCtx): Reply {
  const { op, store } = ctx;
  const path = op.path.slice(PREFIX.length);
  switch (path) {
    case '/connect/authorize': {
      if (ctx.params.clearSession === true) store.set('pageBuilderConnection', { ...json(store.get('pageBuilderConnection')), connected: false, connected_at: null });
      return setConnection(ctx, { connected: true, connected_at: nowWall(ctx) });
    }
    case '/connect/disconnect':
    case '/connect/deactivate':
      return setConnection(ctx, { connected: false, connected_at: null });
    case '/connect/switch-domain':
      return setConnection(ctx, { site_domain: new URL(ctx.links.home).host });
    case '/top-bar/notifications':
      return ok([
        { id: 'welcome', title: 'Welcome to Page Builder One', description: 'Connect your site to get templates and updates.', type: 'info', app: str(ctx.params.app_name) ?? '' },
        { id: `release-${str(ctx.params.app_version) ?? '0'}`, title: 'What is new', description: `Release notes for version ${str(ctx.params.app_version) ?? ''}.`, type: 'update', app: str(ctx.params.app_name) ?? '' },
      ]);
    case '/top-bar/feedback':
      return ok({ success: true, message: 'Thank you for your feedback.' });
    case '/themes': {
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
    case '/themes/{slug}/activate': {
      const slug = ctx.pathParams.slug ?? '';
      if (!store.table('pbThemes').has(slug)) return err('pagebuilder_theme_not_found', `The theme ${slug} is not installed.`, 404);
      return ok(store.activateTheme(slug));
    }
    case '/plugins': {
      if (op.method === 'GET') {
        const search = str(ctx.params.search)?.toLowerCase();
        const statuses = Array.isArray(ctx.params.status) ? ctx.params.status.map(String) : [];
        return ok(
          store.table('pbPlugins').values().filter((p) => (!search || `${p.slug} ${p.name}`.toLowerCase().includes(search)) && (statuses.length === 0 || statuses.includes(p.status))),
        );
      }
      const slug = str(ctx.params.slug) ?? '';
      const existing = store.table('pbPlugins').get(slug);
      const status = ctx.params.status === 'active' ? 'active' : 'inactive';
      if (existing) return savePlugin(ctx, { ...(json(existing) as PageBuilderPlugin), status });
      return savePlugin(ctx, { slug, name: slug, status, version: '1.0.0', migration_supported: false, migration_state: 'none' }, 201);
    }
    case '/settings': {
      if (op.method === 'GET') return ok(store.get('pageBuilderSettings'));
      const patch: JsonObject = {};
      for (const [k, v] of Object.entries(ctx.input)) if (k !== 'i18n_language' && !k.startsWith('_')) patch[k] = json(v) as JsonObject[string];
      try {
        return ok(store.set('pageBuilderSettings', { ...json(store.get('pageBuilderSettings')), ...patch }));
      } catch (e) {
        return storeRefusal(e);
      }
    }
    case '/manage-dashboard-widget/state':
      return ok({ state: store.get('pageBuilderConnection').dashboard_widget });
    case '/logs': {
      if (op.method === 'GET') return ok(store.table('pbLogs').values().slice().reverse());
      for (const l of store.table('pbLogs').values()) store.remove('pbLogs', l.id);
      return ok({ success: true, deleted: true });
    }
    default:
      break;
  }
  const plugin = pluginOf(ctx);
  if (isReply(plugin)) return plugin;
  const p = json(plugin) as PageBuilderPlugin;
  if (path.endsWith('/activate')) return savePlugin(ctx, { ...p, status: 'active' });
  if (path.endsWith('/deactivate')) return savePlugin(ctx, { ...p, status: 'inactive' });
  if (path.endsWith('/upgrade')) {
    const [major, minor, patch] = p.version.split('.').map(Number);
    return savePlugin(ctx, { ...p, version: `${major ?? 1}.${minor ?? 0}.${(patch ?? 0) + 1}`, ...(ctx.params.status === 'active' ? { status: 'active' } : {}) });
  }
  if (!p.migration_supported) return err('pagebuilder_migration_not_supported', `The plugin ${p.slug} has no migration.`, 400);
  if (path.endsWith('/migration/run')) {
    if (p.migration_state === 'migrated' && ctx.params.force === false) return err('pagebuilder_already_migrated', `The plugin ${p.slug} is already migrated.`, 409);
    return savePlugin(ctx, { ...p, migration_state: 'migrated' });
  }
  if (p.migration_state !== 'migrated') return err('pagebuilder_nothing_to_roll_back', `The plugin ${p.slug} has no migration to roll back.`, 409);
  return savePlugin(ctx, { ...p, migration_state: 'rolled_back' });
}
