// Add-on writes the documents constrain, proven both ways at the edge of their arguments (001 §4.7, §4.8): the SEO
// suite's update mode (a write the suite cannot undo, so judged only with --disposable-target, which these runs
// pass against the mock) and the page builder's plugin install, whose slugs the documents omit, so that only a
// missing slug and a status off the enum can be judged.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyFields, failedBy, harnessForFile, parse, withBodyFields, wpError, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const DISPOSABLE = ['--disposable-target'] as const;
const UPDATE_MODE = 'postSeoV1UpdateMode,putSeoV1UpdateMode,patchSeoV1UpdateMode';
const INSTALL = 'postPagebuilderOneV1Plugins';

describe('seo/v1 updateMode (001 §4.7): mode easy, advanced or custom', () => {
  it('passes against the unbroken mock with --disposable-target: every mode taken, in each method', async () => {
    const clean = await h.run(undefined, UPDATE_MODE, DISPOSABLE);
    const mode = clean.run.cases.filter((c) => c.check === 'positive_acceptance' && /^(edge:)?body\.mode/.test(c.variant ?? ''));
    expect(mode.map((c) => c.id)).toContain('positive_acceptance:postSeoV1UpdateMode:edge:body.mode enum value:custom');
    expect(mode.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(clean.exitCode).toBe(0);
  });

  it('positive_acceptance: updateMode refuses mode custom, the last of the three (a server that knows easy and advanced only)', async () => {
    const fault: Fault = (req, next) =>
      parse(req).route === '/seo/v1/updateMode' && bodyFields(req)?.['mode'] === 'custom'
        ? wpError(400, 'rest_invalid_param', { params: { mode: 'mode is not one of easy and advanced.' }, details: { mode: { code: 'rest_not_in_enum', message: 'mode is not one of easy and advanced.', data: null } } })
        : next(req);
    const failed = await failedBy(h, fault, UPDATE_MODE, DISPOSABLE);
    expect([...new Set(failed.map((c) => c.check))]).toEqual(['positive_acceptance']);
    expect(failed.map((c) => c.id)).toEqual(expect.arrayContaining(['positive_acceptance:postSeoV1UpdateMode:edge:body.mode enum value:custom', 'positive_acceptance:putSeoV1UpdateMode:edge:body.mode enum value:custom', 'positive_acceptance:patchSeoV1UpdateMode:edge:body.mode enum value:custom']));
    expect(failed.every((c) => c.severity === 'documented' && /mode="custom"/.test(c.message ?? '') && /naming mode/.test(c.message ?? ''))).toBe(true);
  });

  it('without --disposable-target the mode is never sent valid, so nothing is judged of it', async () => {
    const clean = await h.run(undefined, 'postSeoV1UpdateMode');
    const mode = clean.run.cases.filter((c) => c.check === 'positive_acceptance' && /body\.mode/.test(c.variant ?? ''));
    expect(mode.length).toBeGreaterThan(0);
    expect(mode.every((c) => c.status === 'skipped' && /--disposable-target/.test(c.message ?? ''))).toBe(true);
  });
});

describe('pagebuilder-one/v1 POST /plugins (001 §4.8): slug required, status inactive or active', () => {
  it('passes against the unbroken mock: a missing slug and a status one letter-case off are refused', async () => {
    const clean = await h.run(undefined, INSTALL);
    const edges = clean.run.cases.filter((c) => c.check === 'negative_rejection' && ['edge:body.slug required missing', 'edge:body.status enum case'].includes(c.variant ?? ''));
    expect(edges.map((c) => `${c.variant} ${c.status}`).sort()).toEqual(['edge:body.slug required missing passed', 'edge:body.status enum case passed']);
  });

  it('negative_rejection: a plugin install without slug installs a default one, and status INACTIVE is read as inactive', async () => {
    // A handler that falls back to the first plugin of the suite instead of requiring slug, and lower-cases status
    // before its enum check: two steps off WordPress's argument handling, each at its edge.
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/pagebuilder-one/v1/plugins') return next(req);
      return next(
        withBodyFields(req, (f) => ({
          ...f,
          ...(f['slug'] === undefined ? { slug: 'pagebuilder-one-addon-a' } : {}),
          ...(typeof f['status'] === 'string' && /^(inactive|active)$/i.test(f['status']) ? { status: f['status'].toLowerCase() } : {}),
        })),
      );
    };
    const failed = await failedBy(h, fault, INSTALL);
    expect([...new Set(failed.map((c) => c.check))]).toEqual(['negative_rejection']);
    const variants = failed.map((c) => c.variant);
    expect(variants).toEqual(expect.arrayContaining(['edge:body.slug required missing', 'edge:body.status enum case']));
    expect(failed.find((c) => c.variant === 'edge:body.slug required missing')!.message).toMatch(/slug left out/);
    expect(failed.find((c) => c.variant === 'edge:body.status enum case')!.message).toMatch(/status="INACTIVE"/);
    // Nothing else about the request: every failure names slug or status.
    expect(failed.every((c) => /slug|status/.test(c.variant ?? ''))).toBe(true);
  });
});
