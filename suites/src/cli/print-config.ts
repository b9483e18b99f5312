// --print-config: every flag of the command with the value it would run with and where that value came from
// (the command line, the config file, the environment, or the default), and nothing sent. For a CI job whose
// flags come from three places, this is the one answer to "what does it actually run with?".

import { DEFAULT_AUTH_ENV } from '../report/curl.ts';
import { ALLOWED, durationLabel, NOT_IN_CONFIG, type CommandArgs, type Flag, type MergeArgs, type ProxyArgs, type RunArgs, type Sources } from './args.ts';
import { shownHeader } from './headers.ts';
import { FLAG_ORDER } from './help.ts';

type AnyArgs = Partial<Omit<RunArgs, 'command'> & Omit<ProxyArgs, 'command'> & Omit<MergeArgs, 'command'>>;

const list = (items: readonly string[] | undefined, none: string): string => (items && items.length > 0 ? items.join(',') : none);

/** The value a flag has in the parsed arguments, as a person would write it. */
const EFFECTIVE: Partial<Record<Flag, (a: AnyArgs) => string>> = {
  'base-url': (a) => a.baseUrl ?? '',
  upstream: (a) => a.upstream ?? '',
  port: (a) => String(a.port),
  'api-root': (a) => a.apiRoot ?? '',
  'auth-env': (a) => a.auth?.envVar ?? '(none: nothing is written)',
  header: (a) => (a.headers && a.headers.length > 0 ? a.headers.map(shownHeader).join('; ') : '(none)'),
  'read-only': (a) => String(a.readOnly),
  'disposable-target': (a) => String(a.disposableTarget ?? false),
  'low-auth-env': (a) => a.lowAuth?.envVar ?? '(none: the signed-in half of auth_status is not judged)',
  only: (a) => list(a.only, '(everything)'),
  skip: (a) => list(a.skip, '(nothing)'),
  seed: (a) => (a.seed === undefined ? '(random, printed in the report)' : String(a.seed)),
  runs: (a) => String(a.runs),
  'max-requests': (a) => String(a.maxRequests),
  'max-failures': (a) => (a.maxFailures === undefined ? '(no limit)' : String(a.maxFailures)),
  workers: (a) => String(a.workers),
  stateful: (a) => (a.stateful === 0 ? '0 (off)' : String(a.stateful)),
  'max-duration': (a) => durationLabel(a.maxDurationMs ?? 0),
  rps: (a) => (a.rps === 0 ? '0 (unlimited)' : String(a.rps)),
  'timeout-ms': (a) => String(a.timeoutMs),
  shard: (a) => (a.shard ? `${a.shard.index}/${a.shard.total}` : '(the whole run)'),
  conventions: (a) => a.policy?.conventions ?? '',
  'response-shapes': (a) => a.policy?.responseShapes ?? '',
  baseline: (a) => a.baseline ?? '(none)',
  'report-dir': (a) => a.reportDir ?? '',
  format: (a) => list(a.formats, ''),
};

export function describeConfig(tool: string, args: CommandArgs, sources: Sources): string {
  const a = args as AnyArgs;
  const rows: [string, string, string][] = [];
  for (const flag of FLAG_ORDER.filter((f) => ALLOWED[args.command].has(f))) {
    const value = EFFECTIVE[flag];
    if (NOT_IN_CONFIG.has(flag) || value === undefined) continue;
    let source = sources[flag] ?? 'default';
    if (flag === 'max-failures' && sources[flag] === undefined && sources.exitfirst) source = `${sources.exitfirst} (-x)`;
    if (flag === 'auth-env' && a.auth && sources[flag] === undefined) source = `environment (${DEFAULT_AUTH_ENV} is set)`;
    rows.push([`--${flag}`, value(a), source]);
  }
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  const lines = [`${tool} ${args.command}: the values this invocation runs with, and where each comes from (nothing was sent)`];
  for (const [flag, value, source] of rows) lines.push(`  ${flag.padEnd(w0)}  ${value.padEnd(w1)}  ${source}`);
  if (args.command === 'merge') lines.push(`  inputs: ${args.inputs.join(' ')}`);
  return lines.join('\n') + '\n';
}
