// The store's whole state as plain data (the state file's layout), and what differs between two such states.

import type { ImportJob, LmsToken, LmsUser, StoreData } from '../../../contracts/model/records.ts';
import type { RegistryView } from './registry.ts';
import { objectKey } from '../../../contracts/model/tables.ts';
import { deepFreeze, type DeepReadonly } from './table.ts';

/**
 * The whole state, records in ID (insertion) order. Frozen and sharing records with the store, so it is cheap, and
 * it cannot change when the store changes later. `baseline` lends the fixture files' `generated` marks.
 */
export function snapshotOf(view: RegistryView, baseline: DeepReadonly<StoreData>): DeepReadonly<StoreData> {
  const t = view.tables;
  const s = view.single;
  const data = {
    version: 1 as const,
    sequences: { ...view.sequences },
    calendar: {
      version: 1 as const,
      ...(baseline.calendar.generated ? { generated: baseline.calendar.generated } : {}),
      settings: s.calendarSettings,
      events: t.event.values(),
      venues: t.venue.values(),
      organizers: t.organizer.values(),
      categories: t.category.values(),
      tags: t.tag.values(),
      importJobs: t.importJobs.values(),
    },
    addons: {
      version: 1 as const,
      ...(baseline.addons.generated ? { generated: baseline.addons.generated } : {}),
      contactForms: t.contactForms.values(),
      feedback: t.feedback.values(),
      seo: { modules: s.seoModules, mode: s.seoMode, settings: s.seoSettings, redirections: t.seoRedirections.values(), objects: t.seoObjects.values(), trackedKeywords: t.trackedKeywords.values() },
      pageBuilder: { themes: t.pbThemes.values(), plugins: t.pbPlugins.values(), settings: s.pageBuilderSettings, logs: t.pbLogs.values(), connection: s.pageBuilderConnection },
      lms: { users: t.lmsUsers.values(), tokens: t.lmsTokens.values() },
      translation: { strings: t.translationStrings.values(), packages: t.stringPackages.values(), jobs: t.translationJobs.values(), settings: s.translationSettings, customXmlConfig: s.customXmlConfig, ams: s.ams },
      sliders: t.sliders.values(),
    },
    users: {
      version: 1 as const,
      ...(baseline.users.generated ? { generated: baseline.users.generated } : {}),
      users: t.users.values(),
    },
  };
  // Only the new containers need freezing; the records inside already are.
  return deepFreeze(data as unknown as StoreData);
}

interface SnapshotDifference {
  /** e.g. `calendar.events`, `addons.seo.modules`, `sequences` */
  path: string;
  key?: string | number;
  change: 'added' | 'removed' | 'changed';
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const RECORD_LISTS: [string, (d: DeepReadonly<StoreData>) => readonly object[], (r: never) => string | number][] = [
  ['calendar.events', (d) => d.calendar.events, (r: { id: number }) => r.id],
  ['calendar.venues', (d) => d.calendar.venues, (r: { id: number }) => r.id],
  ['calendar.organizers', (d) => d.calendar.organizers, (r: { id: number }) => r.id],
  ['calendar.categories', (d) => d.calendar.categories, (r: { id: number }) => r.id],
  ['calendar.tags', (d) => d.calendar.tags, (r: { id: number }) => r.id],
  ['calendar.importJobs', (d) => d.calendar.importJobs, (r: ImportJob) => r.import_id],
  ['addons.contactForms', (d) => d.addons.contactForms, (r: { id: number }) => r.id],
  ['addons.feedback', (d) => d.addons.feedback, (r: { id: number }) => r.id],
  ['addons.seo.redirections', (d) => d.addons.seo.redirections, objectKey],
  ['addons.seo.objects', (d) => d.addons.seo.objects, objectKey],
  ['addons.seo.trackedKeywords', (d) => d.addons.seo.trackedKeywords, (r: { id: number }) => r.id],
  ['addons.pageBuilder.themes', (d) => d.addons.pageBuilder.themes, (r: { slug: string }) => r.slug],
  ['addons.pageBuilder.plugins', (d) => d.addons.pageBuilder.plugins, (r: { slug: string }) => r.slug],
  ['addons.pageBuilder.logs', (d) => d.addons.pageBuilder.logs, (r: { id: number }) => r.id],
  ['addons.lms.users', (d) => d.addons.lms.users, (r: LmsUser) => r.username],
  ['addons.lms.tokens', (d) => d.addons.lms.tokens, (r: LmsToken) => r.token],
  ['addons.translation.strings', (d) => d.addons.translation.strings, (r: { id: number }) => r.id],
  ['addons.translation.packages', (d) => d.addons.translation.packages, (r: { id: number }) => r.id],
  ['addons.translation.jobs', (d) => d.addons.translation.jobs, (r: { id: number }) => r.id],
  ['addons.sliders', (d) => d.addons.sliders, (r: { id: number }) => r.id],
  ['users.users', (d) => d.users.users, (r: { id: number }) => r.id],
];

const SINGLE_VALUES: [string, (d: DeepReadonly<StoreData>) => unknown][] = [
  ['sequences', (d) => d.sequences],
  ['calendar.settings', (d) => d.calendar.settings],
  ['addons.seo.modules', (d) => d.addons.seo.modules],
  ['addons.seo.mode', (d) => d.addons.seo.mode],
  ['addons.seo.settings', (d) => d.addons.seo.settings],
  ['addons.pageBuilder.settings', (d) => d.addons.pageBuilder.settings],
  ['addons.pageBuilder.connection', (d) => d.addons.pageBuilder.connection],
  ['addons.translation.settings', (d) => d.addons.translation.settings],
  ['addons.translation.customXmlConfig', (d) => d.addons.translation.customXmlConfig],
  ['addons.translation.ams', (d) => d.addons.translation.ams],
];

/**
 * What differs between two snapshots, record by record. Unchanged records are usually the same
 * frozen object in both, so this is fast even for large stores.
 */
export function diffSnapshots(before: DeepReadonly<StoreData>, after: DeepReadonly<StoreData>, options: { ignoreSequences?: boolean } = {}): SnapshotDifference[] {
  const out: SnapshotDifference[] = [];
  for (const [path, pick, keyOf] of RECORD_LISTS) {
    const key = keyOf as (r: object) => string | number;
    const a = new Map(pick(before).map((r) => [key(r), r]));
    const b = new Map(pick(after).map((r) => [key(r), r]));
    for (const [k, r] of a) {
      const other = b.get(k);
      if (other === undefined) out.push({ path, key: k, change: 'removed' });
      else if (!deepEqual(r, other)) out.push({ path, key: k, change: 'changed' });
    }
    for (const k of b.keys()) if (!a.has(k)) out.push({ path, key: k, change: 'added' });
  }
  for (const [path, pick] of SINGLE_VALUES) {
    if (path === 'sequences' && options.ignoreSequences) continue;
    if (!deepEqual(pick(before), pick(after))) out.push({ path, change: 'changed' });
  }
  return out;
}
