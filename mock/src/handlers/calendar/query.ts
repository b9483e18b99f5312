// The list filters of both calendar namespaces, as pure functions over stored records. Parameters arrive
// validated and coerced (numbers are numbers, lists are lists); date parameters are parsed by the caller so
// that an unreadable one can be reported as WordPress reports it.
import type { CategoryRecord, EventRecord, Lang, OrganizerRecord, PostBase, TagRecord, VenueRecord } from '../../../../contracts/model/records.ts';
import type { DeepReadonly as R } from '../../store/table.ts';
import type { DateBound } from './dates.ts';

type Event = R<EventRecord>;

/** Case-insensitive substring match, the way MySQL's `LIKE '%term%'` behaves with a _ci collation. */
function matchesSearch(term: string, ...fields: string[]): boolean {
  const needle = term.trim().toLowerCase();
  if (needle === '') return true;
  return fields.some((f) => f.toLowerCase().includes(needle));
}

/** MySQL's `LIKE '%term%'` under a _ci collation, the term as given. */
function likeCi(term: string, ...fields: string[]): boolean {
  const needle = term.toLowerCase();
  return fields.some((f) => f.toLowerCase().includes(needle));
}

function cmpBound(eventWall: string, eventUtc: string, b: DateBound): number {
  const v = b.utc ? eventUtc : eventWall;
  return v < b.value ? -1 : v > b.value ? 1 : 0;
}

export interface EventBounds {
  /** Event starts at or after. */
  startsAfter?: DateBound;
  /** Event starts at or before. */
  startsBefore?: DateBound;
  /** Event ends at or after. */
  endsAfter?: DateBound;
  /** Event ends at or before. */
  endsBefore?: DateBound;
}

interface EventFilter extends EventBounds {
  lang: Lang;
  statuses: readonly string[];
  search?: string;
  /** Any of these categories (or a descendant of one). */
  categories?: readonly number[];
  tags?: readonly number[];
  /** None of these tags (core's tags_exclude: a tax_query NOT IN). */
  tagsExclude?: readonly number[];
  venues?: readonly number[];
  organizers?: readonly number[];
  featured?: boolean;
  include?: readonly number[];
  postParent?: number;
  ticketed?: boolean;
  /** Legacy `geoloc`: the event's venue has coordinates. */
  geoloc?: boolean;
  venueHasGeo?: (id: number) => boolean;
}

function anyOf(have: readonly number[], want: readonly number[] | undefined): boolean {
  if (!want || want.length === 0) return true;
  return have.some((id) => want.includes(id));
}

/** Category IDs plus all their descendants, as WordPress's tax_query with include_children. */
export function withDescendants(ids: readonly number[], categories: readonly R<CategoryRecord>[]): number[] {
  const out = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of categories) {
      if (c.parent && out.has(c.parent) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
    }
  }
  return [...out];
}

export function eventMatches(e: Event, f: EventFilter): boolean {
  if (e.lang !== f.lang) return false;
  if (!f.statuses.includes(e.status)) return false;
  if (f.include && f.include.length > 0 && !f.include.includes(e.id)) return false;
  if (f.startsAfter && cmpBound(e.start_date, e.start_date_utc, f.startsAfter) < 0) return false;
  if (f.startsBefore && cmpBound(e.start_date, e.start_date_utc, f.startsBefore) > 0) return false;
  if (f.endsAfter && cmpBound(e.end_date, e.end_date_utc, f.endsAfter) < 0) return false;
  if (f.endsBefore && cmpBound(e.end_date, e.end_date_utc, f.endsBefore) > 0) return false;
  if (f.search !== undefined && !matchesSearch(f.search, e.title, e.content, e.excerpt)) return false;
  if (!anyOf(e.categories, f.categories)) return false;
  if (!anyOf(e.tags, f.tags)) return false;
  if (f.tagsExclude && e.tags.some((t) => f.tagsExclude!.includes(t))) return false;
  if (!anyOf(e.venues, f.venues)) return false;
  if (!anyOf(e.organizers, f.organizers)) return false;
  if (f.featured !== undefined && e.featured !== f.featured) return false;
  if (f.postParent !== undefined && e.post_parent !== f.postParent) return false;
  if (f.ticketed !== undefined && e.ticketed !== f.ticketed) return false;
  if (f.geoloc !== undefined && f.venueHasGeo) {
    const has = e.venues.some((id) => f.venueHasGeo!(id));
    if (has !== f.geoloc) return false;
  }
  return true;
}

export type EventOrderBy = 'date' | 'event_date' | 'title' | 'menu_order' | 'modified';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function eventComparator(orderby: EventOrderBy, order: 'ASC' | 'DESC'): (a: Event, b: Event) => number {
  const sign = order === 'DESC' ? -1 : 1;
  const key = (e: Event): string =>
    orderby === 'date' ? e.date : orderby === 'modified' ? e.modified : orderby === 'event_date' ? e.start_date : '';
  return (a, b) => {
    let c = 0;
    if (orderby === 'title') c = collator.compare(a.title, b.title);
    else if (orderby === 'menu_order') c = 0;
    else {
      const x = key(a);
      const y = key(b);
      c = x < y ? -1 : x > y ? 1 : 0;
    }
    return sign * (c !== 0 ? c : a.id - b.id);
  };
}

interface LinkedFilter {
  lang: Lang;
  statuses: readonly string[];
  search?: string;
  /** Records related to this event. */
  event?: R<EventRecord>;
  hasEvents?: boolean;
  onlyWithUpcoming?: boolean;
}

/** Venue and organizer lists: which events point at a record decides `event`, `has_events`, `only_with_upcoming`. */
export function linkedMatches(
  r: R<PostBase>,
  f: LinkedFilter,
  linkedIds: (event: Event) => readonly number[],
  events: readonly Event[],
  nowWall: string,
  searchFields: string[],
): boolean {
  if (r.lang !== f.lang) return false;
  if (!f.statuses.includes(r.status)) return false;
  if (f.search !== undefined && !matchesSearch(f.search, r.title, r.content, ...searchFields)) return false;
  if (f.event && !linkedIds(f.event).includes(r.id)) return false;
  if (f.hasEvents !== undefined || f.onlyWithUpcoming) {
    const own = events.filter((e) => e.status !== 'trash' && linkedIds(e).includes(r.id));
    if (f.hasEvents !== undefined && (own.length > 0) !== f.hasEvents) return false;
    if (f.onlyWithUpcoming && !own.some((e) => e.end_date >= nowWall)) return false;
  }
  return true;
}

export function venueSearchFields(v: R<VenueRecord>): string[] {
  return [v.address, v.city, v.country, v.province, v.state, v.zip, v.phone, v.website];
}

export function organizerSearchFields(o: R<OrganizerRecord>): string[] {
  return [o.phone, o.website, o.email];
}

interface TermFilter {
  lang: Lang;
  search?: string;
  include?: readonly number[];
  exclude?: readonly number[];
  parent?: number;
  /** Terms assigned to this event. */
  event?: R<EventRecord>;
  slug?: string;
  hideEmpty: boolean;
}

export function termMatches(t: R<CategoryRecord> | R<TagRecord>, kind: 'category' | 'tag', f: TermFilter, count: number): boolean {
  if (t.lang !== f.lang) return false;
  if (f.include && f.include.length > 0 && !f.include.includes(t.id)) return false;
  if (f.exclude && f.exclude.includes(t.id)) return false;
  if (f.parent !== undefined && ('parent' in t ? t.parent : 0) !== f.parent) return false;
  if (f.slug !== undefined && t.slug !== f.slug) return false;
  // WP_Term_Query: name or slug LIKE '%search%' as the search arrives (the controller has sanitize_text_field()ed it:
  // terms.ts); no trim here, so a no-break space around a word stays part of what is searched for.
  if (f.search !== undefined && !likeCi(f.search, t.name, t.slug)) return false;
  if (f.event && !(kind === 'category' ? f.event.categories : f.event.tags).includes(t.id)) return false;
  if (f.hideEmpty && count === 0) return false;
  return true;
}

export function termComparator(
  orderby: string,
  order: 'asc' | 'desc',
  counts: ReadonlyMap<number, number>,
  include: readonly number[] | undefined,
): (a: R<CategoryRecord> | R<TagRecord>, b: R<CategoryRecord> | R<TagRecord>) => number {
  const sign = order === 'desc' ? -1 : 1;
  return (a, b) => {
    let c: number;
    switch (orderby) {
      case 'id':
      case 'term_id':
      case 'term_group':
      case 'none':
        c = a.id - b.id;
        break;
      case 'slug':
        c = collator.compare(a.slug, b.slug);
        break;
      case 'description':
        c = collator.compare(a.description, b.description);
        break;
      case 'count':
        c = (counts.get(a.id) ?? 0) - (counts.get(b.id) ?? 0);
        break;
      case 'parent':
        c = ('parent' in a ? a.parent : 0) - ('parent' in b ? b.parent : 0);
        break;
      case 'include':
        c = include ? include.indexOf(a.id) - include.indexOf(b.id) : 0;
        break;
      default:
        c = collator.compare(a.name, b.name);
    }
    return sign * (c !== 0 ? c : a.id - b.id);
  };
}

