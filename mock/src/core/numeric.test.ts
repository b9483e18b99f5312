// Integer parameters spelled with odd spacing answer as WordPress 6.1.9 answered them (recorded on the reference
// site, contracts/wordpress/php/php-numeric.cases.ts): PHP's whitespace around a number is fine, U+00A0 and NUL are not.
import { beforeAll, describe, expect, it } from 'vitest';
import { ID_LIST_SPELLINGS, PER_PAGE_SPELLINGS } from '../../../contracts/wordpress/php/php-numeric.cases.ts';
import type { Mock } from '../index.ts';
import { call, freshMock } from '../testing/harness.ts';

let mock: Mock;
beforeAll(async () => {
  mock = await freshMock();
});

describe('is_numeric() and wp_parse_list() spacing', () => {
  it.each(PER_PAGE_SPELLINGS)('per_page=%s answers %i', (raw, status) => {
    const res = call(mock, 'GET', `/wp-json/cal/v1/events?per_page=${raw}&_fields=id`);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.json.data.details.per_page.code).toBe('rest_invalid_type');
  });

  it.each(ID_LIST_SPELLINGS)('categories and tags as %s answer %i', (raw, status) => {
    expect(call(mock, 'GET', `/wp-json/cal/v1/events?categories=${raw}&_fields=id`).status).toBe(status);
    expect(call(mock, 'GET', `/wp-json/cal/v1/events?tags=${raw}&_fields=id`).status).toBe(status);
  });
});
