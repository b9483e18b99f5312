// Translation add-on (001 §4.3), `i18n/st/v1`: the string-settings flags, and the string and package lists,
// filtered, sorted and paged by limit/offset. Answer shapes are the mock's (the documents show none).
import type { StringPackage, TranslationSettings, TranslationString } from '../../../../../contracts/model/records.ts';
import { STRING_KINDS, STRING_SOURCES } from '../../../../../contracts/model/records.ts';
import type { Stored } from '../../../store/store.ts';
import { ok, type HandlerCtx, type Reply } from '../../context.ts';
import { int, json, storeRefusal } from '../util.ts';
import { windowOf } from '../../../../../contracts/wordpress/list-window.ts';

function listParam(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v !== '') return v.split(',').map((s) => s.trim());
  return [];
}

function stringMatches(s: Stored<TranslationString>, p: Record<string, unknown>): boolean {
  if (typeof p.kind === 'number' && s.kind !== p.kind) return false;
  if (typeof p.source === 'number' && s.source !== p.source) return false;
  if (typeof p.type === 'string' && p.type !== '' && s.type !== p.type.toUpperCase()) return false;
  if (typeof p.domain === 'string' && p.domain !== '' && s.domain !== p.domain) return false;
  if (typeof p.translationPriority === 'string' && p.translationPriority !== '' && s.priority !== p.translationPriority) return false;
  if (typeof p.title === 'string' && p.title !== '' && !`${s.name} ${s.value}`.toLowerCase().includes(p.title.toLowerCase())) return false;
  const statuses = listParam(p.translationStatuses);
  if (statuses.length && !statuses.includes(s.translations.uk?.status ?? 'not_translated')) return false;
  return true;
}

function sorted<T extends { id: number }>(items: T[], sorting: unknown, key: (t: T) => string): T[] {
  const s = typeof sorting === 'string' ? sorting.toLowerCase() : '';
  const desc = s.endsWith('desc');
  if (s === '') return items;
  return items.sort((a, b) => (desc ? -1 : 1) * (key(a).localeCompare(key(b)) || a.id - b.id));
}

function page<T>(items: T[], p: Record<string, unknown>): T[] {
  const limit = Math.max(0, int(p.limit) ?? 10);
  const offset = Math.max(0, int(p.offset) ?? 0);
  return windowOf(items, offset, limit);
}

function strings(ctx: HandlerCtx): Stored<TranslationString>[] {
  const found = ctx.store.table('translationStrings').values().filter((s) => stringMatches(s, ctx.params));
  return sorted(found, ctx.params.sorting, (s) => s.value);
}

function packages(ctx: HandlerCtx): Stored<StringPackage>[] {
  const p = ctx.params;
  const statuses = listParam(p.translationStatuses);
  const found = ctx.store.table('stringPackages').values().filter((k) => {
    if (typeof p.type === 'string' && p.type !== '' && k.kind !== p.type) return false;
    if (typeof p.title === 'string' && p.title !== '' && !k.title.toLowerCase().includes(p.title.toLowerCase())) return false;
    if (typeof p.sourceLanguageCode === 'string' && p.sourceLanguageCode !== '' && k.sourceLanguageCode !== p.sourceLanguageCode) return false;
    if (statuses.length && !statuses.includes(k.translationStatuses.uk ?? 'not_translated')) return false;
    return true;
  });
  return sorted(found, p.sorting, (k) => k.title);
}

function saveSettings(ctx: HandlerCtx): Reply {
  const next = json(ctx.store.get('translationSettings')) as TranslationSettings;
  for (const k of Object.keys(next) as (keyof TranslationSettings)[]) {
    const v = int(ctx.params[k]);
    if (v !== undefined) next[k] = v;
  }
  try {
    return ok(ctx.store.set('translationSettings', next));
  } catch (e) {
    return storeRefusal(e);
  }
}

function filters(ctx: HandlerCtx): Reply {
  const all = ctx.store.table('translationStrings').values();
  return ok({
    kinds: Object.entries(STRING_KINDS).map(([name, value]) => ({ value, name })),
    sources: Object.entries(STRING_SOURCES).map(([name, value]) => ({ value, name })),
    domains: [...new Set(all.map((s) => s.domain))].sort(),
    types: ['LINE', 'AREA', 'VISUAL'],
    translationPriorities: ['optional', 'low', 'medium', 'high'],
    languages: [{ code: 'en', name: 'English' }, { code: 'uk', name: 'Українська' }],
  });
}

/** The string-translation operations, each its own handler. */
export const stringHandlers = {
  settings: (ctx: HandlerCtx): Reply => ok(ctx.store.get('translationSettings')),
  saveSettings,
  count: (ctx: HandlerCtx): Reply => ok({ count: strings(ctx).length }),
  list: (ctx: HandlerCtx): Reply => ok(page(strings(ctx), ctx.params)),
  filters,
  packages: (ctx: HandlerCtx): Reply => ok(page(packages(ctx), ctx.params)),
  processQueue: (): Reply => ok({ processed: 0, remaining: 0 }),
} as const;
