// Creates whose title's slug reaches WordPress's 200-character cap, so that the second needs a `-N` suffix and
// the base must be shortened to make room for it: `Міжнародний фестиваль документального кіно` percent-encodes to
// exactly 200 characters. A memoised twin of uniqueSlug() in the create path used to spin here for good.
import type { Mock } from '../../index.ts';

export const CAP_TITLE = 'Міжнародний фестиваль документального кіно';

export interface SlugCapCase {
  name: string;
  /** The requests, in order: path under /wp-json and JSON body. */
  requests: { path: string; body: unknown }[];
  /** Where the created records can be read back through cal/v1 (their slugs). */
  readBack: string;
}

const legacyEvent = { title: CAP_TITLE, start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 12:00:00' };
const times = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);

export const SLUG_CAP_CASES: SlugCapCase[] = [
  { name: 'cal/v1/events', requests: times(3, { path: '/cal/v1/events', body: { title: CAP_TITLE } }), readBack: 'events' },
  { name: 'cal/v1/venues', requests: times(3, { path: '/cal/v1/venues', body: { title: CAP_TITLE } }), readBack: 'venues' },
  { name: 'cal/v1/organizers', requests: times(3, { path: '/cal/v1/organizers', body: { title: CAP_TITLE } }), readBack: 'organizers' },
  { name: 'cal/events/v1/events', requests: times(3, { path: '/cal/events/v1/events', body: legacyEvent }), readBack: 'events' },
  { name: 'cal/events/v1/venues', requests: times(3, { path: '/cal/events/v1/venues', body: { venue: CAP_TITLE } }), readBack: 'venues' },
  { name: 'cal/events/v1/organizers', requests: times(3, { path: '/cal/events/v1/organizers', body: { organizer: CAP_TITLE } }), readBack: 'organizers' },
  {
    name: 'batch/v1',
    requests: [{ path: '/batch/v1', body: { requests: times(3, { method: 'POST', path: '/cal/v1/venues', body: { title: CAP_TITLE } }) } }],
    readBack: 'venues',
  },
];

export interface SlugCapResult {
  statuses: number[];
  slugs: string[];
}

/** Sends the case's creates, then reads the created records' slugs back through cal/v1. */
export function runSlugCapCase(mock: Mock, c: SlugCapCase): SlugCapResult {
  const statuses: number[] = [];
  const ids: number[] = [];
  for (const r of c.requests) {
    const res = mock.handleNow({ method: 'POST', url: `/wp-json${r.path}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(r.body) });
    statuses.push(res.status);
    const data = JSON.parse(res.body) as { id?: number; responses?: { status: number; body: { id: number } }[] };
    if (data.responses) {
      for (const item of data.responses) {
        statuses.push(item.status);
        ids.push(item.body.id);
      }
    } else if (typeof data.id === 'number') ids.push(data.id);
  }
  const slugs = ids.map((id) => (JSON.parse(mock.handleNow({ method: 'GET', url: `/wp-json/cal/v1/${c.readBack}/${id}?_fields=slug`, headers: {} }).body) as { slug: string }).slug);
  return { statuses, slugs };
}
