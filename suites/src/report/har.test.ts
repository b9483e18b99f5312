// `--format har`: an HTTP Archive 1.2 of the run's requests and answers, written through the same redaction as
// every report (a secret in a header, a URL or a body is blanked).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHar } from './har.ts';
import { sampleRun } from './sample.ts';
import { writeReports } from './write.ts';

interface Har {
  log: { version: string; creator: { name: string }; entries: { request: { method: string; url: string; headers: { name: string; value: string }[]; queryString: { name: string; value: string }[]; postData?: { text: string } }; response: { status: number; content: { text?: string; mimeType: string } }; comment: string; time: number }[] };
}

describe('HAR report', () => {
  it('has one entry per case that sent a request, with its request, answer and case id', () => {
    const run = sampleRun();
    const har = JSON.parse(renderHar(run)) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe(run.tool.name);
    const sent = run.cases.filter((c) => c.request);
    expect(har.log.entries).toHaveLength(sent.length);
    const first = har.log.entries[0]!;
    expect(first.request.method).toBe(sent[0]!.request!.method);
    expect(first.request.url).toBe(sent[0]!.request!.url);
    expect(first.request.queryString).toEqual([
      { name: 'per_page', value: '5' },
      { name: 'status[]', value: 'publish' },
    ]);
    expect(first.response.status).toBe(500);
    expect(first.response.content.text).toContain('<h1>Fatal</h1>');
    expect(first.comment).toContain(sent[0]!.id);
    expect(har.log.entries[1]!.request.postData?.text).toContain('"title":42');
  });

  it('is redacted as every report is: the credentials never reach the file', async () => {
    const secret = 'editor:s3cret-app-pass';
    const run = sampleRun();
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-har-'));
    try {
      const [written] = await writeReports(run, { dir, formats: ['har'], secrets: [secret] });
      expect(written!.path).toBe(join(dir, 'site-contracts.har'));
      const text = await readFile(written!.path, 'utf8');
      const authorization = `Basic ${Buffer.from('editor:secret').toString('base64')}`;
      expect(run.cases.some((c) => c.request?.headers['Authorization'] === authorization)).toBe(true);
      expect(text).not.toContain(authorization);
      expect(text).toContain('[REDACTED]');
      expect((JSON.parse(text) as Har).log.entries.length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
