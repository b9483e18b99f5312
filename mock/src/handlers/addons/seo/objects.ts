// Search-optimisation add-on (001 §4.7), the per-object operations: a post's, term's or user's meta, schemas, score
// and redirection, bulk meta, schema templates, and the figures derived from a URL or keyword (video data, search
// intent), which repeat for the same input.
import type { JsonObject, JsonValue, RedirectionType } from '../../../../../contracts/model/records.ts';
import { ok, type HandlerCtx, type Reply } from '../../context.ts';
import { arg, err, int, json, nowWall, storeRefusal, str } from '../util.ts';
import { figure, isReply, objectType, putObject, seoObject } from './shared.ts';

import { isPlainObject } from '../../../../../contracts/wordpress/plain-object.ts';

function updateSeoScore(ctx: HandlerCtx): Reply {
  const p = ctx.params;
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

function featuredImageId(ctx: HandlerCtx): Reply {
  const { store } = ctx;
  const id = int(ctx.params.postId) ?? 0;
  const post = store.events.get(id) ?? store.venues.get(id) ?? store.organizers.get(id);
  if (!post) return err('seo_object_not_found', `No post with ID ${id}.`, 404);
  return ok({ postId: id, featImageId: post.featured_media });
}

function updateRedirection(ctx: HandlerCtx): Reply {
  const { store, params: p } = ctx;
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

/** updateMeta and updateSchemas: the sent object merged into the object's `meta` or `schemas`. */
const mergeInto = (field: 'meta' | 'schemas') => (ctx: HandlerCtx): Reply => {
  const p = ctx.params;
  const value = p[field];
  const o = seoObject(ctx, objectType(p.objectType), int(p.objectID) ?? 0);
  o[field] = { ...o[field], ...(isPlainObject(value) ? (json(value) as JsonObject) : { value: json(value) as JsonValue }) };
  const r = putObject(ctx, o);
  return isReply(r) ? r : ok({ success: true, ...r });
};

function updateMetaBulk(ctx: HandlerCtx): Reply {
  const p = ctx.params;
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

function videoData(ctx: HandlerCtx): Reply {
  const url = String(arg(ctx, 'url') ?? '');
  return ok({ objectID: ctx.params.objectID, url, name: `Video ${figure(url, 1000)}`, duration: `PT${1 + figure(url, 20)}M${figure(`${url}s`, 60)}S`, thumbnailUrl: '', uploadDate: nowWall(ctx).slice(0, 10) });
}

const INTENTS = ['informational', 'navigational', 'commercial', 'transactional'];

/** The SEO add-on's per-object operations, each its own handler. */
export const seoObjectHandlers = {
  updateSeoScore,
  featuredImageId,
  updateRedirection,
  updateMeta: mergeInto('meta'),
  updateSchemas: mergeInto('schemas'),
  updateMetaBulk,
  saveTemplate: (ctx: HandlerCtx): Reply => ok({ success: true, id: int(ctx.params.postId) ?? figure(JSON.stringify(ctx.params.schema ?? {}), 100000), schema: ctx.params.schema }),
  videoData,
  searchIntent: (ctx: HandlerCtx): Reply => ok({ keyword: ctx.params.keyword, intent: INTENTS[figure(String(ctx.params.keyword), INTENTS.length)] }),
} as const;
