import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTempFolder } from './temp-folder.ts';

describe("the test run's temp folder", () => {
  const base = mkdtempSync(join(tmpdir(), 'temp-folder-test-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('names what the tests left in it, and is gone after', () => {
    const folder = openTempFolder(base);
    mkdirSync(join(folder.path, 'site-contracts-faulty-abc123'));
    writeFileSync(join(folder.path, 'stray.log'), 'x');
    // tsx's own cache is not a test's leftover; it goes with the folder all the same.
    mkdirSync(join(folder.path, 'tsx-0'));
    expect(folder.close()).toEqual(['site-contracts-faulty-abc123', 'stray.log']);
    expect(existsSync(folder.path)).toBe(false);
  });

  it('names nothing when the tests cleaned up', () => {
    const folder = openTempFolder(base);
    expect(folder.close()).toEqual([]);
    expect(existsSync(folder.path)).toBe(false);
  });

  it('is the temp folder of this run: os.tmpdir() here is under it', () => {
    expect(process.env['TMPDIR']).toMatch(/site-contracts-test-run-[^/]+$/);
    expect(tmpdir()).toBe(process.env['TMPDIR']);
  });
});
