// Run by hand, never by a test: npx tsx suites/promises/scripts/inventory.ts [--wordpress DIR] [--seeds DIR]
//
// Writes suites/promises/inventory.json: everything a client can observe that the catalogue of promises must account
// for, extracted mechanically from WordPress 6.1's PHP (as Debian's `wordpress` package installs it under
// /usr/share/wordpress) and from the two interface documents, one item each:
//   fn       every function and method of the REST files, and the named functions of the write and formatting paths
//   header   every header the server sends (header(), send_header(), $response->header(), link_header())
//   param    every request parameter the code reads ($request['x'], get_param, has_param, $_GET, $_SERVER['HTTP_…'])
//   sets     every parameter the server sets on the request itself (set_param: context=edit after a write)
//   arg      every argument a route declares (get_collection_params, register_routes, the server's own routes)
//   field    every answer field the code fills ($data['x'] = …, the literal arrays of the index, envelope, errors…)
//   store    every field prepare_item_for_database() hands to the write ($prepared_post->x, $prepared_term->x)
//   input    every key wp_insert_post()/wp_insert_term() and their update twins read from what they are given
//   error    every WP_Error code, with the status it carries where the code gives one
//   hook     every hook of those filters, and
//   filter   every default callback on the hooks the write and read paths apply (default-filters.php, kses.php)
//   unit     every sentence, bullet and table row of the documents, by section
// The tests read the committed JSON only (suites/promises/promises.test.ts); this script is how it is refreshed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { InventoryItem as Item } from '../catalogue.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const WP = flag('--wordpress', '/usr/share/wordpress');
const SEEDS = flag('--seeds', '/work/shared/seeds');
const OUT = new URL('../inventory.json', import.meta.url).pathname;

/** Every function and method of these files. */
const REST_FILES = [
  'wp-includes/rest-api.php',
  'wp-includes/rest-api/class-wp-rest-server.php',
  'wp-includes/rest-api/class-wp-rest-request.php',
  'wp-includes/rest-api/class-wp-rest-response.php',
  'wp-includes/rest-api/endpoints/class-wp-rest-controller.php',
  'wp-includes/rest-api/endpoints/class-wp-rest-posts-controller.php',
  'wp-includes/rest-api/endpoints/class-wp-rest-terms-controller.php',
  'wp-includes/rest-api/endpoints/class-wp-rest-post-types-controller.php',
];

/** Only the named functions of these: the write paths the controllers call and what they apply to stored text. */
const PATH_FUNCTIONS: Record<string, string[]> = {
  'wp-includes/post.php': [
    'wp_insert_post', 'wp_update_post', 'wp_resolve_post_date', 'wp_unique_post_slug', '_truncate_post_slug', 'wp_trash_post',
    'wp_delete_post', 'sanitize_post', 'sanitize_post_field', 'is_sticky', 'stick_post', 'unstick_post',
    'wp_add_trashed_suffix_to_post_name_for_trashed_posts', 'wp_add_trashed_suffix_to_post_name_for_post', 'wp_after_insert_post',
    'wp_transition_post_status', 'set_post_thumbnail', 'delete_post_thumbnail', 'get_post_status_object', 'get_post_stati',
    'is_post_type_viewable', 'is_post_publicly_viewable', 'wp_check_post_hierarchy_for_loops',
  ],
  'wp-includes/taxonomy.php': [
    'wp_insert_term', 'wp_update_term', 'wp_unique_term_slug', 'term_exists', 'wp_check_term_hierarchy_for_loops', 'wp_delete_term',
    'sanitize_term', 'sanitize_term_field', 'get_term', 'get_terms', 'wp_count_terms', 'wp_set_object_terms', 'get_term_link',
  ],
  'wp-includes/formatting.php': [
    'sanitize_title', 'sanitize_title_with_dashes', 'remove_accents', 'utf8_uri_encode', 'sanitize_text_field', '_sanitize_text_fields',
    'sanitize_textarea_field', 'sanitize_key', 'sanitize_hex_color', 'sanitize_url', 'esc_url', 'wptexturize', 'convert_chars',
    'capital_P_dangit', 'wpautop', 'shortcode_unautop', 'convert_smilies', 'balanceTags', 'force_balance_tags', 'convert_invalid_entities',
    '_wp_specialchars', 'wp_strip_all_tags', 'wp_pre_kses_less_than', 'wp_encode_emoji', 'wp_trim_excerpt', 'wp_trim_words',
    'get_gmt_from_date', 'get_date_from_gmt', 'is_email', 'wp_slash', 'wp_unslash',
  ],
  'wp-includes/kses.php': ['wp_filter_kses', 'wp_filter_post_kses', 'wp_kses', 'kses_init', 'kses_init_filters', 'kses_remove_filters'],
  'wp-includes/functions.php': [
    'wp_check_jsonp_callback', 'wp_get_nocache_headers', 'mysql_to_rfc3339', 'wp_parse_list', 'wp_parse_slug_list', 'wp_json_encode',
    'absint', 'wp_checkdate',
  ],
  'wp-includes/post-template.php': ['get_the_title', 'get_the_content', 'get_the_excerpt', 'post_password_required'],
  'wp-includes/comment.php': ['get_default_comment_status'],
  'wp-includes/post-formats.php': ['get_post_format', 'set_post_format', 'get_post_format_slugs'],
  'wp-includes/link-template.php': ['get_permalink'],
  'wp-admin/includes/post.php': ['get_sample_permalink'],
};

/** The hooks the write and read paths run (their default callbacks are `filter` items). */
const HOOKS = new Set([
  'pre_term_name', 'term_name', 'pre_term_description', 'term_description', 'pre_term_slug', 'pre_post_type', 'pre_post_status',
  'pre_post_comment_status', 'pre_post_ping_status', 'pre_post_guid', 'post_guid', 'content_save_pre', 'excerpt_save_pre',
  'title_save_pre', 'content_filtered_save_pre', 'the_title', 'the_content', 'the_excerpt', 'get_the_excerpt', 'sanitize_title',
  'wp_insert_post_parent', 'wp_update_term_parent', 'pre_kses', 'rest_authentication_errors', 'parse_request', 'rest_api_init', 'init',
  'set_current_user', 'template_redirect', 'wp_head', 'rest_pre_serve_request', 'rest_post_dispatch', 'rest_pre_dispatch', 'rest_index',
  'auth_cookie_malformed', 'auth_cookie_expired', 'auth_cookie_bad_username', 'auth_cookie_bad_hash', 'auth_cookie_valid',
  'application_password_failed_authentication', 'application_password_did_authenticate', 'wp_insert_post_data',
]);
/** Of `init` and the like, only the REST and kses callbacks matter here. */
const HOOK_CALLBACKS = /rest|kses|oembed|wp_filter|sanitize|wptexturize|convert|capital|autop|trim|balance|specialchars|do_blocks|smilies|content_tags|insecure|hierarchy|customize_changeset/;

const items: Item[] = [];
const add = (it: Omit<Item, 'id'>): void => {
  const id = it.kind === 'fn' || it.kind === 'hook' ? `${it.source}#${it.where}` : it.kind === 'unit' ? `${it.source}§${it.where}/${it.name}` : `${it.source}#${it.where}/${it.kind}:${it.name}`;
  if (items.some((x) => x.id === id)) return; // one item per thing, however often the code names it
  items.push({ id, ...it });
};

// ---------------------------------------------------------------------------------------------------------------
// PHP: comments blanked (offsets and lines kept), functions and methods found with their bodies.

function blankComments(src: string): string {
  const out = src.split('');
  let i = 0;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else if (c === '/' && src[i + 1] === '/') {
      const end = src.indexOf('\n', i);
      blank(i, end < 0 ? src.length : end);
      i = end < 0 ? src.length : end;
    } else if (c === '#' && src[i + 1] !== '[') {
      const end = src.indexOf('\n', i);
      blank(i, end < 0 ? src.length : end);
      i = end < 0 ? src.length : end;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      blank(i, end < 0 ? src.length : end + 2);
      i = end < 0 ? src.length : end + 2;
    } else i++;
  }
  return out.join('');
}

/** The offset of the brace closing the one at `open` (strings skipped; comments are blank already). */
function closing(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return code.length;
}

interface Fn {
  name: string;
  body: string;
  /** Offset of the body in the file. */
  at: number;
}

function functionsOf(code: string): Fn[] {
  const classes: { name: string; from: number; to: number }[] = [];
  for (const m of code.matchAll(/^\s*(?:abstract\s+|final\s+)?class\s+(\w+)[^{]*\{/gm)) {
    const open = m.index! + m[0].length - 1;
    classes.push({ name: m[1]!, from: open, to: closing(code, open) });
  }
  const fns: Fn[] = [];
  for (const m of code.matchAll(/^[\t ]*(?:(?:public|protected|private|static|final|abstract)\s+)*function\s+&?(\w+)\s*\(/gm)) {
    const open = code.indexOf('{', m.index! + m[0].length);
    const semi = code.indexOf(';', m.index! + m[0].length);
    if (open < 0 || (semi >= 0 && semi < open)) continue; // abstract declaration
    const cls = classes.find((c) => m.index! > c.from && m.index! < c.to);
    const end = closing(code, open);
    fns.push({ name: cls ? `${cls.name}::${m[1]}` : m[1]!, body: code.slice(open, end + 1), at: open });
  }
  return fns;
}

const lineAt = (code: string, offset: number): number => code.slice(0, offset).split('\n').length;
const squeeze = (s: string): string => s.replace(/\s+/g, ' ').trim().slice(0, 200);
/** `$request[ $base . '_exclude' ]` → `{$base}_exclude`. */
const keyOf = (raw: string): string =>
  raw
    .trim()
    .split(/\s*\.\s*/)
    .map((p) => (/^'.*'$/.test(p) ? p.slice(1, -1) : `{${p}}`))
    .join('');

const STATUS = /'status'\s*=>\s*(\d{3}|rest_authorization_required_code\(\)|WP_Http::\w+)/;

function extractPhp(file: string, only?: readonly string[]): void {
  const src = readFileSync(join(WP, file), 'utf8');
  const code = blankComments(src);
  const source = `wp:${file.replace(/^wp-includes\//, '')}`;
  const fns = functionsOf(code);
  if (only) {
    const missing = only.filter((n) => !fns.some((f) => f.name === n));
    if (missing.length) throw new Error(`${file}: no function ${missing.join(', ')}`);
  }
  for (const fn of fns) {
    if (only && !only.includes(fn.name)) continue;
    const line = (rel: number): number => lineAt(code, fn.at + rel);
    const text = (rel: number): string => squeeze(src.slice(fn.at + rel).split('\n')[0]!);
    const base = { source, where: fn.name };
    const signature = src.slice(src.lastIndexOf('function', fn.at), fn.at).replace(/\s+/g, ' ').trim();
    add({ ...base, kind: 'fn', name: fn.name, line: line(0), text: squeeze(signature) });
    const b = fn.body;
    type Make = (m: RegExpMatchArray) => Omit<Item, 'id' | 'source' | 'where' | 'line' | 'text'> | undefined;
    const eachIn = (body: string, re: RegExp, make: Make): void => {
      for (const m of body.matchAll(re)) {
        const it = make(m);
        if (it) add({ ...base, ...it, line: line(m.index!), text: text(m.index!) });
      }
    };
    const each = (re: RegExp, make: Make): void => eachIn(b, re, make);
    // Headers.
    each(/\bheader\(\s*(?:sprintf\(\s*)?'([\w-]+):/g, (m) => ({ kind: 'header', name: m[1]! }));
    each(/->(?:send_)?header\(\s*'([\w-]+)'/g, (m) => ({ kind: 'header', name: m[1]! }));
    each(/->link_header\(\s*'([\w-]+)'/g, (m) => ({ kind: 'header', name: `Link;rel=${m[1]}` }));
    each(/\bwp_get_nocache_headers\(\)/g, () => ({ kind: 'header', name: 'Cache-Control' }));
    // Parameters read from the request, and the ones the server sets itself.
    each(/\$(?:request|batch_request|clean_request|single_request)\[\s*([^\]]+?)\s*\]/g, (m) => (/^\$offset$/.test(m[1]!) ? undefined : { kind: 'param', name: keyOf(m[1]!) }));
    each(/\$(?:request|this)->(?:get_param|has_param)\(\s*([^)]+?)\s*\)/g, (m) => (/^\$(key|offset)$/.test(m[1]!) ? undefined : { kind: 'param', name: keyOf(m[1]!) }));
    each(/\$request->set_param\(\s*'(\w+)'/g, (m) => ({ kind: 'sets', name: m[1]! }));
    each(/\$_(GET|REQUEST)\[\s*'(\w+)'\s*\]/g, (m) => ({ kind: 'param', name: m[2]! }));
    each(/\$_SERVER\[\s*'(HTTP_\w+|REQUEST_METHOD|PATH_INFO|REDIRECT_HTTP_AUTHORIZATION)'\s*\]/g, (m) => ({ kind: 'param', name: `$_SERVER[${m[1]}]` }));
    if (/serve_batch_request_v1$/.test(fn.name)) each(/\$args\[\s*'(\w+)'\s*\]/g, (m) => ({ kind: 'param', name: `requests[].${m[1]}` }));
    // Arguments the routes declare.
    if (/get_collection_params$|register_routes$|WP_REST_Server::__construct$|WP_REST_Server::register_route$|prepare_taxonomy_limit_schema$/.test(fn.name)) {
      each(/\$query_params\[\s*([^\]]+?)\s*\](?:\[\s*'(\w+)'\s*\])?\s*=/g, (m) => ({ kind: 'arg', name: keyOf(m[1]!) }));
      each(/'(\w+)'\s*=>\s*(?:array\(|\$this->get_context_param|\$get_item_args|\$this->get_collection_params|\$this->get_endpoint_args_for_item_schema)/g, (m) =>
        NOT_ARGS.has(m[1]!) ? undefined : { kind: 'arg', name: m[1]! },
      );
      each(/\$get_item_args\[\s*'(\w+)'\s*\]\s*=/g, (m) => ({ kind: 'arg', name: m[1]! }));
    }
    // Fields of the answer.
    if (source.startsWith('wp:rest-api')) each(/\$(?:data|endpoint_data|response->data|formatted)\[\s*([^\]]+?)\s*\]((?:\s*\[\s*'\w+'\s*\])*)\s*=[^=>]/g, (m) => ({
      kind: 'field',
      name: [keyOf(m[1]!), ...[...(m[2] ?? '').matchAll(/'(\w+)'/g)].map((k) => k[1]!)].join('.'),
    }));
    if (FIELD_LITERALS.test(fn.name)) eachIn(withoutErrors(b), /'(\w+)'\s*=>/g, (m) => (NOT_FIELDS.has(m[1]!) ? undefined : { kind: 'field', name: m[1]! }));
    // What prepare_item_for_database() hands to the write, and what the write functions read.
    each(/\$prepared_(?:post|term)->(\w+)\s*=[^=]/g, (m) => ({ kind: 'store', name: m[1]! }));
    if (/^wp_(insert|update)_(post|term)$/.test(fn.name)) each(/\$(?:postarr|args|parsed_args)\[\s*'(\w+)'\s*\]/g, (m) => ({ kind: 'input', name: m[1]! }));
    // Errors, with the status they carry where it is written beside the code.
    each(/new WP_Error\(\s*'([\w-]+)'/g, (m) => {
      const near = b.slice(m.index!, m.index! + 600);
      const end = near.search(/\)\s*;/);
      const s = STATUS.exec(end >= 0 ? near.slice(0, end) : near);
      return { kind: 'error', name: m[1]!, ...(s ? { status: s[1]!.replace('rest_authorization_required_code()', '401/403') } : {}) };
    });
    each(/->(?:json_error)\(\s*'([\w-]+)'[^;]*?(\d{3})\s*\)/g, (m) => ({ kind: 'error', name: m[1]!, status: m[2]! }));
  }
}

/** Keys of a route registration that are not arguments. */
const NOT_ARGS = new Set(['args', 'items', 'properties', 'additionalProperties', 'oneOf', 'anyOf', 'endpoints', 'methods', 'schema', 'allow_batch', 'callback', 'permission_callback', 'sanitize_callback', 'validate_callback', 'enum', 'type', 'default']);
/** Functions whose literal arrays are the answer (or a part of it). */
const FIELD_LITERALS = /WP_REST_Server::(get_index|get_namespace_index|envelope_response|get_data_for_route|serve_batch_request_v1)$|^rest_convert_error_to_response$|::delete_item$|^rest_add_application_passwords_to_index$/;
const NOT_FIELDS = new Set(['embeddable', 'type']);
/** The body with each `new WP_Error( … );` blanked (same length), so an error's data is not read as the answer's fields. */
const withoutErrors = (body: string): string => body.replace(/new WP_Error\([\s\S]*?\)\s*;/g, (m) => m.replace(/[^\n]/g, ' '));

function extractFilters(): void {
  for (const file of ['wp-includes/default-filters.php', 'wp-includes/kses.php']) {
    const src = readFileSync(join(WP, file), 'utf8');
    const code = blankComments(src);
    const source = `wp:${file.replace(/^wp-includes\//, '')}`;
    const record = (hook: string, cb: string, at: number): void => {
      if (!HOOKS.has(hook)) return;
      if (['init', 'set_current_user', 'template_redirect', 'wp_head', 'parse_request', 'rest_api_init', 'wp_insert_post_data'].includes(hook) && !HOOK_CALLBACKS.test(cb)) return;
      // The hook itself is an item too, so a row can be about a hook (`fn: the_title`) and cite its callbacks.
      add({ source, where: hook, kind: 'hook', name: hook, line: lineAt(code, at), text: `the ${hook} hook` });
      add({ source, where: hook, kind: 'filter', name: cb, line: lineAt(code, at), text: squeeze(src.slice(at).split('\n')[0]!) });
    };
    // foreach ( array( 'a', 'b' ) as $filter ) { add_filter( $filter, 'cb' … ) … }
    for (const m of code.matchAll(/foreach\s*\(\s*array\(([^)]*)\)\s*as\s*\$(\w+)\s*\)\s*\{/g)) {
      const hooks = [...m[1]!.matchAll(/'([\w-]+)'/g)].map((h) => h[1]!);
      const open = m.index! + m[0].length - 1;
      const body = code.slice(open, closing(code, open));
      for (const a of body.matchAll(new RegExp(`add_(?:filter|action)\\(\\s*\\$${m[2]}\\s*,\\s*'(\\w+)'`, 'g'))) for (const h of hooks) record(h, a[1]!, open + a.index!);
    }
    for (const a of code.matchAll(/add_(?:filter|action)\(\s*'([\w-]+)'\s*,\s*'(\w+)'/g)) record(a[1]!, a[2]!, a.index!);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The documents: headings give sections; each table row, bullet and sentence is a unit.

function extractDocument(file: string, doc: string): void {
  const lines = readFileSync(join(SEEDS, file), 'utf8').split('\n');
  let section = '0';
  let sentence = 0;
  const source = `doc:${doc}`;
  const unit = (kind: string, text: string, line: number): void => {
    sentence++;
    add({ source, where: section, kind: 'unit', name: `${kind}${sentence}`, line, text: text.replace(/\s+/g, ' ').trim() });
  };
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const n = i + 1;
    const heading = /^#{1,4}\s+(?:(\d+(?:\.\d+)*)\.?\s+)?(.*)$/.exec(line);
    if (heading) {
      section = heading[1] ?? (section === '0' && /^# /.test(line) ? '0' : section);
      if (/^Conventions/i.test(heading[2]!)) section = 'conventions';
      sentence = 0;
      return;
    }
    if (line === '') return;
    if (/^Conventions used in both documents/.test(line)) {
      section = 'conventions';
      sentence = 0;
    }
    if (line.startsWith('|')) {
      if (/^\|[\s|:-]+\|$/.test(line)) return; // separator
      const cells = line.slice(1, -1).split('|').map((c) => c.trim());
      const next = lines[i + 1]?.trim() ?? '';
      if (/^\|[\s|:-]+\|$/.test(next)) return; // header row
      unit('row', cells.join(' | '), n);
      return;
    }
    if (/^[-*]\s/.test(line)) {
      unit('item', line.replace(/^[-*]\s+/, ''), n);
      return;
    }
    for (const s of line.split(/(?<=[.:])\s+(?=[A-Z`{(])/)) unit('s', s, n);
  });
}

// ---------------------------------------------------------------------------------------------------------------

for (const f of REST_FILES) extractPhp(f);
for (const [f, names] of Object.entries(PATH_FUNCTIONS)) extractPhp(f, names);
extractFilters();
const seeds = readdirSync(SEEDS).filter((f) => /^\d{3}_.*\.txt$/.test(f)).sort();
const documents: Record<string, { file: string; sha256: string }> = {};
for (const f of seeds) {
  const doc = f.slice(0, 3);
  documents[doc] = { file: f, sha256: createHash('sha256').update(readFileSync(join(SEEDS, f))).digest('hex') };
  extractDocument(f, doc);
}

const version = /\$wp_version\s*=\s*'([^']+)'/.exec(readFileSync(join(WP, 'wp-includes/version.php'), 'utf8'))![1]!;
const byKind = (k: string): number => items.filter((i) => i.kind === k).length;
const out = {
  note: 'GENERATED by suites/promises/scripts/inventory.ts from the WordPress PHP and the two documents; do not edit. Each item must be cited by a row of suites/promises/catalogue/ (suites/promises/promises.test.ts).',
  wordpress: { version, root: WP, files: [...REST_FILES, ...Object.keys(PATH_FUNCTIONS), 'wp-includes/default-filters.php'] },
  documents,
  counts: Object.fromEntries(['fn', 'header', 'param', 'sets', 'arg', 'field', 'store', 'input', 'error', 'hook', 'filter', 'unit'].map((k) => [k, byKind(k)])),
  items,
};
writeFileSync(OUT, `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${OUT}: ${items.length} items (${Object.entries(out.counts).map(([k, v]) => `${v} ${k}`).join(', ')}), WordPress ${version}`);
