// The records a list answer holds, read the same way by every part of the suite that reads a list: the checks,
// cleanup's confirmation that a record is gone, and the marker sweep. WordPress answers a JSON array; plugins
// with controllers of their own wrap it, as The Events Calendar's legacy lists do (`{"events": [...],
// "rest_url": ..., "total": 3, "total_pages": 1}`, `{"categories": [...]}`, `{"venues": [...]}`). A reader that
// knew only the array took such a list for "no answer", and cleanup then warned about records that were gone.

import { jsonBody, type Received } from '../../http/types.ts';

/** Records of a list answer: WordPress's JSON array, or the array an object envelope holds (`{events: [...]}`). */
export function listRecords(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (typeof body === 'object' && body !== null) {
    for (const v of Object.values(body)) if (Array.isArray(v)) return v;
  }
  return undefined;
}

/**
 * How many pages the list has, as the site says it: WordPress's `X-WP-TotalPages`, else the envelope's
 * `total_pages` (The Events Calendar's legacy lists send that, and the same number in `X-TEC-TotalPages`).
 */
function listTotalPages(r: Received, body: unknown): number | undefined {
  for (const raw of [r.headers['x-wp-totalpages'], (body as { total_pages?: unknown } | null)?.total_pages]) {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : undefined;
    if (n !== undefined && Number.isSafeInteger(n)) return n;
  }
  return undefined;
}

/** A list answer's records, when it is one: a 2xx whose body holds a list in either form. */
export function answeredList(r: Received | undefined): { records: unknown[]; totalPages?: number } | undefined {
  if (!r || r.status < 200 || r.status >= 300) return undefined;
  const body = jsonBody(r);
  const records = listRecords(body);
  if (!records) return undefined;
  const totalPages = listTotalPages(r, body);
  return { records, ...(totalPages !== undefined ? { totalPages } : {}) };
}
