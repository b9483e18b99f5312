// Links, embedding and the root's images proven both ways (issue 25's links_resolve, links, embed and response_shape
// rows): each passes against the mock, and fails against the mock with one fault in front of it, at the edge of what
// the check looks for (one character off a route, one link too few, an integer written as a string).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { harnessForFile, json, parse, withJson, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const routeOf = (req: MockRequest): string => parse(req).route;
type Case = RunResult['cases'][number];
const failing = (c: Case): boolean => c.status === 'failed' || c.status === 'errored' || c.status === 'warned';

/** The cases the fault makes fail (or warn) that did not without it; the clean run's cases of `check` all pass. */
async function faulted(fault: Fault, only: string, check: string): Promise<{ failed: Case[]; clean: Case[] }> {
  const clean = (await h.run(undefined, only)).run;
  const before = new Set(clean.cases.filter(failing).map((c) => c.id));
  const broken = (await h.run(fault, only)).run;
  const mine = clean.cases.filter((c) => c.check === check);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  return { failed: broken.cases.filter((c) => failing(c) && !before.has(c.id)), clean: mine };
}

/** The root's index with `edit` applied. */
const rootEdited = (edit: (index: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) => {
  const res = next(req);
  return req.method === 'GET' && routeOf(req) === '/' && res.status === 200 ? withJson(res, edit(json(res))) : res;
};

describe("response_shape: the root's site logo and icon", () => {
  it('response_shape: a site icon set (12) without its featuredmedia link', async () => {
    const { failed } = await faulted(rootEdited((i) => ({ ...i, site_icon: 12, site_icon_url: 'http://127.0.0.1/icon.png' })), 'root,response_shape', 'response_shape');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['response_shape:getRoot:index-images failed']);
    expect(failed[0]!.message).toMatch(/; site_icon is 12 but 0 wp:featuredmedia links of type site_icon come with it \(one expected\)$/);
  });

  it('response_shape: site_logo written "0", a string', async () => {
    const { failed } = await faulted(rootEdited((i) => ({ ...i, site_logo: '0' })), 'root,response_shape', 'response_shape');
    expect(failed.map((c) => c.id)).toContain('response_shape:getRoot:index-images');
    expect(failed.find((c) => c.id === 'response_shape:getRoot:index-images')!.message).toMatch(/site_logo is "0", not an integer$/);
  });

  it('response_shape: a site icon set with its featuredmedia link passes', async () => {
    const fault = rootEdited((i) => ({ ...i, site_icon: 12, _links: { ...(i['_links'] as object), 'wp:featuredmedia': [{ embeddable: true, type: 'site_icon', href: 'http://127.0.0.1/wp-json/wp/v2/media/12' }] } }));
    const { run } = await h.run(fault, 'root,response_shape');
    expect(run.cases.filter((c) => c.id === 'response_shape:getRoot:index-images').map((c) => c.status)).toEqual(['passed']);
  });
});
