// The state file's journal: one line per committed transaction, appended before the write is acknowledged.
//
//   {"txn":17,"seq":{...},"rows":[["event",704,{...record}],["venue",12,null]],"set":{"seoMode":"custom"}}\t1a2b3c4d\n
//
// `txn` numbers the transactions of a state file: they run on from the snapshot's `txn` without a gap. `seq` is the
// sequences after the commit, so IDs handed out are never handed out again. A row's record is null when it was
// deleted; `reset` marks a return to the fixtures. The tab and eight hex digits are the CRC-32 of the JSON before
// them: a line cut short by a crash, or damaged, is told from a whole one by that, not by luck.

import { crc32 } from 'node:zlib';
import type { Sequences } from '../../../contracts/model/records.ts';
import type { Commit, RecordedCommit, RowChange, TableName } from './store.ts';
import { TABLE_NAMES } from '../../../contracts/model/tables.ts';
import { diff, isPatch, type Patch } from './delta.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

export interface JournalEntry extends RecordedCommit {
  txn: number;
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

/** One journal line (with its newline) for a commit. */
export function encodeEntry(txn: number, commit: Pick<Commit, 'rows' | 'singletons' | 'sequences' | 'reset'> & { singletonsBefore?: Commit['singletonsBefore'] }): string {
  const rows = commit.rows.map((r) => [r.table, r.key, r.record ?? null]);
  // A settings object that was an object before and after is written as what changed (`patch`), whole otherwise.
  const set: Record<string, unknown> = {};
  const patch: Record<string, Patch> = {};
  const before = (commit.singletonsBefore ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(commit.singletons)) {
    const old = before[name];
    const delta = !commit.reset && isPlainObject(old) && isPlainObject(value) ? diff(old, value) : undefined;
    if (delta) patch[name] = delta;
    else set[name] = value;
  }
  const json = JSON.stringify({
    txn,
    seq: commit.sequences,
    ...(commit.reset ? { reset: true } : {}),
    ...(rows.length ? { rows } : {}),
    ...(Object.keys(set).length ? { set } : {}),
    ...(Object.keys(patch).length ? { patch } : {}),
  });
  return `${json}\t${hex8(crc32(json))}\n`;
}

/** The `txn` of a journal line, read from its start without parsing the rest. */
export function txnOf(line: string): number | undefined {
  const m = /^\{"txn":(\d+),/.exec(line);
  return m ? Number(m[1]) : undefined;
}

const TABLES = new Set<string>(TABLE_NAMES);

function decodeJson(json: string): JournalEntry | string {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return 'not JSON';
  }
  if (!v || typeof v !== 'object') return 'not an object';
  const o = v as { txn?: unknown; seq?: unknown; reset?: unknown; rows?: unknown; set?: unknown; patch?: unknown };
  if (!Number.isInteger(o.txn) || (o.txn as number) < 1) return 'no transaction number';
  if (!o.seq || typeof o.seq !== 'object') return 'no sequences';
  const rows: RowChange[] = [];
  for (const r of (o.rows ?? []) as unknown[]) {
    if (!Array.isArray(r) || r.length !== 3 || !TABLES.has(r[0] as string) || (typeof r[1] !== 'string' && typeof r[1] !== 'number')) return 'a row is not [table, key, record]';
    const record = r[2] as unknown;
    if (record !== null && (typeof record !== 'object' || Array.isArray(record))) return 'a row\'s record is not an object';
    rows.push({ table: r[0] as TableName, key: r[1], record: record === null ? undefined : (record as object) });
  }
  const set = o.set ?? {};
  if (typeof set !== 'object' || Array.isArray(set)) return 'settings are not an object';
  const patch = o.patch ?? {};
  if (!isPlainObject(patch) || !Object.values(patch).every(isPatch)) return 'settings patches are not patches';
  const entry: JournalEntry = { txn: o.txn as number, reset: o.reset === true, rows, singletons: set as JournalEntry['singletons'], sequences: o.seq as Sequences };
  if (Object.keys(patch).length) entry.patches = patch as Record<string, Patch>;
  return entry;
}

interface ParsedJournal {
  entries: JournalEntry[];
  /** Bytes of whole, intact lines from the start: where the next line is to be appended. */
  validBytes: number;
  /**
   * A last line that is not whole, ignored, and why. `complete`: it ends in its newline but its checksum (or
   * content) is wrong, so it was written whole and damaged afterwards, not cut short by a crash.
   */
  torn?: { line: number; bytes: number; reason: string; complete: boolean };
}

export class JournalError extends Error {
  override readonly name = 'JournalError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a journal's bytes. A damaged line followed by more lines is corruption (JournalError naming it); the last
 * line, when damaged or without its newline, is a write a crash cut short: left out, and reported in `torn`.
 */
export function parseJournal(bytes: Uint8Array): ParsedJournal {
  const entries: JournalEntry[] = [];
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  let line = 0;
  while (start < buf.length) {
    line++;
    const nl = buf.indexOf(10, start);
    const end = nl < 0 ? buf.length : nl;
    const text = buf.toString('utf8', start, end);
    const tab = text.lastIndexOf('\t');
    const json = tab < 0 ? text : text.slice(0, tab);
    let problem: string | undefined;
    if (nl < 0) problem = 'no newline at its end';
    else if (tab < 0 || !/^[0-9a-f]{8}$/.test(text.slice(tab + 1))) problem = 'no checksum';
    else if (hex8(crc32(json)) !== text.slice(tab + 1)) problem = 'checksum does not match';
    const decoded = problem ? problem : decodeJson(json);
    if (typeof decoded === 'string') {
      if (nl < 0 || nl === buf.length - 1) return { entries, validBytes: start, torn: { line, bytes: buf.length - start, reason: decoded, complete: nl >= 0 } };
      throw new JournalError(line, `line ${line}: ${decoded}, and more lines follow it (the journal is damaged, not cut short by a crash)`);
    }
    entries.push(decoded);
    start = end + 1;
  }
  return { entries, validBytes: start };
}
