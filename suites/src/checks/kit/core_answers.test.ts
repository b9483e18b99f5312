// The server errors WordPress core itself answers, told from the site's own: each excuse holds for core's request and
// answer as WordPress 6.1.9 gives them (checked on the plain CI site), and not one step beside it.

import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import type { Exchange } from '../../http/types.ts';
import { sentParam, wordpressOwnServerError } from './core_answers.ts';

const contract = loadContractFile();
const op = (id: string) => contract.operation(id);

function exchange(method: string, url: string, body: string | undefined, status: number, answer: unknown, type = 'application/json'): Exchange {
  return {
    request: { method, url, headers: body === undefined ? {} : { 'Content-Type': type }, ...(body === undefined ? {} : { body }) },
    response: { status, headers: {}, body: JSON.stringify(answer) },
    durationMs: 1,
  };
}

const emptyName = { code: 'empty_term_name', message: 'A name is required for this term.', data: null };
const dupSlug = { code: 'duplicate_term_slug', message: 'The slug &#8220;b&#8221; is already in use by another term.', data: null };
const noTrash = { code: 'rest_trash_not_supported', message: 'The post does not support trashing. Set \'force\' to true to delete.', data: { status: 501 } };

describe("WordPress core's own server errors", () => {
  it('an empty or blank term name answered 500 empty_term_name with data null, in JSON or a form', () => {
    const create = op('postCalEventsV1Tags');
    expect(wordpressOwnServerError(contract, create, exchange('POST', 'http://x/wp-json/cal/events/v1/tags', '{"name":""}', 500, emptyName))).toMatch(/wp_insert_term\(\)/);
    expect(wordpressOwnServerError(contract, create, exchange('POST', 'http://x/wp-json/cal/events/v1/tags', '{"name":" \\t\\n"}', 500, emptyName))).toMatch(/empty once trimmed/);
    expect(wordpressOwnServerError(contract, op('patchCalEventsV1CategoriesById'), exchange('PATCH', 'http://x/wp-json/cal/events/v1/categories/5', 'name=', 500, emptyName, 'application/x-www-form-urlencoded'))).toMatch(/wp_update_term\(\)/);
  });

  it('not for a name with one letter, a status in data, another status, or a route that is not a term', () => {
    const create = op('postCalEventsV1Tags');
    expect(wordpressOwnServerError(contract, create, exchange('POST', 'http://x/wp-json/cal/events/v1/tags', '{"name":"x"}', 500, emptyName))).toBeUndefined();
    expect(wordpressOwnServerError(contract, create, exchange('POST', 'http://x/wp-json/cal/events/v1/tags', '{"name":""}', 500, { ...emptyName, data: { status: 500 } }))).toBeUndefined();
    expect(wordpressOwnServerError(contract, create, exchange('POST', 'http://x/wp-json/cal/events/v1/tags', '{"name":""}', 503, emptyName))).toBeUndefined();
    expect(wordpressOwnServerError(contract, op('postCalEventsV1Venues'), exchange('POST', 'http://x/wp-json/cal/events/v1/venues', '{"name":""}', 500, emptyName))).toBeUndefined();
  });

  it('a term update naming a slug answered 500 duplicate_term_slug; not a create, nor an update without a slug', () => {
    const update = op('patchCalEventsV1TagsById');
    expect(wordpressOwnServerError(contract, update, exchange('PATCH', 'http://x/wp-json/cal/events/v1/tags/5', '{"slug":"b"}', 500, dupSlug))).toMatch(/wp_update_term\(\)/);
    expect(wordpressOwnServerError(contract, update, exchange('PATCH', 'http://x/wp-json/cal/events/v1/tags/5', '{"name":"b"}', 500, dupSlug))).toBeUndefined();
    expect(wordpressOwnServerError(contract, op('postCalEventsV1Tags'), exchange('POST', 'http://x/wp-json/cal/events/v1/tags', '{"name":"a","slug":"b"}', 500, dupSlug))).toBeUndefined();
  });

  it("a cal/v1 DELETE without force answered 501 rest_trash_not_supported; not with force, nor on the legacy plugin's routes", () => {
    expect(wordpressOwnServerError(contract, op('deleteCalV1VenuesById'), exchange('DELETE', 'http://x/wp-json/cal/v1/venues/5', undefined, 501, noTrash))).toMatch(/no trash/);
    expect(wordpressOwnServerError(contract, op('deleteCalV1VenuesById'), exchange('DELETE', 'http://x/wp-json/cal/v1/venues/5?force=true', undefined, 501, noTrash))).toBeUndefined();
    expect(wordpressOwnServerError(contract, op('deleteCalEventsV1VenuesById'), exchange('DELETE', 'http://x/wp-json/cal/events/v1/venues/5', undefined, 501, noTrash))).toBeUndefined();
  });

  it('reads a parameter as get_param() does: JSON body, form body, then query', () => {
    const e = (url: string, body?: string, type?: string) => exchange('POST', url, body, 200, {}, type);
    expect(sentParam(e('http://x/?name=q', '{"name":"j"}'), 'name')).toBe('j');
    expect(sentParam(e('http://x/?name=q', 'name=f', 'application/x-www-form-urlencoded'), 'name')).toBe('f');
    expect(sentParam(e('http://x/?name=q', '{"slug":"s"}'), 'name')).toBe('q');
    expect(sentParam(e('http://x/'), 'name')).toBeUndefined();
  });
});
