// What the search-optimisation add-on's operations share: the stable figures its analytics are derived from, the
// per-object record (meta, schemas, score) and a settings write.
import type { JsonValue, SeoObject, SeoObjectType } from '../../../../../contracts/model/records.ts';
import type { Stored } from '../../../store/store.ts';
import { ok, type HandlerCtx, type Reply } from '../../context.ts';
import { json, storeRefusal } from '../util.ts';

import { isPlainObject } from '../../../../../contracts/wordpress/plain-object.ts';

/** A stable pseudo-random figure in [0, max) from a key. */
export function figure(key: string, max: number): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
  return h % max;
}

export function objectType(v: unknown): SeoObjectType {
  return v === 'term' || v === 'user' ? v : 'post';
}

export function seoObject(ctx: HandlerCtx, type: SeoObjectType, id: number): SeoObject {
  const found = ctx.store.table('seoObjects').get(`${type}:${id}`);
  return found ? (json(found) as SeoObject) : { objectType: type, objectID: id, meta: {}, schemas: {} };
}

export function putObject(ctx: HandlerCtx, o: SeoObject): Reply | Stored<SeoObject> {
  try {
    return ctx.store.put('seoObjects', o);
  } catch (e) {
    return storeRefusal(e);
  }
}

export function isReply(v: unknown): v is Reply {
  return isPlainObject(v) && typeof v.status === 'number' && 'body' in v;
}

export function settingsPatch(ctx: HandlerCtx, key: string, value: JsonValue): Reply {
  const next = { ...json(ctx.store.get('seoSettings')), [key]: value };
  try {
    return ok({ success: true, settings: ctx.store.set('seoSettings', next) });
  } catch (e) {
    return storeRefusal(e);
  }
}
