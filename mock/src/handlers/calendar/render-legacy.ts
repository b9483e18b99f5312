// Records as the legacy namespace `cal/events/v1` shows them (the contract's LegacyEvent, LegacyVenue,
// LegacyOrganizer, LegacyTerm, all `x-basis: assumed`). The shape follows the calendar plugin's own v1 API:
// plain-string title and description, `YYYY-MM-DD HH:MM:SS` dates with `*_details`, and venue, organizer and
// terms nested as whole objects rather than IDs.
import type { CategoryRecord, EventRecord, Lang, OrganizerRecord, TagRecord, VenueRecord } from '../../../../contracts/model/records.ts';
import type { DeepReadonly as R } from '../../store/table.ts';
import { dateDetails, permalink, renderContent, renderExcerpt, renderTitle, TAXONOMY } from './render-shared.ts';
import type { LinkBase } from '../context.ts';

/** What rendering needs to look up besides the record itself. */
export interface LegacyLookup {
  venue(id: number): R<VenueRecord> | undefined;
  organizer(id: number): R<OrganizerRecord> | undefined;
  category(id: number): R<CategoryRecord> | undefined;
  tag(id: number): R<TagRecord> | undefined;
  /** Published events using the term, as WordPress's term count. */
  termCount(kind: 'category' | 'tag', id: number): number;
  defaultLang: Lang;
}

type Json = Record<string, unknown>;

function image(url: string | undefined, id: number): false | Json {
  if (!url) return false;
  const ext = /\.([a-z0-9]+)$/i.exec(url)?.[1]?.toLowerCase() ?? 'jpg';
  return { url, id, extension: ext, width: 1200, height: 800, filesize: 0, sizes: {} };
}

function currencyDetails(cost: string): Json {
  const values = cost.match(/\d+(?:[.,]\d+)?/g)?.map((v) => v.replace(',', '.')) ?? [];
  const symbol = cost.includes('£') ? '£' : cost.includes('₴') || /грн/.test(cost) ? '₴' : cost.includes('€') ? '€' : values.length ? '₴' : '';
  const code = ({ '£': 'GBP', '₴': 'UAH', '€': 'EUR' } as Record<string, string>)[symbol] ?? '';
  return { currency_symbol: symbol, currency_code: code, currency_position: symbol === '₴' ? 'postfix' : 'prefix', values };
}

export function legacyTerm(base: LinkBase, kind: 'category' | 'tag', term: R<CategoryRecord> | R<TagRecord>, count: number): Json {
  const collection = `${base.apiRoot}cal/events/v1/${kind === 'category' ? 'categories' : 'tags'}`;
  const parent = 'parent' in term ? term.parent : 0;
  const urls: Json = parent ? { self: `${collection}/${term.id}`, collection, up: `${collection}/${parent}` } : { self: `${collection}/${term.id}`, collection };
  return {
    id: term.id,
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: TAXONOMY[kind],
    description: term.description,
    parent,
    count,
    filter: 'raw',
    urls,
  };
}

export function legacyVenue(base: LinkBase, v: R<VenueRecord>, lookup: Pick<LegacyLookup, 'defaultLang'>, contentHtml?: string, unlocked = true): Json {
  return {
    id: v.id,
    author: String(v.author),
    status: v.status,
    date: v.date,
    date_utc: v.date_gmt,
    modified: v.modified,
    modified_utc: v.modified_gmt,
    url: permalink(base, 'venue', v, lookup.defaultLang),
    // The Events Calendar's Post_Repository: trim( apply_filters( 'the_title', post_title ) ), texturized like title.rendered
    // without get_the_title()'s "Private: " (checked on the quirky CI site: it&#8217;s, &#8220;q&#8221;).
    venue: renderTitle(v.title),
    slug: v.slug,
    description: unlocked ? (contentHtml ?? renderContent(v.content)) : '',
    image: v.image ? image(v.image, v.featured_media) : undefined,
    show_map: v.show_map,
    show_map_link: v.show_map_link,
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    stateprovince: v.stateprovince,
    geo_lat: v.geo ? v.geo.lat : undefined,
    geo_lng: v.geo ? v.geo.lng : undefined,
  };
}

export function legacyOrganizer(base: LinkBase, o: R<OrganizerRecord>, lookup: Pick<LegacyLookup, 'defaultLang'>, contentHtml?: string, unlocked = true): Json {
  return {
    id: o.id,
    author: String(o.author),
    status: o.status,
    date: o.date,
    date_utc: o.date_gmt,
    modified: o.modified,
    modified_utc: o.modified_gmt,
    url: permalink(base, 'organizer', o, lookup.defaultLang),
    organizer: renderTitle(o.title),
    slug: o.slug,
    description: unlocked ? (contentHtml ?? renderContent(o.content)) : '',
    image: o.image ? image(o.image, o.featured_media) : undefined,
    phone: o.phone,
    website: o.website,
    email: o.email,
  };
}

/**
 * `unlocked`: a password-protected record's description and excerpt are shown (posts.ts unlocks()); otherwise they
 * are '', as The Events Calendar keeps a protected record's text from who has not given its password. The records an
 * event nests are rendered as their own routes would for the same reader, without a password.
 */
export function legacyEvent(base: LinkBase, e: R<EventRecord>, lookup: LegacyLookup, contentHtml?: string, unlocked = true): Json {
  const venues = e.venues.map((id) => lookup.venue(id)).filter((v): v is R<VenueRecord> => v !== undefined);
  const organizers = e.organizers.map((id) => lookup.organizer(id)).filter((o): o is R<OrganizerRecord> => o !== undefined);
  const host = new URL(base.home).host;
  const description = unlocked ? (contentHtml ?? renderContent(e.content)) : '';
  return {
    id: e.id,
    global_id: `${host}?id=${e.id}`,
    global_id_lineage: [`${host}?id=${e.id}`],
    author: String(e.author),
    status: e.status,
    date: e.date,
    date_utc: e.date_gmt,
    modified: e.modified,
    modified_utc: e.modified_gmt,
    url: permalink(base, 'event', e, lookup.defaultLang),
    rest_url: `${base.apiRoot}cal/events/v1/events/${e.id}`,
    title: renderTitle(e.title),
    description,
    excerpt: unlocked ? renderExcerpt(e.excerpt, e.content, description) : '',
    slug: e.slug,
    image: image(e.image, e.featured_media),
    all_day: e.all_day,
    start_date: e.start_date,
    start_date_details: dateDetails(e.start_date),
    end_date: e.end_date,
    end_date_details: dateDetails(e.end_date),
    utc_start_date: e.start_date_utc,
    utc_start_date_details: dateDetails(e.start_date_utc),
    utc_end_date: e.end_date_utc,
    utc_end_date_details: dateDetails(e.end_date_utc),
    timezone: e.timezone,
    timezone_abbr: timezoneAbbr(e.timezone, e.start_date, e.start_date_utc),
    cost: e.cost,
    cost_details: currencyDetails(e.cost),
    website: e.website === '' ? null : e.website,
    show_map: e.show_map,
    show_map_link: e.show_map_link,
    hide_from_listings: e.hide_from_listings,
    sticky: e.sticky,
    featured: e.featured,
    categories: e.categories.flatMap((id) => {
      const t = lookup.category(id);
      return t ? [legacyTerm(base, 'category', t, lookup.termCount('category', id))] : [];
    }),
    tags: e.tags.flatMap((id) => {
      const t = lookup.tag(id);
      return t ? [legacyTerm(base, 'tag', t, lookup.termCount('tag', id))] : [];
    }),
    // The plugin sends one venue object, or an empty list when the event has none.
    venue: venues[0] ? legacyVenue(base, venues[0], lookup) : [],
    organizer: organizers.map((o) => legacyOrganizer(base, o, lookup)),
  };
}

/** A short zone name from the offset at the event's start (`EET`, `GMT+2` style where no name is known). */
function timezoneAbbr(zone: string, local: string, utc: string): string {
  const offsetMin = Math.round((Date.parse(`${local.replace(' ', 'T')}Z`) - Date.parse(`${utc.replace(' ', 'T')}Z`)) / 60000);
  const names: Record<string, Record<number, string>> = {
    'Europe/Kyiv': { 120: 'EET', 180: 'EEST' },
    'Europe/Kiev': { 120: 'EET', 180: 'EEST' },
    'Europe/London': { 0: 'GMT', 60: 'BST' },
    UTC: { 0: 'UTC' },
  };
  const named = names[zone]?.[offsetMin];
  if (named) return named;
  if (Number.isNaN(offsetMin)) return '';
  const sign = offsetMin < 0 ? '-' : '+';
  const h = Math.floor(Math.abs(offsetMin) / 60);
  const m = Math.abs(offsetMin) % 60;
  return `GMT${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}
