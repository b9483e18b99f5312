// post_dates proven both ways: the unbroken mock (Europe/Kyiv, two hours ahead of UTC in winter) passes every case,
// and the mock with one fault in front of it, at the edge of what the check predicts, fails exactly the cases the
// fault explains: modified one second past a new post's date, an update's modified printed in site time as UTC (two
// hours off), 30 February refused, publish with a date ahead kept publish, future with a past date kept future, an
// offset dropped, date_gmt alone read as site time, a floating draft's date kept, a null date refused, a guid not
// stored again by an update, a guid at creation in the plain form where the permalink is pretty, and dates printed
// with an offset.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, harnessForFile, json, parse, withJson, wpError, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'post_dates';
const VENUES = '/cal/v1/venues';
const isItem = (route: string): boolean => new RegExp(`^${VENUES}/\\d+$`).test(route);

/** Every JSON record the mock answers to `method` on the venues (list, item) rewritten by `edit`. */
function onAnswer(method: string, item: boolean, edit: (rec: Record<string, unknown>, req: MockRequest) => void): Fault {
  return (req, next) => {
    const res = next(req);
    const route = parse(req).route;
    if (req.method !== method || (item ? !isItem(route) : route !== VENUES) || (res.status !== 200 && res.status !== 201)) return res;
    const body = json(res);
    edit(body, req);
    return withJson(res, body);
  };
}

/** A write to the venues whose JSON body `edit` rewrites before the mock sees it (return false to leave it). */
function onWrite(method: string, item: boolean, edit: (body: Record<string, unknown>, route: string) => void): Fault {
  return (req, next) => {
    const route = parse(req).route;
    if (req.method !== method || (item ? !isItem(route) : route !== VENUES)) return next(req);
    const body = JSON.parse(bodyText(req) || '{}') as Record<string, unknown>;
    edit(body, route);
    return next({ ...req, body: JSON.stringify(body) });
  };
}

const variants = (cases: { variant?: string }[]): string[] => cases.map((c) => c.variant ?? '').sort();
const shift = (s: unknown, seconds: number): string => new Date(Date.parse(`${String(s)}Z`) + seconds * 1000).toISOString().slice(0, 19);

describe('post_dates', () => {
  it('passes on the unbroken mock, judging every case', async () => {
    const { run } = await h.run(undefined, ONLY);
    const cases = run.cases.filter((c) => c.check === ONLY);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.variant} ${c.status}: ${c.message}`)).toEqual([]);
    expect(variants(cases)).toEqual(['create', 'date:gmt-alone', 'date:normalized', 'date:null', 'date:offset', 'date:shape', 'draft:floats', 'draft:guid', 'draft:kept', 'future:past', 'guid', 'update:guid', 'update:modified']);
    for (const c of cases) expect(c.message).toMatch(/[1-9]\d* field\(s\) as WordPress writes them/);
  });

  it('a new post\'s modified one second past its date', async () => {
    const failed = await failedBy(h, onAnswer('POST', false, (r) => void ((r['modified'] = shift(r['modified'], 1)), (r['modified_gmt'] = shift(r['modified_gmt'], 1)))), ONLY);
    expect(variants(failed)).toEqual(['create']);
    expect(failed[0]!.message).toMatch(/modified: expected "2020-01-02T10:00:00", read "2020-01-02T10:00:01"/);
  });

  it('an update\'s modified_gmt printed in site time (two hours off in Kyiv)', async () => {
    const failed = await failedBy(h, onAnswer('PATCH', true, (r) => void (r['modified_gmt'] = r['modified'])), ONLY);
    expect(variants(failed)).toContain('update:modified');
    expect(failed.find((c) => c.variant === 'update:modified')!.message).toMatch(/modified_gmt: expected the time of the write: between/);
  });

  it('30 February refused instead of rolled over to 2 March', async () => {
    const fault: Fault = (req, next) => (req.method === 'PATCH' && bodyText(req).includes('-02-30T') ? wpError(400, 'rest_invalid_param', { params: { date: 'Invalid parameter.' } }) : next(req));
    const failed = await failedBy(h, fault, ONLY);
    expect(variants(failed)).toEqual(['date:normalized']);
    expect(failed[0]!.message).toMatch(/answered 400/);
  });

  it('publish with a date ahead kept publish', async () => {
    const failed = await failedBy(h, onAnswer('PATCH', true, (r) => void (r['status'] === 'future' && (r['status'] = 'publish'))), ONLY);
    expect(variants(failed)).toEqual(['date:normalized']);
    expect(failed[0]!.message).toMatch(/status: expected "future", read "publish"/);
    expect(failed[0]!.severity).toBe('documented');
  });

  it('future with a past date kept future', async () => {
    const failed = await failedBy(h, onAnswer('POST', false, (r) => void (r['status'] === 'publish' && String(r['date']).startsWith('2020-') && (r['status'] = 'future'))), ONLY);
    expect(variants(failed)).toEqual(['create', 'future:past']);
  });

  it('a date\'s offset dropped (10:00+05:45 stored as 10:00 site time)', async () => {
    const failed = await failedBy(h, onWrite('PATCH', true, (b) => void (typeof b['date'] === 'string' && (b['date'] = b['date'].replace(/\+05:45$/, '')))), ONLY);
    expect(variants(failed)).toEqual(['date:offset']);
    expect(failed[0]!.message).toMatch(/date_gmt: expected "2031-01-02T04:15:00", read "2031-01-02T08:00:00"/);
  });

  it('date_gmt alone read as site time', async () => {
    const failed = await failedBy(h, onWrite('PATCH', true, (b) => {
      if (typeof b['date_gmt'] !== 'string') return;
      b['date'] = b['date_gmt'];
      delete b['date_gmt'];
    }), ONLY);
    expect(variants(failed)).toEqual(['date:gmt-alone']);
  });

  it('a floating draft keeps its date on an update a second later', async () => {
    // The fault sends each draft's date at creation with every update that names none: the mock then keeps it.
    const created = new Map<string, string>();
    const fault: Fault = (req, next) => {
      const route = parse(req).route;
      if (req.method === 'PATCH' && isItem(route)) {
        const body = JSON.parse(bodyText(req) || '{}') as Record<string, unknown>;
        const date = created.get(route.split('/').pop()!);
        if (date && !('date' in body) && !('date_gmt' in body)) return next({ ...req, body: JSON.stringify({ ...body, date }) });
        return next(req);
      }
      const res = next(req);
      if (req.method === 'POST' && route === VENUES && res.status === 201) {
        const r = json(res);
        if (r['status'] === 'draft') created.set(String(r['id']), String(r['date']));
      }
      return res;
    };
    const failed = await failedBy(h, fault, ONLY);
    expect(variants(failed)).toEqual(['draft:floats']);
    expect(failed[0]!.message).toMatch(/date: expected "[\dT:-]+", read "[\dT:-]+"; date_gmt: expected later than/);
  });

  it('a null date refused', async () => {
    const fault: Fault = (req, next) => (req.method === 'PATCH' && /"date":null/.test(bodyText(req)) ? wpError(400, 'rest_invalid_param', { params: { date: 'date is not of type string.' } }) : next(req));
    const failed = await failedBy(h, fault, ONLY);
    expect(variants(failed)).toEqual(['date:null']);
  });

  it('an update leaves the guid as it was stored at creation (& not read back as &#038;)', async () => {
    const failed = await failedBy(h, onAnswer('PATCH', true, (r) => {
      const g = r['guid'] as Record<string, string>;
      r['guid'] = { raw: g['raw']!.replaceAll('&#038;', '&'), rendered: g['rendered']!.replaceAll('&#038;', '&') };
    }), ONLY);
    // Only the plain form carries an &: the draft's (the published venue's guid is its pretty link).
    expect(variants(failed)).toEqual(['draft:guid']);
    expect(failed[0]!.message).toMatch(/guid\.raw: expected ".*\?post_type=cal_venue&#038;p=\d+", read ".*\?post_type=cal_venue&p=\d+"/);
    const pretty = await failedBy(h, onAnswer('PATCH', true, (r) => {
      const g = r['guid'] as Record<string, string>;
      r['guid'] = { raw: `${g['raw']!}?`, rendered: `${g['rendered']!}?` };
    }), ONLY);
    expect(variants(pretty)).toEqual(['draft:guid', 'update:guid']);
  });

  it('a published post\'s guid at creation in the plain form, not its link', async () => {
    const failed = await failedBy(h, onAnswer('GET', true, (r) => {
      if (r['status'] !== 'publish') return;
      const plain = `${String(r['link']).replace(/\/venue\/.*$/, '')}/?post_type=cal_venue&p=${String(r['id'])}`;
      r['guid'] = { raw: plain, rendered: plain };
    }), ONLY);
    // The update's guid is predicted from the one read: the fault's plain form, which the update does not show.
    expect(variants(failed)).toEqual(['guid', 'update:guid']);
  });

  it('dates printed with an offset', async () => {
    const failed = await failedBy(h, onAnswer('GET', true, (r) => void (r['modified'] = `${String(r['modified'])}+02:00`)), ONLY);
    expect(variants(failed)).toContain('date:shape');
  });
});
