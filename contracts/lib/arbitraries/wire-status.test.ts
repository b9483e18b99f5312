// wireStatus() asks the WordPress layer which keywords and formats WordPress refuses values for (wpValidates()), so
// the generators' "WordPress answers 400" and the mock's answer come from the same place. Where the generators' own
// list once said otherwise, the layer's answer holds, proven against the validator port in validate.test.ts.
import { describe, expect, it } from 'vitest';
import { wpValidateValue } from '../../wordpress/schema/validate.ts';
import { toWpSchema } from '../../wordpress/schema/convert.ts';
import { wireStatus, type StatusInput } from './wire-status.ts';

const at = (keyword: string, node: Record<string, unknown>, extra: Partial<StatusInput> = {}): StatusInput => ({
  location: 'query', keyword, topLevel: false, node, paramSchema: node, wireEnforced: true, ...extra,
});

describe('wireStatus() follows the validator port', () => {
  it('keywords the port refuses values for are wire constraints', () => {
    for (const k of ['minimum', 'maxLength', 'pattern', 'enum', 'uniqueItems', 'additionalProperties', 'minProperties']) expect(wireStatus(at(k, {})).kind, k).toBe('wire');
  });
  it('a numeric exclusive bound, const, anyOf and an ipv4 format are refused by WordPress once registered (the old list said contract-only)', () => {
    const node = { type: 'number', exclusiveMinimum: 0 };
    expect(wireStatus(at('exclusiveMinimum', node)).kind).toBe('wire');
    expect(wpValidateValue(0, toWpSchema(node), 'x')).toMatchObject({ code: 'rest_out_of_bounds' });
    expect(wireStatus(at('const', { type: 'string', const: 'a' })).kind).toBe('wire');
    expect(wireStatus(at('anyOf', {})).kind).toBe('wire');
    expect(wireStatus(at('format', { type: 'string', format: 'ipv4' }, { detail: 'ipv4' })).kind).toBe('wire');
  });
  it('what the port ignores is contract-only, with the reason', () => {
    expect(wireStatus(at('format', { format: 'tel' }, { detail: 'tel' }))).toMatchObject({ kind: 'contract-only', reason: expect.stringContaining('format tel') });
    expect(wireStatus(at('not', {}))).toMatchObject({ kind: 'contract-only' });
    expect(wireStatus(at('dependentRequired', {}, { topLevel: true }))).toMatchObject({ kind: 'contract-only' });
  });
});
