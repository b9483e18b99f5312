// The mock's command line as a person runs it: a line at once while it loads, then one line per request (--log
// info, the default wherever it writes: here a pipe, as under concurrently, docker compose or a CI log), in plain
// text; none with --log quiet. A pipe nobody reads holds a bounded queue of lines, and the reader is told how many
// were dropped.
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, stopCli, type CliProcess } from './src/testing/cli-process.ts';
import { MAX_QUEUED_LOG_BYTES } from './src/log-writer.ts';

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
  it('says it is starting before anything else, then logs each request in plain text by default, into a pipe', async () => {
    running = await startCli([]);
    const out = running.stdout();
    expect(out.split('\n')[0]).toMatch(/^mock: starting: loading the contract and the bundled fixtures\.\.\.$/);
    expect(out.indexOf('mock: starting')).toBeLessThan(out.indexOf('listening on'));
    expect(out).toContain('mock: a line per request follows (--log quiet for none, --log debug for headers too)');
    expect(out).toContain(`the mock's page: ${running.url}/__mock/`);
    const res = await fetch(`${running.url}/wp-json/cal/v1/events?per_page=101&page=0`);
    expect(res.status).toBe(400);
    const ok = await fetch(`${running.url}/wp-json/cal/v1/events?per_page=1&password=hunter2`);
    expect(ok.status).toBe(200);
    await until(() => running!.stdout().includes('per_page=1&password=[hidden] 200'), 'the second request logged');
    const lines = running.stdout().split('\n').filter((l) => /^\d\d:\d\d:\d\d /.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d GET {4}\/wp-json\/cal\/v1\/events\?per_page=101&page=0 400 rest_invalid_param \((per_page, page|page, per_page)\) \d+(\.\d+)? ms$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d GET {4}\/wp-json\/cal\/v1\/events\?per_page=1&password=\[hidden\] 200 \d+(\.\d+)? ms$/);
    expect(running.stdout()).not.toContain('hunter2');
    // Not a terminal: no colour.
    expect(running.stdout()).not.toContain('\x1b[');
  });

  it('logs nothing per request with --log quiet, and says how to turn it on', async () => {
    running = await startCli(['--log', 'quiet']);
    expect(running.stdout()).toContain('mock: --log quiet: requests are not logged (--log info prints a line per request)');
    expect((await fetch(`${running.url}/wp-json/cal/v1/events?per_page=101`)).status).toBe(400);
    expect((await fetch(`${running.url}/wp-json/`)).status).toBe(200);
    expect(running.stdout().split('\n').filter((l) => /^\d\d:\d\d:\d\d /.test(l))).toEqual([]);
  });

  it('with --log debug into a pipe nobody reads, queues at most about 1 MiB of lines, drops the rest and says how many', async () => {
    running = await startCli(['--log', 'debug']);
    const { child } = running;
    child.stdout!.pause();
    // Each request's debug line carries its headers: about 8 KB here, so 400 requests make 3.2 MB of log, three
    // times the bound (and more than the pipe and the reader's buffer hold).
    const pad = 'p'.repeat(8000);
    const agent = { 'x-pad': pad };
    for (let i = 0; i < 400; i++) {
      const res = await fetch(`${running.url}/wp-json/cal/v1/events/99999${i}`, { headers: agent });
      await res.arrayBuffer();
    }
    child.stdout!.resume();
    await until(() => /mock: \d+ log lines dropped \(stdout was not reading\)/.test(running!.stdout()), 'the dropped count');
    const out = running.stdout();
    const dropped = Number(/mock: (\d+) log lines dropped/.exec(out)![1]);
    // Two lines a request (the line and its headers): each is either in the output or counted as dropped, and most
    // of the 3.2 MB were dropped.
    const requestLines = out.split('\n').filter((l) => /^\d\d:\d\d:\d\d GET /.test(l)).length;
    const headerLines = out.split('\n').filter((l) => l.includes(pad)).length;
    expect(requestLines + headerLines + dropped).toBe(800);
    // What got through is what the bound let the mock queue, plus what the pipe (64 KiB) and this reader's buffer
    // held meanwhile: counted in bytes, never timed.
    expect(headerLines * pad.length).toBeLessThanOrEqual(MAX_QUEUED_LOG_BYTES + 256 * 1024);
    expect(dropped).toBeGreaterThan(400);
  });
});
