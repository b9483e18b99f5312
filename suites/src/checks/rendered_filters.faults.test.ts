// the_content and the_excerpt (default-filters.php) proven both ways through write_read_back: a cal/v1 record's
// content.rendered (or excerpt.rendered) answered with every filter but one — wpautop, whose <p> and <br /> are
// taken back out — fails write_read_back on that field alone, in every read of the record, while the unbroken mock,
// whose rendering is the WordPress layer's renderContent()/renderExcerpt(), passes.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, json, parse, withJson, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'write_read_back';

/** What wpautop() added, taken back out: the paragraphs' tags and the line breaks it made of single newlines. */
const unautop = (html: string): string => html.replace(/<p>/g, '').replace(/<\/p>/g, '').replace(/<br \/>(?=\n)/g, '');

/** Every JSON answer under cal/v1 (a record, a list, a write's answer) with `field`.rendered passed through `edit`. */
function renderedOff(field: 'content' | 'excerpt', edit: (html: string) => string): Fault {
  return (req, next) => {
    const res = next(req);
    if (!parse(req).route.startsWith('/cal/v1/') || res.status >= 300 || !/^[[{]/.test(res.body)) return res;
    const body = json(res) as unknown;
    let changed = false;
    for (const rec of Array.isArray(body) ? body : [body]) {
      const f = rec && typeof rec === 'object' ? (rec as Record<string, unknown>)[field] : undefined;
      if (f && typeof f === 'object' && typeof (f as Record<string, unknown>)['rendered'] === 'string') {
        const r = f as Record<string, unknown>;
        const edited = edit(r['rendered'] as string);
        if (edited !== r['rendered']) {
          r['rendered'] = edited;
          changed = true;
        }
      }
    }
    return changed ? withJson(res, body) : res;
  };
}

const EVERY_READ = ['Events', 'Organizers', 'Venues'].flatMap((r) => [`write_read_back:postCalV1${r}:server:id`, `write_read_back:postCalV1${r}:stored:list`]);

async function fieldFailures(fault: Fault): Promise<{ ids: string[]; messages: string[] }> {
  const failed = await failedBy(h, fault, ONLY);
  return { ids: failed.map((c) => c.id).sort(), messages: failed.map((c) => c.message ?? '') };
}

describe('write_read_back: content.rendered and excerpt.rendered are the_content and the_excerpt', () => {
  it('passes against the unbroken mock', async () => {
    const { run } = await h.run(undefined, ONLY);
    const cases = run.cases.filter((c) => c.check === ONLY && !/kses/.test(c.variant ?? ''));
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  });

  it('write_read_back: content.rendered without wpautop (every other filter of the_content run)', async () => {
    const { ids, messages } = await fieldFailures(renderedOff('content', unautop));
    // Each cal/v1 post type, read by id and in its list: one field of all those judged.
    expect(ids).toEqual(EVERY_READ);
    expect(messages.every((m) => / 1 of \d+ field\(s\) read back unlike .*: content\.rendered: expected "<p>[^"]*<\/p>\\n", read "[^"<]*(<em>[^"<]*<\/em>[^"<]*)?\\n"/.test(m))).toBe(true);
  });

  it('write_read_back: excerpt.rendered without wpautop (every other filter of the_excerpt run)', async () => {
    const { ids, messages } = await fieldFailures(renderedOff('excerpt', unautop));
    // Each cal/v1 post type, read by id and in its list: one field of all those judged.
    expect(ids).toEqual(EVERY_READ);
    expect(messages.every((m) => / 1 of \d+ field\(s\) read back unlike .*: excerpt\.rendered: expected "<p>[^"]*<\/p>\\n", read "[^"<]*(<em>[^"<]*<\/em>[^"<]*)?\\n"/.test(m))).toBe(true);
  });
});
