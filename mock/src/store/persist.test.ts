import { fileURLToPath } from 'node:url';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FixtureError } from './fixture-error.ts';
import { loadFixtures } from './load-fixtures.ts';
import type { FixtureSet, StoreData } from './model.ts';
import {
  createPersister, loadState, nodePersistFs, openStore, saveState, serializeState, writeFileAtomic,
  type FileHandleLike, type PersistFs, type Timers,
} from './persist.ts';
import { createStore, fixturesToData } from './store.ts';

let fixtures: FixtureSet;
beforeAll(async () => {
  fixtures = await loadFixtures(fileURLToPath(new URL('../../../fixtures/', import.meta.url)));
});

class Killed extends Error {
  code = 'EKILLED';
}

/**
 * Files in memory. Every fs call is one numbered step; `dieAt` makes that step and every later one
 * throw, as if the process had been killed there (so no cleanup runs either). A write that dies
 * leaves half of its data behind, like a real write cut short.
 */
class MemoryFs implements PersistFs {
  files = new Map<string, string>();
  dirs = new Set<string>(['/data']);
  steps: string[] = [];
  dieAt = Infinity;
  failOn?: (step: string) => Error | undefined;

  private step(name: string): void {
    this.steps.push(name);
    if (this.steps.length - 1 >= this.dieAt) throw new Killed(`killed at ${name}`);
    const e = this.failOn?.(name);
    if (e) throw e;
  }

  async readFile(path: string): Promise<string> {
    this.step(`read ${path}`);
    const f = this.files.get(path);
    if (f === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return f;
  }

  async open(path: string, flags: string): Promise<FileHandleLike> {
    this.step(`open ${path} ${flags}`);
    if (this.dirs.has(path)) {
      return { writeFile: async () => undefined, sync: async () => this.step(`fsync dir ${path}`), close: async () => undefined };
    }
    if (flags.includes('x') && this.files.has(path)) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
    if (flags.startsWith('w')) this.files.set(path, '');
    return {
      writeFile: async (data: string) => {
        try {
          this.step(`write ${path}`);
        } catch (e) {
          this.files.set(path, data.slice(0, Math.floor(data.length / 2)));
          throw e;
        }
        this.files.set(path, data);
      },
      sync: async () => this.step(`fsync ${path}`),
      close: async () => this.step(`close ${path}`),
    };
  }

  async rename(from: string, to: string): Promise<void> {
    this.step(`rename ${from}`);
    const f = this.files.get(from);
    if (f === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    this.files.set(to, f);
    this.files.delete(from);
  }

  async unlink(path: string): Promise<void> {
    this.step(`unlink ${path}`);
    this.files.delete(path);
  }
}

const PATH = '/data/state.json';

describe('writeFileAtomic', () => {
  it('writes to a temp file in the same directory, fsyncs, renames, fsyncs the directory', async () => {
    const fs = new MemoryFs();
    await writeFileAtomic(PATH, 'new', fs, () => 't1');
    expect(fs.steps).toEqual([
      'open /data/.state.json.t1.tmp wx',
      'write /data/.state.json.t1.tmp',
      'fsync /data/.state.json.t1.tmp',
      'close /data/.state.json.t1.tmp',
      'rename /data/.state.json.t1.tmp',
      'open /data r',
      'fsync dir /data',
    ]);
    expect([...fs.files]).toEqual([[PATH, 'new']]);
  });

  it('a failing rename leaves the old file intact and removes the temp file', async () => {
    const fs = new MemoryFs();
    fs.files.set(PATH, 'old');
    fs.failOn = (step) => (step.startsWith('rename') ? Object.assign(new Error('EXDEV'), { code: 'EXDEV' }) : undefined);
    await expect(writeFileAtomic(PATH, 'new', fs)).rejects.toThrow('EXDEV');
    expect([...fs.files]).toEqual([[PATH, 'old']]);
  });

  it('a failing write or fsync (disk full) leaves the old file intact', async () => {
    for (const failing of ['write', 'fsync']) {
      const fs = new MemoryFs();
      fs.files.set(PATH, 'old');
      fs.failOn = (step) => (step.startsWith(`${failing} /data/.`) ? Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) : undefined);
      await expect(writeFileAtomic(PATH, 'new content', fs)).rejects.toThrow('ENOSPC');
      expect([...fs.files]).toEqual([[PATH, 'old']]);
    }
  });

  it('a kill at any step leaves either the complete old or the complete new file', async () => {
    const oldText = serializeState(fixturesToData(fixtures));
    const store = createStore(fixtures);
    store.createPost('event', { title: 'Written before the crash' });
    const newText = serializeState(store.snapshot());
    const probe = new MemoryFs();
    probe.files.set(PATH, oldText);
    await writeFileAtomic(PATH, newText, probe);
    const total = probe.steps.length;
    for (let k = 0; k < total; k++) {
      const fs = new MemoryFs();
      fs.files.set(PATH, oldText);
      fs.dieAt = k;
      await expect(writeFileAtomic(PATH, newText, fs), `kill at step ${k}`).rejects.toThrow(Killed);
      const left = fs.files.get(PATH);
      expect([oldText, newText], `kill at ${probe.steps[k]}`).toContain(left);
      // What survived is a state file the next start accepts; a stray temp file is ignored.
      fs.dieAt = Infinity;
      const loaded = await loadState(PATH, fs);
      expect(loaded?.calendar.events.length).toBeGreaterThan(0);
    }
  });

  it('tolerates platforms that cannot fsync a directory, but not I/O errors', async () => {
    const fs = new MemoryFs();
    fs.failOn = (step) => (step === 'open /data r' ? Object.assign(new Error('EISDIR'), { code: 'EISDIR' }) : undefined);
    await writeFileAtomic(PATH, 'x', fs);
    expect(fs.files.get(PATH)).toBe('x');
    fs.failOn = (step) => (step === 'fsync dir /data' ? Object.assign(new Error('EIO'), { code: 'EIO' }) : undefined);
    await expect(writeFileAtomic(PATH, 'y', fs)).rejects.toThrow('EIO');
  });
});

describe('on a real filesystem', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('saves and loads a state, and a failed save keeps the previous file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-persist-'));
    const path = join(dir, 'state.json');
    const store = createStore(fixtures);
    const e = store.createPost('event', { title: 'Persisted' });
    await saveState(path, store.snapshot(), nodePersistFs, new Date('2026-11-01T00:00:00Z'));
    const loaded = (await loadState(path)) as StoreData;
    expect(loaded.calendar.events.find((x) => x.id === e.id)?.title).toBe('Persisted');
    expect(loaded).toEqual(store.snapshot());

    const before = readFileSync(path, 'utf8');
    const failingSync: PersistFs = {
      ...nodePersistFs,
      open: async (p, flags, mode) => {
        const h = await nodePersistFs.open(p, flags, mode);
        return { writeFile: (d, enc) => h.writeFile(d, enc), close: () => h.close(), sync: async () => Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })) };
      },
    };
    store.createPost('event', { title: 'Never saved' });
    await expect(saveState(path, store.snapshot(), failingSync)).rejects.toThrow('EIO');
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('loadState: no file is a first run; a broken file is an error naming it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-persist-'));
    const path = join(dir, 'state.json');
    expect(await loadState(path)).toBeUndefined();
    writeFileSync(path, '{"version": 1,\n "sequences": ');
    const e = await loadState(path).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FixtureError);
    expect((e as FixtureError).message).toBe(`${path}: line 2, column 15: invalid JSON: expected a JSON value, found end of input`);
    writeFileSync(path, JSON.stringify({ version: 2 }));
    expect(((await loadState(path).catch((x: unknown) => x)) as FixtureError).message).toMatch(new RegExp(`^${path}: \\(document root\\) must have properties 'sequences'`));
    const e2 = await loadState(dir).catch((x: unknown) => x);
    expect((e2 as FixtureError).message).toBe(`${dir}: is a directory, not a file`);
  });

  it('openStore starts from the state file when there is one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-persist-'));
    const stateFile = join(dir, 'state.json');
    const fixturesDir = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
    const first = await openStore({ fixturesDir, stateFile });
    const e = first.store.createPost('event', { title: 'Survives restart' });
    await first.persister?.close();
    const second = await openStore({ fixturesDir, stateFile });
    expect(second.store.events.get(e.id)?.title).toBe('Survives restart');
    expect(second.store.sequences.post).toBe(e.id + 1);
    second.store.reset();
    expect(second.store.events.get(e.id)).toBeUndefined();
    await second.persister?.close();
  });
});

/** Timers and a clock that only move when the test says so. */
function manualTime() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; cb: () => void }>();
  const timers: Timers = {
    setTimeout: (cb, ms) => {
      const id = nextId++;
      pending.set(id, { at: now + ms, cb });
      return id;
    },
    clearTimeout: (h) => void pending.delete(h as number),
  };
  const advance = async (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...pending].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      now = due[1].at;
      pending.delete(due[0]);
      due[1].cb();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    now = until;
  };
  return { timers, advance, clock: () => new Date(now), pendingCount: () => pending.size };
}

describe('createPersister', () => {
  it('debounces bursts of writes into one save', async () => {
    const fs = new MemoryFs();
    const t = manualTime();
    const store = createStore(fixtures);
    const p = createPersister(store, { path: PATH, fs, delayMs: 100, maxDelayMs: 1000, timers: t.timers, now: t.clock });
    for (let i = 0; i < 5; i++) {
      store.createPost('event', { title: `Burst ${i}` });
      await t.advance(50);
    }
    expect(p.saves).toBe(0);
    await t.advance(100);
    expect(p.saves).toBe(1);
    const saved = await loadState(PATH, fs);
    expect(saved?.calendar.events.filter((e) => e.title.startsWith('Burst'))).toHaveLength(5);
    await t.advance(1000);
    expect(p.saves).toBe(1);
  });

  it('saves at least every maxDelayMs under a steady stream of writes', async () => {
    const fs = new MemoryFs();
    const t = manualTime();
    const store = createStore(fixtures);
    const p = createPersister(store, { path: PATH, fs, delayMs: 100, maxDelayMs: 300, timers: t.timers, now: t.clock });
    for (let i = 0; i < 20; i++) {
      store.createPost('event', { title: `Stream ${i}` });
      await t.advance(60);
    }
    expect(p.saves).toBeGreaterThanOrEqual(3);
    await p.close();
  });

  it('close() makes the final save, stops listening, and can be called twice', async () => {
    const fs = new MemoryFs();
    const t = manualTime();
    const store = createStore(fixtures);
    const p = createPersister(store, { path: PATH, fs, delayMs: 100, timers: t.timers, now: t.clock });
    const e = store.createPost('event', { title: 'Last words' });
    await p.close();
    expect(p.saves).toBe(1);
    expect(t.pendingCount()).toBe(0);
    expect((await loadState(PATH, fs))?.calendar.events.some((x) => x.id === e.id)).toBe(true);
    store.createPost('event', { title: 'After close' });
    expect(t.pendingCount()).toBe(0);
    await p.close();
    expect(p.saves).toBe(2);
  });

  it('does not save when nothing changed, and reports background failures', async () => {
    const fs = new MemoryFs();
    const t = manualTime();
    const errors: unknown[] = [];
    const store = createStore(fixtures);
    const p = createPersister(store, { path: PATH, fs, delayMs: 10, timers: t.timers, now: t.clock, onError: (e) => errors.push(e) });
    await p.flush();
    expect(p.saves).toBe(0);
    fs.failOn = (step) => (step.startsWith('rename') ? Object.assign(new Error('EROFS'), { code: 'EROFS' }) : undefined);
    store.createPost('event', { title: 'Cannot save' });
    await t.advance(10);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/EROFS/);
    fs.failOn = undefined;
    await p.close();
    expect(p.saves).toBe(1);
  });

  it('serialises saves: a write during a save is picked up by the next one', async () => {
    const fs = new MemoryFs();
    const store = createStore(fixtures);
    const p = createPersister(store, { path: PATH, fs, delayMs: 5 });
    store.createPost('event', { title: 'One' });
    const first = p.flush();
    store.createPost('event', { title: 'Two' });
    await Promise.all([first, p.flush()]);
    const saved = await loadState(PATH, fs);
    expect(saved?.calendar.events.filter((e) => e.title === 'One' || e.title === 'Two')).toHaveLength(2);
    await p.close();
  });
});
