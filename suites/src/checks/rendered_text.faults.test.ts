// rendered_text proven both ways: the unbroken mock passes every case; the mock broken at the edge of one rendering
// fails the case that reads it and no other: an apostrophe sent as ’ where WordPress sends &#8217;, a generated
// excerpt of 56 words where WordPress cuts at 55 (a finding of severity assumed: a site's excerpt_length filter does
// the same), a private title without "Private: ", a protected one with "Protected: ", an excerpt without its
// paragraph. What a conformant site's configuration does passes: markup a plugin adds to the_content, smilies off.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { renderExcerpt, renderTitle } from '../../../contracts/wordpress/content/post-text.ts';
import { failedBy, harnessForFile, parse, plain, type Fault, type MockResponse } from '../testing/faulty-mock.ts';
import { judgeGeneratedExcerpt, judgePrivateTitle, judgeRendered, type TextVerdict } from './rendered_text.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'rendered_text';

type Rec = Record<string, unknown>;

/** Every JSON answer (a GET, or the answer to a write) under `prefix` with its record(s) rewritten by `edit`. */
function onAnswer(prefix: string, edit: (rec: Rec) => void, methods: readonly string[] = ['GET']): Fault {
  return (req, next) => {
    const res = next(req);
    if (!methods.includes(req.method) || !parse(req).route.startsWith(prefix) || res.status >= 300) return res;
    const body = JSON.parse(res.body) as unknown;
    for (const rec of Array.isArray(body) ? body : [body]) if (rec && typeof rec === 'object') edit(rec as Rec);
    return { ...plain(res), body: JSON.stringify(body) } satisfies MockResponse;
  };
}

/** The `rendered` of `field` rewritten by `edit`. */
const rendered = (field: string, edit: (s: string) => string) => (rec: Rec) => {
  const f = rec[field] as Rec | undefined;
  if (f && typeof f['rendered'] === 'string') f['rendered'] = edit(f['rendered']);
};

const ids = (cases: { id: string }[]): string[] => cases.map((c) => c.id).sort();
const EVENT = 'rendered_text:postCalV1Events';
const VENUE = 'rendered_text:postCalV1Venues';

describe('rendered_text', () => {
  it('passes on the unbroken mock, rendering every text as WordPress does', async () => {
    const { run } = await h.run(undefined, ONLY);
    const cases = run.cases.filter((c) => c.check === ONLY);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status}: ${c.message}`)).toEqual([]);
    expect(cases.map((c) => c.variant).sort()).toEqual(['anonymous', 'excerpt', 'id', 'list', 'private', 'protected', 'protected:anonymous']);
    // WordPress's defaults, not a configuration the check tolerates.
    for (const c of cases) expect(c.message).not.toMatch(/on a site with|inside markup/);
  });

  it('an apostrophe in title.rendered as ’ where WordPress sends &#8217;', async () => {
    const failed = await failedBy(h, onAnswer('/cal/v1/events', rendered('title', (s) => s.replace('&#8217;', '’'))), ONLY);
    expect(ids(failed)).toEqual([`${EVENT}:anonymous`, `${EVENT}:id`, `${EVENT}:list`]);
    expect(failed[0]!.message).toMatch(/title\.rendered: expected ".* it&#8217;s WordPress&#8230;", read ".* it’s WordPress&#8230;"/);
    expect(failed[0]!.severity).toBe('convention');
  });

  it('a generated excerpt of 56 words where WordPress cuts at 55', async () => {
    const fault = onAnswer('/cal/v1/events', (rec) => {
      const content = rec['content'] as Rec | undefined;
      const excerpt = rec['excerpt'] as Rec | undefined;
      // Only a generated excerpt (the check's event has none of its own until it sends one).
      if (!content || !excerpt || typeof excerpt['rendered'] !== 'string' || !excerpt['rendered'].includes('[&hellip;]')) return;
      const raw = typeof content['raw'] === 'string' ? content['raw'] : undefined;
      if (raw !== undefined) excerpt['rendered'] = renderExcerpt('', raw, undefined, { excerptLength: 56 });
    });
    const { run } = await h.run(fault, ONLY);
    const found = run.cases.filter((c) => c.check === ONLY && c.status !== 'passed');
    // The fault needs content.raw, which only the edit-context read by id shows: the list and anonymous reads stay whole.
    expect(ids(found)).toEqual([`${EVENT}:id`]);
    for (const c of found) {
      // Under the default policy an assumed finding warns; a run that makes assumed findings errors fails on it.
      expect([c.severity, c.status]).toEqual(['assumed', 'warned']);
      expect(c.message).toMatch(/excerpt\.rendered is the content's words with 56 word\(s\) of the content where WordPress's excerpt_length is 55/);
    }
  });

  it('a generated excerpt without its paragraph', async () => {
    const failed = await failedBy(h, onAnswer('/cal/v1/events', rendered('excerpt', (s) => (s.includes('[&hellip;]') ? s.replace(/^<p>/, '').replace(/<\/p>\n$/, '') : s))), ONLY);
    expect(ids(failed)).toEqual([`${EVENT}:anonymous`, `${EVENT}:id`, `${EVENT}:list`]);
    expect(failed[0]!.severity).toBe('convention');
  });

  it('content.rendered without wpautop\'s second paragraph', async () => {
    const failed = await failedBy(h, onAnswer('/cal/v1/events', rendered('content', (s) => s.replace('</p>\n<p>line two', '<br />\nline two'))), ONLY);
    expect(ids(failed)).toEqual([`${EVENT}:anonymous`, `${EVENT}:id`, `${EVENT}:list`]);
    expect(failed[0]!.message).toMatch(/content\.rendered: expected "<p>line one .*<\/p>\\n<p>line two/);
  });

  it('an excerpt of its own rendered without its paragraph', async () => {
    const failed = await failedBy(h, onAnswer('/cal/v1/events', rendered('excerpt', (s) => s.replace(/^<p>(x [^<]*)<\/p>\n$/, '$1')), ['POST', 'PUT', 'PATCH']), ONLY);
    expect(ids(failed)).toEqual([`${EVENT}:excerpt`]);
  });

  it('a private title without "Private: "', async () => {
    const failed = await failedBy(h, onAnswer('/cal/v1/venues', rendered('title', (s) => s.replace(/^Private: /, ''))), ONLY);
    expect(ids(failed)).toEqual([`${VENUE}:private`]);
    expect(failed[0]!.message).toMatch(/title\.rendered: expected "Private: .*", read "/);
  });

  it('a protected title with "Protected: "', async () => {
    const protect = rendered('title', (s) => (s.startsWith('Private: ') ? s : `Protected: ${s}`));
    const failed = await failedBy(h, onAnswer('/cal/v1/venues/', (r) => (r['status'] === 'publish' || r['status'] === undefined) && protect(r), ['GET', 'POST', 'PUT', 'PATCH']), ONLY);
    expect(ids(failed)).toEqual([`${VENUE}:protected`, `${VENUE}:protected:anonymous`]);
  });

  it('passes a site whose plugin adds markup to the_content, and one with smilies off', async () => {
    const share = onAnswer('/cal/v1/events', rendered('content', (s) => `<div class="ad">x</div>${s}<div class="share">y</div>`));
    expect(await failedBy(h, share, ONLY)).toEqual([]);
    const noSmilies = onAnswer('/cal/v1/events', (rec) => {
      rendered('content', (s) => s.replace('🙂', ':)'))(rec);
      rendered('excerpt', (s) => s.replace('🙂', ':)'))(rec);
    });
    const { run } = await h.run(noSmilies, ONLY);
    const cases = run.cases.filter((c) => c.check === ONLY && c.variant === 'id');
    expect(cases.map((c) => c.status)).toEqual(['passed']);
    expect(cases[0]!.message).toMatch(/on a site with use_smilies off/);
  });
});

describe('the judgements at their edges', () => {
  const content = `a it's :)\n\n${Array.from({ length: 60 }, (_, i) => `w${i + 1}`).join(' ')}`;

  it('55 words pass, 54 and 56 are the content cut at another length (assumed), a changed word fails', () => {
    expect(judgeGeneratedExcerpt(renderExcerpt('', content), content).outcome).toBe('pass');
    for (const n of [54, 56]) {
      const v: TextVerdict = judgeGeneratedExcerpt(renderExcerpt('', content, undefined, { excerptLength: n }), content);
      expect([v.outcome, v.severity]).toEqual(['fail', 'assumed']);
      expect(v.message).toContain(`${n} word(s) of the content`);
    }
    const more = judgeGeneratedExcerpt(renderExcerpt('', content, undefined, { excerptMore: '&hellip; <a href="/x">Read more</a>' }), content);
    expect([more.outcome, more.severity]).toEqual(['fail', 'assumed']);
    expect(more.message).toContain('another excerpt_more');
    const changed = judgeGeneratedExcerpt(renderExcerpt('', content).replace('w30', 'w3O'), content);
    expect([changed.outcome, changed.severity]).toEqual(['fail', 'convention']);
  });

  it('a title one character off fails; the site without wptexturize passes, saying so', () => {
    const raw = `it's "q"`;
    expect(judgeRendered('t', 'it&#8217;s &#8220;q&#8221;', (s) => renderTitle(raw, 'publish', s), false).outcome).toBe('pass');
    expect(judgeRendered('t', 'it’s &#8220;q&#8221;', (s) => renderTitle(raw, 'publish', s), false).outcome).toBe('fail');
    const off = judgeRendered('t', 'it&#039;s &quot;q&quot;'.replace('&#039;', "'").replace(/&quot;/g, '"'), (s) => renderTitle(raw, 'publish', s), false);
    expect([off.outcome, off.message]).toEqual(['pass', 't as WordPress renders it on a site with run_wptexturize false']);
  });

  it('a private title under a translated prefix is assumed, without one a failure', () => {
    expect(judgePrivateTitle('Private: a', 'a').outcome).toBe('pass');
    expect([judgePrivateTitle('Приватний: a', 'a').outcome, judgePrivateTitle('Приватний: a', 'a').severity]).toEqual(['fail', 'assumed']);
    expect([judgePrivateTitle('a', 'a').outcome, judgePrivateTitle('a', 'a').severity]).toEqual(['fail', 'convention']);
  });
});
