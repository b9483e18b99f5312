// pagination: list routes follow WordPress's collection conventions (posts controller P L476–505):
//   - X-WP-Total and X-WP-TotalPages are whole numbers, TotalPages = ceil(Total / per_page);
//   - each page holds per_page records, the last one the rest;
//   - Link has rel="next" except on the last page and rel="prev" except on the first;
//   - a page past the end (when there are records) is refused with 400 rest_post_invalid_page_number; also on a
//     list that sends no totals (its end is read from the body's total_pages, or by reading it page by page).
// Runs before any unit that writes, so the lists hold still between its requests.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange, type Received } from '../http/types.ts';
import type { Finding, Unit, UnitEnv } from '../runner/unit.ts';
import { listRecords } from './resources.ts';
import { describeAnswer, header, transportOutcome, wholeNumberHeader, wpError } from './wp.ts';

export const PAGINATION = 'pagination';

const PER_PAGE = 2;
const PAST_END_CODE = 'rest_post_invalid_page_number';

/** `<https://x/wp-json/a?page=2>; rel="next", <...>; rel="prev"` → {next: 'https://...', prev: ...} */
export function parseLink(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value) return out;
  for (const m of value.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(m[2] ?? '')?.[1];
    if (rel) for (const r of rel.split(/\s+/)) out[r.toLowerCase()] = m[1]!;
  }
  return out;
}

/** The page a link points at; no page parameter means page 1. */
export function linkPage(url: string): number | undefined {
  try {
    const u = new URL(url, 'http://x');
    const p = u.searchParams.get('page') ?? new URLSearchParams(u.searchParams.get('rest_route')?.split('?')[1] ?? '').get('page');
    return p === null ? 1 : Number(p);
  } catch {
    return undefined;
  }
}

interface Page {
  e: Exchange;
  records?: unknown[];
  links: Record<string, string>;
}

async function page(env: UnitEnv, op: Operation, n: number, perPage = PER_PAGE): Promise<Page> {
  const query: Record<string, unknown> = { per_page: perPage, page: n };
  const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query }, op);
  const records = e.response && e.response.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
  return { e, ...(records ? { records } : {}), links: parseLink(header(e.response, 'link')) };
}

function linkProblems(p: Page, n: number, totalPages: number): string[] {
  const problems: string[] = [];
  const next = p.links['next'];
  const prev = p.links['prev'];
  if (n < totalPages) {
    if (!next) problems.push(`page ${n} of ${totalPages} has no rel="next" link`);
    else if (linkPage(next) !== n + 1) problems.push(`page ${n}'s rel="next" points at page ${linkPage(next)}, not ${n + 1}`);
  } else if (next) problems.push(`the last page (${n}) has a rel="next" link`);
  if (n > 1) {
    if (!prev) problems.push(`page ${n} has no rel="prev" link`);
    else if (linkPage(prev) !== n - 1) problems.push(`page ${n}'s rel="prev" points at page ${linkPage(prev)}, not ${n - 1}`);
  } else if (prev) problems.push('page 1 has a rel="prev" link');
  return problems;
}

async function pagination(env: UnitEnv, op: Operation): Promise<void> {
  const finding = (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange): void =>
    env.emit({ check: PAGINATION, operation: op, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const skipRest = (message: string, from: string[]): void => from.forEach((v) => finding(v, 'skip', message));

  const first = await page(env, op, 1);
  const t = transportOutcome(first.e);
  if (t) return skipRest(t.message, ['headers', 'counts', 'links', 'past_end']);
  const r = first.e.response!;
  if (r.status !== 200 || !first.records) return skipRest(`the list answered ${describeAnswer(r)}; nothing to page through`, ['headers', 'counts', 'links', 'past_end']);

  const total = wholeNumberHeader(r, 'x-wp-total');
  const pages = wholeNumberHeader(r, 'x-wp-totalpages');
  if (total === undefined || pages === undefined) {
    finding(
      'headers',
      'fail',
      `expected X-WP-Total and X-WP-TotalPages as whole numbers on a list (WordPress convention, P get_items()); got ${JSON.stringify(header(r, 'x-wp-total') ?? null)} and ${JSON.stringify(header(r, 'x-wp-totalpages') ?? null)}`,
      first.e,
    );
    skipRest('no usable X-WP-Total/X-WP-TotalPages to count pages by', ['counts', 'links']);
    // The page past the end does not depend on the headers: find the end by reading the list itself.
    return pastEnd(env, op, finding, await endWithoutHeaders(env, op, first));
  }
  const expectedPages = Math.ceil(total / PER_PAGE);
  if (pages !== expectedPages) finding('headers', 'fail', `expected X-WP-TotalPages ${expectedPages} for X-WP-Total ${total} with per_page=${PER_PAGE} (WordPress convention); got ${pages}`, first.e);
  else finding('headers', 'pass', `X-WP-Total ${total}, X-WP-TotalPages ${pages}`, first.e);

  const pagesSeen: { n: number; p: Page }[] = [{ n: 1, p: first }];
  if (pages >= 2) pagesSeen.push({ n: 2, p: await page(env, op, 2) });
  if (pages > 2) pagesSeen.push({ n: pages, p: await page(env, op, pages) });

  const countProblems: string[] = [];
  const linkIssues: string[] = [];
  let worst: Exchange = first.e;
  for (const { n, p } of pagesSeen) {
    const tt = transportOutcome(p.e);
    if (tt) return skipRest(tt.message, ['counts', 'links', 'past_end']);
    const want = Math.max(0, Math.min(PER_PAGE, total - (n - 1) * PER_PAGE));
    if (!p.records) {
      countProblems.push(`page ${n} answered ${describeAnswer(p.e.response)}`);
      worst = p.e;
    } else if (p.records.length !== want) {
      countProblems.push(`page ${n} holds ${p.records.length} records; with X-WP-Total ${total} and per_page=${PER_PAGE} it should hold ${want}`);
      worst = p.e;
    }
    const li = linkProblems(p, n, pages);
    if (li.length) linkIssues.push(...li);
  }
  finding('counts', countProblems.length ? 'fail' : 'pass', countProblems.length ? `expected pages that hold what the totals promise (WordPress convention); ${countProblems.join('; ')}` : `pages ${pagesSeen.map((x) => x.n).join(', ')} hold the records the totals promise`, countProblems.length ? worst : pagesSeen[pagesSeen.length - 1]!.p.e);
  const linkExchange = pagesSeen.find(({ n, p }) => linkProblems(p, n, pages).length > 0)?.p.e ?? first.e;
  finding('links', linkIssues.length ? 'fail' : 'pass', linkIssues.length ? `expected rel="next" on every page but the last and rel="prev" on every page but the first (WordPress convention, P get_items()); ${linkIssues.join('; ')}` : 'rel="next"/rel="prev" links are where they belong', linkExchange);
  return pastEnd(env, op, finding, { last: pages, perPage: PER_PAGE, empty: total === 0, how: `X-WP-TotalPages ${pages}` });
}

interface End {
  /** The last page at `perPage` records a page. */
  last: number;
  perPage: number;
  empty: boolean;
  /** How the end was found, for the message. */
  how: string;
  /** Why it could not be, if it could not. */
  unknown?: string;
}

/** The most pages a list is read through when it sends no totals. */
const WALK_LIMIT = 30;
const WALK_PER_PAGE = 100;

function envelopeNumber(body: unknown, name: string): number | undefined {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/**
 * Where a list without X-WP-Total/X-WP-TotalPages ends: the `total_pages` of an object envelope when it has one
 * (legacy calendar lists: `{events, total, total_pages}`), else by reading pages of 100 until one is short.
 */
async function endWithoutHeaders(env: UnitEnv, op: Operation, first: Page): Promise<End> {
  const body = jsonBody(first.e.response);
  const totalPages = envelopeNumber(body, 'total_pages');
  if (totalPages !== undefined) return { last: totalPages, perPage: PER_PAGE, empty: envelopeNumber(body, 'total') === 0 || totalPages === 0, how: `total_pages ${totalPages} in the body` };
  for (let n = 1; n <= WALK_LIMIT; n++) {
    const p = await page(env, op, n, WALK_PER_PAGE);
    if (!p.records) return { last: 0, perPage: WALK_PER_PAGE, empty: false, how: '', unknown: `page ${n} of ${WALK_PER_PAGE} answered ${describeAnswer(p.e.response)} before the end was reached` };
    if (p.records.length < WALK_PER_PAGE) return { last: p.records.length === 0 ? n - 1 : n, perPage: WALK_PER_PAGE, empty: n === 1 && p.records.length === 0, how: `reading pages of ${WALK_PER_PAGE} until a short one` };
  }
  return { last: 0, perPage: WALK_PER_PAGE, empty: false, how: '', unknown: `the list goes on past ${WALK_LIMIT} pages of ${WALK_PER_PAGE}` };
}

/** A page past the end: 400 rest_post_invalid_page_number (P get_items()), or an empty page from the terms controller. */
async function pastEnd(env: UnitEnv, op: Operation, finding: (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange) => void, end: End): Promise<void> {
  if (end.unknown) return finding('past_end', 'inconclusive', `where the list ends is not shown: ${end.unknown}`);
  if (end.empty) return finding('past_end', 'skip', 'the list is empty: WordPress only refuses a page past the end when there are records');
  const n = end.last + 1;
  const past = await page(env, op, n, end.perPage);
  const pt = transportOutcome(past.e);
  if (pt) return finding('past_end', pt.outcome, pt.message, past.e);
  const pr = past.e.response!;
  const where = `page ${n} with per_page=${end.perPage}, one past the last (${end.how})`;
  // The terms controller (categories, tags) has no such check and answers an empty page.
  const terms = op.resource === 'category' || op.resource === 'tag';
  if (terms && pr.status === 200 && past.records?.length === 0) return finding('past_end', 'pass', `${where}: an empty page, as WordPress's terms controller answers`, past.e);
  const code = wpError(pr)?.code;
  if (pr.status === 400 && (code === PAST_END_CODE || (terms && code !== undefined))) return finding('past_end', 'pass', `${where}: ${describeAnswer(pr)}`, past.e);
  if (pr.status === 400 && code === undefined) return finding('past_end', 'pass', `${where}: 400; its body is no error envelope, so there is no code to check (see error_envelope)`, past.e);
  const expected = terms ? 'an empty page or 400 (WordPress convention: the terms controller answers an empty page)' : `400 ${PAST_END_CODE} (WordPress convention, P get_items())`;
  finding('past_end', 'fail', `expected ${expected} for ${where}; got ${describeAnswer(pr)}${past.records ? ` with ${past.records.length} records` : ''}`, past.e);
}

export function planPagination(contract: Contract): Unit[] {
  return contract.operations
    .filter((op) => op.kind === 'list' && op.method === 'GET' && op.params.some((p) => p.name === 'page') && op.params.some((p) => p.name === 'per_page'))
    .map((op) => ({
      id: `${PAGINATION}:${op.id}`,
      family: PAGINATION,
      checks: [PAGINATION],
      operations: [op],
      // Pages 1, 2 and the last are one reading of the list: no write of the run lands between them.
      run: (env) => env.steady([op], () => pagination(env, op)),
    }));
}
