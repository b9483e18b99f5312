import { describe, expect, it } from 'vitest';
import { wpJsonEncode } from '../php/index.ts';
import { toWpArg, toWpSchema } from './convert.ts';
import { BATCH_REQUESTS } from '../rest/batch-requests.cases.ts';
import type { JsonSchema } from './types.ts';
import { wpValidateValue } from './validate.ts';

// Expected JSON is transcribed from sample 51 (OPTIONS /wp/v2/posts); inputs are written the way the contract
// states them (JSON Schema 2020-12).


describe('toWpArg / toWpSchema (JSON Schema 2020-12 → WordPress draft-04 args)', () => {
  it('51: posts collection args as WordPress prints them', () => {
    expect(
      toWpArg({ description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 }, false),
    ).toEqual({ description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100, required: false });
    expect(
      wpJsonEncode(
        toWpArg(
          {
            default: 'publish',
            description: 'Limit result set to posts assigned one or more statuses.',
            type: 'array',
            items: { enum: ['publish', 'future', 'draft'], type: 'string' },
          },
          false,
        ),
      ),
    ).toBe('{"default":"publish","description":"Limit result set to posts assigned one or more statuses.","type":"array","items":{"enum":["publish","future","draft"],"type":"string"},"required":false}');
    expect(wpJsonEncode(toWpArg({ description: 'The date the post was published, in the site\'s timezone.', type: ['string', 'null'], format: 'date-time' }, false))).toBe(
      '{"description":"The date the post was published, in the site\'s timezone.","type":["string","null"],"format":"date-time","required":false}',
    );
  });
  it('51: nested annotations stay, the top level is filtered', () => {
    const title: JsonSchema = {
      description: 'The title for the post.',
      type: 'object',
      'x-wp-context': ['view', 'edit', 'embed'],
      properties: {
        raw: { description: 'Title for the post, as it exists in the database.', type: 'string', 'x-wp-context': ['edit'] },
        rendered: { description: 'HTML title for the post, transformed for display.', type: 'string', 'x-wp-context': ['view', 'edit', 'embed'], readOnly: true },
      },
    };
    expect(wpJsonEncode(toWpArg(title, false))).toBe(
      '{"description":"The title for the post.","type":"object","properties":{"raw":{"description":"Title for the post, as it exists in the database.","type":"string","context":["edit"]},"rendered":{"description":"HTML title for the post, transformed for display.","type":"string","context":["view","edit","embed"],"readonly":true}},"required":false}',
    );
    expect(wpJsonEncode(toWpArg({ description: 'Meta fields.', type: 'object', properties: {} }, false))).toBe('{"description":"Meta fields.","type":"object","properties":[],"required":false}');
  });
  it('takes an exact format as the WordPress format it stands for, without its pattern', () => {
    const formatOf = (s: JsonSchema) => (s['x-format'] === 'cal-date-time' ? 'date-time' : undefined);
    expect(toWpSchema({ type: 'string', pattern: '^x$', 'x-format': 'cal-date-time' }, { formatOf })).toEqual({ type: 'string', format: 'date-time' });
    expect(toWpSchema({ type: 'string', pattern: '^x$', 'x-format': 'other' }, { formatOf })).toEqual({ type: 'string', pattern: '^x$' });
  });
  it('rewrites 2020-12 keywords', () => {
    expect(toWpSchema({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true });
    expect(toWpSchema({ type: 'number', minimum: 1, exclusiveMinimum: 0 })).toEqual({ type: 'number', minimum: 1 });
    expect(toWpSchema({ type: 'number', minimum: 0, exclusiveMinimum: 0 })).toEqual({ type: 'number', minimum: 0, exclusiveMinimum: true });
    expect(toWpSchema({ const: 'x' })).toEqual({ enum: ['x'] });
    expect(toWpSchema({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(toWpSchema({ type: 'string', format: 'ipv4' })).toEqual({ type: 'string', format: 'ip' });
    expect(toWpSchema({ $schema: 'x', $id: 'y', examples: [1], type: 'string', deprecated: true, 'x-other': 1 })).toEqual({ type: 'string' });
    expect(toWpSchema({ anyOf: [{ type: 'string', const: 'a' }, { type: 'null' }] })).toEqual({ anyOf: [{ type: 'string', enum: ['a'] }, { type: 'null' }] });
    expect(toWpSchema({ type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string', required: true } },
      required: ['a', 'b'],
    });
  });
  it('gives schemas the WordPress validator reads the same way', () => {
    const requests = toWpArg(BATCH_REQUESTS, true);
    expect(wpValidateValue([{ method: 'POST' }], requests, 'requests')?.message).toBe('path is a required property of requests[0].');
    expect(wpValidateValue('0', toWpSchema({ type: 'integer', exclusiveMinimum: 0 }), 'n')?.message).toBe('n must be greater than 0');
  });
});
