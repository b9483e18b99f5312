// What the catalogue covers, and what is wrong with it: every row resolved against the inventory, every check named
// looked up in the suite's CHECKS, every proving test looked up by file and title, every inventory item accounted
// for. Pure: the caller reads the files (cli.ts, promises.test.ts) and hands them in.
import { AUDIENCES, SEVERITIES, UNOBSERVABLE_KINDS, type Inventory, type InventoryItem, type LoadedRow, type ProvingTest } from './catalogue.ts';

export interface Facts {
  rows: readonly LoadedRow[];
  inventory: Inventory;
  /** suites/promises/proofs.yaml. */
  proofs: ReadonlyMap<string, ProvingTest>;
  /** The names of the suite's checks (the rows of suites/src/checks/registry.ts). */
  checks: readonly string[];
  /** The it()/test() titles of a test file, or undefined when there is no such file. */
  testTitles: (file: string) => readonly string[] | undefined;
}

/** The core controllers: what holds for them holds where a namespace is built on them, not on a plugin's own. */
const CORE_CONTROLLERS = /^wp:rest-api\/endpoints\/class-wp-rest-(posts|terms|post-types)-controller\.php$/;

const squeeze = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The inventory items a row accounts for, and what is wrong with its citations. */
function resolveRow(row: LoadedRow, byId: ReadonlyMap<string, InventoryItem>, units: ReadonlyMap<string, readonly InventoryItem[]>): { items: string[]; problems: string[] } {
  const problems: string[] = [];
  const items: string[] = [];
  const at = `${row.file} row ${row.id}`;
  const want = (id: string, what: string): void => {
    if (byId.has(id)) items.push(id);
    else problems.push(`${at}: ${what} is not in the inventory (${id})`);
  };
  if (row.source.startsWith('doc:')) {
    if (row.fn || !row.section || !row.quote) problems.push(`${at}: a document row names a section and a quote of it, and no fn`);
    else {
      const quote = squeeze(row.quote);
      const all = (units.get(`${row.source}§${row.section}`) ?? []).filter((u) => u.text.includes(quote));
      // A quote that is also inside a longer unit (page minimum, per_page minimum) names the unit it begins.
      const hits = all.length > 1 ? all.filter((u) => u.text.startsWith(quote)) : all;
      if (hits.length === 1) items.push(hits[0]!.id);
      else problems.push(`${at}: the quote is in ${all.length} units of ${row.source.slice(4)} §${row.section}, not in exactly one: "${row.quote}"`);
    }
    for (const c of row.cites ?? []) want(c.includes('§') ? c : `${row.source}§${c}`, `cite ${c}`);
    return { items, problems };
  }
  if (!row.fn || row.section || row.quote) {
    problems.push(`${at}: a WordPress row names its function (fn), and no section or quote`);
    return { items, problems };
  }
  want(`${row.source}#${row.fn}`, `fn ${row.fn}`);
  // A method of the row's class may be named without the class: `get_item/param:id` beside `WP_REST_Posts_Controller::create_item`.
  const cls = row.fn.includes('::') ? row.fn.slice(0, row.fn.indexOf('::') + 2) : '';
  const inClass = (fn: string): string => (cls && !fn.includes('::') && byId.has(`${row.source}#${cls}${fn}`) ? `${cls}${fn}` : fn);
  for (const c of row.cites ?? []) {
    if (c.startsWith('wp:')) want(c, `cite ${c}`);
    else if (c.startsWith('fn:')) want(`${row.source}#${inClass(c.slice(3))}`, `cite ${c}`);
    else if (c.includes('/')) want(`${row.source}#${inClass(c.slice(0, c.indexOf('/')))}${c.slice(c.indexOf('/'))}`, `cite ${c}`);
    else want(`${row.source}#${row.fn}/${c}`, `cite ${c}`);
  }
  if (!row.where) problems.push(`${at}: a WordPress row says where it holds (where)`);
  if (CORE_CONTROLLERS.test(row.source) && !row.where?.includes('cal/events/v1') && !row.notFor?.['cal/events/v1']) {
    problems.push(`${at}: a row of a core controller says whether it holds for cal/events/v1 (a plugin's own controller): where, or notFor with the reason`);
  }
  return { items, problems };
}

/** Everything wrong with the catalogue; empty when it is whole. */
export function catalogueProblems(f: Facts): string[] {
  const problems: string[] = [];
  const byId = new Map(f.inventory.items.map((i) => [i.id, i]));
  const units = new Map<string, InventoryItem[]>();
  for (const i of f.inventory.items) if (i.kind === 'unit') units.set(`${i.source}§${i.where}`, [...(units.get(`${i.source}§${i.where}`) ?? []), i]);
  const cited = new Set<string>();
  const seen = new Map<string, string>();
  const judging = new Set<string>();
  const checks = new Set(f.checks);
  const titles = new Map<string, readonly string[] | undefined>();
  const used = new Set<string>();
  for (const row of f.rows) {
    const at = `${row.file} row ${row.id}`;
    const before = seen.get(row.id);
    if (before) problems.push(`${at}: the id is used in ${before} too`);
    seen.set(row.id, row.file);
    const r = resolveRow(row, byId, units);
    problems.push(...r.problems);
    for (const i of r.items) cited.add(i);
    for (const c of [...(row.check ? [row.check] : []), ...(row.also ?? [])]) {
      if (checks.has(c)) judging.add(c);
      else problems.push(`${at}: ${c} is not a check of the suite (suites/src/checks/registry.ts)`);
    }
    if (row.proof !== undefined) {
      const name = typeof row.proof === 'string' ? row.proof : row.proof.of;
      if (!f.proofs.has(name)) problems.push(`${at}: proof ${name} is not in suites/promises/proofs.yaml`);
      used.add(name);
    }
  }
  for (const [name, p] of f.proofs) {
    if (!titles.has(p.file)) titles.set(p.file, f.testTitles(p.file));
    const known = titles.get(p.file);
    if (!known) problems.push(`proofs.yaml ${name}: the file ${p.file} does not exist`);
    else if (!known.includes(p.test)) problems.push(`proofs.yaml ${name}: ${p.file} has no test titled "${p.test}"`);
    if (!used.has(name)) problems.push(`proofs.yaml ${name}: no row cites it`);
  }
  for (const c of f.checks) if (!judging.has(c)) problems.push(`check ${c} judges no row of the catalogue`);
  for (const i of f.inventory.items) if (!cited.has(i.id)) problems.push(`inventory item ${i.id} (${i.source.replace(/^(wp|doc):/, '')} line ${i.line}: ${i.text}) is cited by no row`);
  return problems;
}

/** The titles of a test file's it()/test() calls, as written (string literals only). */
export function testTitlesOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:it|test)(?:\.(?:only|skip|concurrent|fails))?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)) {
    if (m[1] === '`' && m[2]!.includes('${')) continue;
    out.push(m[2]!.replace(/\\(.)/g, '$1'));
  }
  return out;
}

type Verdict = 'proven' | 'sibling' | 'unproven' | 'unobservable' | 'gap';
const verdictOf = (r: LoadedRow): Verdict => (r.gap ? 'gap' : r.unobservable ? 'unobservable' : r.unproven ? 'unproven' : typeof r.proof === 'object' ? 'sibling' : 'proven');

interface Tally {
  rows: number;
  proven: number;
  sibling: number;
  unproven: number;
  unobservable: number;
  gap: number;
}
const empty = (): Tally => ({ rows: 0, proven: 0, sibling: 0, unproven: 0, unobservable: 0, gap: 0 });
const count = (t: Tally, r: LoadedRow): void => {
  t.rows++;
  t[verdictOf(r)]++;
};
const checked = (t: Tally): number => t.proven + t.sibling + t.unproven;

interface Coverage {
  all: Tally;
  bySource: [string, Tally][];
  byAudience: [string, Tally][];
  byUnobservable: [string, number][];
  byCheck: [string, number][];
}

export function coverageOf(rows: readonly LoadedRow[]): Coverage {
  const all = empty();
  const bySource = new Map<string, Tally>();
  const byAudience = new Map<string, Tally>(AUDIENCES.map((a) => [a, empty()]));
  const byUnobservable = new Map<string, number>(UNOBSERVABLE_KINDS.map((k) => [k, 0]));
  const byCheck = new Map<string, number>();
  for (const r of rows) {
    count(all, r);
    if (!bySource.has(r.source)) bySource.set(r.source, empty());
    count(bySource.get(r.source)!, r);
    for (const a of r.who) count(byAudience.get(a)!, r);
    if (r.unobservable) byUnobservable.set(r.unobservable.kind, byUnobservable.get(r.unobservable.kind)! + 1);
    for (const c of [...(r.check ? [r.check] : []), ...(r.also ?? [])]) byCheck.set(c, (byCheck.get(c) ?? 0) + 1);
  }
  return { all, bySource: [...bySource], byAudience: [...byAudience], byUnobservable: [...byUnobservable], byCheck: [...byCheck].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])) };
}

const AUDIENCE_NAMES: Record<string, string> = { anonymous: 'anonymous', low: 'low-rights user', admin: 'administrator' };

/** The coverage as `npm run promises` prints it. */
export function renderCoverage(c: Coverage, titles: ReadonlyMap<string, string>): string {
  const line = (name: string, t: Tally): string =>
    `  ${name.padEnd(46)} ${String(t.rows).padStart(4)} rows  ${String(checked(t)).padStart(4)} checked (${t.proven} proven, ${t.sibling} on a sibling, ${t.unproven} not proven)  ${String(t.unobservable).padStart(3)} unobservable  ${String(t.gap).padStart(3)} gaps`;
  const a = c.all;
  return [
    `promises: ${a.rows} rows: ${checked(a)} checked (${a.proven} proven both ways at the edge, ${a.sibling} proven on a sibling promise, ${a.unproven} checked, not proven), ${a.unobservable} unobservable with a reason, ${a.gap} gaps`,
    `  unobservable by reason: ${c.byUnobservable.map(([k, n]) => `${n} ${k}`).join(', ')}`,
    'by source:',
    ...c.bySource.map(([s, t]) => line(titles.get(s) ?? s, t)),
    'by audience (a row counts for each client it names):',
    ...c.byAudience.map(([k, t]) => line(AUDIENCE_NAMES[k] ?? k, t)),
    `rows per check: ${c.byCheck.map(([k, n]) => `${k} ${n}`).join(', ')}`,
    '',
  ].join('\n');
}

/** suites/promises/GAPS.md: the gaps grouped by the check that would close them, most first. */
export function renderGaps(rows: readonly LoadedRow[], titles: ReadonlyMap<string, string>): string {
  const groups = new Map<string, LoadedRow[]>();
  for (const r of rows) if (r.gap) groups.set(r.closer!, [...(groups.get(r.closer!) ?? []), r]);
  const ordered = [...groups].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const total = ordered.reduce((n, [, g]) => n + g.length, 0);
  const where = (r: LoadedRow): string => (r.fn ? `${titles.get(r.source) ?? r.source} \`${r.fn}\`` : `${titles.get(r.source) ?? r.source} §${r.section}`);
  const out = [
    '# Gaps in the catalogue of promises',
    '',
    'GENERATED by `npm run promises -- --write` from suites/promises/catalogue/; do not edit. Each gap is a promise a',
    'client can observe that no check of the suite judges yet, grouped by the check that would close it (a new check, or',
    'an existing one that would have to grow). Closing one: write the check, prove it both ways at the edge, and turn',
    'the row into `check:` with its `proof:` (suites/README.md, "The catalogue of promises").',
    '',
    `${total} gaps in ${ordered.length} groups: ${ordered.map(([k, g]) => `\`${k}\` ${g.length}`).join(', ')}.`,
    '',
  ];
  const rank = (r: LoadedRow): number => SEVERITIES.indexOf(r.severity!);
  for (const [closer, g] of ordered) {
    out.push(`## \`${closer}\` (${g.length})`, '');
    // What the documents state first, then WordPress's conventions, then what is assumed; in catalogue order within each.
    for (const r of [...g].sort((a, b) => rank(a) - rank(b))) out.push(`- **${r.id}** (${r.severity}; ${r.who.map((w) => AUDIENCE_NAMES[w]).join(', ')}; ${where(r)}): ${r.gap}`);
    out.push('');
  }
  return out.join('\n');
}

/**
 * The promise ids each check judges, as the registry's rows carry them (suites/src/checks/promises.generated.ts): the
 * catalogue names each row's check, and this turns that around, so the one decision is written once, here.
 */
export function renderPromisesByCheck(rows: readonly LoadedRow[], checks: readonly string[]): string {
  const by = new Map<string, string[]>(checks.map((c) => [c, []]));
  for (const r of rows) for (const c of [...(r.check ? [r.check] : []), ...(r.also ?? [])]) by.get(c)?.push(r.id);
  const lines = [...by].map(([c, ids]) => `  ${JSON.stringify(c)}: [${ids.map((i) => JSON.stringify(i)).join(', ')}],`);
  return `// GENERATED by \`npm run promises -- --write\` from suites/promises/catalogue/: the catalogue's rows by the check that judges\n// them, which the registry's rows carry as their promises. Do not edit.\n\nexport const PROMISES_BY_CHECK: Readonly<Record<string, readonly string[]>> = {\n${lines.join('\n')}\n};\n`;
}
