// The command line split into flags and arguments, with our own wording for what is wrong with it. node's
// parseArgs does the splitting (non-strict, with tokens), and every refusal is decided here, so a mistyped flag
// gets "unknown flag --bse-url (did you mean --base-url?)" instead of node's text about positionals.

import { parseArgs } from 'node:util';
import { closest, distance } from 'fastest-levenshtein';
import { UsageError } from '../errors.ts';

interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

export type FlagValue = string | boolean | string[];
export type FlagValues = Partial<Record<string, FlagValue>>;

interface Tokenized {
  values: FlagValues;
  positionals: string[];
}

interface TokenizeOptions {
  /** What a string flag expects, for messages that say so. */
  expects(flag: string): string;
  /** The long names a mistyped flag is compared with (the command's own, when it is known). */
  suggestFrom: readonly string[];
}

/**
 * A typo of a few characters, and at most half the word (`--prot` is --port, not --rps); beyond that a
 * suggestion is a guess.
 */
/**
 * Flags people bring from other tools (Schemathesis, Prism, Dredd, pytest), far from ours in spelling but the same
 * in meaning: `--exclude` is our `--skip`, whatever its edit distance.
 */
const SYNONYMS: Readonly<Record<string, string>> = {
  exclude: 'skip',
  'exclude-path': 'skip',
  'exclude-operation-id': 'skip',
  'exclude-tag': 'skip',
  include: 'only',
  'include-path': 'only',
  'include-operation-id': 'only',
  'include-tag': 'only',
  url: 'base-url',
  'base-path': 'api-root',
  'hypothesis-seed': 'seed',
  'max-examples': 'runs',
  'request-timeout': 'timeout-ms',
  'junit-xml': 'format',
  report: 'format',
  'rate-limit': 'rps',
};

export function suggestion(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0 || word === '') return undefined;
  const synonym = SYNONYMS[word.toLowerCase()];
  if (synonym !== undefined && candidates.includes(synonym)) return synonym;
  const best = closest(word, [...candidates]);
  return distance(word, best) <= Math.min(3, Math.max(1, Math.floor(word.length / 2))) ? best : undefined;
}

export function tokenize(argv: readonly string[], specs: Readonly<Record<string, FlagSpec>>, o: TokenizeOptions): Tokenized {
  const { tokens } = parseArgs({ args: [...argv], options: specs, allowPositionals: true, strict: false, tokens: true });
  const values: FlagValues = {};
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    if (t.kind !== 'option') continue;
    const spec = specs[t.name];
    if (spec === undefined) {
      const guess = t.rawName.startsWith('--') ? suggestion(t.name, o.suggestFrom) : undefined;
      throw new UsageError(`unknown flag ${t.rawName}${guess ? ` (did you mean --${guess}?)` : ''}`);
    }
    // `-u (--base-url)`: a short flag is named with its long form, which the help lists.
    const label = t.rawName.startsWith('--') ? t.rawName : `${t.rawName} (--${t.name})`;
    if (spec.type === 'boolean') {
      if (t.inlineValue) throw new UsageError(`${label} takes no value`, t.name);
      values[t.name] = true;
      continue;
    }
    if (t.value === undefined) throw new UsageError(`${label} expects ${o.expects(t.name)}, got nothing`, t.name);
    if (!t.inlineValue && t.value.startsWith('-') && t.value !== '-') {
      throw new UsageError(`${label} expects ${o.expects(t.name)}, got another flag (${t.value}); write --${t.name}=VALUE for a value that starts with -`, t.name);
    }
    if (spec.multiple) values[t.name] = [...((values[t.name] as string[] | undefined) ?? []), t.value];
    else values[t.name] = t.value;
  }
  return { values, positionals };
}
