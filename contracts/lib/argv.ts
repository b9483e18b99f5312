// The command line split into flags and arguments, for both of the package's command lines (the mock's and the
// suite's): one tokenizer, so `--flag=value`, `--flag value`, short flags, `--`, repeatable flags and the
// did-you-mean for a mistyped flag behave the same in both. node's parseArgs does the splitting (non-strict, with
// tokens); every refusal is decided and worded here, so a mistyped flag gets "unknown flag --prot (did you mean
// --port?)" instead of node's text about positionals. Each command line keeps its own error class and exit code:
// the refusal is built by the `error` it passes in.
import { parseArgs } from 'node:util';
import { closest, distance } from 'fastest-levenshtein';

export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** Given more than once, every value is kept (in order); otherwise the last one counts. */
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
  /** The refusal, as the command line's own error (which sets its exit code); `flag` is the flag refused, if one is. */
  error(message: string, flag?: string): Error;
  /** The long names a mistyped flag is compared with (default: every flag of `specs`). */
  suggestFrom?: readonly string[];
  /** Flags people bring from other tools, far from ours in spelling but the same in meaning: theirs → ours. */
  synonyms?: Readonly<Record<string, string>>;
  /** A word after a short flag's long name, for a short flag that means something else elsewhere (`-h`). */
  shortNotes?: Readonly<Record<string, string>>;
}

/**
 * The flag meant by a mistyped `word`: a synonym from another tool, else a typo of a few characters and at most half
 * the word (`--prot` is --port, not --rps); beyond that a suggestion is a guess.
 */
export function suggestion(word: string, candidates: readonly string[], synonyms: Readonly<Record<string, string>> = {}): string | undefined {
  if (candidates.length === 0 || word === '') return undefined;
  const synonym = synonyms[word.toLowerCase()];
  if (synonym !== undefined && candidates.includes(synonym)) return synonym;
  const best = closest(word, [...candidates]);
  return distance(word, best) <= Math.min(3, Math.max(1, Math.floor(word.length / 2))) ? best : undefined;
}

/** The positional words of a command line, read leniently (unknown flags pass): to find the command before the strict read. */
export function positionalsOf(argv: readonly string[], specs: Readonly<Record<string, FlagSpec>>): string[] {
  return parseArgs({ args: [...argv], options: specs, allowPositionals: true, strict: false }).positionals;
}

export function tokenize(argv: readonly string[], specs: Readonly<Record<string, FlagSpec>>, o: TokenizeOptions): Tokenized {
  const { tokens } = parseArgs({ args: [...argv], options: specs, allowPositionals: true, strict: false, tokens: true });
  const values: FlagValues = {};
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    if (t.kind !== 'option') continue;
    const spec = Object.hasOwn(specs, t.name) ? specs[t.name] : undefined;
    if (spec === undefined) {
      const guess = t.rawName.startsWith('--') ? suggestion(t.name, o.suggestFrom ?? Object.keys(specs), o.synonyms) : undefined;
      throw o.error(`unknown flag ${t.rawName}${guess ? ` (did you mean --${guess}?)` : ''}`);
    }
    // `-p (--port)`: a short flag is named with its long form, which the help lists.
    const note = t.rawName.startsWith('--') ? undefined : o.shortNotes?.[t.rawName.slice(1)];
    const label = t.rawName.startsWith('--') ? t.rawName : `${t.rawName} (--${t.name}${note ? `, ${note}` : ''})`;
    if (spec.type === 'boolean') {
      if (t.inlineValue) throw o.error(`${label} takes no value`, t.name);
      values[t.name] = true;
      continue;
    }
    if (t.value === undefined) throw o.error(`${label} expects ${o.expects(t.name)}, got nothing`, t.name);
    if (!t.inlineValue && t.value.startsWith('-') && t.value !== '-') {
      throw o.error(`${label} expects ${o.expects(t.name)}, got another flag (${t.value}); write --${t.name}=VALUE for a value that starts with -`, t.name);
    }
    if (spec.multiple) values[t.name] = [...((values[t.name] as string[] | undefined) ?? []), t.value];
    else values[t.name] = t.value;
  }
  return { values, positionals };
}
