// Checks of fixture data against fixtures/schema.json (and, for whole fixture sets, their integrity), on values
// already parsed. No file access: the store checks every write with recordProblems(), and the mock's browser entry
// checks the fixtures it is given; load-fixtures.ts adds reading and parsing the files.

import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import schema from '../../../fixtures/schema.json' with { type: 'json' };
import { FixtureError, type FixtureIssue } from './fixture-error.ts';
import { checkIntegrity, type PartLocator } from './integrity.ts';
import type { FixtureSet } from './model.ts';

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

const DEF_OF: Record<keyof FixtureSet, FileDef> = { calendar: 'calendarFile', addons: 'addonsFile', users: 'usersFile' };

/**
 * Checks the parsed values of the three fixture files: every schema problem across all files, or else every
 * integrity problem, as a FixtureError (kind: schema or integrity). `files` maps each part to the name used in messages.
 */
export function checkFixtureSet(values: Record<keyof FixtureSet, unknown>, files: Record<keyof FixtureSet, string>): FixtureSet {
  const parts = Object.keys(DEF_OF) as (keyof FixtureSet)[];
  const invalid = parts.flatMap((part) => schemaIssues(DEF_OF[part], values[part], files[part]));
  if (invalid.length) throw new FixtureError('schema', invalid);
  // The schema has just vouched for the shapes.
  const set = values as FixtureSet;
  const locator = Object.fromEntries(parts.map((p) => [p, { file: files[p], prefix: '' }])) as PartLocator;
  const broken = checkIntegrity(set, locator);
  if (broken.length) throw new FixtureError('integrity', broken);
  return set;
}
