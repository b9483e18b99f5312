// How a frontend team uses the generated types (contracts/generated/openapi.d.cts) to type its own client.
// A test type-checks this file; the @ts-expect-error lines prove the types reject what the contract rejects.
import type { operations, components } from '../generated/openapi.d.cts';

type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type JsonBody<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export function eventListUrl(base: string, q: Query<'getCalV1Events'>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  return `${base}/wp-json/cal/v1/events?${params}`;
}

export const upcomingFeatured: Query<'getCalV1Events'> = {
  per_page: 20,
  status: ['publish', 'future'],
  orderby: 'event_date',
  order: 'ASC',
  featured: true,
  i18n_language: 'uk',
};

export const newEvent: JsonBody<'postCalV1Events'> = {
  title: 'Kyiv Book Arsenal',
  start_date: '2026-05-28 10:00:00',
  end_date: '2026-06-01 20:00:00',
  status: 'draft',
  venues: [12],
};

export const legacyEvent: JsonBody<'postCalEventsV1Events'> = {
  title: 'Jazz in the park',
  start_date: '2026-07-01 18:00:00',
  end_date: '2026-07-01 22:00:00',
};

export const batch: JsonBody<'postBatchV1'> = {
  validation: 'require-all-validate',
  requests: [{ method: 'DELETE', path: '/cal/v1/events/5' }],
};

export const mode: components['schemas']['SeoUpdateMode']['mode'] = 'advanced';

// @ts-expect-error: orderby is an enum
export const badOrder: Query<'getCalV1Events'> = { orderby: 'random' };
// @ts-expect-error: status items are post statuses
export const badStatus: Query<'getCalV1Events'> = { status: ['trash'] };
// @ts-expect-error: the legacy create requires title, start_date and end_date
export const missingTitle: JsonBody<'postCalEventsV1Events'> = { start_date: '2026-07-01 18:00:00', end_date: '2026-07-01 22:00:00' };
// @ts-expect-error: GET cannot be batched
export const badBatch: JsonBody<'postBatchV1'> = { requests: [{ method: 'GET', path: '/cal/v1/events' }] };
// @ts-expect-error: i18n_language is en or uk
export const badLanguage: Query<'getCalV1Events'> = { i18n_language: 'de' };
