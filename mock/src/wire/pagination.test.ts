import { describe, expect, it } from 'vitest';
import { pageLink, pageOf, paginate, sanitizedQuery } from './pagination.ts';
import { parseRequest } from './request.ts';
import { wpSanitizeValue, type WpSchema } from '../../../contracts/wordpress/schema/index.ts';

// Expected Link values are the samples' (samples.json) and, for the empty/terms cases, what the reference server
// answered to /wp-json/wp/v2/posts?search=zzzz&page=5&per_page=2 and /wp-json/wp/v2/categories?page=5.

const POSTS = 'http://127.0.0.1:8089/wp-json/wp/v2/posts';
const postsArgs: Record<string, WpSchema> = {
  page: { type: 'integer', default: 1, minimum: 1 },
  per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
  author: { type: 'array', items: { type: 'integer' }, default: [] },
  sticky: { type: 'boolean' },
  include: { type: 'array', items: { type: 'integer' }, default: [] },
  search: { type: 'string' },
};

/** What the mock core does: parse, sanitize the declared args, hand the query over. */
function linksFor(url: string, total: number) {
  const parsed = parseRequest({ method: 'GET', url, headers: {} })!;
  const sanitized: Record<string, unknown> = {};
  for (const [k, v] of parsed.phpQuery) if (typeof k === 'string' && postsArgs[k]) sanitized[k] = wpSanitizeValue(v, postsArgs[k]!, k);
  const page = Number(sanitized.page ?? 1);
  const perPage = Number(sanitized.per_page ?? 10);
  return paginate({ collectionUrl: POSTS, query: sanitizedQuery(parsed.phpQuery, sanitized), page, perPage, total });
}

describe('paginate (samples 04-08, 20, 46, 49, 50, 52, 57, 64)', () => {
  it('05/06/07: next, prev+next, prev', () => {
    expect(linksFor('/wp-json/wp/v2/posts?per_page=2&page=1', 5).headers).toEqual([
      ['X-WP-Total', 5],
      ['X-WP-TotalPages', 3],
      ['Link', `<${POSTS}?per_page=2&page=2>; rel="next"`],
    ]);
    expect(linksFor('/wp-json/wp/v2/posts?per_page=2&page=2', 5).headers.at(-1)).toEqual(['Link', `<${POSTS}?per_page=2&page=1>; rel="prev", <${POSTS}?per_page=2&page=3>; rel="next"`]);
    expect(linksFor('/wp-json/wp/v2/posts?per_page=2&page=3', 5).headers.at(-1)).toEqual(['Link', `<${POSTS}?per_page=2&page=2>; rel="prev"`]);
  });
  it('20: page is appended when the request had none', () => {
    expect(linksFor('/wp-json/wp/v2/posts?per_page=2', 5).headers.at(-1)).toEqual(['Link', `<${POSTS}?per_page=2&page=2>; rel="next"`]);
  });
  it('04: rest_route stays in the query, the base is the pretty URL', () => {
    expect(linksFor('/?rest_route=/wp/v2/posts&per_page=1', 5).headers.at(-1)).toEqual(['Link', `<${POSTS}?rest_route=%2Fwp%2Fv2%2Fposts&per_page=1&page=2>; rel="next"`]);
  });
  it('46/49/50/52: undeclared params are re-encoded, bare ones stay bare', () => {
    expect(linksFor('/wp-json/wp/v2/posts?_fields=id,title.rendered,_links&per_page=1', 5).headers.at(-1)![1]).toBe(`<${POSTS}?_fields=id%2Ctitle.rendered%2C_links&per_page=1&page=2>; rel="next"`);
    expect(linksFor('/wp-json/wp/v2/posts?_jsonp=cb&per_page=1&_fields=id', 5).headers.at(-1)![1]).toBe(`<${POSTS}?_jsonp=cb&per_page=1&_fields=id&page=2>; rel="next"`);
    expect(linksFor('/wp-json/wp/v2/posts?_pretty&per_page=1&_fields=id,title', 5).headers.at(-1)![1]).toBe(`<${POSTS}?_pretty&per_page=1&_fields=id%2Ctitle&page=2>; rel="next"`);
    expect(linksFor('/wp-json/wp/v2/posts?per_page=1&_fields=id', 5).headers.at(-1)![1]).toBe(`<${POSTS}?per_page=1&_fields=id&page=2>; rel="next"`);
  });
  it('57/64: sanitized values are what gets printed', () => {
    expect(linksFor('/wp-json/wp/v2/posts?per_page=5&author=1&_fields=id,author', 6).headers).toEqual([
      ['X-WP-Total', 6],
      ['X-WP-TotalPages', 2],
      ['Link', `<${POSTS}?per_page=5&author%5B0%5D=1&_fields=id%2Cauthor&page=2>; rel="next"`],
    ]);
    expect(linksFor('/wp-json/wp/v2/posts?sticky=false&per_page=2&_fields=id,sticky', 6).headers.at(-1)![1]).toBe(`<${POSTS}?sticky&per_page=2&_fields=id%2Csticky&page=2>; rel="next"`);
    expect(linksFor('/wp-json/wp/v2/posts?include=25,26&per_page=1', 2).headers.at(-1)![1]).toBe(`<${POSTS}?include%5B0%5D=25&include%5B1%5D=26&per_page=1&page=2>; rel="next"`);
  });
  it('19/21/65: a single page sends no Link', () => {
    expect(linksFor('/wp-json/wp/v2/posts?search=post%203&_fields=id,title', 1).headers).toEqual([
      ['X-WP-Total', 1],
      ['X-WP-TotalPages', 1],
    ]);
  });
  it('08: a page past the end is an error for posts when there are items', () => {
    const r = linksFor('/wp-json/wp/v2/posts?per_page=2&page=99', 5);
    expect(r.error).toEqual({ status: 400, body: { code: 'rest_post_invalid_page_number', message: 'The page number requested is larger than the number of pages available.', data: { status: 400 } } });
    expect(r.headers).toEqual([]);
  });
  it('but an empty collection answers any page, with prev pointing at page 0', () => {
    expect(linksFor('/wp-json/wp/v2/posts?search=zzzz&page=5&per_page=2', 0)).toEqual({
      error: null,
      totalPages: 0,
      headers: [
        ['X-WP-Total', 0],
        ['X-WP-TotalPages', 0],
        ['Link', `<${POSTS}?search=zzzz&page=0&per_page=2>; rel="prev"`],
      ],
    });
  });
  it('terms answer an empty page past the end, prev at the last page', () => {
    const r = paginate({ collectionUrl: 'http://127.0.0.1:8089/wp-json/wp/v2/categories', query: new Map([['page', 5]]), page: 5, perPage: 10, total: 1, beyondLastPage: 'empty-page' });
    expect(r.error).toBeNull();
    expect(r.headers).toEqual([
      ['X-WP-Total', 1],
      ['X-WP-TotalPages', 1],
      ['Link', '<http://127.0.0.1:8089/wp-json/wp/v2/categories?page=1>; rel="prev"'],
    ]);
  });
  it('uses the code of the controller', () => {
    expect(paginate({ collectionUrl: POSTS, query: {}, page: 3, perPage: 1, total: 2, beyondLastPage: { error: 'rest_search_invalid_page_number' } }).error?.body.code).toBe('rest_search_invalid_page_number');
  });
  it('pageLink keeps nested params and encodes values once', () => {
    expect(pageLink(POSTS, { tags: { terms: [1, 2], operator: 'AND' }, search: 'a b' }, 2)).toBe(`${POSTS}?tags%5Bterms%5D%5B0%5D=1&tags%5Bterms%5D%5B1%5D=2&tags%5Boperator%5D=AND&search=a+b&page=2`);
  });
});

describe('pageOf', () => {
  const list = [1, 2, 3, 4, 5, 6, 7];

  it('a page is the window at (page - 1) * perPage, the last one short, one past it empty and beyond', () => {
    expect(pageOf(list, 2, 3)).toEqual({ items: [4, 5, 6], pagination: { total: 7, totalPages: 3, page: 2 }, beyond: false });
    expect(pageOf(list, 3, 3).items).toEqual([7]);
    expect(pageOf(list, 4, 3)).toEqual({ items: [], pagination: { total: 7, totalPages: 3, page: 4 }, beyond: true });
    expect(pageOf([], 1, 10)).toEqual({ items: [], pagination: { total: 0, totalPages: 0, page: 1 }, beyond: false });
  });
});
