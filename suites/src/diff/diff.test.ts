import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { parseDescriptor, templateKey } from './descriptor.ts';
import { argForm, compareArgs, diffDescriptor } from './diff.ts';
import { diffCases, differenceOf, renderTable } from './table.ts';
import { DEFAULT_POLICY } from '../report/model.ts';

const contract = loadContractFile();

/** The core routes a plain WordPress 6.1 lists (as in its descriptor), trimmed to what the diff reads. */
const WORDPRESS_CORE = {
  namespaces: ['oembed/1.0', 'wp/v2', 'wp-site-health/v1', 'wp-block-editor/v1'],
  routes: {
    '/': { namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }] },
    '/batch/v1': {
      namespace: '',
      methods: ['POST'],
      endpoints: [
        {
          methods: ['POST'],
          args: {
            validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal', required: false },
            requests: { type: 'array', maxItems: 25, items: { type: 'object', properties: [] }, required: true },
          },
        },
      ],
    },
    '/oembed/1.0': { namespace: 'oembed/1.0', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { namespace: { default: 'oembed/1.0', required: false }, context: { default: 'view', required: false } } }] },
    '/oembed/1.0/embed': {
      namespace: 'oembed/1.0',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { url: { type: 'string', format: 'uri', required: true }, format: { default: 'json', required: false }, maxwidth: { default: 600, required: false } } }],
    },
    '/oembed/1.0/proxy': {
      namespace: 'oembed/1.0',
      methods: ['GET'],
      endpoints: [
        {
          methods: ['GET'],
          args: {
            url: { type: 'string', format: 'uri', required: true },
            format: { type: 'string', default: 'json', enum: ['json', 'xml'], required: false },
            maxwidth: { type: 'integer', default: 600, required: false },
            maxheight: { type: 'integer', required: false },
            discover: { type: 'boolean', default: true, required: false },
          },
        },
      ],
    },
    '/wp/v2/posts/(?P<id>[\\d]+)': { namespace: 'wp/v2', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] },
  },
};

describe('descriptor', () => {
  it('keys routes by their template, parameter names dropped (templates from the WordPress layer\'s routeTemplate())', () => {
    expect(parseDescriptor({ routes: { '/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/x': { namespace: 'wp/v2', methods: ['GET'], endpoints: [] } } }).routes[0]?.template).toBe('/wp/v2/users/{user_id}/x');
    expect(templateKey('/cal/events/v1/events/by-slug/{slug}')).toBe('/cal/events/v1/events/by-slug/{}');
  });
});

describe('argForm and compareArgs', () => {
  it('reads 2020-12 exclusive bounds as draft-04 booleans and ignores enum order', () => {
    expect(argForm({ type: 'integer', exclusiveMinimum: 0 }, false)).toEqual({ type: 'integer', minimum: 0, exclusiveMinimum: true, required: false });
    const a = argForm({ type: 'string', enum: ['b', 'a'] }, true);
    const b = argForm({ type: 'string', enum: ['a', 'b'], required: true }, true);
    expect(compareArgs(a, b)).toEqual([]);
    expect(compareArgs(argForm({ type: 'integer', maximum: 100 }, false), argForm({ type: 'integer' }, false))).toEqual([{ keyword: 'maximum', contract: 100, target: undefined }]);
  });
});

describe('diffDescriptor against a plain WordPress', () => {
  const d = diffDescriptor(contract, parseDescriptor(WORDPRESS_CORE));

  it('reports the calendar and add-on routes as missing', () => {
    const missing = new Set(d.operations.filter((o) => o.kind === 'route-missing').map((o) => o.namespace));
    expect(missing.has('cal/v1')).toBe(true);
    expect(missing.has('cal/events/v1')).toBe(true);
    expect(missing.has('seo/v1')).toBe(true);
    expect(d.operations.find((o) => o.operationId === 'getOembed10Proxy')?.kind).toBe('args');
  });

  it('finds the core routes, with i18n_language missing and nothing else different on the proxy', () => {
    const proxy = d.operations.find((o) => o.operationId === 'getOembed10Proxy')!;
    expect(proxy.args.map((a) => `${a.kind} ${a.name}`)).toEqual(['missing i18n_language']);
    const batch = d.operations.find((o) => o.operationId === 'postBatchV1')!;
    expect(batch.args.map((a) => `${a.kind} ${a.name}`)).toEqual(['missing i18n_language']);
    expect(d.otherNamespaces).toEqual(['wp-block-editor/v1', 'wp-site-health/v1', 'wp/v2']);
    expect(d.extras).toEqual([]);
    expect(d.summary.identical).toBe(false);
  });

  it('prints a table and turns every difference into a failing case', () => {
    const table = renderTable(d);
    expect(table).toMatch(/\/cal\/v1\/events\s+GET\s+route missing/);
    expect(table).toMatch(/\/oembed\/1\.0\/proxy\s+GET\s+arg i18n_language missing/);
    const cases = diffCases(d, DEFAULT_POLICY);
    expect(cases.find((c) => c.id === 'descriptor:getCalV1Events:route')?.status).toBe('failed');
    expect(cases.find((c) => c.id === 'descriptor:getOembed10Proxy:method')?.status).toBe('passed');
  });

  it('reads each case back as the summary count it stands for, so a report can filter by them', () => {
    const kinds = diffCases(d, DEFAULT_POLICY).map(differenceOf);
    const count = (k: string): number => kinds.filter((x) => x === k).length;
    const s = d.summary;
    expect({ same: count('same'), routeMissing: count('route-missing'), methodMissing: count('method-missing'), argDiffs: count('args'), extras: count('extra') }).toEqual({
      same: s.same,
      routeMissing: s.routeMissing,
      methodMissing: s.methodMissing,
      argDiffs: s.argDiffs,
      extras: s.extras,
    });
    expect(count('listed')).toBe(s.same + s.withArgDiffs);
    expect(kinds).not.toContain(undefined);
  });

  it('compares only the selected operations', () => {
    const only = diffDescriptor(contract, parseDescriptor(WORDPRESS_CORE), { include: (op) => op.id === 'getOembed10' });
    expect(only.operations).toHaveLength(1);
    // Each index route's `namespace` defaults to its own namespace, as WordPress prints it: only the
    // contract's i18n_language, which core does not declare, is left.
    expect(only.operations[0]?.args.map((a) => `${a.kind} ${a.name}`)).toEqual(['missing i18n_language']);
  });
});
