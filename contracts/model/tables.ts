// The record tables as facts of the model: which records each table holds, how each is keyed, its schema
// definition and ID sequence, and where its records sit in a fixture set or a state file. The cross-record rules
// (world.ts, addon-rules.ts) and the mock's store (its registry, transactions and journal) read them from here, so
// a table's key is one fact wherever a rule or a write asks for it.

import type { RecordDef } from './check.ts';
import type {
  CategoryRecord, ContactForm, EventRecord, FeedbackSubmission, ImportJob, LmsToken, LmsUser, OrganizerRecord, PageBuilderLog,
  PageBuilderPlugin, PageBuilderTheme, PostType, SeoObject, SeoRedirection, Sequences, Slider, StringPackage, TagRecord,
  TermType, TrackedKeyword, TranslationJob, TranslationString, UserRecord, VenueRecord, FixtureSet,
} from './records.ts';

/** A value that cannot be changed at any depth: what the store holds (its records are deep-frozen) and what rules read. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

export type Stored<T> = DeepReadonly<T>;

/** Collections written through `put`/`remove` (the post and term collections have their own methods). */
export interface RecordTables {
  importJobs: ImportJob;
  contactForms: ContactForm;
  feedback: FeedbackSubmission;
  seoRedirections: SeoRedirection;
  seoObjects: SeoObject;
  trackedKeywords: TrackedKeyword;
  pbThemes: PageBuilderTheme;
  pbPlugins: PageBuilderPlugin;
  pbLogs: PageBuilderLog;
  lmsUsers: LmsUser;
  lmsTokens: LmsToken;
  translationStrings: TranslationString;
  stringPackages: StringPackage;
  translationJobs: TranslationJob;
  sliders: Slider;
  users: UserRecord;
}
export type RecordTableName = keyof RecordTables;

/** How each record table is keyed. seoRedirections and seoObjects use `${objectType}:${objectID}`. */
interface RecordKeys {
  importJobs: string;
  contactForms: number;
  feedback: number;
  seoRedirections: string;
  seoObjects: string;
  trackedKeywords: number;
  pbThemes: string;
  pbPlugins: string;
  pbLogs: number;
  lmsUsers: string;
  lmsTokens: string;
  translationStrings: number;
  stringPackages: number;
  translationJobs: number;
  sliders: number;
  users: number;
}

/** The calendar's posts and terms, keyed by ID. */
interface CalendarTables {
  event: EventRecord;
  venue: VenueRecord;
  organizer: OrganizerRecord;
  category: CategoryRecord;
  tag: TagRecord;
}

export type AllTables = CalendarTables & RecordTables;
export type TableName = keyof AllTables;
type TableKeys = RecordKeys & { [N in keyof CalendarTables]: number };
export type KeyOf<N extends TableName> = TableKeys[N];

export const objectKey = (o: { objectType: string; objectID: number }) => `${o.objectType}:${o.objectID}`;

interface TableSpec {
  /** Name of the table's list in messages and in its Table. */
  list: string;
  def: RecordDef;
  /** Typed per table where it is written; call it through keyOf(). */
  key: (r: never) => string | number;
  /** The sequence new records of this table take their IDs from. */
  seq?: keyof Sequences;
}

const byId = (r: { id: number }) => r.id;

/** Every table: its schema definition, key and sequence. */
export const TABLES: Record<TableName, TableSpec> = {
  event: { list: 'events', def: 'event', key: byId, seq: 'post' },
  venue: { list: 'venues', def: 'venue', key: byId, seq: 'post' },
  organizer: { list: 'organizers', def: 'organizer', key: byId, seq: 'post' },
  category: { list: 'categories', def: 'category', key: byId, seq: 'term' },
  tag: { list: 'tags', def: 'tag', key: byId, seq: 'term' },
  importJobs: { list: 'importJobs', def: 'importJob', key: (r: ImportJob) => r.import_id },
  contactForms: { list: 'contactForms', def: 'contactForm', key: byId, seq: 'post' },
  feedback: { list: 'feedback', def: 'feedback', key: byId, seq: 'feedback' },
  seoRedirections: { list: 'seoRedirections', def: 'seoRedirection', key: objectKey },
  seoObjects: { list: 'seoObjects', def: 'seoObject', key: objectKey },
  trackedKeywords: { list: 'trackedKeywords', def: 'trackedKeyword', key: byId, seq: 'keyword' },
  pbThemes: { list: 'pbThemes', def: 'pbTheme', key: (r: { slug: string }) => r.slug },
  pbPlugins: { list: 'pbPlugins', def: 'pbPlugin', key: (r: { slug: string }) => r.slug },
  pbLogs: { list: 'pbLogs', def: 'pbLog', key: byId, seq: 'log' },
  lmsUsers: { list: 'lmsUsers', def: 'lmsUser', key: (r: { username: string }) => r.username },
  lmsTokens: { list: 'lmsTokens', def: 'lmsToken', key: (r: { token: string }) => r.token },
  translationStrings: { list: 'translationStrings', def: 'translationString', key: byId, seq: 'translationString' },
  stringPackages: { list: 'stringPackages', def: 'stringPackage', key: byId, seq: 'stringPackage' },
  translationJobs: { list: 'translationJobs', def: 'translationJob', key: byId, seq: 'translationJob' },
  sliders: { list: 'sliders', def: 'slider', key: byId, seq: 'slider' },
  users: { list: 'users', def: 'user', key: byId, seq: 'user' },
};

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** The key of a record of table `name`. */
export function keyOf<N extends TableName>(name: N, record: AllTables[N] | Stored<AllTables[N]>): KeyOf<N> {
  return (TABLES[name].key as (r: AllTables[N] | Stored<AllTables[N]>) => KeyOf<N>)(record);
}
export const isSlugged = (name: TableName): name is PostType | TermType => name === 'event' || name === 'venue' || name === 'organizer' || name === 'category' || name === 'tag';

/** Where each table's records sit in a fixture set (and so in a state file, which holds one). */
export function rowsOf(data: DeepReadonly<FixtureSet>): { [N in TableName]: readonly Stored<AllTables[N]>[] } {
  const c = data.calendar;
  const a = data.addons;
  return {
    event: c.events, venue: c.venues, organizer: c.organizers, category: c.categories, tag: c.tags, importJobs: c.importJobs,
    contactForms: a.contactForms, feedback: a.feedback,
    seoRedirections: a.seo.redirections, seoObjects: a.seo.objects, trackedKeywords: a.seo.trackedKeywords,
    pbThemes: a.pageBuilder.themes, pbPlugins: a.pageBuilder.plugins, pbLogs: a.pageBuilder.logs,
    lmsUsers: a.lms.users, lmsTokens: a.lms.tokens,
    translationStrings: a.translation.strings, stringPackages: a.translation.packages, translationJobs: a.translation.jobs,
    sliders: a.sliders, users: data.users.users,
  };
}
