// The config file: the flags a project always gives, kept beside its code so CI and every developer run the
// suite the same way. `site-contracts.config.json` (or `.yaml`, `.yml`) in the working directory, or
// `--config FILE`, or the `site-contracts` key of package.json; one section per command, keyed by the flags'
// long names (a file that does not parse is reported with the line and column of the mistake):
//
//   { "test": { "base-url": "https://staging.example.org", "only": ["cal/v1"], "max-failures": 20 },
//     "diff": { "base-url": "https://staging.example.org" } }
//
// Read strictly: an unknown section or key, or a value of the wrong type, is a usage error naming the file and
// the key. Config files are committed, so nothing secret goes in one: a secret-looking key, an Authorization
// header or any header whose value is secret is refused with where it belongs instead (an environment variable).
// Flags on the command line override the file's (buildArgs in args.ts); values are checked by the same code as
// the command line's.

import { basename, extname, join } from 'node:path';
import { ALLOWED, COMMANDS, FLAG_SPECS, FLAG_SYNONYMS, NOT_IN_CONFIG, type Command, type ConfigValues, type Flag } from './args.ts';
import { UsageError } from '../errors.ts';
import { parseHeader } from './headers.ts';
import { parseYamlText, YamlTextError } from '../report/yaml-text.ts';
import { suggestion, type FlagValue, type FlagValues } from '../../../contracts/lib/argv.ts';

import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
export const CONFIG_FILE = 'site-contracts.config.json';
/** The default file's other spellings, in YAML. */
const YAML_CONFIG_FILES = ['site-contracts.config.yaml', 'site-contracts.config.yml'];
export const PACKAGE_KEY = 'site-contracts';

/** The flags one command's section gives, and where they came from (for messages and --print-config). */

export interface ConfigFile {
  /** `site-contracts.config.json`, or `package.json "site-contracts"`. */
  source: string;
  data: unknown;
}

interface ConfigIo {
  /** Where the default files are looked for; absent, only --config FILE is read. */
  cwd?: string;
  readFile(path: string): Promise<string>;
}

/** Keys that look like a place for a secret (checked before "unknown key", so the message says where it goes). */
const SECRET_KEY = /pass(word|wd)?|secret|token|credential|api[-_]?key|cookie|nonce|^auth(orization)?$/i;

/**
 * The project's config: `--config FILE` when given (a package.json is read for its "site-contracts" key), else
 * site-contracts.config.json in the working directory, else package.json's "site-contracts" key; none is fine.
 * Both of the last two at once is refused: one of them would be silently ignored.
 */
export async function findConfig(explicit: string | undefined, io: ConfigIo): Promise<ConfigFile | undefined> {
  if (explicit !== undefined) {
    const text = await read(explicit, io, true);
    return basename(explicit) === 'package.json' ? packageSection(explicit, text!, true) : parsed(explicit, text!);
  }
  if (io.cwd === undefined) return undefined;
  const found: { name: string; text: string }[] = [];
  for (const name of [CONFIG_FILE, ...YAML_CONFIG_FILES]) {
    const text = await read(join(io.cwd, name), io, false);
    if (text !== undefined) found.push({ name, text });
  }
  const pkgPath = join(io.cwd, 'package.json');
  const pkgText = await read(pkgPath, io, false);
  const pkg = pkgText === undefined ? undefined : packageSection('package.json', pkgText, false);
  const holders = [...found.map((f) => f.name), ...(pkg ? [`the "${PACKAGE_KEY}" key of package.json`] : [])];
  if (holders.length > 1) {
    const list = `${holders.slice(0, -1).join(', ')} and ${holders.at(-1)!}`;
    throw new UsageError(`${holders.length === 2 ? `both ${list}` : `${list} all`} hold a configuration; keep one of them (or choose with --config FILE)`);
  }
  const own = found[0];
  return own !== undefined ? parsed(own.name, own.text) : pkg;
}

async function read(path: string, io: ConfigIo, required: boolean): Promise<string | undefined> {
  try {
    return await io.readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!required && (code === 'ENOENT' || code === 'ENOTDIR')) return undefined;
    throw new UsageError(`${required ? `--config ${path}` : path}: cannot read it (${code ?? (e as Error).message})`, required ? 'config' : undefined);
  }
}

/** Line and column (1-based) of a character offset, as editors count them. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}

function parseJson(source: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    // V8 names the offset ("at position 37"); at the end of the text when it ran out ("Unexpected end").
    const message = (e as Error).message;
    const at = /at position (\d+)/.exec(message);
    const { line, column } = lineColumn(text, at ? Number(at[1]) : text.length);
    const shown = message.replace(/,? *"(?:[^"\\]|\\.)*" is not valid JSON/, '').replace(/ in JSON at position \d+.*$/, '').replace(/ \(line \d+ column \d+\)$/, '');
    throw new UsageError(`${source}:${line}:${column}: not valid JSON: ${shown} (line ${line}, column ${column}: ${JSON.stringify(text.split('\n')[line - 1]?.trim() ?? '')})`);
  }
}

function parseYaml(source: string, text: string): unknown {
  try {
    return parseYamlText(text);
  } catch (e) {
    if (!(e instanceof YamlTextError)) throw e;
    throw new UsageError(`${source}:${e.line}:${e.column}: ${e.syntax ? 'not valid YAML: ' : ''}${e.reason} (line ${e.line}, column ${e.column})`);
  }
}

const isYaml = (path: string): boolean => ['.yaml', '.yml'].includes(extname(path).toLowerCase());

function parsed(source: string, text: string): ConfigFile {
  return { source, data: isYaml(source) ? parseYaml(source, text) : parseJson(source, text) };
}

function packageSection(path: string, text: string, required: boolean): ConfigFile | undefined {
  const pkg = parseJson(path, text);
  const section = isPlainObject(pkg) ? pkg[PACKAGE_KEY] : undefined;
  if (section === undefined) {
    if (required) throw new UsageError(`--config ${path}: it has no "${PACKAGE_KEY}" key`, 'config');
    return undefined;
  }
  return { source: `${path} "${PACKAGE_KEY}"`, data: section };
}

/**
 * The whole file checked (every section, so a mistake in `diff` is found by `test` too), and the flags of
 * `command`'s section as the command line would give them.
 */
export function configValues(file: ConfigFile, command: Command): ConfigValues {
  const { source, data } = file;
  if (!isPlainObject(data)) throw new UsageError(`${source}: expected an object with a section per command (${COMMANDS.join(', ')}), got ${typeName(data)}`);
  let mine: FlagValues = {};
  for (const [section, body] of Object.entries(data)) {
    if (!(COMMANDS as readonly string[]).includes(section)) {
      const guess = suggestion(section, COMMANDS);
      throw new UsageError(`${source}: unknown section "${section}"${guess ? ` (did you mean "${guess}"?)` : ''}: expected one of ${COMMANDS.join(', ')}, each holding that command's flags`);
    }
    const values = sectionValues(source, section as Command, body);
    if (section === command) mine = values;
  }
  return { source, values: mine };
}

function sectionValues(source: string, command: Command, body: unknown): FlagValues {
  const where = (key: string) => `${source}: "${command}.${key}"`;
  if (!isPlainObject(body)) throw new UsageError(`${source}: section "${command}" must be an object of flags, got ${typeName(body)}`);
  const out: FlagValues = {};
  for (const [key, value] of Object.entries(body)) {
    const flag = key as Flag;
    const known = Object.hasOwn(FLAG_SPECS, key);
    if (!known && SECRET_KEY.test(key)) {
      throw new UsageError(
        `${where(key)} looks like a secret, and a config file is committed and shared: put user:application-password in an environment variable ` +
          `and name it with "auth-env" (SITE_CONTRACTS_AUTH is read when set); a header's secret goes on the command line, -H "Name: $VARIABLE"`,
      );
    }
    if (!known || NOT_IN_CONFIG.has(flag)) {
      const guess = suggestion(key, [...ALLOWED[command]].filter((f) => !NOT_IN_CONFIG.has(f)), FLAG_SYNONYMS);
      throw new UsageError(`${where(key)}: unknown key${guess ? ` (did you mean "${guess}"?)` : ''}; a section holds the long names of ${command}'s flags`);
    }
    if (!ALLOWED[command].has(flag)) {
      const users = COMMANDS.filter((c) => ALLOWED[c].has(flag));
      throw new UsageError(`${where(key)}: ${command} takes no --${key} (it is for ${users.join(', ')})`);
    }
    const v = flagValue(where(key), flag, value);
    if (v === undefined) continue;
    if (flag === 'header') for (const h of v as string[]) refuseSecretHeader(where(key), h);
    out[flag] = v;
  }
  return out;
}

/** What the command line would have given for this flag; false for a boolean is the flag left out. */
function flagValue(where: string, flag: Flag, value: unknown): FlagValue | undefined {
  const spec = FLAG_SPECS[flag];
  if (spec.type === 'boolean') {
    if (typeof value !== 'boolean') throw new UsageError(`${where} expects true or false, got ${typeName(value)}`);
    return value ? true : undefined;
  }
  const scalar = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    throw new UsageError(`${where} expects a string${spec.multiple ? ' or a list of strings' : ''} (or a number), got ${typeName(v)}`);
  };
  if (spec.multiple) return Array.isArray(value) ? value.map(scalar) : [scalar(value)];
  return scalar(value);
}

function refuseSecretHeader(where: string, raw: string): void {
  let h;
  try {
    h = parseHeader(raw);
  } catch (e) {
    throw new UsageError(`${where}: ${(e as Error).message}`);
  }
  if (!h.secret) return;
  throw new UsageError(
    `${where}: ${h.name} holds a secret, and a config file is committed and shared` +
      (h.name.toLowerCase() === 'authorization'
        ? `: WordPress credentials go in an environment variable named with --auth-env (SITE_CONTRACTS_AUTH is read when set)`
        : `: give it on the command line from an environment variable, -H "${h.name}: $${h.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}"`) +
      ` (only headers that never carry a secret, such as Accept-Language, may be in the file)`,
  );
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'string' ? `the string ${JSON.stringify(v)}` : typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/** The config of the command a command line runs: found, read, checked, its section's flags. */
export async function loadConfigFor(line: { command: Command; values: FlagValues }, io: ConfigIo): Promise<ConfigValues | undefined> {
  const explicit = line.values['config'];
  const file = await findConfig(typeof explicit === 'string' ? explicit : undefined, io);
  return file ? configValues(file, line.command) : undefined;
}
