// write_refusals proven both ways: it passes on the mock, and each fault (a controller that reads past one of
// WordPress's refusals, at its edge: the one value refused beside the one taken) fails exactly its case.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, harnessForFile, parse, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'write_refusals';

/** A fault that drops `key` from the JSON body of a create on `route` when `when` holds for its value. */
function dropping(route: string, key: string, when: (v: unknown) => boolean = () => true): { fault: Fault; hits: () => number } {
  let hits = 0;
  const fault: Fault = (req: MockRequest, next) => {
    if (req.method !== 'POST' || parse(req).route !== route) return next(req);
    const text = bodyText(req);
    if (!text.startsWith('{')) return next(req);
    const body = JSON.parse(text) as Record<string, unknown>;
    if (!(key in body) || !when(body[key])) return next(req);
    hits++;
    const { [key]: _gone, ...rest } = body;
    return next({ ...req, body: JSON.stringify(rest) });
  };
  return { fault, hits: () => hits };
}

const variants = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, ONLY)).map((c) => `${c.check}:${c.route}:${c.variant}`);

describe('write_refusals', () => {
  it('passes on the mock: each refused write refused with its code, each taken one taken', async () => {
    const { run } = await h.run(undefined, ONLY);
    const cases = run.cases.filter((c) => c.check === 'write_refusals');
    expect(cases.map((c) => [c.route, c.variant, c.status]).filter(([, , s]) => s !== 'passed')).toEqual([]);
    expect(cases).toHaveLength(3 * 5 + 2);
    expect(cases.find((c) => c.route === '/cal/v1/venues' && c.variant === 'id')!.message).toMatch(/refused 400 rest_post_exists, and nothing was made/);
    expect(cases.find((c) => c.route === '/cal/events/v1/tags' && c.variant === 'parent')!.message).toMatch(/refused 400 rest_taxonomy_not_hierarchical/);
  });

  it('fails when a create naming an existing id makes a new record (rest_post_exists skipped)', async () => {
    const f = dropping('/cal/v1/venues', 'id');
    expect(await variants(f.fault)).toEqual(['write_refusals:/cal/v1/venues:id']);
    expect(f.hits()).toBe(1);
  });

  it('fails when a template the theme lacks is taken (check_template skipped)', async () => {
    const f = dropping('/cal/v1/organizers', 'template', (v) => v !== '');
    expect(await variants(f.fault)).toEqual(['write_refusals:/cal/v1/organizers:template']);
  });

  it('fails when template "" is refused like a missing file', async () => {
    const fault: Fault = (req, next) => {
      if (req.method === 'POST' && parse(req).route === '/cal/v1/events' && /"template":""/.test(bodyText(req))) {
        return next({ ...req, body: bodyText(req).replace('"template":""', '"template":"x"') });
      }
      return next(req);
    };
    expect(await variants(fault)).toEqual(['write_refusals:/cal/v1/events:template-empty']);
  });

  it('fails when an author that is no user is taken (rest_invalid_author skipped)', async () => {
    const f = dropping('/cal/v1/venues', 'author', (v) => v === 2_000_000_001);
    expect(await variants(f.fault)).toEqual(['write_refusals:/cal/v1/venues:author']);
  });

  it("fails when a tag takes a parent, and when a category's missing parent is ignored", async () => {
    expect(await variants(dropping('/cal/events/v1/tags', 'parent').fault)).toEqual(['write_refusals:/cal/events/v1/tags:parent']);
    expect(await variants(dropping('/cal/events/v1/categories', 'parent', (v) => v === 2_000_000_001).fault)).toEqual(['write_refusals:/cal/events/v1/categories:parent']);
  });
});
