// Turns the per-namespace sources (spec/base.yaml + spec/paths/*.yaml) into one OpenAPI 3.1 document.
// Pure: text in, document out. The shorthands it expands are listed in contracts/README.md; expanding them
// here keeps the sources short enough to review against the documents line by line.
import { parse } from 'yaml';
import type { Gap, JsonSchema } from './types.ts';

interface SourceFile {
  name: string;
  text: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Gaps every operation has, because the documents say so once for all endpoints. */
const PER_OPERATION_GAPS: Gap[] = [
  { kind: 'response-payload', note: 'The response payload is not shown.', source: '000 §4; 001 §4' },
  {
    kind: 'error-codes',
    note: 'Error codes, HTTP status codes and the error payload are not shown.',
    source: '000 §7',
  },
  {
    kind: 'auth',
    note: 'Whether this route is public or needs credentials, and the permission needed, is not shown.',
    source: '000 §5; 001 §5',
  },
];

const DAGGER_GAP: Gap = {
  kind: 'parameters-not-shown',
  note: 'A † route: parameters beyond i18n_language are not shown.',
  source: '001 §4.3–4.8',
};

class BundleError extends Error {}

function parseYaml(file: SourceFile): JsonSchema {
  try {
    return parse(file.text, { merge: true, maxAliasCount: -1 }) as JsonSchema;
  } catch (e) {
    throw new BundleError(`${file.name}: not valid YAML: ${(e as Error).message}`);
  }
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** `GET /cal/v1/events/{id}` → `getCalV1EventsById`: stable, readable, unique per method + path. */
function operationIdFor(method: string, path: string): string {
  if (path === '/') return `${method}Root`;
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => {
      const m = /^\{(.+)\}$/.exec(seg);
      const parts = (m ? `by ${m[1]}` : seg).split(/[^A-Za-z0-9]+/).filter(Boolean);
      return parts;
    });
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function namespaceOf(path: string, namespaces: readonly string[]): string {
  let best = '';
  for (const ns of namespaces) {
    if (!ns) continue;
    if ((path === `/${ns}` || path.startsWith(`/${ns}/`)) && ns.length > best.length) best = ns;
  }
  return best;
}

function ref(name: string, kind = 'schemas'): JsonSchema {
  return { $ref: `#/components/${kind}/${name}` };
}

function jsonContent(schema: JsonSchema): JsonSchema {
  return { 'application/json': { schema } };
}

/** Responses by what the operation does: statuses and headers are WordPress convention, record shapes assumed. */
function responsesFor(op: JsonSchema): JsonSchema {
  const kind: string = op['x-kind'];
  const record: JsonSchema = op['x-record'] ? { $ref: op['x-record'] } : ref('AnyJson');
  const out: JsonSchema = {};
  switch (kind) {
    case 'root':
      out['200'] = { description: 'The site descriptor.', 'x-basis': 'documented', content: jsonContent(ref('SiteDescriptor')) };
      break;
    case 'index':
      out['200'] = { description: 'The namespace index.', 'x-basis': 'convention', content: jsonContent(ref('NamespaceIndex')) };
      break;
    case 'list':
      out['200'] = {
        description: 'One page of records.',
        'x-basis': 'convention',
        headers: { 'X-WP-Total': ref('X-WP-Total', 'headers'), 'X-WP-TotalPages': ref('X-WP-TotalPages', 'headers'), Link: ref('Link', 'headers') },
        // The documents show no list envelope ("envelope of returned records and lists: not shown", 000 §2; "the
        // response payload of every endpoint: not shown", 001 §4): an array is what WordPress's own controllers
        // send, a plugin may wrap it ({events: [...]}), so the body's shape is assumed while the headers stay convention.
        content: jsonContent({ type: 'array', items: record, 'x-basis': 'assumed' }),
      };
      break;
    case 'read':
      out['200'] = { description: 'The record.', 'x-basis': 'convention', content: jsonContent(record) };
      out['404'] = ref('NotFound', 'responses');
      break;
    case 'create':
      out['201'] = {
        description: 'The created record.',
        'x-basis': 'convention',
        headers: { Location: ref('Location', 'headers') },
        content: jsonContent(record),
      };
      break;
    case 'update':
      out['200'] = { description: 'The updated record.', 'x-basis': 'convention', content: jsonContent(record) };
      out['404'] = ref('NotFound', 'responses');
      break;
    case 'delete':
      out['200'] = {
        description: 'The trashed record, or {deleted, previous} when deleted permanently.',
        'x-basis': 'convention',
        content: jsonContent({ anyOf: [record, ref('DeletedRecord')] }),
      };
      out['404'] = ref('NotFound', 'responses');
      out['410'] = ref('AlreadyTrashed', 'responses');
      break;
    case 'batch':
      out['207'] = { description: 'One enveloped response per request.', 'x-basis': 'convention', content: jsonContent(ref('BatchResponse')) };
      break;
    case 'doc':
    case 'action':
      out['200'] = { description: 'Not shown by the documents.', 'x-basis': 'assumed', content: jsonContent(ref('AnyJson')) };
      break;
    default:
      throw new BundleError(`operation ${op.operationId}: unknown x-kind ${JSON.stringify(kind)}`);
  }
  out['400'] = ref('BadRequest', 'responses');
  out.default = ref('Error', 'responses');
  return out;
}

const SHARED_RESPONSES: JsonSchema = {
  BadRequest: {
    description: 'Invalid or missing parameters (rest_invalid_param, rest_missing_callback_param, rest_invalid_json).',
    'x-basis': 'convention',
    content: jsonContent(ref('WpError')),
  },
  NotFound: { description: 'No record with that ID or slug.', 'x-basis': 'convention', content: jsonContent(ref('WpError')) },
  AlreadyTrashed: { description: 'The record is already in the trash (rest_already_trashed).', 'x-basis': 'convention', content: jsonContent(ref('WpError')) },
  Error: {
    description: 'Any other error, in WordPress\'s error envelope (401/403 for denied access, 404 rest_no_route).',
    'x-basis': 'convention',
    content: jsonContent(ref('WpError')),
  },
};

function mergeInto(target: JsonSchema, extra: JsonSchema | undefined, what: string, file: string): void {
  for (const [k, v] of Object.entries(extra ?? {})) {
    if (k in target) throw new BundleError(`${file}: ${what} ${k} is defined twice`);
    target[k] = v;
  }
}

function indexNamespaceParam(doc: JsonSchema, ns: string): JsonSchema {
  const shared = doc.components.parameters.indexNamespace as JsonSchema;
  return { ...clone(shared), schema: { ...clone(shared.schema), default: ns } };
}

export function bundle(base: SourceFile, pathFiles: SourceFile[]): JsonSchema {
  const doc = parseYaml(base);
  doc.paths = {};
  doc.tags = [];
  const namespaces: { name: string; source: string; description?: string }[] = [];
  const files = [...pathFiles].sort((a, b) => a.name.localeCompare(b.name));
  const parsed = files.map((f) => ({ file: f, src: parseYaml(f) }));

  for (const { file, src } of parsed) {
    const list: string[] = Array.isArray(src.namespace) ? src.namespace : [src.namespace];
    for (const ns of list) {
      if (typeof ns !== 'string') throw new BundleError(`${file.name}: namespace must be a string or a list of strings`);
      namespaces.push({ name: ns, source: src.source, description: src.description });
    }
    mergeInto(doc.paths, src.paths, 'path', file.name);
    for (const [section, entries] of Object.entries((src.components ?? {}) as JsonSchema)) {
      doc.components[section] ??= {};
      mergeInto(doc.components[section], entries as JsonSchema, `component ${section}`, file.name);
    }
  }
  mergeInto(doc.components.responses ??= {}, SHARED_RESPONSES, 'response', base.name);
  const nsNames = namespaces.map((n) => n.name);
  doc.tags = namespaces.map((n) => ({
    name: n.name === '' ? '(root)' : n.name,
    description: `${n.description ?? ''} Source: ${n.source}.`.trim(),
  }));

  const bodySchemas = new Set<string>();
  const seenIds = new Set<string>();
  for (const [path, rawItem] of Object.entries(doc.paths as JsonSchema)) {
    const item = rawItem as JsonSchema;
    const ns = namespaceOf(path, nsNames);
    for (const method of METHODS) {
      if (!item[method]) continue;
      // Anchors in the sources share one object between methods; each operation needs its own.
      const op: JsonSchema = clone(item[method]);
      op.operationId = operationIdFor(method, path);
      if (seenIds.has(op.operationId)) throw new BundleError(`duplicate operationId ${op.operationId}`);
      seenIds.add(op.operationId);
      op.tags = [ns === '' ? '(root)' : ns];
      op['x-namespace'] = ns;
      // "namespace (default the namespace itself)": one default per index route, so the shared parameter
      // is spelled out here with that route's own default.
      if (op['x-kind'] === 'index') {
        op.parameters = (op.parameters ?? []).map((p: JsonSchema) =>
          p.$ref === '#/components/parameters/indexNamespace' ? indexNamespaceParam(doc, ns) : p,
        );
      }
      op.parameters = [...(op.parameters ?? []), ref('i18n_language', 'parameters')];
      const gaps: Gap[] = [...PER_OPERATION_GAPS];
      if (op['x-dagger']) gaps.push(DAGGER_GAP);
      op['x-gaps'] = [...gaps, ...(op['x-gaps'] ?? [])];
      op.security = [{}, { applicationPasswords: [] }];
      op.responses = responsesFor(op);
      // WordPress gives an arg its schema default only on CREATABLE endpoints (get_endpoint_args_for_item_schema());
      // an update leaves what it is not sent as it was. The body schemas are shared with the creates, so the mark
      // says which of their defaults apply here.
      if (op.requestBody) op['x-defaults-apply'] = op['x-kind'] === 'update' ? 'create' : 'always';
      const body = op.requestBody as JsonSchema | undefined;
      const bodyRef: string | undefined = body?.$ref;
      const content = bodyRef
        ? doc.components.requestBodies?.[bodyRef.split('/').pop()!]?.content
        : body?.content;
      if (body && !content) throw new BundleError(`${op.operationId}: requestBody ${bodyRef} not found`);
      for (const media of Object.values((content ?? {}) as JsonSchema)) {
        const sref: string | undefined = (media as JsonSchema).schema?.$ref;
        if (!sref) throw new BundleError(`${op.operationId}: body schemas must be $refs to components.schemas`);
        bodySchemas.add(sref.split('/').pop()!);
      }
      item[method] = op;
    }
  }
  // Every route accepts i18n_language, so every body does too (as a body field, like any WordPress arg).
  for (const name of bodySchemas) {
    const schema = doc.components.schemas[name];
    if (!schema) throw new BundleError(`body schema ${name} not found`);
    schema.properties ??= {};
    schema.properties.i18n_language ??= ref('I18nLanguage');
  }
  // Every index route now carries its own copy with its own default; the template is not part of the API.
  delete doc.components.parameters.indexNamespace;
  markNullDefaults(doc);
  doc['x-namespaces'] = nsNames;
  return doc;
}

const NULL_DEFAULT: Omit<JsonSchema, 'source'> = {
  kind: 'default-outside-type',
  note: 'Typed, yet the default is shown as null.',
  readings: [{ reading: 'a typed value; null only stands for "not sent"' }, { reading: 'the type admits null' }],
  chosen: 0,
};

/** The node's own constraints with null admitted: its type (and enum) widened by null, its marks and default left out. */
function withNull(node: JsonSchema, types: unknown[]): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) if (!k.startsWith('x-') && k !== 'default' && k !== 'description') out[k] = clone(v);
  out.type = [...types, 'null'];
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  return out;
}

/**
 * The documents give `null` as the default of many typed fields (legacy venues and organizers above all).
 * Each such place gets its mark here, found by rule rather than by hand, so none is missed.
 */
function markNullDefaults(doc: JsonSchema): void {
  const visit = (node: unknown, source: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, source));
    if (node === null || typeof node !== 'object') return;
    const obj = node as JsonSchema;
    const here = typeof obj['x-source'] === 'string' ? obj['x-source'] : source;
    const types: unknown[] = Array.isArray(obj.type) ? obj.type : obj.type === undefined ? [] : [obj.type];
    if ('default' in obj && obj.default === null && types.length > 0 && !types.includes('null')) {
      const marks: JsonSchema[] = (obj['x-contradictions'] ??= []);
      if (!marks.some((m) => m.kind === NULL_DEFAULT.kind)) {
        // The reading widens the type by null and by nothing else: a number for a string is invalid under both.
        const readings = clone(NULL_DEFAULT['readings'] as JsonSchema[]);
        readings[1] = { ...readings[1], schema: withNull(obj, types) };
        marks.push({ ...clone(NULL_DEFAULT), readings, source: here });
      }
    }
    for (const [k, v] of Object.entries(obj)) if (k !== 'x-contradictions' && k !== 'x-gaps') visit(v, here);
  };
  visit(doc.paths, '000 §4; 001 §4');
  visit(doc.components, '000 §2, 001 §4');
}
