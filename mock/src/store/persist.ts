// `--state-file PATH`: the store survives restarts, and an acknowledged write survives a crash.
//
// Two files: PATH, a snapshot of the whole state (the fixture files' layout, plus `txn`, the last transaction it
// includes), and PATH.journal, one line per transaction committed after it (journal.ts). Every commit is appended
// to the journal and fsynced before the answer that wrote it goes out (`durable()`); commits that arrive while a
// write is in flight share the next one (group commit). Now and then the state is compacted: the snapshot is
// written to a temporary file in pieces, without holding the event loop, renamed over PATH, and the journal is cut
// to the transactions after it. Whatever point a crash hits, PATH plus the journal's transactions after its `txn`
// are every acknowledged write. On start the journal is replayed; a last line cut short by a crash is left out,
// with a note; anything else that does not fit is an error naming the file, never silently dropped.

import { FixtureError } from '../../../contracts/model/fixture-error.ts';
import { checkIntegrity } from '../../../contracts/model/set-integrity.ts';
import { encodeEntry, JournalError, parseJournal, txnOf, type JournalEntry } from './journal.ts';
import { loadFixtures, parseStateFile, unreadable } from './load-fixtures.ts';
import type { CheckedFixtureCache } from './checked-fixtures.ts';
import type { FixtureSet, StoreData } from '../../../contracts/model/records.ts';
import { nodePersistFs, tempPathFor, writeFileAtomic, type FileHandleLike, type PersistFs } from './persist-fs.ts';
import { stateTextPieces } from './state-text.ts';
import { createStore, StoreError, type Commit, type Store, type StoreOptions } from './store.ts';

export { nodePersistFs, writeFileAtomic, type FileHandleLike, type PersistFs } from './persist-fs.ts';

/** A state file the mock cannot write: it refuses to start rather than fail on the first write. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Reads and checks a state file; `undefined` when there is none yet (first run). Any other problem is a
 * FixtureError naming the file (and the JSON pointer, or line and column).
 */
export async function loadState(path: string, fs: PersistFs = nodePersistFs): Promise<{ data: StoreData; txn: number } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
    throw new FixtureError('unreadable', [unreadable(path, e)]);
  }
  return parseStateFile(text, path);
}

export interface StateFileOptions extends StoreOptions {
  /** The snapshot's path; the journal is `${path}.journal`. */
  path: string;
  fs?: PersistFs;
  /** Compact once the journal holds this many bytes (default: 16 MiB, or half the snapshot's size if that is more). */
  compactAfterBytes?: number;
  /** A state file problem after start (a journal that cannot be written, a failed compaction). */
  onError?: (error: unknown) => void;
  /** Things worth saying on start (a torn last journal line left out). */
  onNote?: (message: string) => void;
}

interface PersisterStats {
  /** Transactions written to the journal since start. */
  commits: number;
  /** Journal fsyncs since start (fewer than commits when writes shared one). */
  syncs: number;
  compactions: number;
  journalBytes: number;
  snapshotBytes: number;
  /** Number of the last transaction given to the journal. */
  lastTxn: number;
  /** Transactions replayed from the journal on start, and how long opening took. */
  replayed: number;
  openMs: number;
  /** Commits the journal could not take, undone (their answers were refusals). */
  undone: number;
}

export interface Persister {
  /**
   * `undefined` when every commit up to the store's `version` is on disk; otherwise a promise of whether it got
   * there: true once it is, false when the journal could not take it and it was undone (the store is back where the
   * journal ends; nothing that saw it may be acknowledged). After close() nothing more is saved, and nothing waits.
   */
  durable(version: number): Promise<boolean> | undefined;
  /** Writes what is queued and waits until it is on disk (rejects, after undoing it, when it cannot be). */
  flush(): Promise<void>;
  /** Writes a new snapshot of what is on disk and cuts the journal to what came after it. */
  compact(): Promise<void>;
  /** Stops listening, writes what is queued, compacts, closes the journal. Safe to call twice. */
  close(): Promise<void>;
  readonly stats: Readonly<PersisterStats>;
}

/** Characters of journal lines encoded before they are written (and the event loop given back). */
const JOURNAL_SLICE = 1 << 19;

/** How many undone ranges durable() remembers, for an answer that asks about a version it saw long ago. */
const UNDONE_KEPT = 256;

/** Rounds of flushing a compaction waits for a moment when everything committed is on disk. */
const COMPACT_FLUSH_ROUNDS = 8;

interface Waiter {
  version: number;
  resolve: (kept: boolean) => void;
}

/**
 * The journal of a store: every commit is applied in memory at once (the requests after it must see it, and IDs are
 * taken in the same turn), but no answer that saw it is acknowledged before the journal has it; a commit the journal
 * cannot take is undone, with every commit after it, before any of their answers goes out. So a write is either
 * acknowledged and durable, or refused and not applied. (Before, a refused write stayed in memory, was saved with
 * the next write that got through or at a clean stop, and was gone after a kill -9.)
 */
class StateFile implements Persister {
  readonly #store: Store;
  readonly #path: string;
  readonly #journalPath: string;
  readonly #fs: PersistFs;
  readonly #now: () => Date;
  readonly #compactAfter: number | undefined;
  readonly #onError: (e: unknown) => void;
  readonly #unsubscribe: () => void;
  /** The journal, open for appending; undefined after a compaction that could not open it again (the next flush does). */
  #fh: FileHandleLike | undefined;
  #queue: { txn: number; commit: Commit }[] = [];
  #flushScheduled = false;
  /** Journal file operations run one after another: appends, the swap of a compaction, the close. */
  #io: Promise<void> = Promise.resolve();
  /** The store version whose commits are all in the journal, and the last transaction number they used. */
  #durableVersion: number;
  #durableTxn: number;
  /** Version of the last commit given to the journal. */
  #queuedVersion: number;
  #waiters: Waiter[] = [];
  /** Ranges of versions (from, to] undone, newest last. */
  readonly #undone: [number, number][] = [];
  /** While the journal is being cut back after a failed write: refusals wait for it. */
  #cutting: Promise<void> | undefined;
  /** The last journal write failed (disk full): set until a write succeeds again. */
  #failed: unknown;
  /** The journal may end in part of what a failed write left: cut back to `journalBytes` before the next write. */
  #mustTruncate = false;
  #closed = false;
  #closing: Promise<void> | undefined;
  #compacting: Promise<void> | undefined;
  #compactWanted = false;
  readonly #stats: PersisterStats;

  constructor(store: Store, fh: FileHandleLike, init: { path: string; fs: PersistFs; now: () => Date; compactAfter: number | undefined; onError: (e: unknown) => void; journalBytes: number; snapshotBytes: number; lastTxn: number; replayed: number }) {
    this.#store = store;
    this.#fh = fh;
    this.#path = init.path;
    this.#journalPath = `${init.path}.journal`;
    this.#fs = init.fs;
    this.#now = init.now;
    this.#compactAfter = init.compactAfter;
    this.#onError = init.onError;
    this.#durableVersion = store.version;
    this.#durableTxn = init.lastTxn;
    this.#queuedVersion = store.version;
    this.#stats = { commits: 0, syncs: 0, compactions: 0, journalBytes: init.journalBytes, snapshotBytes: init.snapshotBytes, lastTxn: init.lastTxn, replayed: init.replayed, openMs: 0, undone: 0 };
    store.keepUndo();
    this.#unsubscribe = store.subscribe((_change, commit) => this.#append(commit));
  }

  get stats(): Readonly<PersisterStats> {
    return this.#stats;
  }

  setOpenMs(ms: number): void {
    this.#stats.openMs = ms;
  }

  #exclusive(op: () => Promise<void>): Promise<void> {
    const run = this.#io.then(op);
    this.#io = run.catch(() => undefined);
    return run;
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // After the current turn: the commits of every request handled in it share one write and one fsync.
    setImmediate(() => void this.#exclusive(() => this.#flushQueue()).catch(() => undefined));
  }

  #append(commit: Commit): void {
    this.#queue.push({ txn: ++this.#stats.lastTxn, commit });
    this.#queuedVersion = commit.version;
    if (commit.reset) this.#compactWanted = true;
    this.#scheduleFlush();
  }

  async #flushQueue(): Promise<void> {
    this.#flushScheduled = false;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    const before = this.#stats.journalBytes;
    try {
      if (this.#mustTruncate) await this.#cutBack(before);
      this.#fh ??= await this.#fs.open(this.#journalPath, 'a', 0o644);
      const fh = this.#fh;
      // Encoded and written a slice at a time, so a large group does not hold the event loop; one fsync for all.
      let lines: string[] = [];
      let size = 0;
      const write = async () => {
        const bytes = Buffer.from(lines.join(''), 'utf8');
        lines = [];
        size = 0;
        this.#mustTruncate = true;
        await fh.write(bytes);
        this.#stats.journalBytes += bytes.byteLength;
      };
      for (const { txn, commit } of batch) {
        const line = encodeEntry(txn, commit);
        lines.push(line);
        size += line.length;
        if (size >= JOURNAL_SLICE) await write();
      }
      if (size > 0) await write();
      await fh.sync();
      this.#mustTruncate = false;
      this.#stats.syncs++;
      this.#stats.commits += batch.length;
    } catch (e) {
      await this.#refuse(before, e);
      throw e;
    }
    if (this.#failed !== undefined) {
      this.#failed = undefined;
      this.#onError(new StateFileError(this.#journalPath, 'can be written again; writes are saved and acknowledged again'));
    }
    const last = batch[batch.length - 1]!;
    this.#durableTxn = last.txn;
    this.#markDurable(last.commit.version);
    // Replaying a journal costs about what loading a snapshot of its size does: let it grow to half the snapshot.
    const big = this.#stats.journalBytes >= (this.#compactAfter ?? Math.max(16 * 2 ** 20, this.#stats.snapshotBytes / 2));
    if ((big || this.#compactWanted) && !this.#compacting && !this.#closing) void this.compact().catch(this.#onError);
  }

  /**
   * The journal did not take a group: it and every commit after it are undone in memory at once (in this turn, so no
   * request builds on them), the journal is cut back to where it was, and then their answers are refusals. What a
   * write left of a line must be cut off before anything else is written; if that fails too, every later write is
   * refused until it can be.
   */
  async #refuse(before: number, e: unknown): Promise<void> {
    const from = this.#durableVersion;
    const to = this.#store.version;
    this.#queue = [];
    this.#stats.lastTxn = this.#durableTxn;
    this.#stats.journalBytes = before;
    this.#stats.undone += to - from;
    const now = this.#store.undoAfter(from);
    this.#durableVersion = now;
    this.#queuedVersion = now;
    this.#undone.push([from, to]);
    if (this.#undone.length > UNDONE_KEPT) this.#undone.shift();
    this.#fail(e);
    // No refusal goes out before the journal is cut back: a kill -9 must not find the refused lines in it. If it
    // cannot be (the disk fails even that), every later write is refused until it can, and the note says so.
    let cut: () => void = () => undefined;
    this.#cutting = new Promise<void>((r) => (cut = r));
    if (this.#mustTruncate) {
      await this.#cutBack(before).catch((ce: unknown) =>
        this.#onError(new StateFileError(this.#journalPath, `cannot be cut back to its last saved write (${errorText(ce)}); it may hold refused writes past it, which a kill -9 now could bring back; every write is refused until it can be cut back`)),
      );
    }
    this.#cutting = undefined;
    cut();
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const w of waiting) (w.version <= to ? w.resolve(false) : this.#waiters.push(w));
  }

  /** Cuts the journal back to `length` bytes (what a failed write left after the last whole group), on disk. */
  async #cutBack(length: number): Promise<void> {
    const fh = this.#fh ?? (this.#fh = await this.#fs.open(this.#journalPath, 'a', 0o644));
    await fh.truncate(length);
    await fh.sync();
    this.#mustTruncate = false;
  }

  #markDurable(version: number): void {
    this.#durableVersion = version;
    this.#store.settle(version);
    if (this.#waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.#waiters) (w.version <= version ? w.resolve(true) : still.push(w));
    this.#waiters = still;
  }

  #fail(e: unknown): void {
    if (this.#failed !== undefined) return;
    this.#failed = e;
    this.#onError(new StateFileError(this.#journalPath, `cannot be written (${errorText(e)}); writes are refused (500, not applied) until it can, reads go on`));
  }

  #wasUndone(version: number): boolean {
    for (let i = this.#undone.length - 1; i >= 0; i--) {
      const [from, to] = this.#undone[i]!;
      if (version > from && version <= to) return true;
    }
    return false;
  }

  durable(version: number): Promise<boolean> | undefined {
    if (this.#wasUndone(version)) return this.#cutting ? this.#cutting.then(() => false) : Promise.resolve(false);
    // Closed, or closing and this commit came after the journal stopped listening: nothing will save it.
    if (version <= this.#durableVersion || this.#closed || (this.#closing && version > this.#queuedVersion)) return undefined;
    return new Promise((resolve) => this.#waiters.push({ version, resolve }));
  }

  flush(): Promise<void> {
    return this.#exclusive(() => this.#flushQueue());
  }

  compact(): Promise<void> {
    this.#compacting ??= this.#compactOnce().finally(() => {
      this.#compacting = undefined;
    });
    return this.#compacting;
  }

  async #compactOnce(): Promise<void> {
    this.#compactWanted = false;
    // The snapshot is taken at a moment when every commit is in the journal: it must hold nothing that could still
    // be undone. Between two flushes no other code runs, so right after one that left nothing queued is such a moment.
    let taken: { data: ReturnType<Store['snapshot']>; txn: number; from: number } | undefined;
    for (let round = 0; round < COMPACT_FLUSH_ROUNDS && !taken; round++) {
      const flushed = await this.#exclusive(async () => {
        await this.#flushQueue();
        if (this.#queue.length > 0 || this.#store.version !== this.#durableVersion) return;
        taken = { data: this.#store.snapshot(), txn: this.#durableTxn, from: this.#stats.journalBytes };
      }).then(
        () => true,
        // The journal refused the writes (said once, by the flush): no compaction now, the next one tries again.
        () => false,
      );
      if (!flushed) break;
    }
    // Writes kept coming faster than they were saved: the next flush asks again.
    if (!taken) {
      this.#compactWanted = true;
      return;
    }
    const { data, txn, from } = taken;
    this.#stats.snapshotBytes = await writeFileAtomic(this.#path, stateTextPieces(data, { txn, savedAt: this.#now() }), this.#fs);
    // The snapshot is on disk: the journal's transactions up to `txn` are in it twice now. Cut them, with no append
    // running meanwhile (new commits wait in the queue and go to the new journal).
    await this.#exclusive(async () => {
      // Only the journal's whole groups: bytes a failed write may have left past them are not transactions.
      const bytes = await this.#fs.readBytes(this.#journalPath, from);
      const tail = Buffer.from(bytes.subarray(0, Math.max(0, this.#stats.journalBytes - from))).toString('utf8');
      const kept = tail.split('\n').filter((line) => line !== '' && (txnOf(line) ?? 0) > txn).map((line) => `${line}\n`).join('');
      await writeFileAtomic(this.#journalPath, kept, this.#fs);
      // The old handle writes to the file the rename replaced: never append through it again.
      const old = this.#fh;
      this.#fh = undefined;
      this.#mustTruncate = false;
      this.#stats.journalBytes = Buffer.byteLength(kept);
      await old?.close().catch(() => undefined);
      this.#fh = await this.#fs.open(this.#journalPath, 'a', 0o644);
    });
    this.#stats.compactions++;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#unsubscribe();
      try {
        await this.flush().catch(() => undefined);
        await this.#compacting?.catch(() => undefined);
        if (this.#failed === undefined && this.#stats.journalBytes > 0) await this.compact();
      } finally {
        this.#closed = true;
        // Nothing will settle what comes now: keep no undo for it.
        this.#store.keepUndo(false);
        await this.#exclusive(async () => this.#fh?.close()).catch(() => undefined);
      }
    })();
    return this.#closing;
  }
}

function journalProblem(file: string, line: number, message: string): FixtureError {
  return new FixtureError('integrity', [{ file, line, column: 1, message }]);
}

/**
 * The store over `fixtures` as the state file left it: the snapshot, then the journal's transactions after it.
 * Refuses (StateFileError) when the state file cannot be written, so that a mock never starts only to fail on its
 * first write.
 */
export async function openStateFile(fixtures: FixtureSet, options: StateFileOptions): Promise<{ store: Store; persister: Persister }> {
  const started = performance.now();
  const fs = options.fs ?? nodePersistFs;
  const path = options.path;
  const journalPath = `${path}.journal`;
  const loaded = await loadState(path, fs);
  const store = createStore(fixtures, { ...(options.now ? { now: options.now } : {}), ...(loaded ? { state: loaded.data } : {}) });

  let bytes: Uint8Array | undefined;
  try {
    bytes = await fs.readBytes(journalPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') throw new FixtureError('unreadable', [unreadable(journalPath, e)]);
  }
  let lastTxn = loaded?.txn ?? 0;
  let replayed = 0;
  let validBytes = 0;
  let torn: { line: number; reason: string; complete: boolean } | undefined;
  if (bytes) {
    let parsed;
    try {
      parsed = parseJournal(bytes);
    } catch (e) {
      if (e instanceof JournalError) throw journalProblem(journalPath, e.line, e.message);
      throw e;
    }
    validBytes = parsed.validBytes;
    torn = parsed.torn;
    let line = 0;
    for (const entry of parsed.entries as JournalEntry[]) {
      line++;
      if (entry.txn <= lastTxn && replayed === 0) continue;
      if (entry.txn !== lastTxn + 1) {
        throw journalProblem(journalPath, line, `transaction ${entry.txn} where ${lastTxn + 1} was expected: the journal does not continue ${path} (transactions are missing)`);
      }
      try {
        store.replay(entry);
      } catch (e) {
        if (e instanceof StoreError) throw journalProblem(journalPath, line, `transaction ${entry.txn} does not apply: ${e.message}`);
        throw e;
      }
      lastTxn = entry.txn;
      replayed++;
    }
    if (replayed > 0) {
      // The rules held when each write was committed; checked again in case the fixtures changed underneath.
      const where = { file: journalPath, prefix: '' };
      const broken = checkIntegrity(store.snapshot() as StoreData, { calendar: where, addons: where, users: where });
      if (broken.length) throw new FixtureError('integrity', broken.map((i) => ({ ...i, message: `after replaying the journal: ${i.message}` })));
    }
  }

  let fh: FileHandleLike;
  try {
    fh = await fs.open(journalPath, 'a', 0o644);
    if (torn) await fh.truncate(validBytes);
    // Compactions write a temporary file beside PATH and rename it: find out now whether the directory lets us.
    const probe = tempPathFor(path, `probe-${process.pid}`);
    await (await fs.open(probe, 'wx', 0o644)).close();
    await fs.unlink(probe);
  } catch (e) {
    throw new StateFileError(path, `cannot be written (${errorText(e)})`);
  }
  if (replayed > 0) options.onNote?.(`${journalPath}: ${replayed} transaction${replayed === 1 ? '' : 's'} replayed after the snapshot in ${path} (${Math.round(performance.now() - started)} ms)`);
  if (torn && !torn.complete) {
    options.onNote?.(`${journalPath}: line ${torn.line} was cut short by a crash (${torn.reason}); it was never acknowledged, and is left out`);
  } else if (torn && bytes) {
    // A whole line whose checksum fails was damaged after it was written: its write may well have been
    // acknowledged. Say so, and keep its bytes beside the journal rather than only cutting them off.
    const aside = `${journalPath}.damaged-line-${torn.line}`;
    await writeFileAtomic(aside, Buffer.from(bytes.subarray(validBytes)).toString('utf8'), fs).catch(() => undefined);
    options.onNote?.(`${journalPath}: line ${torn.line}, the last, is damaged (${torn.reason}): it was written whole, so its write may have been acknowledged and is lost; left out, its bytes kept in ${aside}`);
  }
  const persister = new StateFile(store, fh, {
    path, fs,
    now: options.now ?? (() => new Date()),
    compactAfter: options.compactAfterBytes,
    onError: options.onError ?? ((e: unknown) => console.error(`mock: state file: ${errorText(e)}`)),
    journalBytes: validBytes,
    snapshotBytes: 0,
    lastTxn,
    replayed,
  });
  if (!loaded) {
    // First start: the snapshot makes the state file stand on its own, whatever happens to the fixtures later.
    try {
      await persister.compact();
    } catch (e) {
      throw new StateFileError(path, `cannot be written (${errorText(e)})`);
    }
  }
  persister.setOpenMs(performance.now() - started);
  return { store, persister };
}

interface OpenStoreOptions extends StoreOptions, Omit<StateFileOptions, 'path'> {
  fixturesDir: string;
  /** Checked fixture sets kept by the package's build (checked-fixtures.ts); default: none, every load checks. */
  checkedFixtures?: CheckedFixtureCache;
  /** When set, state is loaded from it if it exists, and every write is saved to it. */
  stateFile?: string;
}

/** Fixtures + optional state file -> a ready store (and its persister when a state file is used). */
export async function openStore(options: OpenStoreOptions): Promise<{ store: Store; persister?: Persister }> {
  const fs = options.fs ?? nodePersistFs;
  const fixtures = await loadFixtures(options.fixturesDir, fs, options.checkedFixtures);
  if (!options.stateFile) return { store: createStore(fixtures, options.now ? { now: options.now } : {}) };
  return openStateFile(fixtures, { ...options, path: options.stateFile, fs });
}
