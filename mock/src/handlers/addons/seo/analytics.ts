// Search-optimisation add-on (001 §4.7), the analytics operations (`seo/v1/an`): tracked keywords (state), and
// figures about pages, posts and page speed derived deterministically from IDs and keywords, so answers repeat.
import type { TrackedKeyword } from '../../../../../contracts/model/records.ts';
import { ok, type HandlerCtx, type Reply } from '../../context.ts';
import { pageOf } from '../../../wire/pagination.ts';
import { err, int, nowWall, storeRefusal, str } from '../util.ts';
import { figure } from './shared.ts';

import { isPlainObject } from '../../../../../contracts/wordpress/plain-object.ts';

function keywordPages(ctx: HandlerCtx): Reply {
  const p = ctx.params;
  const search = (str(p.search) ?? str(p.query) ?? '').toLowerCase();
  const rows = ctx.store.events
    .values()
    .filter((e) => e.lang === ctx.lang && e.status === 'publish' && (search === '' || e.title.toLowerCase().includes(search)))
    .map((e) => ({ objectID: e.id, title: e.title, keyword: e.title.toLowerCase().split(/\s+/).slice(0, 2).join(' '), position: 1 + figure(`pos${e.id}`, 50), clicks: figure(`clk${e.id}`, 500), impressions: figure(`imp${e.id}`, 9000) }));
  const perPage = int(p.per_page) ?? 10;
  const page = int(p.page) ?? 1;
  return ok({ rows: pageOf(rows, page, perPage).items, total: rows.length, page, per_page: perPage });
}

function trackedKeywordRows(ctx: HandlerCtx): Reply {
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

const trackedKeywords = (ctx: HandlerCtx) => ctx.store.table('trackedKeywords').values().filter((k) => k.lang === ctx.lang);

const publishedPosts = (ctx: HandlerCtx) => ctx.store.events.values().filter((e) => e.lang === ctx.lang && e.status === 'publish');

function postsOverview(ctx: HandlerCtx): Reply {
  const posts = publishedPosts(ctx);
  return ok({ total: posts.length, indexed: posts.filter((e) => figure(`idx${e.id}`, 10) > 1).length, clicks: posts.reduce((s, e) => s + figure(`clk${e.id}`, 500), 0) });
}

function postsRows(ctx: HandlerCtx): Reply {
  return ok(publishedPosts(ctx).slice(0, 25).map((e) => ({ objectID: e.id, title: e.title, clicks: figure(`clk${e.id}`, 500), impressions: figure(`imp${e.id}`, 9000), score: ctx.store.table('seoObjects').get(`post:${e.id}`)?.score ?? null })));
}

function trackedKeywordSummary(ctx: HandlerCtx): Reply {
  const kws = trackedKeywords(ctx);
  return ok({ total: kws.length, top3: kws.filter((k) => (k.position ?? 99) <= 3).length, top10: kws.filter((k) => (k.position ?? 99) <= 10).length, clicks: kws.reduce((s, k) => s + (k.clicks ?? 0), 0) });
}

function inspectionStats(ctx: HandlerCtx): Reply {
  return ok({ indexed: ctx.store.events.values().filter((e) => e.status === 'publish').length, not_indexed: 0, errors: 0, checked: nowWall(ctx) });
}

function addTrackKeyword(ctx: HandlerCtx): Reply {
  const { store } = ctx;
  const keyword = (str(ctx.params.keyword) ?? str(ctx.input.keyword) ?? '').trim();
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

function autoAddFocusKeywords(ctx: HandlerCtx): Reply {
  const { store } = ctx;
  const data = isPlainObject(ctx.params.data) ? ctx.params.data : {};
  const words = Object.values(data).flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []));
  let added = 0;
  for (const keyword of words.map((w) => w.trim()).filter((w) => w !== '')) {
    if (store.table('trackedKeywords').find((k) => k.lang === ctx.lang && k.keyword === keyword)) continue;
    store.insert('trackedKeywords', (id) => ({ id, keyword, added: nowWall(ctx), lang: ctx.lang }) as TrackedKeyword);
    added++;
  }
  return ok({ success: true, added });
}

function removeTrackKeyword(ctx: HandlerCtx): Reply {
  const keyword = str(ctx.input.keyword);
  const id = int(ctx.input.id);
  const found = ctx.store.table('trackedKeywords').find((k) => (id !== undefined && k.id === id) || (keyword !== undefined && k.keyword === keyword && k.lang === ctx.lang));
  if (!found) return err('seo_keyword_not_found', 'That keyword is not tracked.', 404);
  ctx.store.remove('trackedKeywords', found.id);
  return ok({ success: true, removed: found.id });
}

function deleteTrackedKeywords(ctx: HandlerCtx): Reply {
  const all = ctx.store.table('trackedKeywords').values();
  for (const k of all) ctx.store.remove('trackedKeywords', k.id);
  return ok({ success: true, deleted: all.length });
}

const pagespeed = (device: string) => (ctx: HandlerCtx): Reply => {
  const id = int(ctx.params.objectID) || int(ctx.params.id) || 0;
  if (id !== 0 && !ctx.store.events.has(id) && !ctx.store.venues.has(id) && !ctx.store.organizers.has(id)) {
    return err('seo_object_not_found', `No post with ID ${id}.`, 404);
  }
  const key = `${device}:${id}`;
  return ok({ objectID: id, device, score: 40 + figure(key, 60), lcp: (1 + figure(`${key}lcp`, 40) / 10).toFixed(1), cls: (figure(`${key}cls`, 25) / 100).toFixed(2), fetched: nowWall(ctx), cached: ctx.params.force !== true });
};

function pageSeoScore(ctx: HandlerCtx): Reply {
  const id = int(ctx.params.objectID) || int(ctx.params.id) || 0;
  return ok({ objectID: id, score: ctx.store.table('seoObjects').get(`post:${id}`)?.score ?? 50 + figure(`score${id}`, 50) });
}

/** The SEO add-on's analytics operations, each its own handler. */
export const seoAnalyticsHandlers = {
  keywordPages,
  trackedKeywordRows,
  trackedKeywords: (ctx: HandlerCtx): Reply => ok(trackedKeywords(ctx)),
  postsOverview,
  postsRows,
  trackedKeywordSummary,
  inspectionStats,
  addTrackKeyword,
  autoAddFocusKeywords,
  removeTrackKeyword,
  deleteTrackedKeywords,
  desktopPagespeed: pagespeed('desktop'),
  mobilePagespeed: pagespeed('mobile'),
  pageSeoScore,
} as const;
