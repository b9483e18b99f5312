// response_shape on records, proven both ways against the mock with one field of one record of the wrong type: a
// cal/v1 venue read by id whose featured_media is the string "0" (CalPost: an integer, as
// WP_REST_Posts_Controller::prepare_item_for_response() casts it), and a legacy tag read by id whose count is a
// string of digits (LegacyTerm: an integer, as WP_REST_Terms_Controller::prepare_item_for_response() gives it). Both
// shapes are assumed (the documents show no record), so the finding warns by default and fails with
// --response-shapes error, the flag a team uses to gate on them.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, json, parse, withJson, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

/** The GET of one record by id under `base` answers `field` as `edit` makes it; every other answer is the mock's. */
const fieldOnRead = (base: string, field: string, edit: (v: unknown) => unknown): Fault => (req, next) => {
  const res = next(req);
  if (req.method !== 'GET' || res.status !== 200 || !new RegExp(`^${base}/\\d+$`).test(parse(req).route)) return res;
  const body = json(res);
  return field in body ? withJson(res, { ...body, [field]: edit(body[field]) }) : res;
};

const STRICT = ['--response-shapes', 'error'];

describe('response_shape: one field of a record of the wrong type', () => {
  it('a cal/v1 venue read by id answers featured_media as the string "0"', async () => {
    const fault = fieldOnRead('/cal/v1/venues', 'featured_media', (v) => String(v));
    const only = '/cal/v1/venues,response_shape';
    const failed = await failedBy(h, fault, only, STRICT);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.check === 'response_shape' && c.operationId === 'getCalV1VenuesById')).toBe(true);
    for (const c of failed) expect(c.message).toMatch(/^expected the 200 body in the contract's shape \(assumed: the documents show no payload here\); got: \/featured_media must be integer$/);
    // By default an assumed shape warns: the same cases, not failed.
    const { run } = await h.run(fault, only);
    expect(run.cases.filter((c) => failed.some((f) => f.id === c.id)).map((c) => c.status)).toEqual(failed.map(() => 'warned'));
  });

  it('a legacy tag read by id answers count as a string of digits', async () => {
    const fault = fieldOnRead('/cal/events/v1/tags', 'count', (v) => String(v));
    const failed = await failedBy(h, fault, '/cal/events/v1/tags,response_shape', STRICT);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.check === 'response_shape' && c.operationId === 'getCalEventsV1TagsById')).toBe(true);
    for (const c of failed) expect(c.message).toMatch(/^expected the 200 body in the contract's shape \(assumed: the documents show no payload here\); got: \/count must be integer$/);
  });

  it('passes the unbroken mock: its venues and tags read by id are in their shapes', async () => {
    const { run } = await h.run(undefined, '/cal/v1/venues,/cal/events/v1/tags,response_shape', STRICT);
    // The minimal read of a random id is skipped (404: nothing to compare); lifecycle's reads of its own records are judged.
    const reads = run.cases.filter((c) => c.check === 'response_shape' && c.status !== 'skipped' && (c.operationId === 'getCalV1VenuesById' || c.operationId === 'getCalEventsV1TagsById'));
    expect(new Set(reads.map((c) => c.operationId)).size).toBe(2);
    expect(reads.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status} ${c.message}`)).toEqual([]);
  });
});
