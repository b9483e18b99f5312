import { describe, expect, it } from 'vitest';
import { contentTypeFor, embedLinks, envelope, fieldTree, filterFields, isFieldIncluded, serializeBody } from './envelope.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';

// A trimmed copy of post 25 from sample 22; expected bodies are the samples' raw bodies (samples.json).
const post = {
  id: 25,
  date: '2026-11-22T15:50:42',
  title: { rendered: 'Sample post 1' },
  content: { rendered: '<p>Body of sample post 1.</p>\n', protected: false },
  author: 1,
  categories: [2],
  tags: [],
  meta: [],
  _links: {
    self: [{ href: 'http://127.0.0.1:8089/wp-json/wp/v2/posts/25' }],
    author: [{ embeddable: true, href: 'http://127.0.0.1:8089/wp-json/wp/v2/users/1' }],
    replies: [{ embeddable: true, href: 'http://127.0.0.1:8089/wp-json/wp/v2/comments?post=25' }],
    'version-history': [{ count: 0, href: 'http://127.0.0.1:8089/wp-json/wp/v2/posts/25/revisions' }],
    'wp:term': [
      { taxonomy: 'category', embeddable: true, href: 'http://127.0.0.1:8089/wp-json/wp/v2/categories?post=25' },
      { taxonomy: 'post_tag', embeddable: true, href: 'http://127.0.0.1:8089/wp-json/wp/v2/tags?post=25' },
    ],
  },
};

describe('_fields (rest_filter_response_fields)', () => {
  it('45: id,title', () => {
    expect(wpJsonEncode(filterFields(post, ['id', 'title']))).toBe('{"id":25,"title":{"rendered":"Sample post 1"}}');
  });
  it('46: nested fields, applied per item, in the data order', () => {
    expect(filterFields([post, { ...post, id: 26 }], ['_links', 'title.rendered', 'id'])).toEqual([
      { id: 25, title: { rendered: 'Sample post 1' }, _links: post._links },
      { id: 26, title: { rendered: 'Sample post 1' }, _links: post._links },
    ]);
  });
  it('reproduces WordPress stopping at a sub-field of a field already taken whole', () => {
    expect(filterFields(post, ['title', 'title.rendered', 'id'])).toEqual({ title: { rendered: 'Sample post 1' } });
    expect(filterFields(post, ['id', 'title.rendered', 'title'])).toEqual({ id: 25, title: { rendered: 'Sample post 1' } });
    expect(fieldTree(['a.b', 'a.c', 'd'])).toEqual({ a: { b: true, c: true }, d: true });
  });
  it('is skipped for errors and when empty; an unmatched filter leaves an empty PHP array', () => {
    const err = { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } };
    expect(filterFields(err, ['id'], 404)).toBe(err);
    expect(filterFields(post, null)).toBe(post);
    expect(wpJsonEncode(filterFields(post, ['nope']))).toBe('[]');
  });
  it('indexes into lists like PHP arrays', () => {
    expect(filterFields({ categories: [2, 5, 7] }, ['categories.0'])).toEqual({ categories: [2] });
    expect(wpJsonEncode(filterFields({ categories: [2, 5, 7] }, ['categories.1']))).toBe('{"categories":{"1":5}}');
  });
  it('isFieldIncluded matches parents and children', () => {
    expect(isFieldIncluded('title', ['title.rendered'])).toBe(true);
    expect(isFieldIncluded('title.raw', ['title'])).toBe(true);
    expect(isFieldIncluded('_links', ['id', 'title'])).toBe(false);
    expect(isFieldIncluded('_links', null)).toBe(true);
  });
});

describe('_embed (embed_links)', () => {
  const resolved: Record<string, unknown> = {
    'http://127.0.0.1:8089/wp-json/wp/v2/users/1': { id: 1, name: 'admin' },
    'http://127.0.0.1:8089/wp-json/wp/v2/comments?post=25': [],
    'http://127.0.0.1:8089/wp-json/wp/v2/categories?post=25': [{ id: 2, name: 'Reference' }],
    'http://127.0.0.1:8089/wp-json/wp/v2/tags?post=25': [],
  };
  it('47: every embeddable rel; rels with nothing embedded are left out; placeholders keep their place', () => {
    const out = embedLinks(post, true, (href) => resolved[href]) as { _embedded: unknown };
    expect(Object.keys(out)).toEqual([...Object.keys(post), '_embedded']);
    expect(out._embedded).toEqual({ author: [{ id: 1, name: 'admin' }], 'wp:term': [[{ id: 2, name: 'Reference' }], []] });
  });
  it('48: only the listed rels', () => {
    expect((embedLinks(post, ['author'], (href) => resolved[href]) as { _embedded: unknown })._embedded).toEqual({ author: [{ id: 1, name: 'admin' }] });
  });
  it('embeds errors too, fetches each href once, and leaves data without links alone', () => {
    let calls = 0;
    const twice = { ...post, _links: { author: [post._links.author[0]!, post._links.author[0]!] } };
    const out = embedLinks(twice, true, () => {
      calls++;
      return { code: 'rest_user_invalid_id', message: 'Invalid user ID.', data: { status: 404 } };
    }) as { _embedded: { author: unknown[] } };
    expect(calls).toBe(1);
    expect(out._embedded.author).toHaveLength(2);
    expect(embedLinks({ id: 1 }, true, () => 'x')).toEqual({ id: 1 });
    expect(embedLinks(post, false, () => 'x')).toBe(post);
  });
});

describe('_envelope (envelope_response)', () => {
  it('43: headers inside, HTTP 200', () => {
    const e = envelope({ id: 25 }, 200, [
      ['Link', '<http://127.0.0.1:8089/2026/11/22/sample-post-1/>; rel="alternate"; type=text/html'],
      ['Allow', 'GET'],
    ]);
    expect(e.status).toBe(200);
    expect(wpJsonEncode(e.body)).toBe(
      '{"body":{"id":25},"status":200,"headers":{"Link":"<http:\\/\\/127.0.0.1:8089\\/2026\\/11\\/22\\/sample-post-1\\/>; rel=\\"alternate\\"; type=text\\/html","Allow":"GET"}}',
    );
  });
  it('44: an error with no headers prints headers as []', () => {
    const e = envelope({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } }, 404);
    expect(wpJsonEncode(e.body)).toBe('{"body":{"code":"rest_post_invalid_id","message":"Invalid post ID.","data":{"status":404}},"status":404,"headers":[]}');
  });
  it('keeps X-WP-Total as numbers (reference server, posts?per_page=2&_envelope&_fields=id)', () => {
    const e = envelope([{ id: 1 }, { id: 6 }], 200, { 'X-WP-Total': 4, 'X-WP-TotalPages': 2, Link: '<http://127.0.0.1:8089/wp-json/wp/v2/posts?per_page=2&_envelope&_fields=id&page=2>; rel="next"', Allow: 'GET' });
    expect(wpJsonEncode(e.body)).toBe(
      '{"body":[{"id":1},{"id":6}],"status":200,"headers":{"X-WP-Total":4,"X-WP-TotalPages":2,"Link":"<http:\\/\\/127.0.0.1:8089\\/wp-json\\/wp\\/v2\\/posts?per_page=2&_envelope&_fields=id&page=2>; rel=\\"next\\"","Allow":"GET"}}',
    );
  });
});

describe('serializeBody', () => {
  it('49: JSONP', () => {
    expect(serializeBody([{ id: 29 }], 200, { jsonpCallback: 'cb' })).toBe('/**/cb([{"id":29}])');
    expect(contentTypeFor(true)).toBe('application/javascript; charset=UTF-8');
    expect(contentTypeFor(false)).toBe('application/json; charset=UTF-8');
  });
  it('50: _pretty', () => {
    expect(serializeBody([{ id: 29, title: { rendered: 'Sample post 5' } }], 200, { pretty: true })).toBe(
      '[\n    {\n        "id": 29,\n        "title": {\n            "rendered": "Sample post 5"\n        }\n    }\n]',
    );
  });
  it('escapes like the raw sample bodies', () => {
    expect(serializeBody({ link: 'http://127.0.0.1:8089/2026/11/22/sample-post-1/', content: '<p>Body</p>\n', name: 'Проба' }, 200)).toBe(
      '{"link":"http:\\/\\/127.0.0.1:8089\\/2026\\/11\\/22\\/sample-post-1\\/","content":"<p>Body<\\/p>\\n","name":"\\u041f\\u0440\\u043e\\u0431\\u0430"}',
    );
  });
  it('sends no body for 204 or a null result', () => {
    expect(serializeBody({ a: 1 }, 204)).toBeNull();
    expect(serializeBody(null, 200)).toBeNull();
  });
});
