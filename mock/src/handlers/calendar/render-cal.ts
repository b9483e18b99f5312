// Records as `cal/v1` shows them (the contract's CalEvent, CalVenue, CalOrganizer, `x-basis: assumed`): the
// wp/v2 post shape (sample 22: `title.rendered`, `content.protected`, RFC 3339 dates without offset, `meta: []`,
// `_links` with `curies`), plus the calendar's fields under the names §2.5 gives them. Links only point at
// routes this interface has, so `_embed` can follow every embeddable one.
import type { EventRecord, Lang, OrganizerRecord, PostBase, VenueRecord } from '../../store/model.ts';
import type { DeepReadonly as R } from '../../store/table.ts';
import { permalink, POST_TYPE, renderContent, renderExcerpt, rfc3339, TAXONOMY, type LinkBase } from './render-shared.ts';

type Json = Record<string, unknown>;
type Kind = 'event' | 'venue' | 'organizer';

const COLLECTION = { event: 'events', venue: 'venues', organizer: 'organizers' } as const;

/** `edit` adds the raw values WordPress shows to someone who may edit (every write answers in that context). */
export type CalContext = 'view' | 'edit';

function postFields(base: LinkBase, kind: Kind, p: R<PostBase>, defaultLang: Lang, context: CalContext): Json {
  const link = permalink(base, kind, p, defaultLang);
  const edit = context === 'edit';
  const isProtected = p.password !== undefined && p.password !== '';
  return {
    id: p.id,
    date: rfc3339(p.date),
    date_gmt: rfc3339(p.date_gmt),
    guid: edit ? { rendered: `${base.home}/?post_type=${POST_TYPE[kind]}&p=${p.id}`, raw: `${base.home}/?post_type=${POST_TYPE[kind]}&p=${p.id}` } : { rendered: `${base.home}/?post_type=${POST_TYPE[kind]}&p=${p.id}` },
    modified: rfc3339(p.modified),
    modified_gmt: rfc3339(p.modified_gmt),
    ...(edit ? { password: p.password ?? '' } : {}),
    slug: p.slug,
    status: p.status,
    type: POST_TYPE[kind],
    link,
    title: edit ? { raw: p.title, rendered: p.title } : { rendered: p.title },
    content: edit ? { raw: p.content, rendered: renderContent(p.content), protected: isProtected, block_version: p.content.includes('<!-- wp:') ? 1 : 0 } : { rendered: renderContent(p.content), protected: isProtected },
    excerpt: edit ? { raw: p.excerpt, rendered: renderExcerpt(p.excerpt), protected: isProtected } : { rendered: renderExcerpt(p.excerpt), protected: isProtected },
    author: p.author,
    featured_media: p.featured_media,
    comment_status: p.comment_status,
    ping_status: p.ping_status,
    sticky: p.sticky,
    template: p.template,
    format: p.format,
    meta: [],
  };
}

function links(base: LinkBase, kind: Kind, id: number, extra: Json = {}): Json {
  const collection = `${base.apiRoot}cal/v1/${COLLECTION[kind]}`;
  return {
    self: [{ href: `${collection}/${id}` }],
    collection: [{ href: collection }],
    ...extra,
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

export function calEvent(base: LinkBase, e: R<EventRecord>, defaultLang: Lang, context: CalContext = 'view'): Json {
  const start = Date.parse(`${e.start_date_utc.replace(' ', 'T')}Z`);
  const end = Date.parse(`${e.end_date_utc.replace(' ', 'T')}Z`);
  const extra: Json = {};
  if (e.venues.length) extra.venue = e.venues.map((id) => ({ embeddable: true, href: `${base.apiRoot}cal/v1/venues/${id}` }));
  if (e.organizers.length) extra.organizer = e.organizers.map((id) => ({ embeddable: true, href: `${base.apiRoot}cal/v1/organizers/${id}` }));
  extra['wp:term'] = [
    { taxonomy: TAXONOMY.category, embeddable: true, href: `${base.apiRoot}cal/events/v1/categories?event=${e.id}&hide_empty=0` },
    { taxonomy: TAXONOMY.tag, embeddable: true, href: `${base.apiRoot}cal/events/v1/tags?event=${e.id}&hide_empty=0` },
  ];
  return {
    ...postFields(base, 'event', e, defaultLang, context),
    tags: e.tags,
    cal_events_cat: e.categories,
    start_date: e.start_date,
    start_date_utc: e.start_date_utc,
    end_date: e.end_date,
    end_date_utc: e.end_date_utc,
    timezone: e.timezone,
    duration: Number.isNaN(start) || Number.isNaN(end) ? 0 : Math.max(0, Math.round((end - start) / 1000)),
    all_day: e.all_day,
    featured: e.featured,
    cost: e.cost,
    organizers: e.organizers,
    venues: e.venues,
    _links: links(base, 'event', e.id, extra),
  };
}

export function calVenue(base: LinkBase, v: R<VenueRecord>, defaultLang: Lang, context: CalContext = 'view'): Json {
  return {
    ...postFields(base, 'venue', v, defaultLang, context),
    tags: [],
    address: v.address,
    country: v.country,
    city: v.city,
    state_province: v.state_province,
    state: v.state,
    province: v.province,
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    _links: links(base, 'venue', v.id),
  };
}

export function calOrganizer(base: LinkBase, o: R<OrganizerRecord>, defaultLang: Lang, context: CalContext = 'view'): Json {
  return {
    ...postFields(base, 'organizer', o, defaultLang, context),
    tags: [],
    phone: o.phone,
    website: o.website,
    email: o.email,
    _links: links(base, 'organizer', o.id),
  };
}
