// Format email (rest_validate_value_from_schema() → is_email()) proven both ways on cal/v1's organizer email (000
// §2.5): a server whose email check is one step off WordPress's takes a value one character from a valid one, and
// negative_rejection fails naming that edge of email on the create, while the unbroken mock refuses it 400.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyFields, failedBy, harnessForFile, parse, withBodyFields, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const CREATE = 'postCalV1Organizers';

/**
 * A write to cal/v1's organizers whose body field `name` passes `when` reaches the mock as `edit` makes it: the value
 * the server's own check would have let through, stored as the mock stores a valid one. JSON and form bodies alike.
 */
function takesField(name: string, when: (v: string) => boolean, edit: (v: string) => string): Fault {
  return (req, next) => {
    if (req.method !== 'POST' || !/^\/cal\/v1\/organizers(\/\d+)?$/.test(parse(req).route)) return next(req);
    const v = bodyFields(req)?.[name];
    return typeof v === 'string' && when(v) ? next(withBodyFields(req, (f) => ({ ...f, [name]: edit(v) }))) : next(req);
  };
}

describe('format email, one step off is_email()', () => {
  it('passes against the unbroken mock: both one-edit misses of a valid email are refused 400', async () => {
    const clean = await h.run(undefined, CREATE);
    const edges = clean.run.cases.filter((c) => c.check === 'negative_rejection' && /^edge:body\.email format:email /.test(c.variant ?? ''));
    expect(edges.map((c) => c.variant).sort()).toEqual(['edge:body.email format:email no-at', 'edge:body.email format:email trailing-space']);
    expect(edges.every((c) => c.status === 'passed' && /: 400 rest_invalid_param$/.test(c.message ?? ''))).toBe(true);
  });

  it('negative_rejection: an organizer email with a trailing space is taken (trimmed before is_email())', async () => {
    // sanitize_email() before the check instead of after it: "events@example.org " passes and is stored trimmed.
    const fault = takesField('email', (v) => v !== v.trimEnd() && v.trimEnd().includes('@'), (v) => v.trimEnd());
    const failed = await failedBy(h, fault, CREATE);
    expect(failed.map((c) => c.id)).toEqual([`negative_rejection:${CREATE}:edge:body.email format:email trailing-space`]);
    expect(failed[0]!.severity).toBe('documented');
    expect(failed[0]!.message).toMatch(/email="[^"]+@[^"]+ "/);
  });

  it('negative_rejection: an organizer email whose @ is a dot is taken (a check for a dot, not for local@domain)', async () => {
    // "events.example.org": is_email() wants an @ with something before and after it; a looser check lets it in.
    const fault = takesField('email', (v) => !v.includes('@') && /^[^\s]+\.[^\s]+$/.test(v), (v) => v.replace('.', '@'));
    const failed = await failedBy(h, fault, CREATE);
    const ids = failed.map((c) => c.id);
    expect(ids).toContain(`negative_rejection:${CREATE}:edge:body.email format:email no-at`);
    expect(failed.every((c) => c.check === 'negative_rejection' && /email/.test(c.variant ?? ''))).toBe(true);
    expect(failed.find((c) => /no-at$/.test(c.variant ?? ''))!.message).toMatch(/email="[^"@]+"/);
  });
});
