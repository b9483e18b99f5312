// Faults of classes no issue named, in WordPress's REST server conventions and the descriptor's and add-ons'
// namespaces (001), each proven both ways at its edge: the unbroken mock passes the check; the mock with one
// fault in front of it fails that check, naming the cause. A fault on the descriptor edits it in every form the
// server writes it (plain, ?_envelope, ?_jsonp, a method override), as a fault in the server's own code would,
// so that only a check of the value itself can catch it, not the comparison of one form with another.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, json, parse, plain, withHeader, withJson, wpError, type Fault, type MockResponse } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

type Body = Record<string, unknown>;

/** A JSON body edited wherever the server writes it: plain, enveloped ({body, status, headers}), or JSONP's argument. */
function editAnyForm(res: MockResponse, edit: (d: Body) => void): MockResponse {
  const jsonp = /^\/\*\*\/([\w.]+)\(([\s\S]*)\)$/.exec(res.body);
  const text = jsonp ? jsonp[2]! : res.body;
  if (!/^[[{]/.test(text)) return res;
  const d = JSON.parse(text) as Body;
  const enveloped = 'body' in d && 'status' in d && 'headers' in d;
  edit(enveloped ? (d['body'] as Body) : d);
  const out = withJson(res, d);
  return jsonp ? { ...plain(out), body: `/**/${jsonp[1]}(${out.body})` } : out;
}

/** The answers of one route (every form, every method that reaches it), edited. */
const routeEdit = (route: string, edit: (d: Body) => void): Fault => (req, next) => {
  const res = next(req);
  return parse(req).route === route && res.status === 200 ? editAnyForm(res, edit) : res;
};

type Routes = Record<string, { namespace?: string; methods?: string[] }>;
const descriptorRoutes = (edit: (routes: Routes) => void) => routeEdit('/', (d) => {
  if (d['routes'] && typeof d['routes'] === 'object') edit(d['routes'] as Routes);
});

const causes = async (fault: Fault, only: string): Promise<string[]> => (await failedBy(h, fault, only)).map((c) => `${c.id} ${c.status}: ${c.message ?? ''}`);

describe('namespace_index routes: the index and the descriptor describe one set of routes', () => {
  it('passes on the mock in every namespace, add-ons too', async () => {
    const { run } = await h.run(undefined, 'namespace_index');
    const routes = run.cases.filter((c) => c.check === 'namespace_index' && c.variant === 'routes');
    expect(routes.length).toBe(16);
    expect(routes.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  });

  it("the descriptor's namespaces leave out oembed/1.0 while its routes name it", async () => {
    const fault = routeEdit('/', (d) => {
      if (Array.isArray(d['namespaces'])) d['namespaces'] = (d['namespaces'] as string[]).filter((n) => n !== 'oembed/1.0');
    });
    const found = await causes(fault, 'namespace_index');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^namespace_index:getOembed10:routes failed: .*the descriptor's namespaces leave out oembed\/1\.0, which 3 of its routes name/);
  });

  it("one descriptor route's namespace cut to its vendor (oembed for oembed/1.0)", async () => {
    const found = await causes(descriptorRoutes((r) => (r['/oembed/1.0/embed']!.namespace = 'oembed')), 'namespace_index');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^namespace_index:getOembed10:routes failed: .*the index lists \/oembed\/1\.0\/embed, which the descriptor does not give oembed\/1\.0/);
  });

  it("one descriptor route's methods without one its endpoints serve (contact-forms without POST)", async () => {
    const found = await causes(descriptorRoutes((r) => (r['/forms/v1/contact-forms']!.methods = ['GET'])), 'namespace_index');
    expect(found).toEqual([expect.stringMatching(/^namespace_index:getFormsV1:routes failed: .*the descriptor's \/forms\/v1\/contact-forms lists methods \[GET\] where its endpoints serve \[GET, POST\]/)]);
  });

  it("an add-on namespace's index lists a route of another namespace", async () => {
    const fault = routeEdit('/seo/v1/an', (d) => {
      (d['routes'] as Routes)['/seo/v1/updateMode'] = { namespace: 'seo/v1/an', methods: ['POST'] };
    });
    const found = await causes(fault, 'namespace_index');
    expect(found).toEqual([expect.stringMatching(/^namespace_index:getSeoV1An:routes failed: .*the index lists \/seo\/v1\/updateMode, which the descriptor does not give seo\/v1\/an/)]);
  });

  it('an add-on namespace\'s index says its vendor as its namespace ("seo" for seo/v1)', async () => {
    const fault = routeEdit('/seo/v1', (d) => {
      if (d['namespace'] === 'seo/v1') d['namespace'] = 'seo';
    });
    const found = await causes(fault, 'namespace_index');
    expect(found).toEqual([expect.stringMatching(/^namespace_index:getSeoV1:routes failed: .*the index says namespace "seo", not "seo\/v1"/)]);
  });
});

/** The plain JSON embed (GET /oembed/1.0/embed answered 200), edited. */
const embedEdit = (edit: (d: Body) => void): Fault => (req, next) => {
  const res = next(req);
  if (req.method !== 'GET' || parse(req).route !== '/oembed/1.0/embed' || res.status !== 200 || !res.body.startsWith('{')) return res;
  const d = json(res);
  edit(d);
  return withJson(res, d);
};

describe('oembed fields and unknown: what WordPress fills in an embed, and a link that names no post', () => {
  it('passes on the mock: provider, author, height from width, 404 oembed_invalid_url', async () => {
    const { run } = await h.run(undefined, 'oembed');
    expect(run.cases.filter((c) => c.check === 'oembed').map((c) => `${c.variant} ${c.status}`).sort()).toEqual(['fields passed', 'json passed', 'maxwidth passed', 'unknown passed', 'xml passed']);
  });

  it('oembed: height one short of ceil(width / 16 * 9) (337 for 600)', async () => {
    const found = await causes(embedEdit((d) => (d['height'] = Math.max(Math.ceil((Number(d['width']) / 16) * 9), 200) - 1)), 'oembed');
    expect(found).toEqual([expect.stringMatching(/^oembed:getOembed10Embed:fields failed: .*height 337 for width 600, not 338/)]);
  });

  it("oembed: provider_url the home with /blog added, not the site's home", async () => {
    const found = await causes(embedEdit((d) => (d['provider_url'] = `${String(d['provider_url'])}/blog`)), 'oembed');
    expect(found).toEqual([expect.stringMatching(/^oembed:getOembed10Embed:fields failed: .*provider_url "http:\/\/127\.0\.0\.1:\d+\/blog", not the site's home/)]);
  });

  it('oembed: author_name left out', async () => {
    const found = await causes(embedEdit((d) => delete d['author_name']), 'oembed');
    expect(found).toEqual([expect.stringMatching(/^oembed:getOembed10Embed:fields failed: .*author_name null, not a string/)]);
  });

  it('oembed: a link that names no post answered 400 rest_invalid_param (with its params), not 404 oembed_invalid_url', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return res.status === 404 && res.body.startsWith('{') && json(res)['code'] === 'oembed_invalid_url'
        ? { ...plain(res), status: 400, body: JSON.stringify({ code: 'rest_invalid_param', message: 'Invalid parameter(s): url', data: { status: 400, params: { url: 'Invalid URL.' } } }) }
        : res;
    };
    const found = await causes(fault, 'oembed');
    expect(found).toEqual([expect.stringMatching(/^oembed:getOembed10Embed:unknown failed: .*to answer 404 oembed_invalid_url .*got 400 rest_invalid_param/)]);
  });
});

describe('the wire at its edges: the charset WordPress names, the callbacks it takes', () => {
  it("content_type: the seo/v1 answers' Content-Type without its charset (application/json alone)", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return parse(req).route.startsWith('/seo/v1/an/') && /^application\/json/.test(res.headers['Content-Type'] ?? '') ? withHeader(res, 'Content-Type', 'application/json') : res;
    };
    const found = await failedBy(h, fault, 'seo/v1/an');
    expect([...new Set(found.map((c) => c.check))]).toEqual(['content_type']);
    expect(found[0]!.message).toMatch(/with Content-Type "application\/json", without the charset WordPress names \(; charset=UTF-8\)$/);
  });

  it('jsonp: a callback with a dot (siteContracts.cb) refused, as if a dot were not allowed', async () => {
    const fault: Fault = (req, next) => ((parse(req).query.get('_jsonp') ?? '').includes('.') ? wpError(400, 'rest_callback_invalid') : next(req));
    const found = await failedBy(h, fault, 'root,jsonp');
    expect(found.map((c) => `${c.id} ${c.status}`)).toEqual(['jsonp:getRoot:valid failed']);
    expect(found[0]!.message).toMatch(/_jsonp=siteContracts\.cb to answer application\/javascript .*status 400 where the plain request answered 200/);
  });
});

describe("what an answer's wrappers carry: a batch item's headers, the envelope's headers", () => {
  it("batch_item_status: a batch's create item without its Location header", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'POST' || parse(req).route !== '/batch/v1' || res.status !== 207) return res;
      const d = json(res) as { responses?: { status?: number; headers?: Record<string, unknown> }[] };
      for (const r of d.responses ?? []) if (r?.status === 201 && r.headers) delete r.headers['Location'];
      return withJson(res, d);
    };
    const found = await failedBy(h, fault, 'batch/v1,batch_item_status');
    expect(found.map((c) => `${c.id} ${c.status}`)).toEqual(['batch_item_status:postBatchV1:normal failed']);
    expect(found[0]!.message).toMatch(/responses\[2\], a create, has headers\.Location null, not the address of the record it made \(\d+\)$/);
  });

  it("envelope: the forms list's envelope whose headers leave out Allow", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!parse(req).query.has('_envelope') || parse(req).route !== '/forms/v1/contact-forms' || !res.body.startsWith('{')) return res;
      const d = json(res) as { headers?: Record<string, unknown> };
      if (d.headers) delete d.headers['Allow'];
      return withJson(res, d);
    };
    const found = await failedBy(h, fault, 'forms/v1,envelope');
    expect(found.map((c) => `${c.id} ${c.status}`)).toEqual(['envelope:getFormsV1ContactForms:ok failed']);
    expect(found[0]!.message).toMatch(/body\.headers\["allow"\] is "\(absent\)" where the plain request sent "GET"$/);
  });
});
