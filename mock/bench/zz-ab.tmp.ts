import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { bigPostLine, measureBigPost } from './big-body.ts';
import { freePort } from './free-port.ts';
const trees = { before: '/tmp/durable/base', after: '/work/wt/durable' };
const rounds = Number(process.argv[2] ?? 3);
for (let r = 0; r < rounds; r++) {
  for (const [name, root] of Object.entries(trees)) {
    const port = await freePort('127.0.0.1');
    const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', '--port', String(port), '--log', 'quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      for (let i = 0; ; i++) { try { const res = await fetch(`http://127.0.0.1:${port}/wp-json/`); await res.arrayBuffer(); break; } catch { await new Promise((x) => setTimeout(x, 100)); } }
      const l0 = loadavg()[0]!.toFixed(1);
      const m = await measureBigPost(port, 'batch', 7.9, 1);
      console.log(`${name} (load ${l0}): ${bigPostLine(m.rounds[0]!)}`);
    } finally {
      child.kill('SIGKILL');
    }
  }
}
