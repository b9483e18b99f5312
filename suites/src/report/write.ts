// Writing the selected report formats. Redaction and the size limits happen here, on the one path
// every format takes to disk, so no caller can forget them. Each file is written to a temporary name
// and renamed into place: a CI step that collects artifacts while a run is being killed finds the old
// file or the new one, never half of one. Whether the directory can be written at all is proven before
// a run sends its first request (ensureWritable), not after thousands.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { renderHtml } from './html.ts';
import { renderHar } from './har.ts';
import { renderJson, renderJsonFull } from './json.ts';
import { renderJunit } from './junit.ts';
import { limitRun, limitsFor } from './limits.ts';
import type { ReportFormat, RunResult } from './model.ts';
import { redactDeep } from './redact.ts';
import { reportFs } from './make-directory.ts';

export const DEFAULT_REPORT_DIR = 'reports';

export interface ReportFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, data: string, encoding: 'utf8'): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

interface WriteOptions {
  dir?: string;
  formats: readonly ReportFormat[];
  /** Credentials the run used; they and every Authorization value in the run are redacted. */
  secrets: readonly string[];
  /** More header names whose values are secret (--secret-header). */
  secretHeaders?: readonly string[];
  /** File name without extension; defaults to reportBaseName(run). */
  baseName?: string;
  fs?: ReportFs;
  tempSuffix?: () => string;
}

export interface WrittenReport {
  format: ReportFormat;
  path: string;
}

const EXTENSIONS: Record<ReportFormat, string> = { junit: '.junit.xml', json: '.json', html: '.html', 'json-full': '.full.json', har: '.har' };
const RENDERERS: Record<ReportFormat, (run: RunResult) => string> = {
  junit: renderJunit,
  json: renderJson,
  html: renderHtml,
  'json-full': renderJsonFull,
  har: renderHar,
};

/** Shards name their files apart so that all of them can land in one directory for `merge reports/shard-*.json`. */
export function reportBaseName(run: RunResult): string {
  return run.shard ? `shard-${run.shard.index}-of-${run.shard.total}` : 'site-contracts';
}

function reportFileName(baseName: string, format: ReportFormat): string {
  return baseName + EXTENSIONS[format];
}

/** A report (or the report directory) cannot be written; the message names the path and the reason. */
export class ReportWriteError extends Error {
  override name = 'ReportWriteError';
}

function why(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, '')}` : String(err.message ?? e);
}

function redacted(run: RunResult, secrets: readonly string[], secretHeaders?: readonly string[]): RunResult {
  return redactDeep(run, secrets, secretHeaders ? { secretHeaders } : {});
}

/** The run as the reports (and the terminal) show it: secrets redacted first, then cut to the report limits. */
export function reportable(run: RunResult, secrets: readonly string[], secretHeaders?: readonly string[]): RunResult {
  return limitRun(redacted(run, secrets, secretHeaders));
}

export async function writeReports(run: RunResult, options: WriteOptions): Promise<WrittenReport[]> {
  const fs = options.fs ?? reportFs;
  const dir = options.dir ?? DEFAULT_REPORT_DIR;
  const tempSuffix = options.tempSuffix ?? (() => `${process.pid}.${randomUUID()}`);
  const baseName = options.baseName ?? reportBaseName(run);
  const safe = redacted(run, options.secrets, options.secretHeaders);

  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (e) {
    throw new ReportWriteError(`--report-dir ${dir}: cannot create it (${why(e)})`);
  }
  const written: WrittenReport[] = [];
  for (const format of new Set(options.formats)) {
    const path = join(dir, reportFileName(baseName, format));
    const temp = `${path}.${tempSuffix()}.tmp`;
    try {
      await fs.writeFile(temp, RENDERERS[format](limitRun(safe, limitsFor(format))), 'utf8');
      await fs.rename(temp, path);
    } catch (e) {
      await fs.rm(temp, { force: true }).catch(() => {});
      throw new ReportWriteError(`cannot write the report ${path} (${why(e)})`, { cause: e });
    }
    written.push({ format, path });
  }
  return written;
}

/**
 * Creates the report directory and writes and removes a file in it, so that a directory the run could
 * not write is found before the first request rather than after the last.
 */
export async function ensureWritable(dir: string, fs: ReportFs = reportFs, tempSuffix: () => string = () => `${process.pid}.${randomUUID()}`): Promise<void> {
  const probe = join(dir, `.site-contracts-probe.${tempSuffix()}.tmp`);
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(probe, '', 'utf8');
  } catch (e) {
    throw new ReportWriteError(`--report-dir ${dir}: cannot write reports there (${why(e)}); give a directory you can write with --report-dir`);
  }
  await fs.rm(probe, { force: true }).catch(() => {});
}
