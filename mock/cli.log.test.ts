// The mock's command line as a person runs it: a line at once while it loads, then one line per request with
// --log info (the default on a terminal); none in a pipe or a CI log unless asked for.
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, stopCli, type CliProcess } from './src/testing/cli-process.ts';

let running: CliProcess | undefined;
afterEach(async () => {
  if (running) await stopCli(running, 'SIGTERM');
  running = undefined;
});

async function until(check: () => boolean, what: string): Promise<void> {
  // A count of tries, not a deadline: each try waits for the child's output to move on.
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`never saw ${what}`);
}

describe('the mock CLI log', () => {
  it('says it is starting before anything else, then logs each request with --log info', async () => {
    running = await startCli(['--log', 'info']);
    const out = running.stdout();
    expect(out.split('\n')[0]).toMatch(/^mock: starting: loading the contract and the bundled fixtures\.\.\.$/);
    expect(out.indexOf('mock: starting')).toBeLessThan(out.indexOf('listening on'));
    expect(out).toContain('mock: --log info: a line per request follows');
    expect(out).toContain(`the mock's page: ${running.url}/__mock/`);
    const res = await fetch(`${running.url}/wp-json/cal/v1/events?per_page=101&page=0`);
    expect(res.status).toBe(400);
    const ok = await fetch(`${running.url}/wp-json/cal/v1/events?per_page=1`);
    expect(ok.status).toBe(200);
    await until(() => running!.stdout().includes('per_page=1 200'), 'the second request logged');
    const lines = running.stdout().split('\n').filter((l) => /^\d\d:\d\d:\d\d /.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d GET {4}\/wp-json\/cal\/v1\/events\?per_page=101&page=0 400 rest_invalid_param \((per_page, page|page, per_page)\) [\d.]+ ms$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d GET {4}\/wp-json\/cal\/v1\/events\?per_page=1 200 [\d.]+ ms$/);
    // Not a terminal: no colour even when logging.
    expect(running.stdout()).not.toContain('\x1b[');
  });

  it('logs nothing per request by default when its output is not a terminal, and says how to turn it on', async () => {
    running = await startCli([]);
    expect(running.stdout()).toContain('mock: requests are not logged (--log info prints a line per request)');
    expect((await fetch(`${running.url}/wp-json/cal/v1/events?per_page=101`)).status).toBe(400);
    expect((await fetch(`${running.url}/wp-json/`)).status).toBe(200);
    expect(running.stdout().split('\n').filter((l) => /^\d\d:\d\d:\d\d /.test(l))).toEqual([]);
  });
});
