// The catalogue of promises (issue 25 §1): every behaviour a client can observe, one row each, in the YAML files of
// suites/promises/catalogue/, and the inventory those rows must account for (suites/promises/inventory.json,
// extracted from WordPress's PHP and the two documents by scripts/inventory.ts). This module holds their types and
// reads them; coverage.ts judges them. Plain data, read once: nothing here touches the network or the checks.
import { parse } from 'yaml';
import { createAjv } from '../../contracts/lib/ajv.ts';

export const AUDIENCES = ['anonymous', 'low', 'admin'] as const;
type Audience = (typeof AUDIENCES)[number];
export const SEVERITIES = ['documented', 'convention', 'assumed'] as const;
type Severity = (typeof SEVERITIES)[number];
/**
 * Why a row is listed and not judged: `internal` leaves no trace on the wire; `not-applicable` does not reach the
 * documented routes (a code path for hierarchical types, for the post type post...); `outside` is observable but not
 * part of the documented interface (wp/v2 routes, front-end pages); `configuration` depends on a site setting the suite
 * cannot know or set (WP_DEBUG, EMPTY_TRASH_DAYS, a filter); `no-promise` is a sentence of the documents that promises
 * nothing a client could observe (what is not shown, what a document covers); `unsafe` is observable only by doing
 * what the suite must not do to a site it does not own (mail a real person, leave a record it cannot remove).
 */
export const UNOBSERVABLE_KINDS = ['internal', 'not-applicable', 'outside', 'configuration', 'no-promise', 'unsafe'] as const;
type UnobservableKind = (typeof UNOBSERVABLE_KINDS)[number];

/** Where a promise holds: a namespace of the documents, `every route`, or `wp/v2` (WordPress's own, outside them). */
const SCOPES = [
  'every route', 'root', 'batch/v1', 'oembed/1.0', 'cal/v1', 'cal/events/v1', 'cal/views/v2', 'cal/v2/onboarding', 'cal/importer/v1',
  'i18n', 'forms/v1', 'lms/v1', 'sliderrevolution', 'seo', 'pagebuilder-one/v1', 'wp/v2',
] as const;

/** A test that proves a check both ways: a file of the repository and the exact title of one of its it() calls. */
export interface ProvingTest {
  file: string;
  test: string;
}

/**
 * A row's proof: the name of a proving test in suites/promises/proofs.yaml, or, when the test breaks a sibling promise
 * (the same rule on another parameter, route or resource: the check is generated from the contract for each of
 * them, so the sibling proves the mechanism, not this row's data), that name and which sibling.
 */
type Proof = string | { of: string; sibling: string };

interface Row {
  id: string;
  /** A WordPress function (`rest_send_allow_header`, `WP_REST_Server::serve_request`) of the file's source. */
  fn?: string;
  /** A document section (`4.2.1`, `conventions`, `0` for the preamble) and words of one of its units. */
  section?: string;
  quote?: string;
  /** More inventory items the row accounts for: `header:Allow`, `param:_fields`, `fn:other_function`, `other_fn/error:x`. */
  cites?: string[];
  /** Namespaces where the promise holds (WordPress rows; a document row's section says it). */
  where?: string[];
  /** Namespaces where a WordPress row does not hold, and why (a plugin's own controller). */
  notFor?: Record<string, string>;
  who: Audience[];
  /** What a client sends and what it sees. */
  sees: string;
  check?: string;
  /** Other checks that judge the same promise (each counts as judging this row). */
  also?: string[];
  severity?: Severity;
  proof?: Proof;
  /** Checked, but no test breaks this promise at its edge: why. */
  unproven?: string;
  unobservable?: { kind: UnobservableKind; why: string };
  /** No check judges it: the request, comparison and client of the check that would. */
  gap?: string;
  /** The (would-be) check that closes the gap; GAPS.md groups by it. */
  closer?: string;
}

interface CatalogueFile {
  /** `wp:rest-api.php` (a path under wp-includes/, or `wp-admin/...`), or `doc:000`. */
  source: string;
  title: string;
  /** Defaults for the rows of the file. */
  where?: string[];
  notFor?: Record<string, string>;
  rows: Row[];
}

/** A row with its file's defaults applied and its place. */
export interface LoadedRow extends Row {
  source: string;
  file: string;
}

/** One thing the catalogue must account for (scripts/inventory.ts says which kinds there are). */
export interface InventoryItem {
  id: string;
  /** fn, header, param, sets, arg, field, store, input, error, hook, filter, unit. */
  kind: string;
  /** `wp:<path under wp-includes>` (or `wp:wp-admin/...`), or `doc:000`. */
  source: string;
  /** The function, Class::method or hook it is in; for a document unit, its section. */
  where: string;
  name: string;
  line: number;
  text: string;
  /** An error's HTTP status where the code gives one (401/403: rest_authorization_required_code()). */
  status?: string;
}

export interface Inventory {
  wordpress: { version: string; root: string; files: string[] };
  documents: Record<string, { file: string; sha256: string }>;
  counts: Record<string, number>;
  items: InventoryItem[];
}

const string = { type: 'string', minLength: 1 } as const;
const strings = { type: 'array', items: string, minItems: 1, uniqueItems: true } as const;
const ROW_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'who', 'sees'],
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9][a-z0-9._:/-]*$' },
    fn: string,
    section: string,
    quote: string,
    cites: strings,
    where: { type: 'array', items: { enum: SCOPES }, minItems: 1, uniqueItems: true },
    notFor: { type: 'object', additionalProperties: string },
    who: { type: 'array', items: { enum: AUDIENCES }, minItems: 1, uniqueItems: true },
    sees: string,
    check: string,
    also: strings,
    severity: { enum: SEVERITIES },
    proof: {
      oneOf: [
        { type: 'string', minLength: 1 },
        { type: 'object', additionalProperties: false, required: ['of', 'sibling'], properties: { of: string, sibling: string } },
      ],
    },
    unproven: string,
    unobservable: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'why'],
      properties: { kind: { enum: UNOBSERVABLE_KINDS }, why: string },
    },
    gap: string,
    closer: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
  },
  // Exactly one verdict: judged by a check (proven by a test, or saying why not), unobservable with a reason, or a gap.
  // A property given `false` may not be there.
  oneOf: [
    {
      type: 'object',
      required: ['check', 'severity'],
      properties: { check: true, severity: true, unobservable: false, gap: false, closer: false },
      oneOf: [
        { type: 'object', required: ['proof'], properties: { proof: true, unproven: false } },
        { type: 'object', required: ['unproven'], properties: { unproven: true, proof: false } },
      ],
    },
    { type: 'object', required: ['unobservable'], properties: { unobservable: true, check: false, also: false, severity: false, proof: false, unproven: false, gap: false, closer: false } },
    { type: 'object', required: ['gap', 'closer', 'severity'], properties: { gap: true, closer: true, severity: true, check: false, also: false, proof: false, unproven: false, unobservable: false } },
  ],
} as const;

const FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'title', 'rows'],
  properties: {
    source: { type: 'string', pattern: '^(wp:[\\w./-]+\\.php|doc:\\d{3})$' },
    title: string,
    where: ROW_SCHEMA.properties.where,
    notFor: ROW_SCHEMA.properties.notFor,
    /** YAML anchors the rows refer to (`who: *everyone`); read by YAML, ignored here. */
    anchors: {},
    rows: { type: 'array', items: ROW_SCHEMA, minItems: 1 },
  },
} as const;

const validateFile = createAjv().compile<CatalogueFile>(FILE_SCHEMA);

/** The rows of one catalogue file, with the file's defaults applied; throws naming the file and row on a bad one. */
export function parseCatalogueFile(file: string, text: string): LoadedRow[] {
  // The catalogue's own files, committed: rows name their audience by alias (`who: *everyone`), hundreds of times.
  const data: unknown = parse(text, { maxAliasCount: 10_000 });
  if (!validateFile(data)) {
    // A field's own error says most; failing every verdict branch means the verdict itself is wrong.
    const errors = validateFile.errors ?? [];
    const e = errors.find((x) => !x.schemaPath.includes('/oneOf/') && x.keyword !== 'oneOf') ?? errors[0];
    const at = /^\/rows\/(\d+)/.exec(e?.instancePath ?? '');
    const row = at ? (data as { rows: { id?: string }[] }).rows[Number(at[1])]?.id : undefined;
    const verdict = e !== undefined && /\/rows\/items\/oneOf\b/.test(e.schemaPath);
    const what = verdict ? 'needs exactly one verdict: check + severity + (proof or unproven), unobservable {kind, why}, or gap + closer + severity' : `${e?.instancePath ?? ''} ${e?.message ?? 'is not a catalogue file'}`;
    throw new Error(`${file}${row ? ` row ${row}` : ''}: ${what}`);
  }
  return data.rows.map((r) => ({
    ...(data.where && !r.section ? { where: data.where } : {}),
    ...(data.notFor ? { notFor: data.notFor } : {}),
    ...r,
    source: data.source,
    file,
  }));
}

const validateProofs = createAjv({ allErrors: false }).compile<Record<string, ProvingTest>>({
  type: 'object',
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: ['file', 'test'],
    properties: { file: { type: 'string', pattern: '\\.test\\.ts$' }, test: string },
  },
});

/** suites/promises/proofs.yaml: proving tests by name. */
export function parseProofs(text: string): Map<string, ProvingTest> {
  const data: unknown = parse(text);
  if (!validateProofs(data)) throw new Error(`suites/promises/proofs.yaml: ${validateProofs.errors?.[0]?.instancePath ?? ''} ${validateProofs.errors?.[0]?.message ?? 'is not a table of proofs'}`);
  return new Map(Object.entries(data));
}

/** The inventory as committed; the shape is the script's, checked loosely (a test reads every field it uses). */
export function parseInventory(text: string): Inventory {
  const data = JSON.parse(text) as Inventory;
  if (!Array.isArray(data.items) || typeof data.wordpress?.version !== 'string') throw new Error('inventory.json: not an inventory (run suites/promises/scripts/inventory.ts)');
  return data;
}
