// Writing the selected report formats. Redaction happens here, on the one path every format takes to
// disk, so no caller can forget it. Each file is written to a temporary name and renamed into place:
// a CI step that collects artifacts while a run is being killed finds the old file or the new one,
// never half of one.

import { randomUUID } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import type { ReportFormat, RunResult } from './model.ts';
import { redactDeep } from './redact.ts';

export const DEFAULT_REPORT_DIR = 'reports';

export interface ReportFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  writeFile(path: string, data: string, encoding: 'utf8'): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

export interface WriteOptions {
  dir?: string;
  formats: readonly ReportFormat[];
  /** Credentials the run used; they and every Authorization value in the run are redacted. */
  secrets: readonly string[];
  /** File name without extension; defaults to reportBaseName(run). */
  baseName?: string;
  fs?: ReportFs;
  tempSuffix?: () => string;
}

export interface WrittenReport {
  format: ReportFormat;
  path: string;
}

const EXTENSIONS: Record<ReportFormat, string> = { junit: '.junit.xml', json: '.json', html: '.html' };
const RENDERERS: Record<ReportFormat, (run: RunResult) => string> = {
  junit: renderJunit,
  json: renderJson,
  html: renderHtml,
};

/** Shards name their files apart so that all of them can land in one directory for `merge reports/shard-*.json`. */
export function reportBaseName(run: RunResult): string {
  return run.shard ? `shard-${run.shard.index}-of-${run.shard.total}` : 'site-contracts';
}

export function reportFileName(baseName: string, format: ReportFormat): string {
  return baseName + EXTENSIONS[format];
}

export async function writeReports(run: RunResult, options: WriteOptions): Promise<WrittenReport[]> {
  const fs = options.fs ?? nodeFs;
  const dir = options.dir ?? DEFAULT_REPORT_DIR;
  const tempSuffix = options.tempSuffix ?? (() => `${process.pid}.${randomUUID()}`);
  const baseName = options.baseName ?? reportBaseName(run);
  const safe = redactDeep(run, options.secrets);

  await fs.mkdir(dir, { recursive: true });
  const written: WrittenReport[] = [];
  for (const format of new Set(options.formats)) {
    const path = join(dir, reportFileName(baseName, format));
    const temp = `${path}.${tempSuffix()}.tmp`;
    try {
      await fs.writeFile(temp, RENDERERS[format](safe), 'utf8');
      await fs.rename(temp, path);
    } catch (e) {
      await fs.rm(temp, { force: true });
      throw e;
    }
    written.push({ format, path });
  }
  return written;
}
