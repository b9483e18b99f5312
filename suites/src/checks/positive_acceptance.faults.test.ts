// positive_acceptance on empty_content (wp_insert_post(): a post whose title, content and excerpt are all empty is
// refused; one of the three is enough), proven both ways against the mock. A site that refuses a cal/v1 venue
// created with a title but no content, as if content were required, fails the create's edges that send a title;
// the same refusal of a create with no text at all stays WordPress's own (held as assumed), as on the unbroken mock,
// whose minimal cal/v1 event (no field at all) is refused empty_content as WordPress refuses it.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, harnessForFile, parse, wpError, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

/** Whether a JSON body's field is empty as PHP reads it after sanitize_post() (absent, '', '0' or blank; {raw} too). */
const empty = (v: unknown): boolean => {
  const text = typeof v === 'string' ? v : v !== null && typeof v === 'object' ? (v as { raw?: unknown }).raw : undefined;
  return typeof text !== 'string' || text.trim() === '' || text.trim() === '0';
};

/** A signed-in create of a cal/v1 venue without content answers 400 empty_content, whatever its title says. */
const contentRequired: Fault = (req, next) => {
  if (req.method !== 'POST' || parse(req).route !== '/cal/v1/venues' || !req.headers['authorization']) return next(req);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(bodyText(req)) as Record<string, unknown>;
  } catch {
    return next(req);
  }
  return body !== null && typeof body === 'object' && empty(body['content']) ? wpError(400, 'empty_content', {}) : next(req);
};

describe('positive_acceptance: empty_content is refused only when title, content and excerpt are all empty', () => {
  it('fails where a cal/v1 venue created with a title and no content is refused empty_content', async () => {
    const failed = await failedBy(h, contentRequired, 'postCalV1Venues,positive_acceptance');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.check === 'positive_acceptance' && c.operationId === 'postCalV1Venues' && c.severity === 'documented')).toBe(true);
    // The title alone: the edge at which one of the three is enough.
    const alone = failed.find((c) => c.variant === 'edge:body.title alone');
    expect(alone?.message).toMatch(/^expected title="[^"]+" alone \(the alone case\) to be accepted: it is valid by the documents \(.*\); got 400 empty_content: empty_content; but title="[^"]+" was sent, and WordPress's wp_insert_post\(\) refuses only a post whose title, content and excerpt are all empty: one of them is enough$/);
  });

  it('holds as assumed, never failed, an empty_content refusal of a create that sent no title, content or excerpt', async () => {
    const { run } = await h.run(undefined, 'postCalV1Events,positive_acceptance');
    const minimal = run.cases.find((c) => c.id === 'positive_acceptance:postCalV1Events:edge:minimal');
    expect(minimal?.status).toBe('warned');
    expect(minimal?.message).toMatch(/got 400 empty_content: .*; held as assumed because WordPress's wp_insert_post\(\) refuses a post whose title, content and excerpt are all empty/);
    expect(run.cases.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => c.id)).toEqual([]);
  });
});
