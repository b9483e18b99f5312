// CI's recording of a small frontend (suites/src/testing/calls-client.ts) against the mock, as a team makes one:
// `site-contracts mock --record FILE` started as a process, the client's calls sent to it, the mock stopped; the
// file is then read back with the suite's reader, so a recording cut short fails here rather than in the replay. The
// mock runs with --auth and the client signs in with the credentials its banner prints, as a team's app does: the
// recording says each call was an administrator's, and the replay sends it with --auth-env's credentials.
//
//   npx tsx .ci/calls/record.ts reports/calls-quirky/calls.ndjson
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readRecording } from '../../contracts/lib/calls-format.ts';
import { smallClient } from '../../suites/src/testing/calls-client.ts';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx .ci/calls/record.ts FILE.ndjson\n');
  process.exit(2);
}
const mock = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', '--auth', '--record', out, '--port', '0', '--log', 'quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url, auth } = await new Promise<{ url: string; auth: string }>((resolve, reject) => {
  let banner = '';
  mock.stdout.on('data', (chunk: Buffer) => {
    banner += chunk.toString('utf8');
    const m = /listening on (http:\/\/[^\s]+)/.exec(banner);
    const who = /user "([^"]+)" password "([^"]+)"/.exec(banner);
    if (m && who) resolve({ url: m[1]!, auth: `Basic ${Buffer.from(`${who[1]}:${who[2]}`).toString('base64')}` });
  });
  mock.once('exit', (code) => reject(new Error(`the mock ended (exit ${code}) before it listened:\n${banner}`)));
});
try {
  await smallClient(url, auth);
} finally {
  const ended = new Promise((resolve) => mock.once('exit', resolve));
  mock.kill('SIGTERM');
  await ended;
}
const { calls } = readRecording(readFileSync(out, 'utf8'), out);
process.stdout.write(`recorded ${calls.length} calls of the small client against the mock (${url}) in ${out}:\n${calls.map((c) => `  line ${c.line}: ${c.method} ${c.path} ${c.status} (${c.auth ?? 'identity not recorded'}${c.role ? `, ${c.role}` : ''})`).join('\n')}\n`);
