import { fileURLToPath } from 'node:url';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FixtureError } from '../../../contracts/model/fixture-error.ts';
import { encodeEntry, JournalError, parseJournal } from './journal.ts';
import { loadFixtures } from './load-fixtures.ts';
import type { FixtureSet } from '../../../contracts/model/records.ts';
import { loadState, nodePersistFs, openStateFile, StateFileError, writeFileAtomic, type FileHandleLike, type Persister, type PersistFs } from './persist.ts';
import { serializeState, stateTextPieces } from './state-text.ts';
import { createStore, diffSnapshots, type Store } from './store.ts';

let fixtures: FixtureSet;
beforeAll(async () => {
  fixtures = await loadFixtures(fileURLToPath(new URL('../../../fixtures/', import.meta.url)));
});

class Killed extends Error {
  code = 'EKILLED';
}

/**
 * Files in memory. Every fs call is one numbered step; `dieAt` makes that step and every later one throw, as if the
 * process had been killed there (so no cleanup runs either). A write that dies leaves half of its data behind, like
 * a write cut short. What was written stays (the kernel keeps it when a process is killed), synced or not.
 */
class MemoryFs implements PersistFs {
  files = new Map<string, Buffer>();
  dirs = new Set<string>(['/data']);
  steps: string[] = [];
  dieAt = Infinity;
  failOn?: (step: string) => Error | undefined;

  step(name: string): void {
    this.steps.push(name);
    if (this.steps.length - 1 >= this.dieAt) throw new Killed(`killed at ${name}`);
    const e = this.failOn?.(name);
    if (e) throw e;
  }

  /** The files as a restarted process finds them. */
  restart(): MemoryFs {
    const fs = new MemoryFs();
    fs.files = new Map([...this.files].map(([k, v]) => [k, Buffer.from(v)]));
    return fs;
  }

  text(path: string): string {
    return this.files.get(path)?.toString('utf8') ?? '';
  }

  async readFile(path: string): Promise<string> {
    return (await this.readBytes(path)).toString();
  }

  async readBytes(path: string, from = 0): Promise<Buffer> {
    this.step(`read ${path}`);
    const f = this.files.get(path);
    if (f === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return Buffer.from(f.subarray(from));
  }

  async open(path: string, flags: string): Promise<FileHandleLike> {
    this.step(`open ${path} ${flags}`);
    if (this.dirs.has(path)) {
      return { write: async () => undefined, truncate: async () => undefined, sync: async () => this.step(`fsync dir ${path}`), close: async () => undefined };
    }
    if (!path.startsWith('/data/')) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    if (flags.includes('x') && this.files.has(path)) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
    if (flags.startsWith('w') || !this.files.has(path)) this.files.set(path, Buffer.alloc(0));
    return {
      write: async (data: Uint8Array) => {
        try {
          this.step(`write ${path}`);
        } catch (e) {
          this.files.set(path, Buffer.concat([this.files.get(path) ?? Buffer.alloc(0), Buffer.from(data).subarray(0, Math.floor(data.byteLength / 2))]));
          throw e;
        }
        this.files.set(path, Buffer.concat([this.files.get(path) ?? Buffer.alloc(0), Buffer.from(data)]));
      },
      truncate: async (length: number) => {
        this.step(`truncate ${path}`);
        this.files.set(path, (this.files.get(path) ?? Buffer.alloc(0)).subarray(0, length));
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
const JOURNAL = `${PATH}.journal`;
const NOW = new Date('2026-11-01T10:00:00Z');
const open = (fs: PersistFs, extra: { compactAfterBytes?: number; notes?: string[]; errors?: unknown[] } = {}) =>
  openStateFile(fixtures, {
    path: PATH, fs, now: () => NOW,
    ...(extra.compactAfterBytes !== undefined ? { compactAfterBytes: extra.compactAfterBytes } : {}),
    onNote: (m) => extra.notes?.push(m),
    onError: (e) => extra.errors?.push(e),
  });

/** Waits until the writes so far are on disk (true) or undone because the journal did not take them (false). */
const saved = async (store: Store, persister: Persister) => (await persister.durable(store.version)) ?? true;

/** A write the journal does not take: refused, and the store is as it was before it. */
async function refusedWrite(store: Store, persister: Persister, title: string): Promise<void> {
  const before = store.snapshot();
  store.createPost('venue', { title });
  expect(await saved(store, persister)).toBe(false);
  expect(diffSnapshots(before, store.snapshot())).toEqual([]);
}

/** A write the journal takes: saved, and after a restart the state file holds exactly the store, that write too. */
async function savedWrite(fs: MemoryFs, store: Store, persister: Persister, title: string): Promise<void> {
  const written = store.createPost('venue', { title });
  expect(await saved(store, persister)).toBe(true);
  const again = await open(fs.restart());
  expect(diffSnapshots(store.snapshot(), again.store.snapshot())).toEqual([]);
  expect(again.store.venues.get(written.id)?.title).toBe(title);
}

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
    expect([...fs.files.keys()]).toEqual([PATH]);
    expect(fs.text(PATH)).toBe('new');
  });

  it('writes content given in pieces in slices of about a megabyte, the same bytes as at once', async () => {
    const fs = new MemoryFs();
    const pieces = Array.from({ length: 3000 }, (_, i) => `${'x'.repeat(1000)}${i},`);
    await writeFileAtomic(PATH, pieces, fs);
    expect(fs.text(PATH)).toBe(pieces.join(''));
    expect(fs.steps.filter((s) => s.startsWith('write')).length).toBeGreaterThanOrEqual(3);
  });

  it('a failing rename, write or fsync (disk full) leaves the old file intact and removes the temp file', async () => {
    for (const failing of ['rename', 'write', 'fsync /data/.']) {
      const fs = new MemoryFs();
      fs.files.set(PATH, Buffer.from('old'));
      fs.failOn = (step) => (step.startsWith(failing) ? Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) : undefined);
      await expect(writeFileAtomic(PATH, 'new content', fs)).rejects.toThrow('ENOSPC');
      expect([...fs.files.keys()]).toEqual([PATH]);
      expect(fs.text(PATH)).toBe('old');
    }
  });

  it('tolerates platforms that cannot fsync a directory, but not I/O errors', async () => {
    const fs = new MemoryFs();
    fs.failOn = (step) => (step === 'open /data r' ? Object.assign(new Error('EISDIR'), { code: 'EISDIR' }) : undefined);
    await writeFileAtomic(PATH, 'x', fs);
    expect(fs.text(PATH)).toBe('x');
    fs.failOn = (step) => (step === 'fsync dir /data' ? Object.assign(new Error('EIO'), { code: 'EIO' }) : undefined);
    await expect(writeFileAtomic(PATH, 'y', fs)).rejects.toThrow('EIO');
  });
});

describe('the state file text', () => {
  it('in pieces is exactly JSON.stringify of the whole, with txn and savedAt', () => {
    const store = createStore(fixtures);
    store.createPost('event', { title: 'Піца & "quotes" \u2028' });
    const snap = store.snapshot();
    const { version, ...rest } = snap;
    const whole = `${JSON.stringify({ version, txn: 7, savedAt: NOW.toISOString(), ...rest })}\n`;
    expect([...stateTextPieces(snap, { txn: 7, savedAt: NOW })].join('')).toBe(whole);
    expect(serializeState(snap, NOW, 7)).toBe(whole);
  });
});

describe('the journal format', () => {
  const entry = (txn: number) => encodeEntry(txn, { rows: [{ table: 'venue', key: txn, record: { id: txn, title: `Зал ${txn}` } }, { table: 'tag', key: 3, record: undefined }], singletons: txn % 2 ? { seoMode: 'custom' } : {}, sequences: { post: txn + 1 } as never, reset: false });

  it('reads back what it wrote', () => {
    const text = entry(1) + entry(2);
    const parsed = parseJournal(Buffer.from(text));
    expect(parsed.validBytes).toBe(Buffer.byteLength(text));
    expect(parsed.torn).toBeUndefined();
    expect(parsed.entries.map((e) => [e.txn, e.rows.map((r) => r.record === undefined ? 'deleted' : (r.record as { title: string }).title), e.singletons])).toEqual([
      [1, ['Зал 1', 'deleted'], { seoMode: 'custom' }],
      [2, ['Зал 2', 'deleted'], {}],
    ]);
  });

  it('a last line cut anywhere is left out and reported; the lines before it are kept', () => {
    const whole = Buffer.from(entry(1) + entry(2));
    const first = Buffer.byteLength(entry(1));
    for (let cut = first + 1; cut < whole.length; cut++) {
      const parsed = parseJournal(whole.subarray(0, cut));
      expect(parsed.entries.map((e) => e.txn), `cut at ${cut}`).toEqual([1]);
      expect(parsed.validBytes).toBe(first);
      expect(parsed.torn?.line).toBe(2);
    }
  });

  it('a damaged line with more after it is an error naming the line; a flipped byte fails the checksum', () => {
    const good = entry(1);
    const damaged = good.replace('Зал', 'Зол');
    expect(() => parseJournal(Buffer.from(damaged + entry(2)))).toThrow(JournalError);
    expect(() => parseJournal(Buffer.from(damaged + entry(2)))).toThrow(/^line 1: checksum does not match/);
    expect(parseJournal(Buffer.from(entry(1) + damaged)).torn).toMatchObject({ line: 2, reason: 'checksum does not match', complete: true });
  });
});

describe('a state file on disk (in memory)', () => {
  it('the first start writes the snapshot; writes go to the journal before durable() resolves; a restart has them', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs);
    expect(JSON.parse(fs.text(PATH)).txn).toBe(0);
    expect(fs.text(JOURNAL)).toBe('');
    expect(persister.durable(store.version)).toBeUndefined();
    const e = store.createPost('event', { title: 'Written' });
    const waiting = persister.durable(store.version);
    expect(waiting).toBeInstanceOf(Promise);
    expect(fs.text(JOURNAL)).toBe('');
    await waiting;
    expect(fs.text(JOURNAL)).toContain('"title":"Written"');
    expect(fs.steps.at(-1)).toBe(`fsync ${JOURNAL}`);
    const again = await open(fs.restart());
    expect(again.store.events.get(e.id)?.title).toBe('Written');
    expect(diffSnapshots(store.snapshot(), again.store.snapshot())).toEqual([]);
  });

  it('writes of the same turn share one write and one fsync (group commit)', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs);
    const syncs = persister.stats.syncs;
    for (let i = 0; i < 50; i++) store.createPost('venue', { title: `Hall ${i}` });
    await saved(store, persister);
    expect(persister.stats.syncs - syncs).toBe(1);
    expect(persister.stats.commits).toBe(50);
    expect(fs.text(JOURNAL).split('\n').filter(Boolean)).toHaveLength(50);
  });

  it('a kill at any step loses no acknowledged write and hands out no ID twice', async () => {
    // Writes, a reset, more writes, compactions in between: every step of that is a possible kill point.
    interface Acked {
      titles: Map<number, string>;
      /** A reset was sent and not yet answered: whether it happened is not known, the writes before it all went or all stayed. */
      resetInDoubt: boolean;
    }
    const script = async (fs: MemoryFs, acked: Acked) => {
      const { store, persister } = await open(fs, { compactAfterBytes: 4000 });
      for (let round = 0; round < 6; round++) {
        const made = [0, 1, 2].map((i) => store.createPost('organizer', { title: `R${round}-${i}` }));
        if (round === 3) {
          store.reset();
          acked.resetInDoubt = true;
        }
        // A killed process answers nothing: the refusal its journal write got is never sent.
        if (!(await saved(store, persister))) throw new Killed('the journal write was killed');
        if (round === 3) {
          acked.titles.clear();
          acked.resetInDoubt = false;
        } else for (const m of made) acked.titles.set(m.id, m.title);
      }
      await persister.close();
    };
    const probe = new MemoryFs();
    await script(probe, { titles: new Map(), resetInDoubt: false });
    const total = probe.steps.length;
    expect(total).toBeGreaterThan(60);
    for (let k = 0; k < total; k++) {
      const fs = new MemoryFs();
      fs.dieAt = k;
      const acked: Acked = { titles: new Map(), resetInDoubt: false };
      await script(fs, acked).catch((e: unknown) => {
        // Whatever the kill made of the step it hit (a read error becomes a FixtureError...), it was the kill.
        if (fs.steps.length <= k) throw e;
      });
      if (!fs.files.has(PATH)) continue;
      const { store } = await open(fs.restart());
      const at = `kill at step ${k} (${fs.steps[k]})`;
      const present = [...acked.titles].filter(([id, title]) => store.organizers.get(id)?.title === title);
      if (acked.resetInDoubt && present.length === 0) expect(store.organizers.size, at).toBe(fixtures.calendar.organizers.length);
      else expect(present.map(([, t]) => t), at).toEqual([...acked.titles.values()]);
      const highest = Math.max(0, ...acked.titles.keys());
      expect(store.sequences.post, at).toBeGreaterThan(highest);
      expect(store.createPost('organizer', { title: 'after' }).id).toBeGreaterThan(highest);
    }
  });

  it('a torn last line is left out with a note, cut off the file, and later writes follow the good lines', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs);
    const kept = store.createPost('venue', { title: 'Kept' });
    await saved(store, persister);
    const line = encodeEntry(99, { rows: [{ table: 'venue', key: 1, record: { id: 1 } }], singletons: {}, sequences: store.sequences, reset: false });
    fs.files.set(JOURNAL, Buffer.concat([fs.files.get(JOURNAL)!, Buffer.from(line.slice(0, 40))]));
    const notes: string[] = [];
    const restarted = fs.restart();
    const second = await open(restarted, { notes });
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(new RegExp(`^${JOURNAL}: 1 transaction replayed after the snapshot in ${PATH} \\(\\d+ ms\\)$`));
    expect(notes[1]).toBe(`${JOURNAL}: line 2 was cut short by a crash (no newline at its end); it was never acknowledged, and is left out`);
    expect(second.store.venues.get(kept.id)?.title).toBe('Kept');
    const after = second.store.createPost('venue', { title: 'After the tear' });
    await saved(second.store, second.persister);
    expect(restarted.text(JOURNAL).split('\n').filter(Boolean)).toHaveLength(2);
    const third = await open(restarted.restart());
    expect(third.store.venues.get(after.id)?.title).toBe('After the tear');
  });

  it('a bit flipped in the last whole line is reported as damaged (its write may have been acknowledged), not as never acknowledged', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs);
    const kept = store.createPost('venue', { title: 'Kept' });
    await saved(store, persister);
    const flipped = store.createPost('venue', { title: 'Acknowledged then damaged' });
    await saved(store, persister);
    const text = fs.text(JOURNAL);
    const at = text.lastIndexOf('Acknowledged');
    const bytes = Buffer.from(text);
    const pos = Buffer.byteLength(text.slice(0, at));
    bytes[pos] = bytes[pos]! ^ 0x01;
    const restarted = fs.restart();
    restarted.files.set(JOURNAL, bytes);
    const notes: string[] = [];
    const second = await open(restarted, { notes });
    const aside = `${JOURNAL}.damaged-line-2`;
    expect(notes[1]).toBe(`${JOURNAL}: line 2, the last, is damaged (checksum does not match): it was written whole, so its write may have been acknowledged and is lost; left out, its bytes kept in ${aside}`);
    expect(notes.join('\n')).not.toContain('never acknowledged');
    expect(restarted.text(aside)).toContain('@cknowledged then damaged');
    expect(second.store.venues.get(kept.id)?.title).toBe('Kept');
    expect(second.store.venues.get(flipped.id)).toBeUndefined();
  });

  it('a damaged snapshot or journal, or a journal that does not continue the snapshot, is an error naming the file', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs);
    store.createPost('venue', { title: 'One' });
    store.createPost('venue', { title: 'Two' });
    await saved(store, persister);
    const journal = fs.text(JOURNAL);

    const broken = fs.restart();
    broken.files.set(PATH, Buffer.from(fs.text(PATH).slice(0, 5000)));
    await expect(open(broken)).rejects.toThrow(FixtureError);
    await expect(open(broken)).rejects.toThrow(new RegExp(`^${PATH}: line 1, column \\d+: invalid JSON`));

    const damaged = fs.restart();
    damaged.files.set(JOURNAL, Buffer.from(journal.replace('"One"', '"Uno"')));
    await expect(open(damaged)).rejects.toThrow(`${JOURNAL}: line 1, column 1: line 1: checksum does not match, and more lines follow it`);

    const gap = fs.restart();
    gap.files.set(JOURNAL, Buffer.from(journal.split('\n')[1]! + '\n'));
    await expect(open(gap)).rejects.toThrow(`${JOURNAL}: line 1, column 1: transaction 2 where 1 was expected: the journal does not continue ${PATH} (transactions are missing)`);
  });

  it('compaction rewrites the snapshot and keeps only later transactions in the journal', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs, { compactAfterBytes: 10_000 });
    for (let i = 0; i < 40; i++) {
      store.createPost('venue', { title: `Hall ${i} ${'x'.repeat(300)}` });
      await saved(store, persister);
    }
    await persister.flush();
    expect(persister.stats.compactions).toBeGreaterThan(0);
    expect(fs.files.get(JOURNAL)!.byteLength).toBeLessThan(20_000);
    const txn = JSON.parse(fs.text(PATH)).txn as number;
    const left = fs.text(JOURNAL).split('\n').filter(Boolean).map((l) => JSON.parse(l.split('\t')[0]!).txn as number);
    left.forEach((t, i) => expect(t).toBe(txn + 1 + i));
    await persister.close();
    expect(fs.text(JOURNAL)).toBe('');
    const again = await open(fs.restart());
    expect(diffSnapshots(store.snapshot(), again.store.snapshot())).toEqual([]);
  });

  it('a reset is journaled, compacts the state, and IDs handed out before it stay used', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs);
    const gone = store.createPost('event', { title: 'Before reset' });
    store.reset();
    await saved(store, persister);
    await persister.flush();
    const again = await open(fs.restart());
    expect(again.store.events.get(gone.id)).toBeUndefined();
    expect(again.store.events.size).toBe(fixtures.calendar.events.length);
    expect(again.store.createPost('event', { title: 'After' }).id).toBe(gone.id + 1);
  });

  it('a full disk: each write is refused and not applied while it lasts, and once there is room writes are saved again', async () => {
    const fs = new MemoryFs();
    const errors: unknown[] = [];
    const { store, persister } = await open(fs, { errors });
    const before = store.snapshot();
    let full = true;
    // A write that fails leaves half its bytes behind (MemoryFs), as a real ENOSPC part-way through a write does.
    fs.failOn = (step) => (full && step === `write ${JOURNAL}` ? Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }) : undefined);
    const first = store.createPost('venue', { title: 'Refused first' });
    expect(await saved(store, persister)).toBe(false);
    // Not applied: gone from memory at once, the ID given back, the journal cut back to its last whole line.
    expect(store.venues.get(first.id)).toBeUndefined();
    expect(diffSnapshots(before, store.snapshot())).toEqual([]);
    expect(fs.text(JOURNAL)).toBe('');
    const second = store.createPost('venue', { title: 'Refused second' });
    expect(second.id).toBe(first.id);
    expect(await saved(store, persister)).toBe(false);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain(`${JOURNAL}: cannot be written (ENOSPC`);
    // Nothing waits for a state no write changed.
    expect(persister.durable(store.version)).toBeUndefined();
    full = false;
    const third = store.createPost('venue', { title: 'Saved once there is room' });
    expect(await saved(store, persister)).toBe(true);
    expect(String(errors[1])).toContain('can be written again');
    const parsed = parseJournal(fs.files.get(JOURNAL)!);
    expect(parsed.torn).toBeUndefined();
    expect(parsed.entries).toHaveLength(1);
    // After a kill -9 and after a clean stop alike: only the saved write, never the refused ones.
    const killed = await open(fs.restart());
    expect(diffSnapshots(store.snapshot(), killed.store.snapshot())).toEqual([]);
    expect(killed.store.venues.get(third.id)?.title).toBe('Saved once there is room');
    expect(killed.store.venues.values().some((v) => v.title.startsWith('Refused'))).toBe(false);
    await persister.close();
    const stopped = await open(fs.restart());
    expect(diffSnapshots(store.snapshot(), stopped.store.snapshot())).toEqual([]);
  });

  it('a settings object that grows is journalled by what each save changed, not whole: bytes grow with the additions, not their square', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs, { compactAfterBytes: 1 << 30 });
    const piece = 100_000;
    const saves = 30;
    for (let i = 0; i < saves; i++) {
      const current = store.get('seoSettings') as Record<string, unknown>;
      // As the handlers do: a copy of the whole value with one key more.
      store.set('seoSettings', { ...structuredClone(current), [`grown_${i}`]: 'x'.repeat(piece) } as never);
      await saved(store, persister);
    }
    const { grown_0: _dropped, ...rest } = structuredClone(store.get('seoSettings') as Record<string, unknown>);
    store.set('seoSettings', rest as never);
    await saved(store, persister);
    const journal = fs.files.get(JOURNAL)!.byteLength;
    // Whole values would be about saves²/2 pieces (46 MB); deltas about one piece a save.
    expect(journal).toBeLessThan(saves * piece * 1.1);
    expect(journal).toBeGreaterThan(saves * piece);
    const again = await open(fs.restart());
    expect(diffSnapshots(store.snapshot(), again.store.snapshot())).toEqual([]);
    expect(Object.keys(again.store.get('seoSettings') as object)).not.toContain('grown_0');
  });

  it('a state file that cannot be written refuses to start', async () => {
    const fs = new MemoryFs();
    const e = await openStateFile(fixtures, { path: '/proc/nope/x.json', fs }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StateFileError);
    expect((e as StateFileError).message).toBe("/proc/nope/x.json: cannot be written (ENOENT: no such file or directory, open '/proc/nope/x.json.journal')");
  });
});

describe('a write the journal cannot take is refused and not applied, whatever fails and wherever', () => {
  /** One request's writes, by what they do: every kind the store has (posts, terms, add-ons, settings, a batch, reset). */
  interface Step {
    label: string;
    write: (s: Store) => void;
  }
  const last = <T,>(list: readonly T[]): T => list[list.length - 1]!;
  const big = 'Long content. '.repeat(30_000);
  const STEPS: Step[] = [
    { label: 'create a venue', write: (s) => void s.createPost('venue', { title: 'New hall' }) },
    { label: 'create an event', write: (s) => void s.createPost('event', { title: 'New event' }) },
    { label: 'update a venue', write: (s) => void s.updatePost('venue', last(s.venues.values()).id, { title: 'Renamed hall' }) },
    { label: 'trash an event', write: (s) => void s.trashPost('event', s.events.values()[3]!.id) },
    { label: 'delete a venue for good', write: (s) => void s.deletePost('venue', s.venues.values()[2]!.id) },
    { label: 'create a tag', write: (s) => void s.createTerm('tag', { name: 'New tag' }) },
    { label: 'update a category', write: (s) => void s.updateTerm('category', s.categories.values()[1]!.id, { name: 'Renamed' }) },
    { label: 'delete a category', write: (s) => void s.deleteTerm('category', last(s.categories.values()).id) },
    { label: 'add-on insert', write: (s) => void s.insert('trackedKeywords', (id) => ({ id, keyword: 'jazz', added: '2026-11-01 12:00:00', lang: 'en' })) },
    { label: 'add-on remove', write: (s) => void s.remove('trackedKeywords', s.table('trackedKeywords').values()[0]!.id) },
    { label: 'settings', write: (s) => void s.set('seoSettings', { ...(s.get('seoSettings') as object), saved: 'yes' } as never) },
    { label: 'a batch: three creates in one turn', write: (s) => ['B1', 'B2', 'B3'].forEach((title) => s.createPost('organizer', { title })) },
    { label: 'three long posts in one turn (a group written in two slices)', write: (s) => ['L1', 'L2', 'L3'].forEach((title) => s.createPost('event', { title, content: big })) },
    { label: 'reset', write: (s) => s.reset() },
    { label: 'create after the reset', write: (s) => void s.createPost('venue', { title: 'After reset' }) },
  ];
  const FAILURES = [
    ['ENOSPC on the write', `write ${JOURNAL}`, 'ENOSPC'],
    ['EIO on the write', `write ${JOURNAL}`, 'EIO'],
    ['EROFS on the write', `write ${JOURNAL}`, 'EROFS'],
    ['ENOSPC on the fsync', `fsync ${JOURNAL}`, 'ENOSPC'],
    ['EIO on the fsync', `fsync ${JOURNAL}`, 'EIO'],
  ] as const;

  it.each(FAILURES)('%s: every kind of write refused is not applied; the disk matches the answers after a kill -9 and after a clean stop', async (_name, failing, code) => {
    // Each step in turn is the one the journal refuses (the failure lasts for that request only; for the long posts,
    // the second slice fails: the first one's whole lines must not stay).
    for (let refusedAt = 0; refusedAt < STEPS.length; refusedAt++) {
      const fs = new MemoryFs();
      const { store, persister } = await open(fs, { errors: [] });
      const answered: boolean[] = [];
      for (const [i, step] of STEPS.entries()) {
        const at = `${STEPS[refusedAt]!.label} refused; step ${i} (${step.label})`;
        let seen = 0;
        const slice = failing.startsWith('write') && step.label.startsWith('three long') ? 2 : 1;
        fs.failOn = i === refusedAt ? (s) => (s === failing && ++seen === slice ? Object.assign(new Error(`${code}: failed`), { code }) : undefined) : undefined;
        const before = store.snapshot();
        step.write(store);
        const kept = await saved(store, persister);
        answered.push(kept);
        expect(kept, at).toBe(i !== refusedAt);
        // Refused: not applied, as reads see it at once.
        if (!kept) expect(diffSnapshots(before, store.snapshot()), at).toEqual([]);
        // A kill -9 right after the answer (the refusal, and the next write's): the files hold what was answered.
        if (i === refusedAt || i === refusedAt + 1) {
          const killed = await open(fs.restart());
          expect(diffSnapshots(store.snapshot(), killed.store.snapshot()), at).toEqual([]);
        }
      }
      // The same writes without the refused one, on a store without a state file: the same state, the same IDs.
      const reference = createStore(fixtures, { now: () => NOW });
      STEPS.forEach((step, i) => answered[i] && step.write(reference));
      expect(diffSnapshots(reference.snapshot(), store.snapshot())).toEqual([]);
      await persister.close();
      const stopped = await open(fs.restart());
      expect(diffSnapshots(store.snapshot(), stopped.store.snapshot())).toEqual([]);
    }
  });

  it('the failed part of a group that reached the file is cut back before the refusal goes out', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs);
    store.createPost('venue', { title: 'Saved' });
    expect(await saved(store, persister)).toBe(true);
    const good = fs.files.get(JOURNAL)!.byteLength;
    let writes = 0;
    fs.failOn = (s) => (s === `write ${JOURNAL}` && ++writes === 2 ? Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) : undefined);
    for (const title of ['L1', 'L2', 'L3']) store.createPost('event', { title, content: 'x'.repeat(300_000) });
    const answer = persister.durable(store.version)!;
    // Its first slice went in whole; the refusal waits until it is cut off again.
    expect(await answer).toBe(false);
    expect(fs.files.get(JOURNAL)!.byteLength).toBe(good);
    const cut = fs.steps.lastIndexOf(`truncate ${JOURNAL}`);
    expect(fs.steps.slice(cut)).toEqual([`truncate ${JOURNAL}`, `fsync ${JOURNAL}`]);
  });

  it('a journal that cannot even be cut back refuses every write until it can, then saves again', async () => {
    const fs = new MemoryFs();
    const errors: unknown[] = [];
    const { store, persister } = await open(fs, { errors });
    let broken = true;
    fs.failOn = (s) => (broken && (s === `write ${JOURNAL}` || s === `truncate ${JOURNAL}`) ? Object.assign(new Error('EIO'), { code: 'EIO' }) : undefined);
    await refusedWrite(store, persister, 'Refused');
    expect(errors.map(String).join('\n')).toContain('cannot be cut back to its last saved write (EIO');
    await refusedWrite(store, persister, 'Refused too');
    broken = false;
    await savedWrite(fs, store, persister, 'Saved');
  });

  it('a journal that cannot be opened again after a compaction: the next write is refused and not applied, the one after saved', async () => {
    const fs = new MemoryFs();
    const errors: unknown[] = [];
    const { store, persister } = await open(fs, { errors });
    store.createPost('venue', { title: 'Before the compaction' });
    expect(await saved(store, persister)).toBe(true);
    let opens = 0;
    fs.failOn = (s) => (s === `open ${JOURNAL} a` && ++opens <= 2 ? Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }) : undefined);
    // The swap's reopen fails: the compaction says so, and the old handle (of the file the rename replaced) is let go.
    await expect(persister.compact()).rejects.toThrow('EMFILE');
    await refusedWrite(store, persister, 'Refused: no journal to write to');
    await savedWrite(fs, store, persister, 'Saved in the new journal');
  });

  it('a compaction snapshots only what the journal took: a refused write is never in the state file', async () => {
    const fs = new MemoryFs();
    const { store, persister } = await open(fs, { compactAfterBytes: 1 });
    let full = false;
    fs.failOn = (s) => (full && s === `write ${JOURNAL}` ? Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }) : undefined);
    store.createPost('venue', { title: 'Saved' });
    const compacting = persister.compact();
    full = true;
    const refused = store.createPost('venue', { title: 'Refused during a compaction' });
    expect(await saved(store, persister)).toBe(false);
    await compacting.catch(() => undefined);
    full = false;
    await persister.compact();
    expect(fs.text(PATH)).not.toContain('Refused during a compaction');
    const again = await open(fs.restart());
    expect(again.store.venues.get(refused.id)).toBeUndefined();
    expect(diffSnapshots(store.snapshot(), again.store.snapshot())).toEqual([]);
  });
});

describe('on a real filesystem', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('saves, restarts, and leaves only the state file and its journal', async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-persist-'));
    const path = join(dir, 'state.json');
    const first = await openStateFile(fixtures, { path });
    const e = first.store.createPost('event', { title: 'Persisted' });
    await saved(first.store, first.persister);
    expect(readFileSync(`${path}.journal`, 'utf8')).toContain('"Persisted"');
    await first.persister.close();
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.journal']);
    expect((await loadState(path))?.data.calendar.events.find((x) => x.id === e.id)?.title).toBe('Persisted');
    const second = await openStateFile(fixtures, { path });
    expect(second.store.events.get(e.id)?.title).toBe('Persisted');
    expect(second.store.sequences.post).toBe(e.id + 1);
    await second.persister.close();
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

  it('the mock holds an answer that wrote until the write is in the journal; other answers go at once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-persist-'));
    const stateFile = join(dir, 'state.json');
    const { createMock } = await import('../index.ts');
    const mock = await createMock({ stateFile });
    const req = (method: string, url: string, body?: string) => ({
      method, url, origin: 'http://127.0.0.1:4010',
      headers: { host: '127.0.0.1:4010', ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) },
      ...(body ? { body: Buffer.from(body) } : {}),
    });
    const read = mock.respond(req('GET', '/wp-json/cal/v1/venues?per_page=1'));
    expect(read).not.toBeInstanceOf(Promise);
    const pending = mock.respond(req('POST', '/wp-json/cal/v1/venues', '{"title":"Held until saved"}'));
    expect(pending).toBeInstanceOf(Promise);
    expect(readFileSync(`${stateFile}.journal`, 'utf8')).toBe('');
    const created = await pending;
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.body) as { id: number }).id;
    expect(readFileSync(`${stateFile}.journal`, 'utf8')).toContain(`["venue",${id},{"id":${id},`);
    await mock.close();
  });

  it('refuses a path it cannot write, naming it and why', async () => {
    const e = await openStateFile(fixtures, { path: '/proc/nope/x.json', fs: nodePersistFs }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StateFileError);
    expect((e as StateFileError).message).toMatch(/^\/proc\/nope\/x\.json: cannot be written \(ENOENT: no such file or directory/);
  });
});
