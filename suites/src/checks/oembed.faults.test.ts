// oembed proven both ways at its edge: the unbroken mock embeds a published event of the suite's own; a mock whose
// embed ignores maxwidth by one pixel (301 for 300), answers another title, or answers format=xml as JSON fails that
// case only.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, json, parse, plain, withJson, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'oembed';
const variants = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, ONLY)).map((c) => `${c.check}:${c.variant}`);
const onEmbed = (fault: Fault): Fault => (req, next) => (req.method === 'GET' && parse(req).route === '/oembed/1.0/embed' ? fault(req, next) : next(req));

describe('oembed: the site embeds its own event', () => {
  it('passes on the mock: a rich embed of its own published event, as XML too, within maxwidth', async () => {
    const { run } = await h.run(undefined, ONLY);
    expect(run.cases.filter((c) => c.check === 'oembed').map((c) => [c.variant, c.status, c.severity])).toEqual([
      ['json', 'passed', 'documented'],
      ['fields', 'passed', 'convention'],
      ['xml', 'passed', 'documented'],
      ['maxwidth', 'passed', 'documented'],
      ['unknown', 'passed', 'convention'],
    ]);
  });

  it('oembed: maxwidth=300 answered 301 wide', async () => {
    const fault = onEmbed((req, next) => {
      const res = next(req);
      if (parse(req).query.get('maxwidth') !== '300' || res.status !== 200) return res;
      return plain(withJson(res, { ...json(res), width: 301 }));
    });
    expect(await variants(fault)).toEqual(['oembed:maxwidth']);
  });

  it("oembed: the embed's title is not the record's", async () => {
    const fault = onEmbed((req, next) => {
      const res = next(req);
      if (parse(req).query.has('format') || res.status !== 200) return res;
      const b = json(res);
      return plain(withJson(res, { ...b, title: `${String(b['title'])}.` }));
    });
    expect(await variants(fault)).toEqual(['oembed:json']);
  });

  it('oembed: format=xml answered as JSON', async () => {
    const fault = onEmbed((req, next) => {
      const q = parse(req).query;
      if (q.get('format') !== 'xml') return next(req);
      const url = new URL(req.url, 'http://x');
      url.searchParams.delete('format');
      return next({ ...req, url: `${url.pathname}${url.search}` });
    });
    expect(await variants(fault)).toEqual(['oembed:xml']);
  });
});
