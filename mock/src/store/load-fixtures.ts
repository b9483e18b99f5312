// Loads and checks a fixture directory (calendar.json, addons.json, users.json) or a state file.
// Every problem becomes a FixtureError naming the file, the JSON pointer and the expectation,
// because the people who hit these errors are editing those files by hand.

import { readFile as nodeReadFile } from 'node:fs/promises';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import schema from '../../../fixtures/schema.json' with { type: 'json' };
import { FixtureError, type FixtureIssue } from './fixture-error.ts';
import { checkIntegrity, minimumSequences, type PartLocator } from './integrity.ts';
import { parseJsonText } from './json-text.ts';
import { FIXTURE_FILES, type FixtureSet, type Sequences, type StoreData } from './model.ts';

export { FixtureError, type FixtureIssue } from './fixture-error.ts';

/** The one fs function loading needs; tests pass an in-memory one. */
export interface ReadFs {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
}

export const nodeReadFs: ReadFs = { readFile: (path, encoding) => nodeReadFile(path, encoding) };

/** Definitions of fixtures/schema.json that describe a whole file. */
type FileDef = 'calendarFile' | 'addonsFile' | 'usersFile' | 'stateFile';
/** Definitions of single records and settings objects, used by the store to check each write. */
export type RecordDef =
  | 'event' | 'venue' | 'organizer' | 'category' | 'tag' | 'importJob' | 'calendarSettings'
  | 'contactForm' | 'feedback' | 'seoModules' | 'seoMode' | 'seoRedirection' | 'seoObject' | 'trackedKeyword' | 'jsonObject'
  | 'pbTheme' | 'pbPlugin' | 'pbLog' | 'pbConnection' | 'lmsUser' | 'lmsToken'
  | 'translationString' | 'stringPackage' | 'translationJob' | 'translationSettings' | 'ams' | 'slider' | 'user';
type DefName = FileDef | RecordDef;

let ajvInstance: InstanceType<typeof Ajv2020Module.default> | undefined;
const validators = new Map<DefName, ValidateFunction>();

// Compiling takes tens of milliseconds per definition and validators are pure, so compile once and share.
function validatorFor(name: DefName): ValidateFunction {
  const cached = validators.get(name);
  if (cached) return cached;
  if (!ajvInstance) {
    // ajv is CommonJS; under NodeNext the default import is module.exports, whose `.default` is the class.
    ajvInstance = new Ajv2020Module.default({ allErrors: true, verbose: true, strict: true });
    addFormatsModule.default(ajvInstance, ['email', 'uri', 'uuid']);
    ajvInstance.addSchema(schema);
  }
  const v = ajvInstance.getSchema(`${schema.$id}#/$defs/${name}`);
  if (!v) throw new Error(`fixtures/schema.json has no $defs/${name}`);
  validators.set(name, v);
  return v;
}

/** Problems of one record against its definition, as "<pointer> must ..." lines; empty when valid. */
export function recordProblems(def: RecordDef, value: unknown): string[] {
  return schemaIssues(def, value, '').map((i) => `${i.pointer === '' ? '(record)' : i.pointer} ${i.message}`);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** One ajv error -> "must ..." text, preferring the schema's own description of what is expected. */
function explain(error: ErrorObject): string {
  const description = typeof error.parentSchema?.description === 'string' ? error.parentSchema.description : undefined;
  const got = `, got ${describeValue(error.data)}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `must have property '${String(params.missingProperty)}'`;
    case 'additionalProperties':
      return `has unknown property '${String(params.additionalProperty)}'`;
    case 'unevaluatedProperties':
      return `has unknown property '${String(params.unevaluatedProperty)}'`;
    case 'type':
      return `must be ${String(params.type)}, got ${typeName(error.data)} ${describeValue(error.data)}`;
    case 'pattern':
      // Descriptions that are templates (YYYY-...) read as "match", prose ones as "be".
      if (description) return `must ${/^[A-Z]{2}/.test(description) ? 'match' : 'be'} ${description}${got}`;
      return `must match pattern ${String(params.pattern)}${got}`;
    case 'enum':
    case 'const':
    case 'format':
    case 'anyOf':
    case 'oneOf':
      if (description) return `must be ${description}${got}`;
      if (error.keyword === 'enum') return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}${got}`;
      if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}${got}`;
      if (error.keyword === 'format') return `must be a valid ${String(params.format)}${got}`;
      return `must match one of the allowed shapes${got}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${error.message ?? 'is out of range'}${got}`;
    case 'minLength':
      return params.limit === 1 ? `must not be empty${got}` : `must have at least ${String(params.limit)} characters${got}`;
    case 'maxLength':
      return `must have at most ${String(params.limit)} characters (has ${typeof error.data === 'string' ? error.data.length : '?'})`;
    case 'minItems':
      return `must have at least ${String(params.limit)} items`;
    case 'uniqueItems':
      return `must not repeat items (items ${String(params.j)} and ${String(params.i)} are equal)`;
    default:
      return `${error.message ?? 'is invalid'}${got}`;
  }
}

/**
 * ajv reports an anyOf failure plus one error per branch; the branch errors only confuse, so keep
 * the anyOf one (it carries the description). Also drop errors that the same path reports twice.
 */
function simplify(errors: readonly ErrorObject[]): ErrorObject[] {
  const umbrellas = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  for (const e of errors) {
    const underUmbrella = umbrellas.some(
      (u) => u !== e && e.instancePath.startsWith(u.instancePath) && e.schemaPath.startsWith(u.schemaPath.replace(/\/(anyOf|oneOf)$/, '/')),
    );
    if (underUmbrella) continue;
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

/** Schema check of one parsed document or record; pointers are relative to `value`. */
export function schemaIssues(def: DefName, value: unknown, file: string): FixtureIssue[] {
  const validate = validatorFor(def);
  if (validate(value)) return [];
  const issues: FixtureIssue[] = [];
  const missing = new Map<string, string[]>();
  for (const e of simplify(validate.errors ?? [])) {
    if (e.keyword !== 'required') {
      issues.push({ file, pointer: e.instancePath, message: explain(e) });
      continue;
    }
    // One line per object listing every missing property reads better than one line each.
    const names = missing.get(e.instancePath);
    const name = String((e.params as { missingProperty?: unknown }).missingProperty);
    if (names) names.push(name);
    else {
      missing.set(e.instancePath, [name]);
      issues.push({ file, pointer: e.instancePath, message: '' });
    }
  }
  for (const issue of issues) {
    const names = issue.message === '' ? missing.get(issue.pointer ?? '') : undefined;
    if (names) issue.message = `must have ${names.length === 1 ? 'property' : 'properties'} ${names.map((n) => `'${n}'`).join(', ')}`;
  }
  return issues;
}

function parseOrIssue(text: string, file: string): { value: unknown } | FixtureIssue {
  const parsed = parseJsonText(text);
  if (parsed.ok) return { value: parsed.value };
  const { line, column, message } = parsed.problem;
  return { file, line, column, message: `invalid JSON: ${message}` };
}

export function unreadable(file: string, error: unknown): FixtureIssue {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot read file (${error instanceof Error ? error.message : String(error)})`;
  return { file, message: reason };
}

const DEF_OF: Record<keyof FixtureSet, FileDef> = { calendar: 'calendarFile', addons: 'addonsFile', users: 'usersFile' };

/**
 * Checks the texts of the three fixture files. `files` maps each part to the name used in messages.
 * Throws FixtureError (kind: syntax, schema or integrity) on the first stage that finds problems,
 * with every problem of that stage across all files.
 */
export function parseFixtureTexts(texts: Record<keyof FixtureSet, string>, files: Record<keyof FixtureSet, string>): FixtureSet {
  const parts = Object.keys(DEF_OF) as (keyof FixtureSet)[];
  const values: Partial<Record<keyof FixtureSet, unknown>> = {};
  const syntax: FixtureIssue[] = [];
  for (const part of parts) {
    const r = parseOrIssue(texts[part], files[part]);
    if ('value' in r) values[part] = r.value;
    else syntax.push(r);
  }
  if (syntax.length) throw new FixtureError('syntax', syntax);
  const invalid = parts.flatMap((part) => schemaIssues(DEF_OF[part], values[part], files[part]));
  if (invalid.length) throw new FixtureError('schema', invalid);
  // The schema has just vouched for the shapes.
  const set = values as FixtureSet;
  const locator = Object.fromEntries(parts.map((p) => [p, { file: files[p], prefix: '' }])) as PartLocator;
  const broken = checkIntegrity(set, locator);
  if (broken.length) throw new FixtureError('integrity', broken);
  return set;
}

/** Reads `dir`/calendar.json, addons.json and users.json and checks them (see parseFixtureTexts). */
export async function loadFixtures(dir: string, fs: ReadFs = nodeReadFs): Promise<FixtureSet> {
  const parts = Object.keys(FIXTURE_FILES) as (keyof FixtureSet)[];
  const files = Object.fromEntries(parts.map((p) => [p, join(dir, FIXTURE_FILES[p])])) as Record<keyof FixtureSet, string>;
  const texts: Partial<Record<keyof FixtureSet, string>> = {};
  const failures: FixtureIssue[] = [];
  await Promise.all(
    parts.map(async (p) => {
      try {
        texts[p] = await fs.readFile(files[p], 'utf8');
      } catch (e) {
        failures.push(unreadable(files[p], e));
      }
    }),
  );
  if (failures.length) {
    failures.sort((a, b) => a.file.localeCompare(b.file));
    throw new FixtureError('unreadable', failures);
  }
  return parseFixtureTexts(texts as Record<keyof FixtureSet, string>, files);
}

/** Checks the text of a state file (the store's whole state, see persist.ts); `file` names it in messages. */
export function parseStateText(text: string, file: string): StoreData {
  const r = parseOrIssue(text, file);
  if (!('value' in r)) throw new FixtureError('syntax', [r]);
  const invalid = schemaIssues('stateFile', r.value, file);
  if (invalid.length) throw new FixtureError('schema', invalid);
  // Shape vouched for by the schema.
  const data = r.value as StoreData & { savedAt?: string };
  const broken = checkIntegrity(data, {
    calendar: { file, prefix: '/calendar' },
    addons: { file, prefix: '/addons' },
    users: { file, prefix: '/users' },
  });
  const floor = minimumSequences(data);
  for (const [name, min] of Object.entries(floor) as [keyof Sequences, number][]) {
    if (data.sequences[name] < min) {
      broken.push({ file, pointer: `/sequences/${name}`, message: `must be at least ${min} (one past the highest ID in use), got ${data.sequences[name]}` });
    }
  }
  if (broken.length) throw new FixtureError('integrity', broken);
  const { savedAt: _savedAt, ...state } = data;
  return state;
}
