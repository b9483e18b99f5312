// negative_rejection on the import callbacks (000 §4.3), proven both ways. Their batch_hash and {import_id} are
// values only the site issues, so on a real site every request the suite sends is refused for naming an import it
// does not have; WordPress validates the documented args before the callback runs, though, so a value the args
// refuse is still a 400 naming it, and that is what negative_rejection judges. Here the fault plays a site that
// issued the import the suite names: where the mock refuses only the import (404 cal_import_not_found, its args all
// valid), the fault answers 200 as the callback would. On that site the documented bodies are then broken one at a
// time at the edge: a state status read in any case (SUCCESS taken as success), and a batch body without
// percentage_complete taken.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, harnessForFile, json, parse, withJson, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const CALLBACK = /^\/cal\/importer\/v1\/import\/\w+\/(batch|state)$/;

/** The import callbacks of a site that issued the import named: what the mock refuses for the import alone is taken. */
const issued = (edit?: (route: 'batch' | 'state', body: Record<string, unknown>) => void): Fault => (req, next) => {
  const m = CALLBACK.exec(parse(req).route);
  if (req.method !== 'POST' || !m) return next(req);
  let sent = req;
  if (edit) {
    try {
      const body = JSON.parse(bodyText(req)) as unknown;
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
        edit(m[1] as 'batch' | 'state', body as Record<string, unknown>);
        sent = { ...req, body: JSON.stringify(body) } satisfies MockRequest;
      }
    } catch {
      // Not JSON: the mock reads it as it comes.
    }
  }
  const res = next(sent);
  if (res.status !== 404 || json(res)['code'] !== 'cal_import_not_found') return res;
  return withJson({ ...res, status: 200 }, { success: true });
};

const ONLY = '/cal/importer/v1,negative_rejection';

describe('negative_rejection: the import callbacks refuse the bodies 000 §4.3 does not allow', () => {
  it('passes where the site issued the import: every documented refusal is still a 400 naming the parameter', async () => {
    const { run } = await h.run(issued(), ONLY);
    const cases = run.cases.filter((c) => c.check === 'negative_rejection' && /^postCalImporterV1ImportByImportId(Batch|State)$/.test(c.operationId ?? ''));
    expect(cases.filter((c) => c.status === 'passed').length).toBeGreaterThan(20);
    expect(cases.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => `${c.id} ${c.status}`)).toEqual([]);
  });

  it('fails where the import state callback takes status SUCCESS (an enum value in another case) as success', async () => {
    const fault = issued((route, body) => {
      if (route === 'state' && typeof body['status'] === 'string') body['status'] = body['status'].trim().toLowerCase();
    });
    const failed = await failedBy(h, fault, ONLY);
    expect(failed.map((c) => c.id)).toEqual(['edge:body.status enum case', 'edge:body.status enum spaces'].map((v) => `negative_rejection:postCalImporterV1ImportByImportIdState:${v}`));
    expect(failed[0]!.message).toBe('expected 400 naming status for status="SUCCESS" (enum, 000 §3, §4.3); got 200: it was accepted');
  });

  it('fails where the import batch callback takes a body without percentage_complete', async () => {
    const fault = issued((route, body) => {
      if (route === 'batch' && !('percentage_complete' in body)) body['percentage_complete'] = 0;
    });
    const failed = await failedBy(h, fault, ONLY);
    expect(failed.map((c) => c.id)).toEqual(['edge:body.percentage_complete required missing', 'body.percentage_complete required#1'].map((v) => `negative_rejection:postCalImporterV1ImportByImportIdBatch:${v}`));
    expect(failed[0]!.message).toBe('expected 400 naming percentage_complete for percentage_complete left out (required, 000 §4.3); got 200: it was accepted');
  });
});
