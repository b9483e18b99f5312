// Search-optimisation add-on (001 §4.7). State where the documents make it obvious: module on/off, the settings
// mode, settings, redirections per object, per-object meta, schemas and scores, tracked keywords. Analytics
// figures are derived deterministically from IDs and keywords, so answers repeat.
import type { JsonObject, JsonValue, RedirectionType, SeoObject, SeoObjectType, TrackedKeyword } from '../../../../contracts/model/records.ts';
import type { Stored } from '../../store/store.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { arg, err, int, json, nowWall, storeRefusal, str } from './util.ts';
import { pageOf } from '../../wire/pagination.ts';

import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';
const PREFIX = '/seo/v1';

/** A stable pseudo-random figure in [0, max) from a key. */
function figure(key: string, max: number): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
  return h % max;
}

function objectType(v: unknown): SeoObjectType {
  return v === 'term' || v === 'user' ? v : 'post';
}

function seoObject(ctx: HandlerCtx, type: SeoObjectType, id: number): SeoObject {
  const found = ctx.store.table('seoObjects').get(`${type}:${id}`);
  return found ? (json(found) as SeoObject) : { objectType: type, objectID: id, meta: {}, schemas: {} };
}

function putObject(ctx: HandlerCtx, o: SeoObject): Reply | Stored<SeoObject> {
  try {
    return ctx.store.put('seoObjects', o);
  } catch (e) {
    return storeRefusal(e);
  }
}

function isReply(v: unknown): v is Reply {
  return isPlainObject(v) && typeof v.status === 'number' && 'body' in v;
}

function settingsPatch(ctx: HandlerCtx, key: string, value: JsonValue): Reply {
  const next = { ...json(ctx.store.get('seoSettings')), [key]: value };
  try {
    return ok({ success: true, settings: ctx.store.set('seoSettings', next) });
  } catch (e) {
    return storeRefusal(e);
  }
}

function keywordRows(ctx: HandlerCtx): Reply {
  const p = ctx.params;
  const search = (str(p.search) ?? '').toLowerCase();
  let rows = ctx.store
    .table('trackedKeywords')
    .values()
    .filter((k) => k.lang === ctx.lang && (search === '' || k.keyword.toLowerCase().includes(search)));
  if (p.orderby === 'keyword') rows = rows.slice().sort((a, b) => a.keyword.localeCompare(b.keyword));
  const perPage = int(p.per_page) ?? 10;
  const page = int(p.page) ?? 1;
  return ok({ rows: pageOf(rows, page, perPage).items, total: rows.length, page, per_page: perPage });
}

function pagespeed(ctx: HandlerCtx, device: string): Reply {
  const id = int(ctx.params.objectID) || int(ctx.params.id) || 0;
  if (id !== 0 && !ctx.store.events.has(id) && !ctx.store.venues.has(id) && !ctx.store.organizers.has(id)) {
    return err('seo_object_not_found', `No post with ID ${id}.`, 404);
  }
  const key = `${device}:${id}`;
  return ok({ objectID: id, device, score: 40 + figure(key, 60), lcp: (1 + figure(`${key}lcp`, 40) / 10).toFixed(1), cls: (figure(`${key}cls`, 25) / 100).toFixed(2), fetched: nowWall(ctx), cached: ctx.params.force !== true });
}

export function seoHandler(ctx: HandlerCtx): Reply {
  const { op, store, params: p } = ctx;
  const path = op.path.slice(PREFIX.length);
  switch (path) {
    case '/saveModule': {
      const modules = { ...json(store.get('seoModules')), [String(p.module)]: p.state === 'on' ? ('on' as const) : ('off' as const) };
      store.set('seoModules', modules);
      return ok({ success: true, module: p.module, state: modules[String(p.module)], modules });
    }
    case '/toolsAction':
      return ok({ success: true, action: p.action, message: `The action ${String(p.action)} has been run.` });
    case '/updateMode':
      store.set('seoMode', p.mode as 'easy' | 'advanced' | 'custom');
      return ok({ success: true, mode: store.get('seoMode') });
    case '/dashboardWidget': {
      const modules = store.get('seoModules');
      return ok({
        mode: store.get('seoMode'),
        active_modules: Object.values(modules).filter((s) => s === 'on').length,
        redirections: store.table('seoRedirections').size,
        tracked_keywords: store.table('trackedKeywords').size,
        average_score: Math.round(store.table('seoObjects').values().reduce((s, o) => s + (o.score ?? 0), 0) / Math.max(1, store.table('seoObjects').values().filter((o) => o.score !== undefined).length)),
      });
    }
    case '/updateSeoScore': {
      const scores = isPlainObject(p.postScores) ? p.postScores : {};
      const saved: Record<string, number> = {};
      for (const [id, score] of Object.entries(scores)) {
        const n = int(id);
        const s = int(score);
        if (n === undefined || s === undefined) continue;
        const r = putObject(ctx, { ...seoObject(ctx, 'post', n), score: Math.max(0, Math.min(100, s)) });
        if (isReply(r)) return r;
        saved[String(n)] = r.score ?? 0;
      }
      return ok({ success: true, scores: saved });
    }
    case '/updateSettings': {
      const patch: JsonObject = {};
      for (const [k, v] of Object.entries(ctx.input)) if (k !== 'i18n_language' && !k.startsWith('_')) patch[k] = json(v) as JsonValue;
      try {
        return ok({ success: true, settings: store.set('seoSettings', { ...json(store.get('seoSettings')), ...patch }) });
      } catch (e) {
        return storeRefusal(e);
      }
    }
    case '/searchPage': {
      const current = (store.get('seoSettings').search_page ?? {}) as JsonObject;
      if (op.method === 'GET') return ok(current);
      if (op.method === 'DELETE') return settingsPatch(ctx, 'search_page', {});
      const patch: JsonObject = {};
      for (const [k, v] of Object.entries(ctx.input)) if (k !== 'i18n_language' && !k.startsWith('_')) patch[k] = json(v) as JsonValue;
      return settingsPatch(ctx, 'search_page', { ...json(current), ...patch });
    }
    case '/disconnectSite':
      return ok({ success: true, connected: false });
    case '/getFeaturedImageId': {
      const id = int(p.postId) ?? 0;
      const post = store.events.get(id) ?? store.venues.get(id) ?? store.organizers.get(id);
      if (!post) return err('seo_object_not_found', `No post with ID ${id}.`, 404);
      return ok({ postId: id, featImageId: post.featured_media });
    }
    case '/updateRedirection': {
      const type = objectType(p.objectType);
      const id = int(p.objectID) ?? 0;
      const key = `${type}:${id}`;
      if (p.hasRedirect !== true) {
        store.remove('seoRedirections', key);
        return ok({ success: true, objectID: id, objectType: type, hasRedirect: false });
      }
      const existing = store.table('seoRedirections').get(key);
      const redirectionID = str(p.redirectionID) ?? existing?.redirectionID ?? String(store.table('seoRedirections').size + 100);
      try {
        const saved = store.put('seoRedirections', {
          objectID: id, objectType: type, hasRedirect: true, redirectionID,
          redirectionUrl: str(p.redirectionUrl) ?? existing?.redirectionUrl ?? '',
          redirectionType: String(p.redirectionType ?? '301') as RedirectionType,
        });
        return ok({ success: true, ...saved });
      } catch (e) {
        return storeRefusal(e);
      }
    }
    case '/updateMeta':
    case '/updateSchemas': {
      const type = objectType(p.objectType);
      const id = int(p.objectID) ?? 0;
      const field = path === '/updateMeta' ? 'meta' : 'schemas';
      const value = p[field];
      const o = seoObject(ctx, type, id);
      o[field] = { ...o[field], ...(isPlainObject(value) ? (json(value) as JsonObject) : { value: json(value) as JsonValue }) };
      const r = putObject(ctx, o);
      return isReply(r) ? r : ok({ success: true, ...r });
    }
    case '/updateMetaBulk': {
      const rows = Array.isArray(p.rows) ? p.rows : isPlainObject(p.rows) ? Object.values(p.rows) : [];
      let updated = 0;
      for (const row of rows) {
        if (!isPlainObject(row)) continue;
        const id = int(row.objectID ?? row.id);
        if (id === undefined) continue;
        const o = seoObject(ctx, objectType(row.objectType), id);
        const meta = isPlainObject(row.meta) ? row.meta : row;
        o.meta = { ...o.meta, ...(json(meta) as JsonObject) };
        const r = putObject(ctx, o);
        if (isReply(r)) return r;
        updated++;
      }
      return ok({ success: true, updated });
    }
    case '/saveTemplate':
      return ok({ success: true, id: int(p.postId) ?? figure(JSON.stringify(p.schema ?? {}), 100000), schema: p.schema });
    case '/getVideoData': {
      const url = String(arg(ctx, 'url') ?? '');
      return ok({ objectID: p.objectID, url, name: `Video ${figure(url, 1000)}`, duration: `PT${1 + figure(url, 20)}M${figure(`${url}s`, 60)}S`, thumbnailUrl: '', uploadDate: nowWall(ctx).slice(0, 10) });
    }
    case '/pingSettings':
      return ok({ success: true, plan: p.plan, username: p.username });
    case '/searchIntent': {
      const intents = ['informational', 'navigational', 'commercial', 'transactional'];
      return ok({ keyword: p.keyword, intent: intents[figure(String(p.keyword), intents.length)] });
    }
    case '/importCSV':
      return ok({ success: true, status: 'queued', message: 'The CSV import has been scheduled.' });
    case '/cancelCsvImport':
      return ok({ success: true, status: 'cancelled' });
    case '/setupWizard/getStepData': {
      const wizard = (store.get('seoSettings').wizard ?? {}) as JsonObject;
      return ok({ step: p.step, data: (wizard[String(p.step)] ?? {}) as JsonValue, mode: store.get('seoMode') });
    }
    case '/setupWizard/updateStepData': {
      const wizard = json((store.get('seoSettings').wizard ?? {}) as JsonObject);
      wizard[String(p.step)] = json(p.value) as JsonValue;
      wizard.step = String(p.step);
      return settingsPatch(ctx, 'wizard', wizard);
    }
    case '/setupWizard/updateTrackingOptin': {
      const wizard = json((store.get('seoSettings').wizard ?? {}) as JsonObject);
      const v = String(p.enable_tracking).toLowerCase();
      wizard.tracking_optin = v === 'on' || v === 'true' || v === '1' || v === 'yes';
      return settingsPatch(ctx, 'wizard', wizard);
    }
    case '/an/getKeywordPages': {
      const search = (str(p.search) ?? str(p.query) ?? '').toLowerCase();
      const rows = store.events
        .values()
        .filter((e) => e.lang === ctx.lang && e.status === 'publish' && (search === '' || e.title.toLowerCase().includes(search)))
        .map((e) => ({ objectID: e.id, title: e.title, keyword: e.title.toLowerCase().split(/\s+/).slice(0, 2).join(' '), position: 1 + figure(`pos${e.id}`, 50), clicks: figure(`clk${e.id}`, 500), impressions: figure(`imp${e.id}`, 9000) }));
      const perPage = int(p.per_page) ?? 10;
      const page = int(p.page) ?? 1;
      return ok({ rows: pageOf(rows, page, perPage).items, total: rows.length, page, per_page: perPage });
    }
    case '/an/getTrackedKeywordsRows':
      return keywordRows(ctx);
    case '/an/getTrackedKeywords':
      return ok(store.table('trackedKeywords').values().filter((k) => k.lang === ctx.lang));
    case '/an/postsOverview':
    case '/an/postsRows': {
      const posts = store.events.values().filter((e) => e.lang === ctx.lang && e.status === 'publish');
      if (path === '/an/postsOverview') return ok({ total: posts.length, indexed: posts.filter((e) => figure(`idx${e.id}`, 10) > 1).length, clicks: posts.reduce((s, e) => s + figure(`clk${e.id}`, 500), 0) });
      return ok(posts.slice(0, 25).map((e) => ({ objectID: e.id, title: e.title, clicks: figure(`clk${e.id}`, 500), impressions: figure(`imp${e.id}`, 9000), score: store.table('seoObjects').get(`post:${e.id}`)?.score ?? null })));
    }
    case '/an/getTrackedKeywordSummary':
    case '/an/trackedKeywordsOverview': {
      const kws = store.table('trackedKeywords').values().filter((k) => k.lang === ctx.lang);
      return ok({ total: kws.length, top3: kws.filter((k) => (k.position ?? 99) <= 3).length, top10: kws.filter((k) => (k.position ?? 99) <= 10).length, clicks: kws.reduce((s, k) => s + (k.clicks ?? 0), 0) });
    }
    case '/an/inspectionStats':
      return ok({ indexed: store.events.values().filter((e) => e.status === 'publish').length, not_indexed: 0, errors: 0, checked: nowWall(ctx) });
    case '/an/addTrackKeyword': {
      const keyword = (str(p.keyword) ?? str(ctx.input.keyword) ?? '').trim();
      if (keyword === '') return err('seo_keyword_missing', 'Send the keyword to track.', 400);
      const existing = store.table('trackedKeywords').find((k) => k.lang === ctx.lang && k.keyword === keyword);
      if (existing) return ok({ success: true, keyword: existing });
      try {
        const saved = store.insert('trackedKeywords', (id) => ({ id, keyword, added: nowWall(ctx), lang: ctx.lang }) as TrackedKeyword);
        return ok({ success: true, keyword: saved });
      } catch (e) {
        return storeRefusal(e);
      }
    }
    case '/an/autoAddFocusKeywords': {
      const data = isPlainObject(p.data) ? p.data : {};
      const words = Object.values(data).flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []));
      let added = 0;
      for (const keyword of words.map((w) => w.trim()).filter((w) => w !== '')) {
        if (store.table('trackedKeywords').find((k) => k.lang === ctx.lang && k.keyword === keyword)) continue;
        store.insert('trackedKeywords', (id) => ({ id, keyword, added: nowWall(ctx), lang: ctx.lang }) as TrackedKeyword);
        added++;
      }
      return ok({ success: true, added });
    }
    case '/an/removeTrackKeyword': {
      const keyword = str(ctx.input.keyword);
      const id = int(ctx.input.id);
      const found = store.table('trackedKeywords').find((k) => (id !== undefined && k.id === id) || (keyword !== undefined && k.keyword === keyword && k.lang === ctx.lang));
      if (!found) return err('seo_keyword_not_found', 'That keyword is not tracked.', 404);
      store.remove('trackedKeywords', found.id);
      return ok({ success: true, removed: found.id });
    }
    case '/an/deleteTrackedKeywords': {
      const all = store.table('trackedKeywords').values();
      for (const k of all) store.remove('trackedKeywords', k.id);
      return ok({ success: true, deleted: all.length });
    }
    case '/an/getDesktopPagespeed':
      return pagespeed(ctx, 'desktop');
    case '/an/getMobilePagespeed':
      return pagespeed(ctx, 'mobile');
    case '/an/getPageSEOScore': {
      const id = int(p.objectID) || int(p.id) || 0;
      return ok({ objectID: id, score: store.table('seoObjects').get(`post:${id}`)?.score ?? 50 + figure(`score${id}`, 50) });
    }
    default:
      return err('rest_no_route', 'No route was found matching the URL and request method.', 404);
  }
}
