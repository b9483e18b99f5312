// The log's bound, on a real pipe whose reader reads nothing until told to: the bytes queued in the stream never
// pass the bound by more than a line, every line is written or counted, and the count is printed once the reader
// catches up. Counted in bytes and lines, never timed.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { boundedLog } from './log-writer.ts';

describe('boundedLog', () => {
  it('into a pipe nobody reads: queues at most the bound, drops and counts the rest, then says how many', async () => {
    // The reader: copies its stdin to its stdout only once the test says so (an IPC message).
    const reader = spawn(process.execPath, ['-e', "process.stdin.pause(); process.on('message', () => { process.stdin.pipe(process.stdout); process.disconnect(); })"], {
      stdio: ['pipe', 'pipe', 'inherit', 'ipc'],
    });
    const pipe = reader.stdin!;
    try {
      const bound = 64 * 1024;
      const log = boundedLog(pipe, bound);
      const line = 'x'.repeat(199);
      let most = 0;
      for (let i = 0; i < 5000; i++) {
        log.line(`${String(i).padStart(5, '0')} ${line}`);
        most = Math.max(most, pipe.writableLength);
      }
      // 1 MB of lines offered; the stream never held more than the bound.
      expect(most).toBeLessThanOrEqual(bound);
      let out = '';
      reader.stdout!.on('data', (d: Buffer) => (out += d));
      reader.send('read');
      for (let i = 0; i < 4000 && !/dropped/.test(out); i++) await new Promise((r) => setTimeout(r, 25));
      const dropped = /^mock: (\d+) log lines dropped \(stdout was not reading\)$/m.exec(out);
      expect(dropped, out.slice(-300)).not.toBeNull();
      const written = out.split('\n').filter((l) => l.endsWith(line)).length;
      expect(written + Number(dropped![1])).toBe(5000);
      expect(written).toBeLessThan(5000);
      // What was written came first and in order; the count comes after it.
      expect(out.indexOf('mock: ')).toBeGreaterThan(out.lastIndexOf(line));
    } finally {
      reader.kill();
    }
  });

  it('writes a single line larger than the bound when nothing is queued', () => {
    const written: string[] = [];
    const log = boundedLog({ write: (c) => (written.push(c), true), writableLength: 0, once: () => undefined }, 10);
    log.line('a line of more than ten characters');
    expect(written).toEqual(['a line of more than ten characters\n']);
  });
});
