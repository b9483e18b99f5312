// The site descriptor's reading settings (001 §2: page_for_posts and page_on_front integers, show_on_front a string)
// proven both ways: each is typed where the site sends it (WordPress 6.1's get_index() does not; later versions cast them), so
// a descriptor that sends one of them as get_option() returns it uncast fails response_shape on the REST root, naming
// the field, while the unbroken mock (which sends all three, typed) passes.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';
import { failedBy, harnessForFile, json, parse, plain, withJson, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

/** The descriptor edited in every form the suite asks for it: plain, enveloped (`_envelope`) and as JSONP's argument. */
function descriptorEdit(edit: (d: Record<string, unknown>) => Record<string, unknown>): Fault {
  return (req, next) => {
    const res = next(req);
    if (req.method === 'HEAD' || parse(req).route !== '/' || res.status !== 200 || res.body === '') return res;
    const jsonp = /^(\/\*\*\/[\w.]+\()([\s\S]*)\)$/.exec(res.body);
    if (jsonp) return plain({ ...res, body: `${jsonp[1]}${wpJsonEncode(edit(JSON.parse(jsonp[2]!) as Record<string, unknown>))})` });
    const body = json(res);
    if (typeof body['body'] === 'object' && 'status' in body && 'headers' in body) return withJson(res, { ...body, body: edit(body['body'] as Record<string, unknown>) });
    return withJson(res, edit(body));
  };
}

/** `name` given `value` wherever the descriptor sends it (a `_fields` that leaves it out is kept as asked). */
const retyped = (name: string, value: unknown): Fault => descriptorEdit((d) => (name in d ? { ...d, [name]: value } : d));

async function shapeFailures(fault: Fault): Promise<{ checks: string[]; messages: string[] }> {
  const failed = await failedBy(h, fault, 'root');
  return { checks: [...new Set(failed.map((c) => c.check))].sort(), messages: failed.map((c) => c.message ?? '') };
}

describe("response_shape: the descriptor's reading settings, typed where sent", () => {
  it('passes against the unbroken mock, which sends all three typed', async () => {
    const clean = await h.run(undefined, 'root');
    const shape = clean.run.cases.filter((c) => c.check === 'response_shape');
    expect(shape.length).toBeGreaterThan(0);
    expect(shape.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    const root = JSON.parse(await (await fetch(`${await h.serve()}/wp-json/`)).text()) as Record<string, unknown>;
    expect(root).toMatchObject({ page_for_posts: expect.any(Number), page_on_front: expect.any(Number), show_on_front: expect.any(String) });
  });

  it('response_shape: page_for_posts sent as the string get_option() returns ("12")', async () => {
    const { checks, messages } = await shapeFailures(retyped('page_for_posts', '12'));
    expect(checks).toEqual(['response_shape']);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => /\/page_for_posts must be integer/.test(m))).toBe(true);
  });

  it('response_shape: page_on_front sent as the string "0"', async () => {
    const { checks, messages } = await shapeFailures(retyped('page_on_front', '0'));
    expect(checks).toEqual(['response_shape']);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => /\/page_on_front must be integer/.test(m))).toBe(true);
  });

  it('response_shape: show_on_front sent as false (the option unset)', async () => {
    const { checks, messages } = await shapeFailures(retyped('show_on_front', false));
    expect(checks).toEqual(['response_shape']);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => /\/show_on_front must be string/.test(m))).toBe(true);
  });

  it('passes a descriptor that leaves all three out, as WordPress 6.1 does', async () => {
    const fault = descriptorEdit(({ page_for_posts: _a, page_on_front: _b, show_on_front: _c, ...rest }) => rest);
    expect(await failedBy(h, fault, 'root')).toEqual([]);
  });
});
