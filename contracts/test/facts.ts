// Facts from the two documents, written down in this project's own words, one row per parameter constraint.
// The tests check that the contract says each of them, and that the compiled validators accept and reject
// the values listed (wire values: strings as a query string carries them, JSON values for bodies).

export interface Fact {
  /** `METHOD /path` as in the inventory */
  op: string;
  in: 'path' | 'query' | 'body';
  param: string;
  /** where in the documents */
  source: string;
  expect: {
    type?: string;
    default?: unknown;
    enum?: unknown[];
    minimum?: number;
    maximum?: number;
    pattern?: string;
    format?: string;
    uniqueItems?: boolean;
    maxItems?: number;
    required?: boolean;
    itemsType?: string;
    itemsEnum?: unknown[];
    untyped?: boolean;
  };
  accept?: unknown[];
  reject?: unknown[];
}

const LOCAL_DT = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';
const STATUSES = ['publish', 'pending', 'draft', 'future', 'private'];

export const FACTS: Fact[] = [
  // cal/v1 lists: 000 §4.2.1, §4.2.2, §8
  { op: 'GET /cal/v1/events', in: 'query', param: 'per_page', source: '000 §4.2.1, §8', expect: { type: 'integer', default: 10, minimum: 1, maximum: 100 }, accept: ['1', '100', '10', '5.0'], reject: ['0', '101', 'abc', '2.5', ''] },
  { op: 'GET /cal/v1/events', in: 'query', param: 'page', source: '000 §4.2.1', expect: { type: 'integer', default: 1, minimum: 1 }, accept: ['1', '999'], reject: ['0', '-1', 'x'] },
  { op: 'GET /cal/v1/events', in: 'query', param: 'status', source: '000 §4.2.1', expect: { type: 'array', uniqueItems: true, default: ['publish'], itemsEnum: STATUSES }, accept: ['publish', 'publish,draft', ['future', 'private']], reject: ['publish,publish', 'trash', 'publish,bogus'] },
  { op: 'GET /cal/v1/events', in: 'query', param: 'orderby', source: '000 §4.2.1', expect: { type: 'string', default: 'event_date', enum: ['date', 'event_date', 'title', 'menu_order', 'modified'] }, accept: ['title'], reject: ['rand', 'Title'] },
  { op: 'GET /cal/v1/events', in: 'query', param: 'order', source: '000 §4.2.1', expect: { type: 'string', default: 'ASC', enum: ['ASC', 'DESC'] }, accept: ['DESC'], reject: ['desc', 'up'] },
  { op: 'GET /cal/v1/events', in: 'query', param: 'start_date', source: '000 §2.5, §4.2.1', expect: { type: 'string' }, accept: ['2026-11-22T10:00:00', '2026-11-22 10:00:00', '2026-11-22T10:00:00Z', '2026-11-22 10:00:00.250+02:00'], reject: ['2026-11-22', '22/11/2026 10:00', '2026-11-22T10:00', '2026-13-01 10:00:00', '2026-11-22  10:00:00'] },
  { op: 'GET /cal/v1/events', in: 'query', param: 'categories', source: '000 §4.2.1', expect: { type: 'array', uniqueItems: true, itemsType: 'integer' }, accept: ['1,2,3', ['4', '5']], reject: ['1,1', 'a,b'] },
  { op: 'GET /cal/v1/events', in: 'query', param: 'featured', source: '000 §4.2.1', expect: { type: 'boolean' }, accept: ['true', 'false', '1', '0', 'TRUE'], reject: ['yes', '2'] },
  { op: 'GET /cal/v1/venues', in: 'query', param: 'per_page', source: '000 §4.2.2', expect: { type: 'integer', default: 10, minimum: 1, maximum: 100 }, accept: ['1', '100'], reject: ['0', '101'] },
  { op: 'GET /cal/v1/organizers', in: 'query', param: 'status', source: '000 §4.2.2', expect: { type: 'array', uniqueItems: true, default: ['publish'], itemsEnum: STATUSES } },
  { op: 'GET /cal/v1/organizers', in: 'query', param: 'has_events', source: '000 §4.2.2', expect: { type: 'boolean' } },
  { op: 'DELETE /cal/v1/events/{id}', in: 'query', param: 'force', source: '000 §3, §4.2', expect: { type: 'boolean', default: false } },
  { op: 'GET /cal/v1/events/{id}', in: 'path', param: 'id', source: '000 §4', expect: { pattern: '^[0-9]+$', required: true }, accept: ['1', '0042'], reject: ['abc', '1.5', '-1', ''] },
  // namespace indexes: "namespace (default the namespace itself)", 000 §4.1–4.3, 001 §4
  { op: 'GET /cal/v1', in: 'query', param: 'namespace', source: '000 §4.2', expect: { untyped: true, default: 'cal/v1' } },
  { op: 'GET /cal/events/v1', in: 'query', param: 'namespace', source: '000 §4.1', expect: { untyped: true, default: 'cal/events/v1' } },
  { op: 'GET /seo/v1/an', in: 'query', param: 'namespace', source: '001 §4', expect: { untyped: true, default: 'seo/v1/an' } },
  { op: 'GET /sliderrevolution', in: 'query', param: 'context', source: '001 §4', expect: { untyped: true, default: 'view' } },
  // cal/v1 bodies: 000 §2.5
  { op: 'POST /cal/v1/events', in: 'body', param: 'start_date', source: '000 §2.5', expect: { type: 'string', pattern: LOCAL_DT }, accept: ['2026-11-22 09:30:00'], reject: ['2026-11-22T09:30:00', '2026-11-22 9:30:00', '2026-11-22 09:30', 20261122] },
  { op: 'POST /cal/v1/events', in: 'body', param: 'end_date_utc', source: '000 §2.5', expect: { type: 'string', pattern: LOCAL_DT } },
  { op: 'POST /cal/v1/events', in: 'body', param: 'date', source: '000 §2.5', expect: { type: 'string' }, accept: ['2026-11-22T09:30:00', '2026-11-22 09:30:00'], reject: ['yesterday'] },
  { op: 'POST /cal/v1/events', in: 'body', param: 'status', source: '000 §2.5, §3', expect: { type: 'string', default: 'publish', enum: STATUSES }, accept: ['draft'], reject: ['trash', 'published'] },
  { op: 'POST /cal/v1/events', in: 'body', param: 'comment_status', source: '000 §2.5', expect: { type: 'string', default: 'open', enum: ['open', 'closed'] } },
  { op: 'POST /cal/v1/events', in: 'body', param: 'format', source: '000 §2.5', expect: { type: 'string', default: 'standard', enum: ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] } },
  { op: 'POST /cal/v1/events', in: 'body', param: 'tags', source: '000 §2.5', expect: { type: 'array', uniqueItems: true, itemsType: 'integer' }, accept: [[1, 2], '3,4'], reject: [[1, 1], ['x']] },
  { op: 'POST /cal/v1/events', in: 'body', param: 'cal_events_cat', source: '000 §2.5', expect: { type: 'array', uniqueItems: true, itemsType: 'integer' } },
  { op: 'POST /cal/v1/events', in: 'body', param: 'venues', source: '000 §2.5', expect: { type: 'array', uniqueItems: true, itemsType: 'integer' } },
  { op: 'POST /cal/v1/events', in: 'body', param: 'duration', source: '000 §2.5', expect: { type: 'integer' }, accept: [3600, '3600'], reject: ['an hour', 1.5] },
  { op: 'POST /cal/v1/events', in: 'body', param: 'cost', source: '000 §2.5', expect: { type: 'string' }, accept: ['10 UAH'], reject: [10] },
  { op: 'POST /cal/v1/organizers', in: 'body', param: 'email', source: '000 §2.5', expect: { type: 'string', format: 'email' }, accept: ['a@example.org'], reject: ['not-an-email'] },
  { op: 'POST /cal/v1/organizers', in: 'body', param: 'website', source: '000 §2.5', expect: { type: 'string', format: 'uri' }, accept: ['https://example.org/x'], reject: ['example dot org'] },
  { op: 'POST /cal/v1/organizers', in: 'body', param: 'phone', source: '000 §2.5', expect: { type: 'string', format: 'tel' }, accept: ['+380 44 123 4567', '(020) 7946-0018'], reject: ['call me', '12'] },
  { op: 'POST /cal/v1/organizers', in: 'body', param: 'sticky', source: '000 §2.5', expect: { type: 'boolean', default: false } },
  { op: 'POST /cal/v1/venues', in: 'body', param: 'website', source: '000 §2.5', expect: { type: 'string', format: 'uri' } },
  { op: 'POST /cal/v1/venues', in: 'body', param: 'state_province', source: '000 §2.5', expect: { type: 'string' } },
  // cal/events/v1: 000 §2.1–2.4, §4.1
  { op: 'POST /cal/events/v1/events', in: 'body', param: 'title', source: '000 §2.1', expect: { type: 'string', required: true } },
  { op: 'POST /cal/events/v1/events', in: 'body', param: 'start_date', source: '000 §2.1', expect: { type: 'string', required: true } },
  { op: 'POST /cal/events/v1/events', in: 'body', param: 'end_date', source: '000 §2.1', expect: { type: 'string', required: true } },
  { op: 'POST /cal/events/v1/events', in: 'body', param: 'all_day', source: '000 §2.1', expect: { type: 'boolean', default: false } },
  { op: 'POST /cal/events/v1/events', in: 'body', param: 'categories', source: '000 §2.1', expect: { type: 'array', itemsType: 'integer', default: null } },
  { op: 'POST /cal/events/v1/events', in: 'body', param: 'cost', source: '000 §2.1', expect: { untyped: true } },
  { op: 'POST /cal/events/v1/events/{id}', in: 'body', param: 'title', source: '000 §2.1', expect: { type: 'string', required: false } },
  { op: 'PATCH /cal/events/v1/events/{id}', in: 'body', param: 'password', source: '000 §2.1', expect: { type: 'string' } },
  { op: 'GET /cal/events/v1/events/{id}', in: 'query', param: 'password', source: '000 §4.1', expect: { type: 'string' } },
  { op: 'GET /cal/events/v1/events/by-slug/{slug}', in: 'path', param: 'slug', source: '000 §4', expect: { pattern: '^[^/]+$', required: true }, accept: ['summer-fest', 'київ-2026'], reject: ['a/b', ''] },
  // The {slug} placeholder's rule (no `/`) is the route's pattern, applied to the URL; the body field of the same name has none.
  { op: 'PATCH /cal/events/v1/venues/by-slug/{slug}', in: 'body', param: 'slug', source: '000 §4, §4.1', expect: { type: 'string', required: false }, accept: ['new-name', 'a/b'], reject: [1] },
  { op: 'POST /cal/events/v1/events/by-slug/{slug}', in: 'body', param: 'slug', source: '000 §2.1, §4', expect: { type: 'string', required: false }, accept: ['a/b'] },
  { op: 'PUT /cal/events/v1/events/{id}', in: 'body', param: 'slug', source: '000 §2.1', expect: { type: 'string' }, accept: ['', 'a/b'] },
  { op: 'POST /cal/events/v1/venues', in: 'body', param: 'venue', source: '000 §2.2', expect: { type: 'string', required: true } },
  { op: 'POST /cal/events/v1/venues', in: 'body', param: 'show_map', source: '000 §2.2', expect: { type: 'string', default: null } },
  { op: 'POST /cal/events/v1/organizers', in: 'body', param: 'organizer', source: '000 §2.3', expect: { type: 'string', required: true, default: null } },
  { op: 'POST /cal/events/v1/categories', in: 'body', param: 'parent', source: '000 §2.4', expect: { type: 'integer' } },
  { op: 'POST /cal/events/v1/tags', in: 'body', param: 'name', source: '000 §2.4', expect: { type: 'string', required: true } },
  { op: 'GET /cal/events/v1/events', in: 'query', param: 'per_page', source: '000 §4.1.1, §8', expect: { type: 'integer', default: 10 }, accept: ['1', '500'], reject: ['abc'] },
  { op: 'GET /cal/events/v1/events', in: 'query', param: 'strict_dates', source: '000 §4.1.1', expect: { untyped: true, default: false } },
  { op: 'GET /cal/events/v1/events', in: 'query', param: 'geoloc_lat', source: '000 §4.1.1', expect: { type: 'number', format: 'double' } },
  { op: 'GET /cal/events/v1/events', in: 'query', param: 'include', source: '000 §4.1.1', expect: { type: 'array', itemsType: 'integer' }, accept: ['1,2', ['3']], reject: ['1,abc'] },
  { op: 'GET /cal/events/v1/categories', in: 'query', param: 'hide_empty', source: '000 §4.1.3', expect: { type: 'boolean', default: true } },
  { op: 'GET /cal/events/v1/categories', in: 'query', param: 'parent', source: '000 §4.1.3', expect: { type: 'integer' } },
  { op: 'GET /cal/events/v1/venues', in: 'query', param: 'only_with_upcoming', source: '000 §4.1.2', expect: { untyped: true, default: false } },
  // views, onboarding, import: 000 §4.3
  { op: 'GET /cal/views/v2/html', in: 'query', param: 'u', source: '000 §4.3', expect: { untyped: true, required: true } },
  { op: 'POST /cal/v2/onboarding/wizard', in: 'body', param: 'action_nonce', source: '000 §4.3', expect: { type: 'string', required: true } },
  { op: 'POST /cal/importer/v1/import/{import_id}/batch', in: 'path', param: 'import_id', source: '000 §4.3', expect: { pattern: '^[A-Za-z0-9_]+$', required: true }, accept: ['imp_42'], reject: ['imp-42', 'a b'] },
  { op: 'POST /cal/importer/v1/import/{import_id}/batch', in: 'body', param: 'status', source: '000 §4.3', expect: { type: 'object', required: true } },
  { op: 'POST /cal/importer/v1/import/{import_id}/batch', in: 'body', param: 'interval', source: '000 §4.3', expect: { type: 'integer', required: false } },
  { op: 'POST /cal/importer/v1/import/{import_id}/state', in: 'body', param: 'status', source: '000 §3, §4.3', expect: { type: 'string', required: true, enum: ['success', 'failed', 'pending'] }, accept: ['failed'], reject: ['done'] },
  { op: 'POST /cal/importer/v1/import/{import_id}/state', in: 'body', param: 'message_slug', source: '000 §4.3', expect: { type: 'string', required: true } },
  // root, batch, embed: 001 §4.1, §4.2, §8
  { op: 'POST /batch/v1', in: 'body', param: 'requests', source: '001 §4.1, §8', expect: { type: 'array', required: true, maxItems: 25 } },
  { op: 'POST /batch/v1', in: 'body', param: 'validation', source: '001 §4.1', expect: { type: 'string', default: 'normal', enum: ['require-all-validate', 'normal'] }, accept: ['require-all-validate'], reject: ['strict'] },
  { op: 'GET /oembed/1.0/proxy', in: 'query', param: 'format', source: '001 §4.2', expect: { type: 'string', default: 'json', enum: ['json', 'xml'] }, accept: ['xml'], reject: ['yaml'] },
  { op: 'GET /oembed/1.0/proxy', in: 'query', param: 'maxwidth', source: '001 §4.2, §8', expect: { type: 'integer', default: 600 } },
  { op: 'GET /oembed/1.0/proxy', in: 'query', param: 'discover', source: '001 §4.2', expect: { type: 'boolean', default: true } },
  { op: 'GET /oembed/1.0/embed', in: 'query', param: 'url', source: '001 §4.2', expect: { type: 'string', format: 'uri', required: true } },
  { op: 'GET /oembed/1.0/embed', in: 'query', param: 'format', source: '001 §4.2', expect: { untyped: true, default: 'json' } },
  { op: 'GET /oembed/1.0/embed', in: 'query', param: 'maxwidth', source: '001 §4.2, §8', expect: { untyped: true, default: 600 } },
  // translation: 001 §4.3, §8
  { op: 'POST /i18n/st/v1/strings/settings', in: 'body', param: 'autoregisterType', source: '001 §4.3', expect: { type: 'integer', default: 0 } },
  { op: 'GET /i18n/st/v1/strings', in: 'query', param: 'limit', source: '001 §4.3, §8', expect: { type: 'integer', default: 10 } },
  { op: 'GET /i18n/st/v1/strings', in: 'query', param: 'offset', source: '001 §4.3, §8', expect: { type: 'integer', default: 0 } },
  { op: 'GET /i18n/st/v1/strings/itemscount', in: 'query', param: 'kind', source: '001 §4.3', expect: { type: 'integer', default: null } },
  { op: 'GET /i18n/st/v1/string-packages', in: 'query', param: 'translationStatuses', source: '001 §4.3', expect: { untyped: true, default: [] } },
  { op: 'POST /i18n/tm/v1/ate/jobs/store', in: 'body', param: 'i18n_job_id', source: '001 §4.3', expect: { type: 'string', required: true } },
  { op: 'POST /i18n/tm/v1/ate/jobs/store', in: 'body', param: 'ate_job_data', source: '001 §4.3', expect: { type: 'array', required: true } },
  { op: 'GET /i18n/tm/v1/xliff/fetch/{jobId}', in: 'path', param: 'jobId', source: '001 §4.3', expect: { pattern: '^[0-9]+$', required: true } },
  // learning, sliders: 001 §4.5, §4.6
  { op: 'POST /lms/v1/token', in: 'body', param: 'username', source: '001 §4.5', expect: { type: 'string', required: false } },
  { op: 'GET /sliderrevolution/sliders/{slider}', in: 'path', param: 'slider', source: '001 §4.6', expect: { pattern: '^[A-Za-z0-9_-]+$', required: true }, accept: ['home_Hero-2'], reject: ['home hero', 'a.b'] },
  { op: 'GET /sliderrevolution/sliders/stream/{id}', in: 'path', param: 'id', source: '001 §4.6', expect: { pattern: '^[0-9,]+$', required: true }, accept: ['1,2,3'], reject: ['1;2'] },
  // search optimisation: 001 §4.7, §8
  { op: 'POST /seo/v1/saveModule', in: 'body', param: 'state', source: '001 §4.7', expect: { type: 'string', required: true, enum: ['on', 'off'] }, accept: ['off'], reject: ['true'] },
  { op: 'PATCH /seo/v1/updateMode', in: 'body', param: 'mode', source: '001 §4.7', expect: { type: 'string', required: true, enum: ['easy', 'advanced', 'custom'] } },
  { op: 'POST /seo/v1/updateRedirection', in: 'body', param: 'redirectionType', source: '001 §4.7', expect: { type: 'string', required: true, default: '301', enum: ['301', '302', '307', '410', '451'] }, accept: ['451'], reject: ['303', 301] },
  { op: 'POST /seo/v1/updateRedirection', in: 'body', param: 'hasRedirect', source: '001 §4.7', expect: { type: 'boolean', required: true } },
  { op: 'POST /seo/v1/updateRedirection', in: 'body', param: 'objectType', source: '001 §4.7', expect: { type: 'string', required: true, default: 'post' } },
  { op: 'GET /seo/v1/pingSettings', in: 'query', param: 'apiKey', source: '001 §4.7', expect: { type: 'string', required: true } },
  { op: 'GET /seo/v1/an/getKeywordPages', in: 'query', param: 'per_page', source: '001 §4.7, §8', expect: { type: 'integer', default: 10, minimum: 1, maximum: 100 }, accept: ['100'], reject: ['0', '101'] },
  { op: 'GET /seo/v1/an/getTrackedKeywordsRows', in: 'query', param: 'orderby', source: '001 §4.7', expect: { type: 'string', default: 'default', enum: ['default', 'keyword'] } },
  { op: 'POST /seo/v1/an/removeTrackKeyword', in: 'body', param: 'order', source: '001 §4.7', expect: { type: 'string', default: 'desc', enum: ['asc', 'desc', 'ASC', 'DESC'] } },
  { op: 'POST /seo/v1/an/removeTrackKeyword', in: 'body', param: 'orderby', source: '001 §4.7', expect: { type: 'string', default: 'date', enum: ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] } },
  { op: 'POST /seo/v1/an/getPageSEOScore', in: 'body', param: 'isAdminBar', source: '001 §4.7', expect: { type: 'boolean', default: false } },
  { op: 'POST /seo/v1/an/addTrackKeyword', in: 'body', param: 'page', source: '001 §4.7', expect: { type: 'integer', default: 1, minimum: 1 } },
  { op: 'POST /seo/v1/setupWizard/updateStepData', in: 'body', param: 'value', source: '001 §4.7', expect: { type: 'object', required: true } },
  // page builder: 001 §3, §4.8
  { op: 'POST /pagebuilder-one/v1/themes', in: 'body', param: 'slug', source: '001 §4.8', expect: { type: 'string', required: true, pattern: '^[A-Za-z0-9_-]+$' }, accept: ['twenty_one-2'], reject: ['my theme', 'a/b'] },
  { op: 'POST /pagebuilder-one/v1/themes', in: 'body', param: 'status', source: '001 §3, §4.8', expect: { type: 'string', default: 'inactive', enum: ['inactive', 'active'] } },
  { op: 'GET /pagebuilder-one/v1/plugins', in: 'query', param: 'context', source: '001 §4.8', expect: { type: 'string', default: 'view', enum: ['view', 'embed', 'edit'] } },
  { op: 'GET /pagebuilder-one/v1/plugins', in: 'query', param: 'status', source: '001 §4.8', expect: { type: 'array', itemsEnum: ['inactive', 'active'] }, accept: ['active,inactive'], reject: ['enabled'] },
  { op: 'POST /pagebuilder-one/v1/plugins/{slug}/upgrade', in: 'body', param: 'status', source: '001 §4.8', expect: { type: 'string', enum: ['active'] } },
  { op: 'POST /pagebuilder-one/v1/plugins/{slug}/migration/run', in: 'body', param: 'force', source: '001 §4.8', expect: { type: 'boolean', default: true } },
  { op: 'POST /pagebuilder-one/v1/connect/authorize', in: 'body', param: 'clearSession', source: '001 §4.8', expect: { type: 'boolean', default: false } },
  { op: 'GET /pagebuilder-one/v1/top-bar/notifications', in: 'query', param: 'app_version', source: '001 §4.8', expect: { type: 'string', required: true } },
  { op: 'POST /pagebuilder-one/v1/top-bar/feedback', in: 'body', param: 'countryCode', source: '001 §4.8', expect: { type: 'string', required: false } },
];
