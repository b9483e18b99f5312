// Reproducible property runs: a failure names the seed and the path of the shrunk counterexample, plus the
// command that replays it, so nobody has to re-derive either from fast-check's output.
import fc from 'fast-check';

export interface RunOptions {
  /** What is being checked, for the failure message (a constraint id, an operation id). */
  label: string;
  seed?: number;
  /** A counterexample path from an earlier failure: replays exactly that case. */
  path?: string;
  numRuns?: number;
  /** How to replay, given the seed and path (e.g. the env variables a test suite reads). */
  replay?: (seed: number, path: string) => string;
}

/** A seed from an environment variable (default FC_SEED), when set to an integer. */
export function seedFromEnv(env: Record<string, string | undefined>, name = 'FC_SEED'): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`${name}=${raw} is not an integer seed`);
  return n;
}

/** A fresh 32-bit seed, for runs that were not given one (print it: it is the run's replay key). */
export function freshSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 0x100000000)) | 0;
}

export class PropertyFailure extends Error {
  constructor(
    message: string,
    readonly seed: number,
    readonly path: string,
    readonly counterexample: unknown,
  ) {
    super(message);
    this.name = 'PropertyFailure';
  }
}

/**
 * fc.check() with the replay information up front. Throws PropertyFailure with the label, seed, path, the shrunk
 * counterexample and fast-check's own report.
 */
export function assertProperty<Ts>(property: fc.IProperty<Ts>, opts: RunOptions): void {
  const params: fc.Parameters<Ts> = {
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    ...(opts.numRuns !== undefined ? { numRuns: opts.numRuns } : {}),
  };
  const details = fc.check(property, params);
  if (!details.failed) return;
  const path = details.counterexamplePath ?? '';
  const how = opts.replay ? opts.replay(details.seed, path) : `fc.assert(property, { seed: ${details.seed}, path: ${JSON.stringify(path)} })`;
  const message = [
    `${opts.label}: property failed (seed ${details.seed}, path ${JSON.stringify(path)})`,
    `replay: ${how}`,
    fc.defaultReportMessage(details) ?? '',
  ].join('\n');
  throw new PropertyFailure(message, details.seed, path, details.counterexample);
}
