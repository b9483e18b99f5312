// The catalogue of promises is whole: every row has a verdict, names checks the suite has and tests the repository
// has, every check judges a row, every item of the inventory (WordPress's functions, headers, parameters, fields,
// errors, filters, and the documents' units) is accounted for, and the gaps do not grow. The same judge runs on
// small made-up catalogues first, so each way it can fail is seen to fail.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCatalogueFile, type Inventory, type LoadedRow } from './catalogue.ts';
import { CHECKS } from '../src/checks/registry.ts';
import { CHECK_NAMES, GAPS_PATH, PROMISES_BY_CHECK_PATH, readCatalogue, repositoryTestTitles } from './cli.ts';
import { catalogueProblems, coverageOf, renderGaps, renderPromisesByCheck, testTitlesOf, type Facts } from './coverage.ts';

/**
 * The most gaps the catalogue may hold. It may only go down: lower it when a gap is closed (a check written and
 * proven, the row turned into `check:`), never raise it to let a new promise in as a gap without a check.
 */
const GAP_CEILING = 0;

const catalogue = readCatalogue();

describe('the catalogue of promises', () => {
  const facts: Facts = { rows: catalogue.rows, inventory: catalogue.inventory, proofs: catalogue.proofs, checks: CHECK_NAMES, testTitles: repositoryTestTitles };

  it('is whole: every row resolves, every check judges a row, every proof exists, every inventory item is cited', () => {
    expect(catalogueProblems(facts)).toEqual([]);
  });

  it(`holds at most ${GAP_CEILING} gaps (the ceiling only goes down)`, () => {
    const gaps = catalogue.rows.filter((r) => r.gap).length;
    expect(gaps).toBeLessThanOrEqual(GAP_CEILING);
  });

  it("the registry's rows carry the promises the catalogue gives their checks (kit/promises.generated.ts, fresh)", () => {
    expect(readFileSync(PROMISES_BY_CHECK_PATH, 'utf8') === renderPromisesByCheck(catalogue.rows, CHECK_NAMES), 'run `npm run promises -- --write` and commit suites/src/checks/kit/promises.generated.ts').toBe(true);
    for (const c of CHECKS.filter((c) => CHECK_NAMES.includes(c.name))) expect(c.promises.length, `${c.name} judges no promise`).toBeGreaterThan(0);
    const tile = CHECKS.find((c) => c.name === 'allow_header')!;
    expect(tile.promises).toEqual(catalogue.rows.filter((r) => r.check === 'allow_header' || r.also?.includes('allow_header')).map((r) => r.id));
  });

  it('GAPS.md is generated from the rows and fresh', () => {
    expect(readFileSync(GAPS_PATH, 'utf8') === renderGaps(catalogue.rows, catalogue.titles), 'run `npm run promises -- --write` and commit suites/promises/GAPS.md').toBe(true);
  });

  it('comes from WordPress 6.1 and both documents', () => {
    expect(catalogue.inventory.wordpress.version).toMatch(/^6\.1\./);
    expect(Object.keys(catalogue.inventory.documents).sort()).toEqual(['000', '001']);
    const sources = new Set(catalogue.rows.map((r) => r.source));
    for (const s of ['doc:000', 'doc:001', 'wp:rest-api.php', 'wp:rest-api/class-wp-rest-server.php', 'wp:post.php', 'wp:taxonomy.php']) expect(sources).toContain(s);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The judge, both ways, on made-up catalogues.

const inventory: Inventory = {
  wordpress: { version: '6.1.9', root: '/usr/share/wordpress', files: [] },
  documents: {},
  counts: {},
  items: [
    { id: 'wp:rest-api.php#rest_send_allow_header', kind: 'fn', source: 'wp:rest-api.php', where: 'rest_send_allow_header', name: 'rest_send_allow_header', line: 1, text: '' },
    { id: 'wp:rest-api.php#rest_send_allow_header/header:Allow', kind: 'header', source: 'wp:rest-api.php', where: 'rest_send_allow_header', name: 'Allow', line: 2, text: '' },
    { id: 'doc:000§8/row1', kind: 'unit', source: 'doc:000', where: '8', name: 'row1', line: 3, text: 'per_page maximum | 100 | lists in `cal/v1`' },
  ],
};
const proofs = new Map([['P', { file: 'a.test.ts', test: 'breaks it' }]]);
const titles = (file: string): string[] | undefined => (file === 'a.test.ts' ? ['breaks it'] : undefined);

function rows(yaml: string, source = 'wp:rest-api.php'): LoadedRow[] {
  return parseCatalogueFile('t.yaml', `source: ${source}\ntitle: t\nwhere: [every route]\nrows:\n${yaml}`);
}
const allow = `  - {id: a, fn: rest_send_allow_header, cites: ['header:Allow'], who: [anonymous], sees: s, check: allow_header, severity: convention, proof: P}\n`;
const unit = `  - {id: u, section: '8', quote: 'per_page maximum', who: [anonymous], sees: s, check: allow_header, severity: documented, proof: P}\n`;
const judge = (r: LoadedRow[], over: Partial<Facts> = {}): string[] => catalogueProblems({ rows: r, inventory, proofs, checks: ['allow_header'], testTitles: titles, ...over });

describe('the judge', () => {
  it('passes a whole made-up catalogue', () => {
    expect(judge([...rows(allow), ...rows(unit, 'doc:000')])).toEqual([]);
  });

  it('refuses a row with no verdict, or with two', () => {
    expect(() => rows('  - {id: a, fn: rest_send_allow_header, who: [anonymous], sees: s}\n')).toThrow(/t\.yaml row a: needs exactly one verdict/);
    expect(() => rows('  - {id: a, fn: f, who: [anonymous], sees: s, check: c, severity: convention, proof: P, gap: g, closer: c}\n')).toThrow(/row a: needs exactly one verdict/);
    expect(() => rows('  - {id: a, fn: f, who: [anonymous], sees: s, check: c, severity: convention}\n')).toThrow(/row a: needs exactly one verdict/);
  });

  it('fails a check name the suite does not have, and a check that judges no row', () => {
    expect(judge(rows(allow.replace('check: allow_header', 'check: allow_headers')), { checks: ['allow_header'] })).toEqual([
      't.yaml row a: allow_headers is not a check of the suite (suites/src/checks/registry.ts)',
      'check allow_header judges no row of the catalogue',
      'inventory item doc:000§8/row1 (000 line 3: per_page maximum | 100 | lists in `cal/v1`) is cited by no row',
    ]);
  });

  it('fails a proof that names no test, a test file or title the repository does not have', () => {
    expect(judge([...rows(allow.replace('proof: P', 'proof: Q')), ...rows(unit, 'doc:000')])).toEqual(['t.yaml row a: proof Q is not in suites/promises/proofs.yaml']);
    expect(judge([...rows(allow), ...rows(unit, 'doc:000')], { proofs: new Map([['P', { file: 'a.test.ts', test: 'breaks it!' }]]) })).toEqual(['proofs.yaml P: a.test.ts has no test titled "breaks it!"']);
    expect(judge([...rows(allow), ...rows(unit, 'doc:000')], { proofs: new Map([['P', { file: 'b.test.ts', test: 'breaks it' }]]) })).toEqual(['proofs.yaml P: the file b.test.ts does not exist']);
  });

  it('fails an inventory item no row cites, and a citation the inventory does not have', () => {
    expect(judge([...rows(allow.replace("cites: ['header:Allow'], ", '')), ...rows(unit, 'doc:000')])).toEqual(['inventory item wp:rest-api.php#rest_send_allow_header/header:Allow (rest-api.php line 2: ) is cited by no row']);
    expect(judge([...rows(allow.replace("'header:Allow'", "'header:Allow', 'header:Vary'")), ...rows(unit, 'doc:000')])).toEqual(['t.yaml row a: cite header:Vary is not in the inventory (wp:rest-api.php#rest_send_allow_header/header:Vary)']);
  });

  it('fails a document quote that is in no unit of its section', () => {
    expect(judge([...rows(allow), ...rows(unit.replace('per_page maximum', 'per_page minimum'), 'doc:000')])).toContain('t.yaml row u: the quote is in 0 units of 000 §8, not in exactly one: "per_page minimum"');
  });

  it("fails a core controller's row that does not say whether it holds for the legacy namespace", () => {
    const inv: Inventory = { ...inventory, items: [{ id: 'wp:rest-api/endpoints/class-wp-rest-posts-controller.php#X::get_item', kind: 'fn', source: 'wp:rest-api/endpoints/class-wp-rest-posts-controller.php', where: 'X::get_item', name: 'X::get_item', line: 1, text: '' }] };
    const r = parseCatalogueFile('p.yaml', 'source: wp:rest-api/endpoints/class-wp-rest-posts-controller.php\ntitle: p\nwhere: [cal/v1]\nrows:\n  - {id: p, fn: X::get_item, who: [admin], sees: s, check: allow_header, severity: convention, proof: P}\n');
    expect(judge(r, { inventory: inv })).toEqual(["p.yaml row p: a row of a core controller says whether it holds for cal/events/v1 (a plugin's own controller): where, or notFor with the reason"]);
    expect(judge(r.map((x) => ({ ...x, notFor: { 'cal/events/v1': 'its own controller' } })), { inventory: inv })).toEqual([]);
  });

  it('counts rows by verdict, source and audience, and lists the gaps by the check that would close them', () => {
    const r = rows(`${allow}  - {id: g, fn: rest_send_allow_header, who: [low], sees: s, gap: 'a check', closer: allow_header, severity: convention}\n  - {id: n, fn: rest_send_allow_header, who: [admin], sees: s, unobservable: {kind: internal, why: w}}\n`);
    const c = coverageOf(r);
    expect(c.all).toEqual({ rows: 3, proven: 1, sibling: 0, unproven: 0, unobservable: 1, gap: 1 });
    expect(c.byAudience.find(([a]) => a === 'low')![1].gap).toBe(1);
    expect(renderGaps(r, new Map())).toContain('## `allow_header` (1)\n\n- **g** (convention; low-rights user; wp:rest-api.php `rest_send_allow_header`): a check');
  });

  it('reads test titles as written, quotes and escapes included', () => {
    expect(testTitlesOf(`it('a \\'b\\'', () => {}); it("c", () => {}); it(\`d \${x}\`, () => {}); test('e', f)`)).toEqual(["a 'b'", 'c', 'e']);
  });
});
