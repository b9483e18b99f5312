// The registry and the check modules agree: adding a check is one module plus its row, and a row or a module left
// behind fails here with what to do. Proven both ways: the real table passes, and a table or a module doctored the way
// a forgotten row, a stale row or a stray module would leave it fails with that message. The README's check tables
// are the registry's rows, in its order, with its severities.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { CHECKS, planAll, PLANNERS, SELECTABLE_CHECKS, severityText, undeclaredSeverities, type CheckRow, type Family } from './registry.ts';

const contract = loadContractFile();
const here = fileURLToPath(new URL('.', import.meta.url));

/** The values each module under checks/ exports, by module name (checks/<name>.ts); the registry itself aside. */
const moduleNames = readdirSync(here)
  .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts') && n !== 'registry.ts')
  .map((n) => n.slice(0, -'.ts'.length));
const modules = new Map<string, readonly unknown[]>(
  await Promise.all(moduleNames.map(async (m) => [m, Object.values((await import(/* @vite-ignore */ new URL(`./${m}.ts`, import.meta.url).href)) as object)] as const)),
);

/** What each family plans: the check names its units carry. */
const planned = new Map<string, ReadonlySet<string>>(Object.entries(PLANNERS).map(([family, plan]) => [family, new Set(plan(contract).flatMap((u) => u.checks))]));

type Row = Pick<CheckRow, 'name' | 'module' | 'plannedBy' | 'sweep' | 'fromRecording'>;

/** Everything on which the table and the modules disagree, each with what to do. */
function problems(rows: readonly Row[], plannedBy: ReadonlyMap<string, ReadonlySet<string>>, exported: ReadonlyMap<string, readonly unknown[]>): string[] {
  const out: string[] = [];
  const byName = new Map<string, Row>();
  for (const r of rows) {
    if (byName.has(r.name)) out.push(`${r.name} has two rows`);
    byName.set(r.name, r);
    if (r.module === 'runner') {
      if (r.plannedBy.length || r.sweep) out.push(`${r.name} is the runner's own, so no family plans it and it is no sweep`);
      continue;
    }
    const values = exported.get(r.module);
    if (!values) out.push(`${r.name}: its row names checks/${r.module}.ts, which does not exist`);
    else if (!values.includes(r.name)) out.push(`${r.name}: checks/${r.module}.ts does not export its name ('${r.name}')`);
    if (r.plannedBy.length === 0 && !r.sweep && !r.fromRecording) out.push(`${r.name}: no family plans it and it is no sweep, so no unit carries it`);
    for (const f of r.plannedBy) if (!plannedBy.get(f)?.has(r.name)) out.push(`${r.name}: its row says checks/${f}.ts plans it, but ${f} plans nothing under that name`);
  }
  for (const [family, names] of plannedBy) {
    for (const name of names) {
      const r = byName.get(name);
      if (!r) out.push(`checks/${family}.ts plans ${name}, which has no row in checks/registry.ts: add one`);
      else if (!r.plannedBy.includes(family as Family)) out.push(`checks/${family}.ts plans ${name}, but its row does not name ${family} in plannedBy`);
    }
  }
  for (const m of exported.keys()) {
    if (!plannedBy.has(m) && !rows.some((r) => r.module === m)) out.push(`checks/${m}.ts is neither a family of FAMILIES nor the module of a row: give its check a row (or move a helper to checks/kit/)`);
  }
  return out;
}

describe('the registry of checks', () => {
  it('has one row per check a family plans or a sweep judges, each naming the module that exports its name', () => {
    expect(problems(CHECKS, planned, modules)).toEqual([]);
    // The walk saw every family and module: a check whose module or planner went unseen would pass vacuously.
    expect(planned.size).toBeGreaterThan(20);
    expect(modules.size).toBeGreaterThan(25);
    expect(CHECKS.length).toBeGreaterThan(45);
  });

  it('fails on a check planned without a row, a row whose module plans nothing under its name, and a module without a row', () => {
    const noRow = new Map([...planned, ['pagination', new Set([...planned.get('pagination')!, 'pagination_links'])]]);
    expect(problems(CHECKS, noRow, modules)).toEqual(['checks/pagination.ts plans pagination_links, which has no row in checks/registry.ts: add one']);

    const stale = CHECKS.map((r) => (r.name === 'cors' ? { ...r, plannedBy: ['conventions', 'options'] as Family[] } : r));
    expect(problems(stale, planned, modules)).toEqual(['cors: its row says checks/options.ts plans it, but options plans nothing under that name']);

    const unnamed = CHECKS.map((r) => (r.name === 'trash' ? { ...r, module: 'forced_delete' } : r));
    expect(problems(unnamed, planned, modules)).toEqual(["trash: checks/forced_delete.ts does not export its name ('trash')"]);

    const stray = new Map([...modules, ['redirects', ['redirects']]]);
    expect(problems(CHECKS, planned, stray)).toEqual(['checks/redirects.ts is neither a family of FAMILIES nor the module of a row: give its check a row (or move a helper to checks/kit/)']);

    const orphan = CHECKS.filter((r) => r.name !== 'cors');
    expect(problems(orphan, planned, modules)).toEqual(['checks/conventions.ts plans cors, which has no row in checks/registry.ts: add one']);
  });

  it('adds every sweep to every unit, and --only selects exactly the checks a unit can carry', () => {
    const sweeps = CHECKS.filter((c) => c.sweep).map((c) => c.name);
    expect(sweeps.sort()).toEqual(['allow_header', 'auth_status', 'content_type', 'error_envelope', 'not_a_server_error', 'wire_bytes', 'wire_headers']);
    const units = planAll(contract);
    expect(units.length).toBeGreaterThan(1000);
    for (const u of units) expect(sweeps.filter((s) => !u.checks.includes(s)), u.id).toEqual([]);
    const carried = new Set(units.flatMap((u) => u.checks));
    expect([...SELECTABLE_CHECKS].sort()).toEqual([...carried].sort());
    expect(SELECTABLE_CHECKS).not.toContain('cleanup');
  });

  it("names a judged case whose severity its row does not declare, and lets skips and the runner's not-run cases by", () => {
    const c = (id: string, status: 'passed' | 'failed' | 'skipped', severity: 'documented' | 'convention' | 'assumed', variant = '') => ({ id, check: id.split(':')[0]!, status, severity, variant });
    expect(
      undeclaredSeverities([
        c('pagination:getCalV1Events:headers', 'failed', 'convention'),
        c('pagination:getCalV1Events:links', 'failed', 'documented'),
        c('unknown_id:getCalV1EventsById:id', 'failed', 'assumed'),
        c('cors:getCalV1:preflight', 'skipped', 'documented'),
        c('cors:getCalV1:not-run:cors:getCalV1', 'failed', 'documented', 'not-run:cors:getCalV1'),
        c('redirects:-:x', 'passed', 'convention'),
      ]),
    ).toEqual(['pagination:getCalV1Events:links: documented', 'redirects:-:x: convention']);
  });

  it("carries in each row the catalogue's promises that name its check (suites/promises/promises.test.ts holds them to the catalogue)", () => {
    // A replay of a frontend's recording (test --calls) judges what that app met, not a promise of its own.
    for (const c of CHECKS.filter((x) => !x.fromRecording)) expect(c.promises.length, c.name).toBeGreaterThan(0);
  });
});

describe("the README's check tables", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  /** The rows of the tables under "The checks" and "What a site does", as [names of the first cell, last cell]. */
  const tableRows = (text: string): [string[], string][] => {
    const start = text.indexOf('### The checks');
    const end = text.indexOf('### Adding a check');
    return text
      .slice(start, end)
      .split('\n')
      .filter((l) => /^\| `/.test(l))
      .map((l) => {
        const cells = l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
        return [[...cells[0]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!), cells[cells.length - 1]!];
      });
  };

  it('list every check once, one per row, in the registry order, with its severities', () => {
    const rows = tableRows(readme);
    expect(rows.map(([names]) => names.length)).toEqual(rows.map(() => 1));
    expect(rows.map(([[name]]) => name)).toEqual(CHECKS.map((c) => c.name));
    for (const [[name], severity] of rows) expect(severity, name).toBe(severityText(CHECKS.find((c) => c.name === name)!));
  });

  it('and the comparison fails on a missing row or a severity that is not the registry’s', () => {
    const rows = tableRows(readme.replace(/^\| `trash` \|.*\n/m, '').replace('| `cors` |', '| `cors`, `head` |'));
    expect(rows.map(([[name]]) => name)).not.toEqual(CHECKS.map((c) => c.name));
    expect(rows.find(([names]) => names.includes('cors'))![0]).toEqual(['cors', 'head']);
    const [, severity] = tableRows(readme.replace(/(\| `pagination` \|.*\| )convention \|/, '$1documented |')).find(([[n]]) => n === 'pagination')!;
    expect(severity).not.toBe(severityText(CHECKS.find((c) => c.name === 'pagination')!));
  });
});
