// The mock's in-memory state.
//
// Every method is synchronous: an ID is taken from its sequence and the record inserted in the same
// turn of the event loop, so any number of concurrent requests get distinct IDs without locks.
// Every write is checked against fixtures/schema.json and the cross-record rules of the fixture
// loader, so the state can always be saved and loaded again; a rejected write changes nothing.

import { minimumSequences } from './integrity.ts';
import { recordProblems, type RecordDef } from './fixture-schema.ts';
import type {
  AmsState, CalendarSettings, CategoryRecord, ContactForm, EventRecord, FeedbackSubmission, FixtureSet, ImportJob, JsonObject,
  Lang, LiveStatus, LmsToken, LmsUser, OnOff, OrganizerRecord, PageBuilderConnection, PageBuilderLog, PageBuilderPlugin,
  PageBuilderTheme, PostBase, PostType, PostTypeMap, RecordMeta, SeoMode, SeoObject, SeoRedirection, Sequences, Slider,
  StoreData, StringPackage, TagRecord, TermType, TermTypeMap, TrackedKeyword, TranslationJob, TranslationSettings,
  TranslationString, UserRecord, VenueRecord,
} from './model.ts';
import { sanitizeTitle, TRASHED_SUFFIX, trashedSlug, uniqueSlug } from './slug.ts';
import { assignOwn, deepFreeze, listOf, Table, type DeepReadonly, type ListOptions, type Page, type ReadTable } from './table.ts';
import { addSeconds, dateToUtcString, isDateTimeString, isKnownTimeZone, utcToZoned, zonedToUtc } from './time.ts';

export type { DeepReadonly, ListOptions, Page, ReadTable } from './table.ts';
export { byField, paginate, thenBy } from './table.ts';

export type Stored<T> = DeepReadonly<T>;

export type StoreErrorCode =
  | 'not_found'
  | 'invalid_value'
  | 'invalid_reference'
  | 'invalid_parent'
  | 'duplicate_slug'
  | 'term_exists'
  | 'already_trashed'
  | 'not_trashed'
  | 'conflict'
  | 'empty_content';

/** A write the store refused; `code` lets the mock pick the WordPress error it maps to. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface StoreOptions {
  /** Clock for `date`/`modified` of new and updated posts. */
  now?: () => Date;
}

export interface StoreChange {
  collection: string;
  op: 'create' | 'update' | 'delete' | 'reset';
  key?: string | number;
}

/** Fields of a post a caller may set. `null` clears an optional field (password, image, translation_of, geo). */
export type PostInput<K extends PostType> = {
  [F in keyof Omit<PostTypeMap[K], 'id' | 'meta'>]?: PostTypeMap[K][F] | (F extends OptionalPostField ? null : never);
} & { meta?: RecordMeta };
type OptionalPostField = 'password' | 'image' | 'translation_of' | 'geo';

export type TermInput<K extends TermType> = {
  [F in keyof Omit<TermTypeMap[K], 'id'>]?: TermTypeMap[K][F] | (F extends 'translation_of' ? null : never);
};

export interface Singletons {
  calendarSettings: CalendarSettings;
  seoModules: Record<string, OnOff>;
  seoMode: SeoMode;
  seoSettings: JsonObject;
  pageBuilderSettings: JsonObject;
  pageBuilderConnection: PageBuilderConnection;
  translationSettings: TranslationSettings;
  customXmlConfig: string;
  ams: AmsState;
}

const SINGLETON_DEFS: Record<keyof Singletons, RecordDef | undefined> = {
  calendarSettings: 'calendarSettings',
  seoModules: 'seoModules',
  seoMode: 'seoMode',
  seoSettings: 'jsonObject',
  pageBuilderSettings: 'jsonObject',
  pageBuilderConnection: 'pbConnection',
  translationSettings: 'translationSettings',
  customXmlConfig: undefined,
  ams: 'ams',
};

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
export interface RecordKeys {
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

const objectKey = (o: { objectType: string; objectID: number }) => `${o.objectType}:${o.objectID}`;

const RECORD_TABLES: { [N in RecordTableName]: { def: RecordDef; key: (r: RecordTables[N] | Stored<RecordTables[N]>) => RecordKeys[N]; seq?: keyof Sequences } } = {
  importJobs: { def: 'importJob', key: (r) => r.import_id },
  contactForms: { def: 'contactForm', key: (r) => r.id, seq: 'post' },
  feedback: { def: 'feedback', key: (r) => r.id, seq: 'feedback' },
  seoRedirections: { def: 'seoRedirection', key: objectKey },
  seoObjects: { def: 'seoObject', key: objectKey },
  trackedKeywords: { def: 'trackedKeyword', key: (r) => r.id, seq: 'keyword' },
  pbThemes: { def: 'pbTheme', key: (r) => r.slug },
  pbPlugins: { def: 'pbPlugin', key: (r) => r.slug },
  pbLogs: { def: 'pbLog', key: (r) => r.id, seq: 'log' },
  lmsUsers: { def: 'lmsUser', key: (r) => r.username },
  lmsTokens: { def: 'lmsToken', key: (r) => r.token },
  translationStrings: { def: 'translationString', key: (r) => r.id, seq: 'translationString' },
  stringPackages: { def: 'stringPackage', key: (r) => r.id, seq: 'stringPackage' },
  translationJobs: { def: 'translationJob', key: (r) => r.id, seq: 'translationJob' },
  sliders: { def: 'slider', key: (r) => r.id, seq: 'slider' },
  users: { def: 'user', key: (r) => r.id, seq: 'user' },
};

const POST_DEFS: Record<PostType, RecordDef> = { event: 'event', venue: 'venue', organizer: 'organizer' };
const EVENT_EDGES = [
  { local: 'start_date', utc: 'start_date_utc' },
  { local: 'end_date', utc: 'end_date_utc' },
] as const;
const plusTwoHours = (wall: string) => addSeconds(wall, 2 * 3600);
const OPTIONAL_POST_FIELDS: readonly string[] = ['password', 'image', 'translation_of', 'geo'];

type Tables = { [N in RecordTableName]: Table<RecordKeys[N], RecordTables[N]> } & {
  event: Table<number, EventRecord>;
  venue: Table<number, VenueRecord>;
  organizer: Table<number, OrganizerRecord>;
  category: Table<number, CategoryRecord>;
  tag: Table<number, TagRecord>;
};

/**
 * Slugs are unique per type and language: type -> language -> slug -> id. Nested maps rather than one map keyed by
 * `lang + slug`, so a lookup builds no key string and an entry holds no copy of the slug.
 */
type SlugIndex = Map<PostType | TermType, Map<string, Map<string, number>>>;

function slugMap(index: SlugIndex, type: PostType | TermType, lang: string): Map<string, number> {
  let byLang = index.get(type);
  if (!byLang) index.set(type, (byLang = new Map()));
  let bySlug = byLang.get(lang);
  if (!bySlug) byLang.set(lang, (bySlug = new Map()));
  return bySlug;
}

function buildTables(data: DeepReadonly<StoreData> | StoreData): Tables {
  const c = data.calendar;
  const a = data.addons;
  const id = (r: { id: number }) => r.id;
  const table = <N extends RecordTableName>(name: N, rows: readonly (RecordTables[N] | Stored<RecordTables[N]>)[]) =>
    new Table<RecordKeys[N], RecordTables[N]>(name, RECORD_TABLES[name].key as (r: RecordTables[N] | Stored<RecordTables[N]>) => RecordKeys[N], rows);
  return {
    event: new Table('events', id, c.events),
    venue: new Table('venues', id, c.venues),
    organizer: new Table('organizers', id, c.organizers),
    category: new Table('categories', id, c.categories),
    tag: new Table('tags', id, c.tags),
    importJobs: table('importJobs', c.importJobs),
    contactForms: table('contactForms', a.contactForms),
    feedback: table('feedback', a.feedback),
    seoRedirections: table('seoRedirections', a.seo.redirections),
    seoObjects: table('seoObjects', a.seo.objects),
    trackedKeywords: table('trackedKeywords', a.seo.trackedKeywords),
    pbThemes: table('pbThemes', a.pageBuilder.themes),
    pbPlugins: table('pbPlugins', a.pageBuilder.plugins),
    pbLogs: table('pbLogs', a.pageBuilder.logs),
    lmsUsers: table('lmsUsers', a.lms.users),
    lmsTokens: table('lmsTokens', a.lms.tokens),
    translationStrings: table('translationStrings', a.translation.strings),
    stringPackages: table('stringPackages', a.translation.packages),
    translationJobs: table('translationJobs', a.translation.jobs),
    sliders: table('sliders', a.sliders),
    users: table('users', data.users.users),
  };
}

function singletonsOf(data: DeepReadonly<StoreData> | StoreData): DeepReadonly<Singletons> {
  const a = data.addons;
  return deepFreeze({
    calendarSettings: data.calendar.settings,
    seoModules: a.seo.modules,
    seoMode: a.seo.mode,
    seoSettings: a.seo.settings,
    pageBuilderSettings: a.pageBuilder.settings,
    pageBuilderConnection: a.pageBuilder.connection,
    translationSettings: a.translation.settings,
    customXmlConfig: a.translation.customXmlConfig,
    ams: a.translation.ams,
  } as Singletons);
}

/** Fixture set + sequences derived from it: the state `reset()` returns to. */
export function fixturesToData(set: FixtureSet): StoreData {
  return { version: 1, sequences: minimumSequences(set), calendar: set.calendar, addons: set.addons, users: set.users };
}

function invalid(def: string, problems: string[]): StoreError {
  const field = /^\/([^/ ]+)/.exec(problems[0] ?? '')?.[1];
  return new StoreError('invalid_value', `invalid ${def}: ${problems.slice(0, 5).join('; ')}`, field);
}

export class Store {
  private t: Tables;
  private single: DeepReadonly<Singletons>;
  private seq: Sequences;
  private slugIndex: SlugIndex = new Map();
  private countCache: { version: number; counts: Map<number, number> } | undefined;
  private nowMemo = { second: NaN, zone: '', site: '', gmt: '' };
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private readonly now: () => Date;
  /** Bumped by every successful write; cheap "did anything change" check. */
  version = 0;

  /**
   * `baseline` is what reset() returns to; `state` (e.g. from a state file) is where the store starts.
   * Both must already be valid (loadFixtures / parseStateText check that); their records get frozen.
   */
  constructor(
    private readonly baseline: DeepReadonly<StoreData>,
    options: StoreOptions = {},
    state: DeepReadonly<StoreData> | Store = baseline,
  ) {
    this.now = options.now ?? (() => new Date());
    deepFreeze(baseline);
    if (state instanceof Store) {
      // Cloning: share the frozen records, copy only the maps that point at them.
      this.t = Object.fromEntries(Object.entries(state.t).map(([k, table]) => [k, (table as Table<string | number, unknown>).clone()])) as Tables;
      this.single = state.single;
      this.seq = { ...state.seq };
      this.slugIndex = new Map([...state.slugIndex].map(([k, byLang]) => [k, new Map([...byLang].map(([lang, m]) => [lang, new Map(m)]))]));
      return;
    }
    deepFreeze(state);
    this.t = buildTables(state);
    this.single = singletonsOf(state);
    this.seq = { ...state.sequences };
    this.indexSlugs();
  }

  // ---- read access ------------------------------------------------------------------------------

  get events(): ReadTable<number, EventRecord> { return this.t.event; }
  get venues(): ReadTable<number, VenueRecord> { return this.t.venue; }
  get organizers(): ReadTable<number, OrganizerRecord> { return this.t.organizer; }
  get categories(): ReadTable<number, CategoryRecord> { return this.t.category; }
  get tags(): ReadTable<number, TagRecord> { return this.t.tag; }

  posts<K extends PostType>(type: K): ReadTable<number, PostTypeMap[K]> {
    return this.t[type] as unknown as ReadTable<number, PostTypeMap[K]>;
  }

  terms<K extends TermType>(type: K): ReadTable<number, TermTypeMap[K]> {
    return this.t[type] as unknown as ReadTable<number, TermTypeMap[K]>;
  }

  table<N extends RecordTableName>(name: N): ReadTable<RecordKeys[N], RecordTables[N]> {
    return this.t[name] as unknown as ReadTable<RecordKeys[N], RecordTables[N]>;
  }

  get<K extends keyof Singletons>(name: K): DeepReadonly<Singletons[K]> {
    return this.single[name];
  }

  /** Current sequence values (the next ID each would hand out). */
  get sequences(): Readonly<Sequences> {
    return { ...this.seq };
  }

  /**
   * Post or term by slug in a language. The slug is normalised the way WordPress normalises a
   * queried slug, so both `день` and `%d0%b4%d0%b5%d0%bd%d1%8c` find the same record.
   */
  bySlug<K extends PostType | TermType>(type: K, slug: string, lang: Lang): Stored<(PostTypeMap & TermTypeMap)[K]> | undefined {
    const id = this.slugIndex.get(type)?.get(lang)?.get(sanitizeTitle(slug));
    const table = this.t[type] as unknown as ReadTable<number, (PostTypeMap & TermTypeMap)[K]>;
    return id === undefined ? undefined : table.get(id);
  }

  list<K extends PostType | TermType>(type: K, options?: ListOptions<Stored<(PostTypeMap & TermTypeMap)[K]>>): Page<Stored<(PostTypeMap & TermTypeMap)[K]>> {
    const table = this.t[type] as unknown as ReadTable<number, (PostTypeMap & TermTypeMap)[K]>;
    return listOf(table.values(), options);
  }

  /** Published events per term ID (WordPress counts published posts only); recomputed after writes. */
  termCounts(): ReadonlyMap<number, number> {
    if (this.countCache?.version === this.version) return this.countCache.counts;
    const counts = new Map<number, number>();
    for (const e of this.t.event.values()) {
      if (e.status !== 'publish') continue;
      for (const id of [...e.categories, ...e.tags]) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    this.countCache = { version: this.version, counts };
    return counts;
  }

  // ---- change notification ----------------------------------------------------------------------

  /** Called after every successful write; returns the unsubscribe function. */
  subscribe(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: StoreChange): void {
    this.version++;
    for (const l of this.listeners) l(change);
  }

  // ---- sequences --------------------------------------------------------------------------------

  /** Takes the next ID of a sequence. IDs are never handed out twice, even after deletes. */
  nextId(name: keyof Sequences): number {
    return this.seq[name]++;
  }

  // ---- posts ------------------------------------------------------------------------------------

  /** Site and UTC wall clocks of now; both have whole seconds, so one conversion serves a whole second of writes. */
  private nowSite(): { site: string; gmt: string } {
    const second = Math.floor(this.now().getTime() / 1000);
    const zone = this.single.calendarSettings.timezone;
    const memo = this.nowMemo;
    if (memo.second === second && memo.zone === zone) return memo;
    const gmt = dateToUtcString(new Date(second * 1000));
    this.nowMemo = { second, zone, site: utcToZoned(gmt, zone), gmt };
    return this.nowMemo;
  }

  private slugTaken(type: PostType | TermType, lang: string, slug: string, exceptId?: number): boolean {
    const id = this.slugIndex.get(type)?.get(lang)?.get(slug);
    return id !== undefined && id !== exceptId;
  }

  private indexSlugs(): void {
    this.slugIndex = new Map();
    for (const type of ['event', 'venue', 'organizer', 'category', 'tag'] as const) {
      this.slugIndex.set(type, new Map());
      for (const r of this.t[type].values()) if (r.slug !== '') slugMap(this.slugIndex, type, r.lang).set(r.slug, r.id);
    }
  }

  private reindexSlug(type: PostType | TermType, old: { id: number; slug: string; lang: string } | undefined, next: { id: number; slug: string; lang: string } | undefined): void {
    if (old && old.slug !== '') {
      const index = slugMap(this.slugIndex, type, old.lang);
      if (index.get(old.slug) === old.id) index.delete(old.slug);
    }
    if (next && next.slug !== '') slugMap(this.slugIndex, type, next.lang).set(next.slug, next.id);
  }

  private postTypeOf(id: number): PostType | 'contactForm' | undefined {
    if (this.t.event.has(id)) return 'event';
    if (this.t.venue.has(id)) return 'venue';
    if (this.t.organizer.has(id)) return 'organizer';
    if (this.t.contactForms.has(id)) return 'contactForm';
    return undefined;
  }

  private requirePost<K extends PostType>(type: K, id: number): Stored<PostTypeMap[K]> {
    const r = this.posts(type).get(id);
    if (!r) throw new StoreError('not_found', `no ${type} with id ${id}`, 'id');
    return r;
  }

  private checkRefs(ids: readonly number[], table: ReadTable<number, unknown>, what: string, field: string): void {
    for (const id of ids) {
      if (!table.has(id)) {
        const actual = this.postTypeOf(id) ?? (this.t.category.has(id) ? 'category' : this.t.tag.has(id) ? 'tag' : undefined);
        throw new StoreError('invalid_reference', actual ? `${field}: ${id} is a ${actual}, not a ${what}` : `${field}: no ${what} with id ${id}`, field);
      }
    }
  }

  private checkTranslation(type: PostType | TermType, rec: { id: number; lang: Lang; translation_of?: number }): void {
    if (rec.translation_of === undefined) return;
    const table = this.t[type] as unknown as ReadTable<number, { id: number; lang: Lang; translation_of?: number }>;
    const original = table.get(rec.translation_of);
    if (!original) throw new StoreError('invalid_reference', `translation_of: no ${type} with id ${rec.translation_of}`, 'translation_of');
    if (original.id === rec.id) throw new StoreError('invalid_reference', 'translation_of: a record cannot translate itself', 'translation_of');
    if (original.lang === rec.lang) throw new StoreError('invalid_reference', `translation_of: ${type} ${original.id} is in the same language (${rec.lang})`, 'translation_of');
    if (original.translation_of !== undefined) throw new StoreError('invalid_reference', `translation_of: ${type} ${original.id} is itself a translation of ${original.translation_of}`, 'translation_of');
    if (table.find((r) => r.id !== rec.id && r.translation_of === original.id && r.lang === rec.lang)) {
      throw new StoreError('conflict', `translation_of: ${type} ${original.id} already has a ${rec.lang} translation`, 'translation_of');
    }
    if (table.find((r) => r.translation_of === rec.id)) {
      throw new StoreError('invalid_reference', `translation_of: ${type} ${rec.id} has translations of its own, so it cannot become a translation`, 'translation_of');
    }
  }

  /** `fn(draft[field], zone)`, a conversion that throws on a value it cannot read: refused naming `field`. */
  private derive(draft: Record<string, unknown>, field: string, fn: (value: string, zone: string) => string, zone: string): string {
    try {
      return fn(draft[field] as string, zone);
    } catch {
      throw new StoreError('invalid_value', `${field}: must be YYYY-MM-DD HH:MM:SS, got ${JSON.stringify(draft[field])}`, field);
    }
  }

  /** Fills derived fields (GMT dates, UTC event dates, all-day times, slug) and checks the result. */
  private finishPost<K extends PostType>(type: K, draft: Record<string, unknown>, given: Record<string, unknown>, old?: Stored<PostBase>): PostTypeMap[K] {
    // No closures here: this runs on every post write, and each closure costs (tsx wraps every one to keep its name).
    const siteTz = this.single.calendarSettings.timezone;
    // Publication date: whichever of the pair the caller gave decides the other.
    if ('date' in given && !('date_gmt' in given)) draft.date_gmt = this.derive(draft, 'date', zonedToUtc, siteTz);
    else if ('date_gmt' in given && !('date' in given)) draft.date = this.derive(draft, 'date_gmt', utcToZoned, siteTz);
    if (!old) {
      // wp_insert_post(): a new post's modified date is its date, even one in the future.
      draft.modified = draft.date;
      draft.modified_gmt = draft.date_gmt;
      // ...and an event with no title, content or excerpt is refused (the post type supports all three).
      if (type === 'event' && draft.title === '' && draft.content === '' && draft.excerpt === '') {
        throw new StoreError('empty_content', 'Content, title, and excerpt are empty.');
      }
    }
    // wp_insert_post(): published with a date a minute or more ahead is scheduled; scheduled for a date no longer
    // ahead is published.
    if (draft.status === 'publish' || draft.status === 'future') {
      const ahead = Date.parse(`${String(draft.date_gmt).replace(' ', 'T')}Z`) - this.now().getTime() >= 60_000;
      if (draft.status === 'publish' && ahead) draft.status = 'future';
      else if (draft.status === 'future' && !ahead) draft.status = 'publish';
    }

    if (type === 'event') {
      const tz = draft.timezone as string;
      if (!isKnownTimeZone(tz)) throw new StoreError('invalid_value', `timezone: unknown time zone ${JSON.stringify(tz)}`, 'timezone');
      // A side given only in UTC gets its wall clock from it; everything else derives UTC from the wall clock.
      for (const { local, utc } of EVENT_EDGES) {
        if (utc in given && !(local in given)) draft[local] = this.derive(draft, utc, utcToZoned, tz);
      }
      const startGiven = 'start_date' in given || 'start_date_utc' in given;
      const endGiven = 'end_date' in given || 'end_date_utc' in given;
      if (!old && startGiven && !endGiven) draft.end_date = this.derive(draft, 'start_date', plusTwoHours, tz);
      if (draft.all_day === true) {
        // The calendar stores all-day events as 00:00:00 to 23:59:59 of their days.
        const start = draft.start_date as string;
        const end = draft.end_date as string;
        if (isDateTimeString(start)) draft.start_date = `${start.slice(0, 10)} 00:00:00`;
        if (isDateTimeString(end)) draft.end_date = `${end.slice(0, 10)} 23:59:59`;
      }
      for (const { local, utc } of EVENT_EDGES) {
        const utcOnly = utc in given && !(local in given) && draft.all_day !== true;
        if (!utcOnly && !(utc in given && local in given)) draft[utc] = this.derive(draft, local, zonedToUtc, tz);
      }
      const start = draft.start_date as string;
      const end = draft.end_date as string;
      if (isDateTimeString(start) && isDateTimeString(end) && end < start) {
        throw new StoreError('invalid_value', `end_date: must not be before start_date (${start}), got ${end}`, 'end_date');
      }
    }

    // Slug: sanitised when given, derived from the title on publish, unique per type and language.
    const status = draft.status as string;
    let slug = typeof draft.slug === 'string' ? sanitizeTitle(draft.slug) : '';
    const trashed = status === 'trash' && TRASHED_SUFFIX.test(String(draft.slug));
    if (trashed) slug = String(draft.slug);
    if (slug === '' && status !== 'draft' && status !== 'pending') slug = sanitizeTitle(String(draft.title ?? ''));
    if (slug === '' && status !== 'draft' && status !== 'pending') slug = String(old?.id ?? this.seq.post);
    const id = draft.id as number;
    const lang = draft.lang as Lang;
    // uniqueSlug() would try `slug` first too; asked here, the usual free slug needs no closure.
    draft.slug = slug === '' || !this.slugTaken(type, lang, slug, id) ? slug : uniqueSlug(slug, (s) => this.slugTaken(type, lang, s, id));

    for (const k of OPTIONAL_POST_FIELDS) if (draft[k] === null || draft[k] === undefined) delete draft[k];
    const problems = recordProblems(POST_DEFS[type], draft);
    if (problems.length) throw invalid(type, problems);
    const rec = draft as unknown as PostTypeMap[K];

    if (!this.t.users.has(rec.author)) throw new StoreError('invalid_reference', `author: no user with id ${rec.author}`, 'author');
    this.checkTranslation(type, rec);
    if (type === 'event') {
      const e = rec as unknown as EventRecord;
      this.checkRefs(e.categories, this.t.category, 'category', 'categories');
      this.checkRefs(e.tags, this.t.tag, 'tag', 'tags');
      this.checkRefs(e.venues, this.t.venue, 'venue', 'venues');
      this.checkRefs(e.organizers, this.t.organizer, 'organizer', 'organizers');
      if (e.post_parent !== 0) {
        this.checkRefs([e.post_parent], this.t.event, 'event', 'post_parent');
        for (let cur = e.post_parent, steps = 0; cur !== 0 && steps <= this.t.event.size; steps++) {
          if (cur === e.id) throw new StoreError('invalid_parent', `post_parent: ${e.post_parent} would make a cycle`, 'post_parent');
          cur = this.t.event.get(cur)?.post_parent ?? 0;
        }
      }
    }
    return rec;
  }

  /**
   * A new post's fields before the caller's. One object literal per type, keys in the record's order: V8 adds
   * properties to a spread copy slowly (about a microsecond each), and this runs on every create.
   */
  private postDefaults(type: PostType, id: number): Record<string, unknown> {
    const { site, gmt } = this.nowSite();
    const admin = this.t.users.find((u) => u.roles.includes('administrator'))?.id ?? 1;
    const lang = this.single.calendarSettings.default_lang;
    if (type === 'venue') {
      return {
        id, slug: '', status: 'publish', title: '', content: '', excerpt: '', author: admin,
        date: site, date_gmt: gmt, modified: site, modified_gmt: gmt, lang, featured_media: 0,
        comment_status: 'open', ping_status: 'open', format: 'standard', template: '', sticky: false, meta: {},
        address: '', city: '', country: '', province: '', state: '', stateprovince: '', state_province: '', zip: '', phone: '', website: '', show_map: true, show_map_link: true,
      };
    }
    if (type === 'organizer') {
      return {
        id, slug: '', status: 'publish', title: '', content: '', excerpt: '', author: admin,
        date: site, date_gmt: gmt, modified: site, modified_gmt: gmt, lang, featured_media: 0,
        comment_status: 'open', ping_status: 'open', format: 'standard', template: '', sticky: false, meta: {},
        phone: '', website: '', email: '',
      };
    }
    // The calendar's editor proposes 08:00-17:00 today for a new event.
    const day = site.slice(0, 10);
    return {
      id, slug: '', status: 'publish', title: '', content: '', excerpt: '', author: admin,
      date: site, date_gmt: gmt, modified: site, modified_gmt: gmt, lang, featured_media: 0,
      comment_status: 'open', ping_status: 'open', format: 'standard', template: '', sticky: false, meta: {},
      start_date: `${day} 08:00:00`, end_date: `${day} 17:00:00`, start_date_utc: '', end_date_utc: '',
      timezone: this.single.calendarSettings.timezone, all_day: false, featured: false, hide_from_listings: false,
      cost: '', website: '', show_map: true, show_map_link: true, categories: [], tags: [], venues: [], organizers: [],
      post_parent: 0, ticketed: false,
    };
  }

  createPost<K extends PostType>(type: K, input: PostInput<K>): Stored<PostTypeMap[K]> {
    // Checked before the ID is taken: a refused create must not burn an ID.
    const id = this.seq.post;
    const given = stripUndefined(input as Record<string, unknown>);
    // { ...defaults, ...given, id, meta } without spreads (see postDefaults): same keys, same order.
    const draft = assignOwn(this.postDefaults(type, id), given);
    draft.id = id;
    draft.meta = assignOwn({}, input.meta);
    const rec = this.finishPost(type, draft, given);
    this.seq.post++;
    const stored = (this.t[type] as unknown as Table<number, PostTypeMap[K]>).putOwned(rec);
    this.reindexSlug(type, undefined, stored);
    this.changed({ collection: type, op: 'create', key: id });
    return stored;
  }

  updatePost<K extends PostType>(type: K, id: number, patch: PostInput<K>): Stored<PostTypeMap[K]> {
    const old = this.requirePost(type, id);
    const given = stripUndefined(patch as Record<string, unknown>);
    delete given.id;
    const { site, gmt } = this.nowSite();
    // A shallow copy is enough: only top-level fields are replaced, and the nested values it shares with the old
    // record are frozen (Table.put keeps frozen parts as they are).
    const draft: Record<string, unknown> = assignOwn({}, old, given);
    draft.modified = site;
    draft.modified_gmt = gmt;
    draft.meta = assignOwn({}, old.meta, patch.meta);
    if (!('slug' in given)) draft.slug = old.slug;
    // wp_insert_post(): a post leaving the trash by an update gets back the slug it had (_wp_desired_post_slug).
    if (old.status === 'trash' && draft.status !== 'trash') {
      const meta = draft.meta as Record<string, unknown>;
      if (!('slug' in given)) draft.slug = Store.slugBeforeTrash(old);
      delete meta.desiredSlug;
      delete meta.trashedStatus;
    }
    const rec = this.finishPost(type, draft, given, old);
    const stored = (this.t[type] as unknown as Table<number, PostTypeMap[K]>).putOwned(rec);
    this.reindexSlug(type, old, stored);
    this.changed({ collection: type, op: 'update', key: id });
    return stored;
  }

  /** The slug a post coming out of the trash asks for back (WordPress's _wp_desired_post_slug). */
  private static slugBeforeTrash(old: { slug: string; meta: { desiredSlug?: string } }): string {
    return old.meta.desiredSlug ?? old.slug.replace(TRASHED_SUFFIX, '');
  }

  /** Moves a post to the trash the WordPress way: status `trash`, slug freed as `<slug>__trashed`. */
  trashPost<K extends PostType>(type: K, id: number): Stored<PostTypeMap[K]> {
    const old = this.requirePost(type, id);
    if (old.status === 'trash') throw new StoreError('already_trashed', `${type} ${id} is already in the trash`);
    const slug = old.slug === '' ? '' : trashedSlug(old.slug, (s) => this.slugTaken(type, old.lang, s, id));
    const { site, gmt } = this.nowSite();
    const meta: RecordMeta = { ...old.meta, trashedStatus: old.status as LiveStatus, ...(old.slug ? { desiredSlug: old.slug } : {}) };
    const rec = { ...(old as unknown as PostTypeMap[K]), status: 'trash' as const, slug, modified: site, modified_gmt: gmt, meta };
    const stored = (this.t[type] as unknown as Table<number, PostTypeMap[K]>).put(rec);
    this.reindexSlug(type, old, stored);
    this.changed({ collection: type, op: 'update', key: id });
    return stored;
  }

  /**
   * Takes a post out of the trash. Like WordPress since 5.6 it comes back as a draft unless
   * `restoreStatus` asks for the status it had; its old slug comes back if still free.
   */
  untrashPost<K extends PostType>(type: K, id: number, options: { restoreStatus?: boolean } = {}): Stored<PostTypeMap[K]> {
    const old = this.requirePost(type, id);
    if (old.status !== 'trash') throw new StoreError('not_trashed', `${type} ${id} is not in the trash`);
    const { trashedStatus, desiredSlug, ...meta } = old.meta;
    const status: LiveStatus = options.restoreStatus ? (trashedStatus ?? 'draft') : 'draft';
    const base = Store.slugBeforeTrash(old);
    const slug = base === '' ? '' : uniqueSlug(base, (s) => this.slugTaken(type, old.lang, s, id));
    const { site, gmt } = this.nowSite();
    const rec = { ...(old as unknown as PostTypeMap[K]), status, slug, modified: site, modified_gmt: gmt, meta };
    const stored = (this.t[type] as unknown as Table<number, PostTypeMap[K]>).put(rec);
    this.reindexSlug(type, old, stored);
    this.changed({ collection: type, op: 'update', key: id });
    return stored;
  }

  /**
   * Deletes a post for good. What pointed at it is cleaned up as WordPress does: events drop the
   * venue/organizer, child events move up to the deleted event's parent, translations lose their
   * link, and add-on records about the post (SEO data, translation jobs) go.
   */
  deletePost<K extends PostType>(type: K, id: number): Stored<PostTypeMap[K]> {
    const old = this.requirePost(type, id);
    (this.t[type] as unknown as Table<number, PostTypeMap[K]>).delete(id);
    this.reindexSlug(type, old, undefined);
    const events = this.t.event;
    for (const e of events.values()) {
      let next: EventRecord | undefined;
      const edit = () => (next ??= structuredClone(e) as EventRecord);
      if (type === 'venue' && e.venues.includes(id)) edit().venues = e.venues.filter((v) => v !== id);
      if (type === 'organizer' && e.organizers.includes(id)) edit().organizers = e.organizers.filter((v) => v !== id);
      if (type === 'event' && e.post_parent === id) edit().post_parent = (old as Stored<EventRecord>).post_parent;
      if (next) events.put(next);
    }
    this.dropTranslationLinks(type, id);
    this.dropObjectRecords('post', id);
    this.changed({ collection: type, op: 'delete', key: id });
    return old;
  }

  private dropTranslationLinks(type: PostType | TermType, id: number): void {
    const table = this.t[type] as unknown as Table<number, { id: number; translation_of?: number }>;
    for (const r of table.values()) {
      if (r.translation_of === id) {
        const { translation_of: _gone, ...rest } = r;
        table.put(rest);
      }
    }
  }

  private dropObjectRecords(objectType: 'post' | 'term' | 'user', id: number): void {
    this.t.seoRedirections.delete(`${objectType}:${id}`);
    this.t.seoObjects.delete(`${objectType}:${id}`);
    if (objectType === 'post') {
      for (const j of this.t.translationJobs.values()) if (j.elementType === 'post' && j.elementId === id) this.t.translationJobs.delete(j.id);
    }
  }

  // ---- terms ------------------------------------------------------------------------------------

  private requireTerm<K extends TermType>(type: K, id: number): Stored<TermTypeMap[K]> {
    const r = this.terms(type).get(id);
    if (!r) throw new StoreError('not_found', `no ${type} with id ${id}`, 'id');
    return r;
  }

  private finishTerm<K extends TermType>(type: K, draft: Record<string, unknown>, given: Record<string, unknown>, old?: Stored<TermTypeMap[K]>): TermTypeMap[K] {
    if (draft.translation_of === null) delete draft.translation_of;
    const name = String(draft.name ?? '').trim();
    if (name === '') throw new StoreError('invalid_value', 'name: must not be empty', 'name');
    draft.name = name;
    const id = draft.id as number;
    const lang = draft.lang as Lang;
    let parent = type === 'category' ? (draft.parent as number) : 0;
    if (type === 'category' && parent !== 0) {
      if (!this.t.category.has(parent)) throw new StoreError('invalid_parent', `parent: no category with id ${parent}`, 'parent');
      parent = this.breakHierarchyLoop(id, parent);
      draft.parent = parent;
    }
    // WordPress refuses a second term with the same name under the same parent.
    if ('name' in given || 'parent' in given || !old) {
      const lower = name.toLowerCase();
      const clash = (this.t[type] as unknown as ReadTable<number, CategoryRecord | TagRecord>).find(
        (t) => t.id !== id && t.lang === lang && t.name.toLowerCase() === lower && ('parent' in t ? t.parent : 0) === parent,
      );
      if (clash) throw new StoreError('term_exists', `a ${type} named ${JSON.stringify(name)} already exists${parent ? ' under this parent' : ''} (id ${clash.id})`, 'name');
    }
    if ('slug' in given && typeof given.slug === 'string' && given.slug !== '') {
      const slug = sanitizeTitle(given.slug);
      if (this.slugTaken(type, lang, slug, id)) throw new StoreError('duplicate_slug', `slug: ${JSON.stringify(slug)} is already used by another ${type}`, 'slug');
      draft.slug = slug;
    } else if (!old || (typeof given.slug === 'string' && given.slug === '')) {
      // Derived slugs never fail: a clash first tries "<slug>-<parent slug>" (hierarchical), then "-2", "-3"...
      let slug = sanitizeTitle(name) || String(id);
      const parentSlug = parent ? this.t.category.get(parent)?.slug : undefined;
      if (this.slugTaken(type, lang, slug, id) && parentSlug) slug = `${slug}-${parentSlug}`;
      draft.slug = uniqueSlug(slug, (s) => this.slugTaken(type, lang, s, id));
    }
    const problems = recordProblems(type, draft);
    if (problems.length) throw invalid(type, problems);
    const rec = draft as unknown as TermTypeMap[K];
    this.checkTranslation(type, rec);
    return rec;
  }

  createTerm<K extends TermType>(type: K, input: TermInput<K>): Stored<TermTypeMap[K]> {
    const id = this.seq.term;
    const given = stripUndefined(input as Record<string, unknown>);
    const base = { id, name: '', slug: '', description: '', ...(type === 'category' ? { parent: 0 } : {}), lang: this.single.calendarSettings.default_lang };
    const rec = this.finishTerm(type, { ...base, ...given, id }, given);
    this.seq.term++;
    const stored = (this.t[type] as unknown as Table<number, TermTypeMap[K]>).put(rec);
    this.reindexSlug(type, undefined, stored);
    this.changed({ collection: type, op: 'create', key: id });
    return stored;
  }

  updateTerm<K extends TermType>(type: K, id: number, patch: TermInput<K>): Stored<TermTypeMap[K]> {
    const old = this.requireTerm(type, id);
    const given = stripUndefined(patch as Record<string, unknown>);
    delete given.id;
    const rec = this.finishTerm(type, { ...(old as object), ...given, id }, given, old);
    const stored = (this.t[type] as unknown as Table<number, TermTypeMap[K]>).put(rec);
    this.reindexSlug(type, old, stored);
    this.changed({ collection: type, op: 'update', key: id });
    return stored;
  }

  /**
   * wp_check_term_hierarchy_for_loops() on wp_update_term_parent: a category made its own parent gets none; one
   * moved under its own descendant gets that parent, and the categories between them become top-level, so no loop
   * remains.
   */
  private breakHierarchyLoop(id: number, parent: number): number {
    if (parent === id) return 0;
    const chain: number[] = [];
    for (let cur = parent, steps = 0; cur !== 0 && steps <= this.t.category.size; steps++) {
      if (cur === id) {
        for (const member of chain) this.t.category.put({ ...this.t.category.get(member)!, parent: 0 });
        break;
      }
      chain.push(cur);
      cur = this.t.category.get(cur)?.parent ?? 0;
    }
    return parent;
  }

  /** Deletes a term: events drop it, child categories move up to its parent, translations unlink. */
  deleteTerm<K extends TermType>(type: K, id: number): Stored<TermTypeMap[K]> {
    const old = this.requireTerm(type, id);
    (this.t[type] as unknown as Table<number, TermTypeMap[K]>).delete(id);
    this.reindexSlug(type, old, undefined);
    const field = type === 'category' ? 'categories' : 'tags';
    for (const e of this.t.event.values()) {
      if (e[field].includes(id)) this.t.event.put({ ...(structuredClone(e) as EventRecord), [field]: e[field].filter((x) => x !== id) });
    }
    if (type === 'category') {
      const parent = (old as Stored<CategoryRecord>).parent;
      for (const c of this.t.category.values()) if (c.parent === id) this.t.category.put({ ...c, parent });
    }
    this.dropTranslationLinks(type, id);
    this.dropObjectRecords('term', id);
    this.changed({ collection: type, op: 'delete', key: id });
    return old;
  }

  // ---- other records ----------------------------------------------------------------------------

  private objectExists(type: string, id: number): boolean {
    if (type === 'post') return this.postTypeOf(id) !== undefined;
    if (type === 'term') return this.t.category.has(id) || this.t.tag.has(id);
    return this.t.users.has(id);
  }

  /** Cross-record rules of one record table (the fixture loader's rules, applied to one write). */
  private checkRecord<N extends RecordTableName>(name: N, r: RecordTables[N]): void {
    const ref = (ok: boolean, field: string, message: string) => {
      if (!ok) throw new StoreError('invalid_reference', `${field}: ${message}`, field);
    };
    const conflict = (clash: unknown, field: string, message: string) => {
      if (clash) throw new StoreError('conflict', `${field}: ${message}`, field);
    };
    switch (name) {
      case 'contactForms': {
        const f = r as ContactForm;
        const other = this.postTypeOf(f.id);
        conflict(other && other !== 'contactForm', 'id', `post ${f.id} is a ${other}`);
        conflict(f.slug !== '' && this.t.contactForms.find((x) => x.id !== f.id && x.slug === f.slug), 'slug', `${JSON.stringify(f.slug)} is used by another contact form`);
        break;
      }
      case 'feedback':
        ref(this.t.contactForms.has((r as FeedbackSubmission).form_id), 'form_id', `no contact form with id ${(r as FeedbackSubmission).form_id}`);
        break;
      case 'seoRedirections':
      case 'seoObjects': {
        const o = r as SeoObject | SeoRedirection;
        ref(this.objectExists(o.objectType, o.objectID), 'objectID', `no ${o.objectType} with id ${o.objectID}`);
        break;
      }
      case 'trackedKeywords': {
        const k = r as TrackedKeyword;
        conflict(this.t.trackedKeywords.find((x) => x.id !== k.id && x.lang === k.lang && x.keyword === k.keyword), 'keyword', `${JSON.stringify(k.keyword)} is already tracked`);
        break;
      }
      case 'pbThemes': {
        const th = r as PageBuilderTheme;
        conflict(th.status === 'active' && this.t.pbThemes.find((x) => x.slug !== th.slug && x.status === 'active'), 'status', 'another theme is active; use activateTheme');
        break;
      }
      case 'lmsTokens':
        ref(this.t.lmsUsers.has((r as LmsToken).username), 'username', `no learning-module user ${JSON.stringify((r as LmsToken).username)}`);
        break;
      case 'translationStrings': {
        const s = r as TranslationString;
        conflict(this.t.translationStrings.find((x) => x.id !== s.id && x.domain === s.domain && x.context === s.context && x.name === s.name), 'name', 'a string with this domain, context and name exists');
        break;
      }
      case 'stringPackages':
        for (const id of (r as StringPackage).stringIds) ref(this.t.translationStrings.has(id), 'stringIds', `no string with id ${id}`);
        break;
      case 'translationJobs': {
        const j = r as TranslationJob;
        ref(j.elementType === 'post' ? this.postTypeOf(j.elementId) !== undefined : this.t.stringPackages.has(j.elementId), 'elementId', `no ${j.elementType} with id ${j.elementId}`);
        conflict(j.sourceLanguageCode === j.targetLanguageCode, 'targetLanguageCode', 'must differ from sourceLanguageCode');
        break;
      }
      case 'sliders': {
        const s = r as Slider;
        conflict(this.t.sliders.find((x) => x.id !== s.id && x.alias === s.alias), 'alias', `${JSON.stringify(s.alias)} is used by another slider`);
        const ids = new Set<number>();
        for (const slide of s.slides) {
          conflict(ids.has(slide.id), 'slides', `slide id ${slide.id} repeats`);
          ids.add(slide.id);
        }
        conflict(this.t.sliders.find((x) => x.id !== s.id && x.slides.some((sl) => ids.has(sl.id))), 'slides', 'a slide id is used by another slider');
        break;
      }
      case 'users': {
        const u = r as UserRecord;
        conflict(this.t.users.find((x) => x.id !== u.id && x.username === u.username), 'username', `${JSON.stringify(u.username)} is taken`);
        conflict(this.t.users.find((x) => x.id !== u.id && x.email.toLowerCase() === u.email.toLowerCase()), 'email', `${JSON.stringify(u.email)} is taken`);
        const admins = this.t.users.values().filter((x) => x.id !== u.id && x.roles.includes('administrator'));
        conflict(!u.roles.includes('administrator') && admins.length === 0, 'roles', 'the site must keep at least one administrator');
        break;
      }
      default:
        break;
    }
  }

  /**
   * Inserts or replaces a record of an add-on (or import-job, user) table after checking it. For a
   * new record with a numeric ID, take the ID from `nextId` (see `insert`).
   */
  put<N extends RecordTableName>(name: N, record: RecordTables[N] | Stored<RecordTables[N]>): Stored<RecordTables[N]> {
    const spec = RECORD_TABLES[name];
    const problems = recordProblems(spec.def, record);
    if (problems.length) throw invalid(spec.def, problems);
    const r = record as RecordTables[N];
    this.checkRecord(name, r);
    const table = this.t[name] as unknown as Table<RecordKeys[N], RecordTables[N]>;
    const key = spec.key(r);
    const existed = table.has(key);
    const stored = table.put(r);
    if (spec.seq && typeof key === 'number' && key >= this.seq[spec.seq]) this.seq[spec.seq] = key + 1;
    if (name === 'sliders') for (const s of (r as Slider).slides) if (s.id >= this.seq.slide) this.seq.slide = s.id + 1;
    this.changed({ collection: name, op: existed ? 'update' : 'create', key });
    return stored;
  }

  /** Allocates the table's next ID and inserts what `build` makes of it, in one synchronous step. */
  insert<N extends RecordTableName>(name: N, build: (id: number) => RecordTables[N]): Stored<RecordTables[N]> {
    const seq = RECORD_TABLES[name].seq;
    if (!seq) throw new StoreError('invalid_value', `${name} is keyed by a caller-chosen key; use put`);
    const id = this.seq[seq];
    const stored = this.put(name, build(id));
    this.seq[seq] = Math.max(this.seq[seq], id + 1);
    return stored;
  }

  /** Removes a record and what depends on it (a form's submissions, a user's tokens, a package's jobs...). */
  remove<N extends RecordTableName>(name: N, key: RecordKeys[N]): Stored<RecordTables[N]> | undefined {
    const table = this.t[name] as unknown as Table<RecordKeys[N], RecordTables[N]>;
    const old = table.get(key);
    if (!old) return undefined;
    if (name === 'users') {
      const id = key as number;
      const authored = [this.t.event, this.t.venue, this.t.organizer].some((t) => t.find((p) => p.author === id));
      if (authored) throw new StoreError('conflict', `user ${id} still authors posts; reassign them first`, 'id');
      const admins = this.t.users.values().filter((u) => u.id !== id && u.roles.includes('administrator'));
      if (admins.length === 0) throw new StoreError('conflict', 'the site must keep at least one administrator', 'id');
    }
    table.delete(key);
    switch (name) {
      case 'contactForms':
        for (const f of this.t.feedback.values()) if (f.form_id === key) this.t.feedback.delete(f.id);
        this.dropObjectRecords('post', key as number);
        break;
      case 'lmsUsers':
        for (const tk of this.t.lmsTokens.values()) if (tk.username === key) this.t.lmsTokens.delete(tk.token);
        break;
      case 'translationStrings':
        for (const p of this.t.stringPackages.values()) {
          if (p.stringIds.includes(key as number)) this.t.stringPackages.put({ ...p, stringIds: p.stringIds.filter((s) => s !== key) });
        }
        break;
      case 'stringPackages':
        for (const j of this.t.translationJobs.values()) if (j.elementType === 'package' && j.elementId === key) this.t.translationJobs.delete(j.id);
        break;
      case 'users':
        this.dropObjectRecords('user', key as number);
        break;
      default:
        break;
    }
    this.changed({ collection: name, op: 'delete', key });
    return old;
  }

  /** Makes one theme active and every other one inactive. */
  activateTheme(slug: string): Stored<PageBuilderTheme> {
    const theme = this.t.pbThemes.get(slug);
    if (!theme) throw new StoreError('not_found', `no theme ${JSON.stringify(slug)}`, 'slug');
    for (const t of this.t.pbThemes.values()) if (t.status === 'active' && t.slug !== slug) this.t.pbThemes.put({ ...t, status: 'inactive' });
    const stored = this.t.pbThemes.put({ ...theme, status: 'active' });
    this.changed({ collection: 'pbThemes', op: 'update', key: slug });
    return stored;
  }

  set<K extends keyof Singletons>(name: K, value: Singletons[K] | DeepReadonly<Singletons[K]>): DeepReadonly<Singletons[K]> {
    const def = SINGLETON_DEFS[name];
    const problems = def ? recordProblems(def, value) : typeof value === 'string' ? [] : ['(record) must be string'];
    if (problems.length) throw invalid(name, problems);
    if (name === 'calendarSettings' && !isKnownTimeZone((value as CalendarSettings).timezone)) {
      throw new StoreError('invalid_value', `timezone: unknown time zone ${JSON.stringify((value as CalendarSettings).timezone)}`, 'timezone');
    }
    this.single = deepFreeze({ ...this.single, [name]: structuredClone(value) } as Singletons);
    this.changed({ collection: name, op: 'update' });
    return this.single[name];
  }

  // ---- whole-state operations -------------------------------------------------------------------

  /**
   * The whole state as plain data, records in ID (insertion) order. Frozen and sharing records with
   * the store, so it is cheap, and it cannot change when the store changes later: compare two with
   * `toEqual` or `diffSnapshots`, or JSON.stringify one for a state file.
   */
  snapshot(): DeepReadonly<StoreData> {
    const t = this.t;
    const s = this.single;
    const base = this.baseline;
    const data = {
      version: 1 as const,
      sequences: { ...this.seq },
      calendar: {
        version: 1 as const,
        ...(base.calendar.generated ? { generated: base.calendar.generated } : {}),
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
        ...(base.addons.generated ? { generated: base.addons.generated } : {}),
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
        ...(base.users.generated ? { generated: base.users.generated } : {}),
        users: t.users.values(),
      },
    };
    // Only the new containers need freezing; the records inside already are.
    return deepFreeze(data as unknown as StoreData);
  }

  /** Back to the fixtures the store was created with (sequences included). */
  reset(): void {
    this.t = buildTables(this.baseline);
    this.single = singletonsOf(this.baseline);
    this.seq = { ...this.baseline.sequences };
    this.indexSlugs();
    this.changed({ collection: '*', op: 'reset' });
  }

  /** An independent store with the same state and baseline; records are shared (they are frozen). */
  clone(options: StoreOptions = { now: this.now }): Store {
    return new Store(this.baseline, options, this);
  }
}

function stripUndefined(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(input)) {
    const v = input[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** A store over a fixture set; `state` (e.g. from a state file) overrides where it starts. */
export function createStore(fixtures: FixtureSet, options: StoreOptions & { state?: StoreData } = {}): Store {
  const baseline = fixturesToData(fixtures);
  return new Store(baseline, options, options.state ?? baseline);
}

// ---- snapshot comparison ------------------------------------------------------------------------

export interface SnapshotDifference {
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
