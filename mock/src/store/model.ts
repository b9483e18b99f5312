// The store's neutral record model.
//
// Neither namespace's wire shape lives here: `cal/events/v1` and `cal/v1` name and type the same facts
// differently (venue vs title, show_map as string vs boolean, date_utc vs date_gmt, categories vs
// cal_events_cat), so the mock renders these records per namespace. Field names follow WordPress
// storage where the documents offer a choice, because that is what both namespaces are views of.
import type { DateTimeString } from '../../../contracts/wordpress/time.ts';

export type { DateTimeString };

export const LANGS = ['en', 'uk'] as const;
export type Lang = (typeof LANGS)[number];

export const POST_STATUSES = ['publish', 'pending', 'draft', 'future', 'private', 'trash'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
/** What a trashed post goes back to; WordPress keeps it in `_wp_trash_meta_status`. */
export type LiveStatus = Exclude<PostStatus, 'trash'>;

export const OPEN_CLOSED = ['open', 'closed'] as const;
export type OpenClosed = (typeof OPEN_CLOSED)[number];

export const POST_FORMATS = [
  'standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio',
] as const;
export type PostFormat = (typeof POST_FORMATS)[number];


/** Bookkeeping that is not part of either wire shape. */
export interface RecordMeta {
  /** Set by a test suite on records it creates, so it can find and remove them afterwards. */
  createdBy?: string;
  /** Status before trashing, restored by untrash (WordPress `_wp_trash_meta_status`). */
  trashedStatus?: LiveStatus;
  /** Slug before trashing: WordPress renames a trashed post's slug to `<slug>__trashed` to free it. */
  desiredSlug?: string;
}

/** Fields every calendar post type (event, venue, organizer) shares, as WordPress stores posts. */
export interface PostBase {
  id: number;
  /** May be '' for draft and pending posts: WordPress assigns post_name only on publish. */
  slug: string;
  status: PostStatus;
  title: string;
  /** HTML; the legacy namespace calls it `description`. */
  content: string;
  excerpt: string;
  author: number;
  /** Publication date, site time zone. */
  date: DateTimeString;
  date_gmt: DateTimeString;
  modified: DateTimeString;
  modified_gmt: DateTimeString;
  password?: string;
  lang: Lang;
  /** ID of the twin in the other language this record translates; set on the translation, not the original. */
  translation_of?: number;
  /** URL of the featured image (the legacy namespace accepts an ID or a URL; the ID goes to featured_media). */
  image?: string;
  /** Attachment post ID, 0 when none. Attachments are not modelled but their IDs come from the post sequence. */
  featured_media: number;
  comment_status: OpenClosed;
  ping_status: OpenClosed;
  format: PostFormat;
  template: string;
  sticky: boolean;
  meta: RecordMeta;
}

export interface EventRecord extends PostBase {
  /** Wall clock in the event's `timezone`. */
  start_date: DateTimeString;
  end_date: DateTimeString;
  start_date_utc: DateTimeString;
  end_date_utc: DateTimeString;
  /** IANA zone name, e.g. Europe/Kyiv. */
  timezone: string;
  all_day: boolean;
  featured: boolean;
  hide_from_listings: boolean;
  /** Free text as the calendar stores it ('', 'Free', '150', '10–25'). */
  cost: string;
  /** URL or ''. */
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  categories: number[];
  tags: number[];
  venues: number[];
  organizers: number[];
  /** 0 when none; recurring occurrences point at the first occurrence. */
  post_parent: number;
  ticketed: boolean;
}

export interface GeoPoint {
  lat: number;
  lng: number;
}

export interface VenueRecord extends PostBase {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  /** The legacy and current namespaces each have their own combined field; both are kept as given. */
  stateprovince: string;
  state_province: string;
  zip: string;
  phone: string;
  website: string;
  show_map: boolean;
  show_map_link: boolean;
  geo?: GeoPoint;
}

export interface OrganizerRecord extends PostBase {
  phone: string;
  website: string;
  email: string;
}

export interface CategoryRecord {
  id: number;
  name: string;
  slug: string;
  description: string;
  /** 0 for a top-level category. */
  parent: number;
  lang: Lang;
  translation_of?: number;
}

export interface TagRecord {
  id: number;
  name: string;
  slug: string;
  description: string;
  lang: Lang;
  translation_of?: number;
}

export const IMPORT_STATUSES = ['success', 'failed', 'pending'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** An external import, as the import callbacks report it. */
export interface ImportJob {
  /** Word characters, issued by the external import service. */
  import_id: string;
  batch_hash: string;
  status: ImportStatus;
  percentage_complete: number;
  message: string;
  message_slug: string;
  /** Seconds between batches, as configured on the server. */
  interval?: number;
  /** The `status` object of the last batch callback; its shape is not documented. */
  batch_status?: JsonObject;
  updated: DateTimeString;
}

export interface CalendarSettings {
  /** Site time zone: `date`/`modified` fields are in it. */
  timezone: string;
  default_lang: Lang;
}

// ---- add-ons -------------------------------------------------------------------------------------

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface ContactFormMail {
  active: boolean;
  subject: string;
  sender: string;
  recipient: string;
  body: string;
  additional_headers: string;
  attachments: string;
  use_html: boolean;
  exclude_blank: boolean;
}

export interface ContactFormProperties {
  /** Form-tag markup, e.g. `[text* your-name]`. */
  form: string;
  mail: ContactFormMail;
  mail_2: ContactFormMail;
  messages: Record<string, string>;
  additional_settings: string;
}

export interface ContactForm {
  /** Contact forms are posts in WordPress, so their IDs come from the shared post sequence. */
  id: number;
  title: string;
  slug: string;
  /** WordPress locale (en_US, uk). */
  locale: string;
  properties: ContactFormProperties;
}

export const FEEDBACK_STATUSES = ['mail_sent', 'mail_failed', 'validation_failed', 'spam', 'aborted'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

export interface FeedbackSubmission {
  id: number;
  form_id: number;
  submitted_at: DateTimeString;
  status: FeedbackStatus;
  fields: Record<string, string>;
  invalid_fields: { field: string; message: string }[];
}

export type OnOff = 'on' | 'off';
export const SEO_MODES = ['easy', 'advanced', 'custom'] as const;
export type SeoMode = (typeof SEO_MODES)[number];
export const REDIRECTION_TYPES = ['301', '302', '307', '410', '451'] as const;
export type RedirectionType = (typeof REDIRECTION_TYPES)[number];
export const SEO_OBJECT_TYPES = ['post', 'term', 'user'] as const;
export type SeoObjectType = (typeof SEO_OBJECT_TYPES)[number];

export interface SeoRedirection {
  objectID: number;
  objectType: SeoObjectType;
  hasRedirect: boolean;
  redirectionID: string;
  redirectionUrl: string;
  redirectionType: RedirectionType;
}

/** Per-object metadata and structured-data schemas (updateMeta / updateSchemas / updateSeoScore). */
export interface SeoObject {
  objectType: SeoObjectType;
  objectID: number;
  meta: JsonObject;
  schemas: JsonObject;
  /** 0-100, absent until scored. */
  score?: number;
}

export interface TrackedKeyword {
  id: number;
  keyword: string;
  added: DateTimeString;
  lang: Lang;
  /** Analytics figures; absent until the first data arrives. */
  position?: number;
  impressions?: number;
  clicks?: number;
}

export interface SeoState {
  modules: Record<string, OnOff>;
  mode: SeoMode;
  settings: JsonObject;
  redirections: SeoRedirection[];
  objects: SeoObject[];
  trackedKeywords: TrackedKeyword[];
}

export type ActivationStatus = 'inactive' | 'active';

export interface PageBuilderTheme {
  slug: string;
  name: string;
  status: ActivationStatus;
}

export interface PageBuilderPlugin {
  /** The documents omit the eight real slugs; fixtures use neutral `pagebuilder-one-addon-a` ... `-h`. */
  slug: string;
  name: string;
  status: ActivationStatus;
  version: string;
  /** The migration routes accept seven of the eight slugs. */
  migration_supported: boolean;
  migration_state: 'none' | 'migrated' | 'rolled_back';
}

export interface PageBuilderLog {
  id: number;
  time: DateTimeString;
  level: 'debug' | 'info' | 'warning' | 'error';
  source: string;
  message: string;
}

export interface PageBuilderConnection {
  connected: boolean;
  site_domain: string;
  account_email: string;
  connected_at: DateTimeString | null;
  dashboard_widget: 'visible' | 'hidden';
}

export interface PageBuilderState {
  themes: PageBuilderTheme[];
  plugins: PageBuilderPlugin[];
  settings: JsonObject;
  logs: PageBuilderLog[];
  connection: PageBuilderConnection;
}

export interface LmsUser {
  username: string;
  password: string;
}

export interface LmsToken {
  token: string;
  username: string;
  issued_at: DateTimeString;
  expires_at: DateTimeString;
}

export interface LmsState {
  users: LmsUser[];
  tokens: LmsToken[];
}

export const TRANSLATION_STATUSES = ['not_translated', 'waiting', 'in_progress', 'needs_update', 'complete'] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];
export const STRING_PRIORITIES = ['optional', 'low', 'medium', 'high'] as const;
export type StringPriority = (typeof STRING_PRIORITIES)[number];

/** Codes of the string-list `kind` query parameter (integer in the documents, meaning not given). */
export const STRING_KINDS = { gettext: 1, adminText: 2, package: 3 } as const;
/** Codes of the string-list `source` query parameter: how the string was found. */
export const STRING_SOURCES = { scan: 1, autoregister: 2, manual: 3 } as const;

export interface TranslationString {
  id: number;
  kind: number;
  type: 'LINE' | 'AREA' | 'VISUAL';
  source: number;
  domain: string;
  name: string;
  context: string;
  value: string;
  translations: { uk?: { value: string; status: TranslationStatus } };
  status: TranslationStatus;
  priority: StringPriority;
}

export interface StringPackage {
  id: number;
  /** The list query's `type`. */
  kind: string;
  name: string;
  title: string;
  sourceLanguageCode: Lang;
  translationStatuses: { uk?: TranslationStatus };
  stringIds: number[];
}

export interface TranslationJob {
  /** The numeric jobId of `xliff/fetch/{jobId}`. */
  id: number;
  /** ID issued by the external editor, set by `ate/jobs/store`. */
  i18n_job_id?: string;
  elementType: 'post' | 'package';
  elementId: number;
  sourceLanguageCode: Lang;
  targetLanguageCode: Lang;
  status: TranslationStatus;
  created: DateTimeString;
  ate_job_data?: JsonValue[];
}

export interface TranslationSettings {
  autoregisterType: number;
  shouldRegisterBackendStrings: number;
  setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: number;
  setDetectStringsInJS: number;
}

export interface AmsState {
  managerRegistered: boolean;
  translators: { id: number; name: string; email: string; languagePairs: { from: Lang; to: Lang }[] }[];
  managers: { id: number; name: string; email: string }[];
}

export interface TranslationState {
  strings: TranslationString[];
  packages: StringPackage[];
  jobs: TranslationJob[];
  settings: TranslationSettings;
  customXmlConfig: string;
  ams: AmsState;
}

export interface Slide {
  id: number;
  title: string;
  image: string;
  link: string;
  order: number;
  published: boolean;
}

export interface Slider {
  id: number;
  /** Letters, digits, underscore, hyphen (the `{slider}` path parameter). */
  alias: string;
  title: string;
  slides: Slide[];
}

export interface ApplicationPassword {
  uuid: string;
  name: string;
  /** Plain text: the mock compares it as sent; WordPress would store a hash. */
  password: string;
  created: DateTimeString;
}

export interface UserRecord {
  id: number;
  username: string;
  name: string;
  email: string;
  roles: string[];
  application_passwords: ApplicationPassword[];
}

// ---- files ---------------------------------------------------------------------------------------

export interface GeneratedBy {
  generator: string;
  seed: number;
  anchor: string;
}

export interface CalendarFile {
  version: 1;
  generated?: GeneratedBy;
  settings: CalendarSettings;
  events: EventRecord[];
  venues: VenueRecord[];
  organizers: OrganizerRecord[];
  categories: CategoryRecord[];
  tags: TagRecord[];
  importJobs: ImportJob[];
}

export interface AddonsFile {
  version: 1;
  generated?: GeneratedBy;
  contactForms: ContactForm[];
  feedback: FeedbackSubmission[];
  seo: SeoState;
  pageBuilder: PageBuilderState;
  lms: LmsState;
  translation: TranslationState;
  sliders: Slider[];
}

export interface UsersFile {
  version: 1;
  generated?: GeneratedBy;
  users: UserRecord[];
}

/** The three fixture files of a directory, parsed. */
export interface FixtureSet {
  calendar: CalendarFile;
  addons: AddonsFile;
  users: UsersFile;
}

export const FIXTURE_FILES = {
  calendar: 'calendar.json',
  addons: 'addons.json',
  users: 'users.json',
} as const satisfies Record<keyof FixtureSet, string>;

/** Next IDs to hand out. Kept in the state file so IDs of deleted records are never reused (as in MySQL). */
export interface Sequences {
  post: number;
  term: number;
  feedback: number;
  translationString: number;
  stringPackage: number;
  translationJob: number;
  slider: number;
  slide: number;
  keyword: number;
  log: number;
  user: number;
}

/** Whole store state: the fixture files plus sequences. Also the `--state-file` format. */
export interface StoreData extends FixtureSet {
  version: 1;
  sequences: Sequences;
}

export type PostType = 'event' | 'venue' | 'organizer';
export type TermType = 'category' | 'tag';
export interface PostTypeMap {
  event: EventRecord;
  venue: VenueRecord;
  organizer: OrganizerRecord;
}
export interface TermTypeMap {
  category: CategoryRecord;
  tag: TagRecord;
}
