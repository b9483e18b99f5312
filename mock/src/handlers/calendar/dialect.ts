// The calendar's two generations, each spelled out once: what the legacy namespace (`cal/events/v1`, the calendar
// plugin's own v1 API) and the current one (`cal/v1`, built on WordPress's posts controller) call the same facts,
// what their parameters mean and which WordPress rules they follow (000 §2, §4). The handlers read a dialect and never
// ask which generation they serve; the operation table binds each generation's routes to its dialect
// (dialect.test.ts holds that no other file of handlers/calendar/ compares a namespace).
import type { EventRecord, Lang, OrganizerRecord, PostBase, PostType, VenueRecord } from '../../../../contracts/model/records.ts';
import type { DeepReadonly as R } from '../../store/table.ts';
import type { LinkBase } from '../context.ts';
import { calEvent, calOrganizer, calVenue, type CalContext, type EditFacts } from './render-cal.ts';
import { legacyEvent, legacyOrganizer, legacyVenue, type LegacyLookup } from './render-legacy.ts';

/** What a renderer needs besides the record: where links point, the site's language, what an event nests. */
export interface RenderEnv {
  links: LinkBase;
  defaultLang: Lang;
  /** The venues, organizers and terms an event nests, as this reader may see them (legacy events nest them). */
  nested(): LegacyLookup;
  /** What the edit context shows beyond the record: its sample slug and the actions open to who is asking. */
  editFacts(type: PostType, rec: R<PostBase>): EditFacts;
  /** A password-protected record's content and excerpt are shown to this request (posts.ts unlocks()). */
  unlocked: boolean;
}

type Renderer<T> = (env: RenderEnv, rec: R<T>, context: CalContext, contentHtml?: string) => Record<string, unknown>;

/** A date filter of the event list: which bound of an event it holds against. */
type Bound = 'startsAfter' | 'startsBefore' | 'endsAfter' | 'endsBefore';

export interface Dialect {
  /** The namespace its routes are in: `Location` headers point there. */
  readonly namespace: string;
  /** Its name in the render memo's keys. */
  readonly memoName: string;
  /** The request names of the model's fields, where they differ (000 §2.1-2.5): what a write reads. */
  readonly names: {
    readonly content: string;
    readonly dateGmt: string;
    readonly categories: string;
    readonly venues: string;
    readonly organizers: string;
    readonly venueTitle: string;
    readonly organizerTitle: string;
  };
  /** The model's field → the request's name, for refusals that name the parameter (the store speaks the model). */
  readonly requestNames: Readonly<Record<string, string>>;
  /** Event start and end may be sent in UTC too (`start_date_utc`), and `duration` sets the end. */
  readonly utcEdgesAndDuration: boolean;
  /**
   * The post fields of WordPress's posts controller (featured_media, comment_status, ping_status, format, sticky,
   * template, venue state_province); otherwise the plugin's (`image` as an ID or URL, venue stateprovince and
   * show_map flags).
   */
  readonly postsControllerFields: boolean;
  /** Term IDs that name no term are skipped, as handle_terms() (wp_set_object_terms()) does, instead of refused. */
  readonly skipsUnknownTerms: boolean;
  /** What the event list's `start_date` and `end_date` hold against (the other four bounds mean the same in both). */
  readonly listDates: { readonly start_date: Bound; readonly end_date: Bound };
  /** `strict_dates` decides whether a date-time filter keeps its time (the plugin's); otherwise it always does. */
  readonly strictDatesParam: boolean;
  /** Without `start_date` (or `include`) the event list starts today, the plugin's default "now" widened to the day. */
  readonly listStartsToday: boolean;
  /** The event list takes `orderby` and `order`. */
  readonly ordering: boolean;
  /** DELETE takes `force` (bypass the trash). */
  readonly forceDelete: boolean;
  /**
   * Built on WP_REST_Posts_Controller: its author, featured-media and time-zone rules on writes, and its `context`
   * (view, embed, edit) on reads.
   */
  readonly postsController: boolean;
  /** An event's rendering nests other records (venues, organizers, term counts): it depends on more than the event. */
  readonly eventNestsRecords: boolean;
  readonly render: { readonly event: Renderer<EventRecord>; readonly venue: Renderer<VenueRecord>; readonly organizer: Renderer<OrganizerRecord> };
}

/** `cal/events/v1`: the calendar plugin's v1 API, its own controllers. */
export const LEGACY: Dialect = {
  namespace: 'cal/events/v1',
  memoName: 'legacy',
  names: { content: 'description', dateGmt: 'date_utc', categories: 'categories', venues: 'venue', organizers: 'organizer', venueTitle: 'venue', organizerTitle: 'organizer' },
  requestNames: { venues: 'venue', organizers: 'organizer', content: 'description', date_gmt: 'date_utc', featured_media: 'image' },
  utcEdgesAndDuration: false,
  postsControllerFields: false,
  skipsUnknownTerms: false,
  listDates: { start_date: 'endsAfter', end_date: 'startsBefore' },
  strictDatesParam: true,
  listStartsToday: true,
  ordering: false,
  forceDelete: false,
  postsController: false,
  eventNestsRecords: true,
  render: {
    event: (env, rec, _context, html) => legacyEvent(env.links, rec, env.nested(), html, env.unlocked),
    venue: (env, rec, _context, html) => legacyVenue(env.links, rec, env, html, env.unlocked),
    organizer: (env, rec, _context, html) => legacyOrganizer(env.links, rec, env, html, env.unlocked),
  },
};

/** `cal/v1`: the calendar's post types on WordPress's posts controller. */
export const CURRENT: Dialect = {
  namespace: 'cal/v1',
  memoName: 'cal',
  names: { content: 'content', dateGmt: 'date_gmt', categories: 'cal_events_cat', venues: 'venues', organizers: 'organizers', venueTitle: 'title', organizerTitle: 'title' },
  requestNames: { categories: 'cal_events_cat' },
  utcEdgesAndDuration: true,
  postsControllerFields: true,
  skipsUnknownTerms: true,
  listDates: { start_date: 'startsAfter', end_date: 'endsBefore' },
  strictDatesParam: false,
  listStartsToday: false,
  ordering: true,
  forceDelete: true,
  postsController: true,
  eventNestsRecords: false,
  render: {
    event: (env, rec, context, html) => calEvent(env.links, rec, env.defaultLang, context, html, context === 'edit' ? env.editFacts('event', rec) : undefined, env.unlocked),
    venue: (env, rec, context, html) => calVenue(env.links, rec, env.defaultLang, context, html, context === 'edit' ? env.editFacts('venue', rec) : undefined, env.unlocked),
    organizer: (env, rec, context, html) => calOrganizer(env.links, rec, env.defaultLang, context, html, context === 'edit' ? env.editFacts('organizer', rec) : undefined, env.unlocked),
  },
};
