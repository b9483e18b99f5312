// pagination: list routes follow WordPress's collection conventions (posts controller P L476–505):
//   - X-WP-Total and X-WP-TotalPages are whole numbers, Total counts the records and TotalPages = ceil(Total / per_page);
//     each is judged against the records (where the pages end), so one wrong header is one finding that names it;
//   - each page holds per_page records, the last one the rest;
//   - Link has rel="next" except on the last page and rel="prev" except on the first;
//   - a page past the end (when there are records) is refused with 400 rest_post_invalid_page_number; also on a
//     list that sends no totals (its end is read from the body's total_pages, or by reading it page by page).
//   On a list of core's posts controller (a namespace whose creates document its fields: cal/v1), also:
//   - `empty_page`: a search that finds nothing, page 2, answers 200 [] with X-WP-Total 0 and X-WP-TotalPages 0 (the
//     page check refuses a page past the end only when there are records);
//   - `link_query`: rel="next" keeps every query parameter of the request (`add_query_arg($request->get_query_params())`)
//     with page replaced: per_page=1&orderby=<a documented value> answers a next link with both and page=2.
// Runs before any unit that writes, so the lists hold still between its requests.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange, type Received } from '../http/types.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { parseLink } from './kit/link_header.ts';
import { listRecords } from './kit/resources.ts';
import { describeAnswer, header, transportOutcome, wholeNumberHeader, wpError } from './kit/wp.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';

export const PAGINATION = 'pagination';

const PER_PAGE = 2;
const PAST_END_CODE = 'rest_post_invalid_page_number';

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

/** Where the list ends by its records (pages of PER_PAGE read from the list itself), or why that is not known. */
type RecordsEnd = { last: number; records: number; how: string } | { unknown: string };

/** Whether a page lies past the list's end: refused (400) or empty. */
const pastTheEnd = (p: Page): boolean => p.e.response?.status === 400 || p.records?.length === 0;

/**
 * Where the records end, checked at the pages the two headers point at, X-WP-TotalPages first: a page that holds
 * records followed by one past the end is the last (pages before it full, which the counts case checks on pages 1
 * and 2). Neither headers' page being the last, the list is counted by reading it in pages of WALK_PER_PAGE.
 * Conforming lists cost no request beyond those the other cases read anyway (the last page, the one past it).
 */
async function recordsEnd(env: UnitEnv, op: Operation, read: (n: number) => Promise<Page>, first: Page, total: number, pages: number): Promise<RecordsEnd> {
  for (const c of new Set([pages, Math.ceil(total / PER_PAGE)])) {
    if (c === 0) {
      if (first.records!.length === 0) return { last: 0, records: 0, how: 'page 1 is empty' };
      continue;
    }
    const last = await read(c);
    if (!last.records?.length) continue;
    if (pastTheEnd(await read(c + 1))) return { last: c, records: (c - 1) * PER_PAGE + last.records.length, how: `${last.records.length} on page ${c} of ${PER_PAGE} a page, page ${c + 1} past the end` };
  }
  const counted = await countByReading(env, op);
  if ('unknown' in counted) return counted;
  return { last: Math.ceil(counted.records / PER_PAGE), records: counted.records, how: `counted in pages of ${WALK_PER_PAGE}` };
}

/**
 * The headers as the records show them. One wrong header is one finding, named: X-WP-TotalPages computed from a
 * wrong X-WP-Total is right for that total and wrong for the records, and it is X-WP-Total's finding.
 */
function headersFinding(total: number, pages: number, end: RecordsEnd): { outcome: Finding['outcome']; message: string } {
  const convention = 'WordPress convention, P get_items(): X-WP-Total counts the records, X-WP-TotalPages = ceil(X-WP-Total / per_page)';
  if ('unknown' in end) {
    if (pages === Math.ceil(total / PER_PAGE)) return { outcome: 'pass', message: `X-WP-Total ${total}, X-WP-TotalPages ${pages}; the records were not counted: ${end.unknown}` };
    return { outcome: 'fail', message: `expected X-WP-Total and X-WP-TotalPages to agree (${convention}); X-WP-Total ${total} makes ${Math.ceil(total / PER_PAGE)} pages of ${PER_PAGE}, X-WP-TotalPages is ${pages} (which of the two is wrong is not shown: ${end.unknown})` };
  }
  const truePages = Math.ceil(end.records / PER_PAGE);
  const held = `the list holds ${end.records} records (${end.how})`;
  if (total === end.records && pages === truePages) return { outcome: 'pass', message: `X-WP-Total ${total}, X-WP-TotalPages ${pages}: ${held}` };
  if (total === end.records) return { outcome: 'fail', message: `expected X-WP-TotalPages ${truePages} for X-WP-Total ${total} with per_page=${PER_PAGE} (${convention}); got ${pages}; ${held}` };
  const follows = pages === truePages ? `X-WP-TotalPages ${pages} agrees with the records` : pages === Math.ceil(total / PER_PAGE) ? `X-WP-TotalPages ${pages} follows from that total` : `X-WP-TotalPages ${pages} is wrong too (${truePages} pages of ${PER_PAGE})`;
  return { outcome: 'fail', message: `expected X-WP-Total to count the list's records (${convention}); X-WP-Total is ${total}, but ${held}; ${follows}` };
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

  // Pages of PER_PAGE, each read once whichever case asks for it.
  const pagesRead = new Map<number, Page>([[1, first]]);
  const read = async (n: number): Promise<Page> => pagesRead.get(n) ?? pagesRead.set(n, await page(env, op, n)).get(n)!;
  const end = await recordsEnd(env, op, read, first, total, pages);
  const failed = [...pagesRead.values()].map((p) => transportOutcome(p.e)).find((x) => x !== undefined);
  if (failed) return skipRest(failed.message, ['headers', 'counts', 'links', 'past_end']);
  const h = headersFinding(total, pages, end);
  finding('headers', h.outcome, h.message, first.e);

  // What the pages are checked against: the records where they were counted, else the headers.
  const records = 'unknown' in end ? total : end.records;
  const last = 'unknown' in end ? pages : end.last;
  const pagesSeen: { n: number; p: Page }[] = [{ n: 1, p: first }];
  if (last >= 2) pagesSeen.push({ n: 2, p: await read(2) });
  if (last > 2) pagesSeen.push({ n: last, p: await read(last) });

  const countProblems: string[] = [];
  let worst: Exchange = first.e;
  for (const { n, p } of pagesSeen) {
    const tt = transportOutcome(p.e);
    if (tt) return skipRest(tt.message, ['counts', 'links', 'past_end']);
    const want = Math.max(0, Math.min(PER_PAGE, records - (n - 1) * PER_PAGE));
    if (!p.records) {
      countProblems.push(`page ${n} answered ${describeAnswer(p.e.response)}`);
      worst = p.e;
    } else if (p.records.length !== want) {
      countProblems.push(`page ${n} holds ${p.records.length} records; with ${records} records and per_page=${PER_PAGE} it should hold ${want}`);
      worst = p.e;
    }
  }
  finding('counts', countProblems.length ? 'fail' : 'pass', countProblems.length ? `expected pages that hold what the list holds (WordPress convention); ${countProblems.join('; ')}` : `pages ${pagesSeen.map((x) => x.n).join(', ')} hold the ${records} records`, countProblems.length ? worst : pagesSeen[pagesSeen.length - 1]!.p.e);

  // Links that follow the server's own X-WP-TotalPages, where that is what the records contradict, are the headers' finding.
  const linksBy = (lastPage: number): string[] => pagesSeen.flatMap(({ n, p }) => linkProblems(p, n, lastPage));
  const linkIssues = linksBy(last);
  const followHeader = linkIssues.length > 0 && last !== pages && linksBy(pages).length === 0;
  const linkExchange = pagesSeen.find(({ n, p }) => linkProblems(p, n, last).length > 0)?.p.e ?? first.e;
  if (followHeader) finding('links', 'pass', `rel="next"/rel="prev" links follow X-WP-TotalPages ${pages}; that the records end on page ${last} is the headers case's finding`, linkExchange);
  else finding('links', linkIssues.length ? 'fail' : 'pass', linkIssues.length ? `expected rel="next" on every page but the last and rel="prev" on every page but the first (WordPress convention, P get_items()); ${linkIssues.join('; ')}` : 'rel="next"/rel="prev" links are where they belong', linkExchange);
  const how = 'unknown' in end ? `X-WP-TotalPages ${pages}` : `the records: ${end.how}`;
  return pastEnd(env, op, finding, { last, perPage: PER_PAGE, empty: records === 0, how }, read);
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
 * The list's records counted by reading pages of WALK_PER_PAGE until a short one, or one past the end (a 400 after
 * full pages), at most WALK_LIMIT pages.
 */
async function countByReading(env: UnitEnv, op: Operation): Promise<{ records: number } | { unknown: string }> {
  let records = 0;
  for (let n = 1; n <= WALK_LIMIT; n++) {
    const p = await page(env, op, n, WALK_PER_PAGE);
    if (!p.records) {
      if (n > 1 && p.e.response?.status === 400) return { records };
      return { unknown: `page ${n} of ${WALK_PER_PAGE} answered ${describeAnswer(p.e.response)} before the end was reached` };
    }
    records += p.records.length;
    if (p.records.length < WALK_PER_PAGE) return { records };
  }
  return { unknown: `the list goes on past ${WALK_LIMIT} pages of ${WALK_PER_PAGE}` };
}

/**
 * Where a list without X-WP-Total/X-WP-TotalPages ends: the `total_pages` of an object envelope when it has one
 * (legacy calendar lists: `{events, total, total_pages}`), else by counting its records.
 */
async function endWithoutHeaders(env: UnitEnv, op: Operation, first: Page): Promise<End> {
  const body = jsonBody(first.e.response);
  const totalPages = envelopeNumber(body, 'total_pages');
  if (totalPages !== undefined) return { last: totalPages, perPage: PER_PAGE, empty: envelopeNumber(body, 'total') === 0 || totalPages === 0, how: `total_pages ${totalPages} in the body` };
  const counted = await countByReading(env, op);
  if ('unknown' in counted) return { last: 0, perPage: WALK_PER_PAGE, empty: false, how: '', unknown: counted.unknown };
  return { last: Math.ceil(counted.records / WALK_PER_PAGE), perPage: WALK_PER_PAGE, empty: counted.records === 0, how: `reading pages of ${WALK_PER_PAGE} until a short one` };
}

/** A page past the end: 400 rest_post_invalid_page_number (P get_items()), or an empty page from the terms controller. */
async function pastEnd(
  env: UnitEnv,
  op: Operation,
  finding: (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange) => void,
  end: End,
  read?: (n: number) => Promise<Page>,
): Promise<void> {
  if (end.unknown) return finding('past_end', 'inconclusive', `where the list ends is not shown: ${end.unknown}`);
  if (end.empty) return finding('past_end', 'skip', 'the list is empty: WordPress only refuses a page past the end when there are records');
  const n = end.last + 1;
  const past = read && end.perPage === PER_PAGE ? await read(n) : await page(env, op, n, end.perPage);
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

/** A search that finds nothing, page 2: 200 [] with totals 0 (P get_items() refuses a page past the end only when there are records). */
async function emptyPage(env: UnitEnv, op: Operation, finding: (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange) => void): Promise<void> {
  const word = `site-contracts-${env.runId}-nothing`;
  const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { search: word, page: 2 }, auth: false }, op);
  const t = transportOutcome(e);
  if (t) return finding('empty_page', t.outcome, t.message, e);
  const r = e.response!;
  const records = r.status === 200 ? listRecords(jsonBody(r)) : undefined;
  const problems: string[] = [];
  if (r.status !== 200) problems.push(`it answered ${describeAnswer(r)}`);
  else if (!records || records.length) problems.push(`the body is ${JSON.stringify(r.body.slice(0, 60))}, not []`);
  for (const h of ['x-wp-total', 'x-wp-totalpages']) if (r.status === 200 && header(r, h) !== '0') problems.push(`${h} is ${JSON.stringify(header(r, h) ?? null)}, not "0"`);
  if (problems.length) return finding('empty_page', 'fail', `expected page 2 of a search that finds nothing (search=${word}) to answer 200 [] with X-WP-Total 0 and X-WP-TotalPages 0 (WordPress convention, P get_items(): a page past the end is refused only when there are records); ${problems.join('; ')}`, e);
  finding('empty_page', 'pass', 'page 2 of an empty search answered 200 [] with X-WP-Total 0, X-WP-TotalPages 0', e);
}

/** rel="next" keeps the request's query parameters, page replaced (P get_items(): add_query_arg() of get_query_params()). */
async function linkQuery(env: UnitEnv, op: Operation, finding: (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange) => void): Promise<void> {
  const values = op.params.find((p) => p.name === 'orderby' && p.in === 'query')?.schema.enum;
  const orderby = Array.isArray(values) ? (values.includes('title') ? 'title' : values.find((v) => typeof v === 'string')) : undefined;
  const query: Record<string, string> = { per_page: '1', ...(typeof orderby === 'string' ? { orderby } : {}) };
  const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query, auth: false }, op);
  const t = transportOutcome(e);
  if (t) return finding('link_query', t.outcome, t.message, e);
  const r = e.response!;
  const pages = wholeNumberHeader(r, 'x-wp-totalpages');
  if (r.status !== 200 || pages === undefined || pages < 2) return finding('link_query', 'inconclusive', `the list answered ${describeAnswer(r)} with X-WP-TotalPages ${JSON.stringify(header(r, 'x-wp-totalpages') ?? null)}: no second page to link to`, e);
  const next = parseLink(header(r, 'link'))['next'];
  if (!next) return finding('link_query', 'fail', `expected a rel="next" link on page 1 of ${pages} (WordPress convention, P get_items()); Link is ${JSON.stringify(header(r, 'link') ?? null)}`, e);
  const u = new URL(next, 'http://x');
  const params = u.searchParams.has('rest_route') ? new URLSearchParams(u.searchParams.get('rest_route')!.split('?')[1] ?? '') : u.searchParams;
  for (const [k, v] of u.searchParams) if (k !== 'rest_route') params.set(k, v);
  const wrong = Object.entries({ ...query, page: '2' }).filter(([k, v]) => params.get(k) !== v).map(([k, v]) => `${k}=${v} (it has ${params.has(k) ? `${k}=${params.get(k)}` : 'none'})`);
  if (wrong.length) return finding('link_query', 'fail', `expected rel="next" of ${Object.entries(query).map(([k, v]) => `${k}=${v}`).join('&')} to keep the request's parameters with page=2 (WordPress convention, P get_items(): add_query_arg() of the query parameters); ${next} lacks ${wrong.join(', ')}`, e);
  finding('link_query', 'pass', `rel="next" ${next} keeps ${Object.keys(query).join(', ')} with page=2`, e);
}

export function planPagination(contract: Contract): Unit[] {
  return contract.operations
    .filter((op) => op.kind === 'list' && op.method === 'GET' && op.params.some((p) => p.name === 'page') && op.params.some((p) => p.name === 'per_page'))
    .map((op) => {
      // A list of core's posts controller (not its terms: the terms controller has no such rules).
      const posts = builtOnCoreControllers(contract, op) && op.resource !== 'category' && op.resource !== 'tag' && op.params.some((p) => p.name === 'search');
      return {
        id: `${PAGINATION}:${op.id}`,
        family: PAGINATION,
        checks: [PAGINATION],
        operations: [op],
        // Pages 1, 2 and the last are one reading of the list: no write of the run lands between them.
        run: (env: UnitEnv) => env.steady([op], async () => {
          await pagination(env, op);
          if (!posts) return;
          const finding = (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange): void =>
            env.emit({ check: PAGINATION, operation: op, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
          await emptyPage(env, op, finding);
          await linkQuery(env, op, finding);
        }),
      };
    });
}
