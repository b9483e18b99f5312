// Records as `cal/v1` shows them (the contract's CalEvent, CalVenue, CalOrganizer, `x-basis: assumed`): the
// wp/v2 post shape (sample 22: `title.rendered`, `content.protected`, RFC 3339 dates without offset, `meta: []`,
// `_links` with `curies`), plus the calendar's fields under the names §2.5 gives them. Links only point at
// routes this interface has, so `_embed` can follow every embeddable one.
import type { EventRecord, Lang, OrganizerRecord, PostBase, VenueRecord } from '../../../../contracts/model/records.ts';
import type { DeepReadonly as R } from '../../store/table.ts';
import { permalink, storedGuid, permalinkTemplate, POST_TYPE, renderContent, renderExcerpt, renderTitle, rfc3339, TAXONOMY } from './render-shared.ts';
import type { LinkBase } from '../context.ts';
import { editableSlug } from '../../../../contracts/wordpress/slug.ts';

type Json = Record<string, unknown>;
type Kind = 'event' | 'venue' | 'organizer';

const COLLECTION = { event: 'events', venue: 'venues', organizer: 'organizers' } as const;

/**
 * The posts controller's `context`: `edit` adds the raw values WordPress shows to someone who may edit (every write
 * answers in it), `embed` keeps the fields an embedded record shows (filter_response_by_context()).
 */
export type CalContext = 'view' | 'embed' | 'edit';

/**
 * What the edit context shows that depends on more than the record: get_sample_permalink()'s slug (the one a draft
 * would be published under, unique among the others) and get_available_actions()'s `wp:action-*` links, which
 * depend on who asks. The caller works them out; the renderers stay pure.
 */
export interface EditFacts {
  generatedSlug: string;
  /** The rels, compacted (`wp:action-publish`), in get_available_actions()'s order. */
  actions: readonly string[];
}

/**
 * get_available_actions() for a cal/v1 post type: publish_posts, unfiltered_html, edit_others_posts (the types
 * support authors), then per taxonomy (post_tag, flat: creating a tag needs assign_terms, edit_posts; the event
 * categories, hierarchical: edit_terms, manage_categories), in get_object_taxonomies()'s order.
 */
export function availableActions(kind: Kind, can: (capability: 'publish_posts' | 'unfiltered_html' | 'edit_others_posts' | 'edit_posts' | 'manage_categories') => boolean): string[] {
  const rels: string[] = [];
  if (can('publish_posts')) rels.push('wp:action-publish');
  if (can('unfiltered_html')) rels.push('wp:action-unfiltered-html');
  if (can('edit_others_posts')) rels.push('wp:action-assign-author');
  if (can('edit_posts')) rels.push('wp:action-create-tags', 'wp:action-assign-tags');
  if (kind === 'event') {
    if (can('manage_categories')) rels.push(`wp:action-create-${TAXONOMY.category}`);
    if (can('edit_posts')) rels.push(`wp:action-assign-${TAXONOMY.category}`);
  }
  return rels;
}

/** The fields of the posts controller's item schema that carry the `embed` context, in their order. */
const EMBED_FIELDS = ['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links'] as const;

/** filter_response_by_context( $data, 'embed' ): the calendar's own fields are registered for view and edit only. */
function embedded(view: Json): Json {
  const out: Json = {};
  for (const k of EMBED_FIELDS) if (view[k] !== undefined) out[k] = view[k];
  return out;
}

/** The wp/v2 post fields every cal/v1 record starts with. Values only: each renderer writes one object literal,
 * because V8 builds a literal with all its keys far faster than a spread of a shared part (5 us per record). */
function postValues(base: LinkBase, kind: Kind, p: R<PostBase>, defaultLang: Lang, context: CalContext, contentHtml?: string, editFacts?: EditFacts, unlocked = false) {
  const edit = context === 'edit';
  const isProtected = p.password !== undefined && p.password !== '';
  const guid = storedGuid(base, kind, p, defaultLang);
  // post_password_required(): in the view context a protected post's content and excerpt print as '' - for an
  // administrator too (no password cookie on a REST request) - unless the read brought the right `password`
  // (`unlocked`); the edit context (every write's answer) shows them.
  const hidden = isProtected && !edit && !unlocked;
  const content = hidden ? '' : (contentHtml ?? renderContent(p.content));
  const excerpt = hidden ? '' : renderExcerpt(p.excerpt, p.content, content);
  const title = renderTitle(p.title, p.status);
  return {
    guid: edit ? { rendered: guid, raw: guid } : { rendered: guid },
    // Absent (undefined, left out by JSON) unless the context is edit.
    password: edit ? (p.password ?? '') : undefined,
    link: permalink(base, kind, p, defaultLang),
    title: edit ? { raw: p.title, rendered: title } : { rendered: title },
    content: edit ? { raw: p.content, rendered: content, protected: isProtected, block_version: p.content.includes('<!-- wp:') ? 1 : 0 } : { rendered: content, protected: isProtected },
    excerpt: edit ? { raw: p.excerpt, rendered: excerpt, protected: isProtected } : { rendered: excerpt, protected: isProtected },
    // Absent unless the context is edit (the calendar's post types are public and viewable).
    permalinkTemplate: edit ? permalinkTemplate(base, kind, p, defaultLang) : undefined,
    generatedSlug: edit ? (editFacts?.generatedSlug ?? editableSlug(p.slug)) : undefined,
  };
}

/** The record's `_links`; the edit context's action links point at the record itself, before `curies`. */
function links(base: LinkBase, kind: Kind, id: number, extra: Json | undefined, actions: readonly string[] | undefined): Json {
  const collection = `${base.apiRoot}cal/v1/${COLLECTION[kind]}`;
  const self = `${collection}/${id}`;
  const out: Json = { self: [{ href: self }], collection: [{ href: collection }] };
  if (extra) for (const k of Object.keys(extra)) out[k] = extra[k];
  if (actions) for (const rel of actions) out[rel] = [{ href: self }];
  out.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return out;
}

/**
 * A wp:term link per taxonomy of the type (WP_REST_Posts_Controller::prepare_links()): venues and organizers carry
 * post_tag (their `tags` field), so their records link it as an event does (live :8090: wp/v2/tags?post=<id>).
 */
const tagsLink = (base: LinkBase, id: number): Json => ({ taxonomy: TAXONOMY.tag, embeddable: true, href: `${base.apiRoot}cal/events/v1/tags?event=${id}&hide_empty=0` });

export function calEvent(base: LinkBase, e: R<EventRecord>, defaultLang: Lang, context: CalContext = 'view', contentHtml?: string, editFacts?: EditFacts, unlocked = false): Json {
  const start = Date.parse(`${e.start_date_utc.replace(' ', 'T')}Z`);
  const end = Date.parse(`${e.end_date_utc.replace(' ', 'T')}Z`);
  const extra: Json = {};
  if (e.venues.length) extra.venue = e.venues.map((id) => ({ embeddable: true, href: `${base.apiRoot}cal/v1/venues/${id}` }));
  if (e.organizers.length) extra.organizer = e.organizers.map((id) => ({ embeddable: true, href: `${base.apiRoot}cal/v1/organizers/${id}` }));
  extra['wp:term'] = [
    { taxonomy: TAXONOMY.category, embeddable: true, href: `${base.apiRoot}cal/events/v1/categories?event=${e.id}&hide_empty=0` },
    tagsLink(base, e.id),
  ];
  const v = postValues(base, 'event', e, defaultLang, context, contentHtml, editFacts, unlocked);
  const data: Json = {
    id: e.id, date: rfc3339(e.date), date_gmt: rfc3339(e.date_gmt), guid: v.guid, modified: rfc3339(e.modified), modified_gmt: rfc3339(e.modified_gmt),
    password: v.password, slug: e.slug, status: e.status, type: POST_TYPE.event, link: v.link, title: v.title, content: v.content, excerpt: v.excerpt,
    author: e.author, featured_media: e.featured_media, comment_status: e.comment_status, ping_status: e.ping_status, sticky: e.sticky,
    template: e.template, format: e.format, meta: [],
    tags: e.tags,
    cal_events_cat: e.categories,
    permalink_template: v.permalinkTemplate,
    generated_slug: v.generatedSlug,
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
    _links: links(base, 'event', e.id, extra, editFacts?.actions),
  };
  return context === 'embed' ? embedded(data) : data;
}

export function calVenue(base: LinkBase, r: R<VenueRecord>, defaultLang: Lang, context: CalContext = 'view', contentHtml?: string, editFacts?: EditFacts, unlocked = false): Json {
  const v = postValues(base, 'venue', r, defaultLang, context, contentHtml, editFacts, unlocked);
  const data: Json = {
    id: r.id, date: rfc3339(r.date), date_gmt: rfc3339(r.date_gmt), guid: v.guid, modified: rfc3339(r.modified), modified_gmt: rfc3339(r.modified_gmt),
    password: v.password, slug: r.slug, status: r.status, type: POST_TYPE.venue, link: v.link, title: v.title, content: v.content, excerpt: v.excerpt,
    author: r.author, featured_media: r.featured_media, comment_status: r.comment_status, ping_status: r.ping_status, sticky: r.sticky,
    template: r.template, format: r.format, meta: [],
    tags: [],
    permalink_template: v.permalinkTemplate,
    generated_slug: v.generatedSlug,
    address: r.address,
    country: r.country,
    city: r.city,
    state_province: r.state_province,
    state: r.state,
    province: r.province,
    zip: r.zip,
    phone: r.phone,
    website: r.website,
    _links: links(base, 'venue', r.id, { 'wp:term': [tagsLink(base, r.id)] }, editFacts?.actions),
  };
  return context === 'embed' ? embedded(data) : data;
}

export function calOrganizer(base: LinkBase, o: R<OrganizerRecord>, defaultLang: Lang, context: CalContext = 'view', contentHtml?: string, editFacts?: EditFacts, unlocked = false): Json {
  const v = postValues(base, 'organizer', o, defaultLang, context, contentHtml, editFacts, unlocked);
  const data: Json = {
    id: o.id, date: rfc3339(o.date), date_gmt: rfc3339(o.date_gmt), guid: v.guid, modified: rfc3339(o.modified), modified_gmt: rfc3339(o.modified_gmt),
    password: v.password, slug: o.slug, status: o.status, type: POST_TYPE.organizer, link: v.link, title: v.title, content: v.content, excerpt: v.excerpt,
    author: o.author, featured_media: o.featured_media, comment_status: o.comment_status, ping_status: o.ping_status, sticky: o.sticky,
    template: o.template, format: o.format, meta: [],
    tags: [],
    permalink_template: v.permalinkTemplate,
    generated_slug: v.generatedSlug,
    phone: o.phone,
    website: o.website,
    email: o.email,
    _links: links(base, 'organizer', o.id, { 'wp:term': [tagsLink(base, o.id)] }, editFacts?.actions),
  };
  return context === 'embed' ? embedded(data) : data;
}
