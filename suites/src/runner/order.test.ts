import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { planAll } from '../checks/index.ts';
import { phases, rankOf } from './order.ts';

const units = planAll(loadContractFile());

describe('the order a run takes its units in', () => {
  it('knows the rank of every family of checks the suite plans (a new check must be placed)', () => {
    const unranked = [...new Set(units.map((u) => u.family))].filter((f) => rankOf(f) === rankOf('a family nobody planned'));
    expect(unranked).toEqual([]);
  });

  it('runs every unit once: documented checks first, reads before writes in each part, then by rank, then as planned', () => {
    const ps = phases(units);
    expect(ps.flat().map((u) => u.id).sort()).toEqual(units.map((u) => u.id).sort());
    const described = ps.map((p) => ({ documented: rankOf(p[0]!.family) < 4, writes: p[0]!.writes === true }));
    expect(described).toEqual([
      { documented: true, writes: false },
      { documented: true, writes: true },
      { documented: false, writes: false },
      { documented: false, writes: true },
    ]);
    for (const p of ps) {
      // One kind of unit in each phase, ranks never going down.
      expect(new Set(p.map((u) => u.writes === true)).size).toBe(1);
      const ranks = p.map((u) => rankOf(u.family));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    }
    const flat = ps.flat().map((u) => u.family);
    expect(flat[0]).toBe('route_presence');
    expect(flat.indexOf('lifecycle')).toBeLessThan(flat.indexOf('unknown_id'));
    expect(flat.lastIndexOf('response_shape')).toBeGreaterThan(flat.lastIndexOf('pagination'));
  });

  it('keeps the plan order within a rank, so that a seed gives the same report order on every run', () => {
    const pa = units.filter((u) => u.family === 'positive_acceptance' && u.writes !== true).map((u) => u.id);
    expect(phases(units)[0]!.filter((u) => u.family === 'positive_acceptance').map((u) => u.id)).toEqual(pa);
    // The plan's order decides ties: reversed, the same ranks run in the other order.
    expect(phases([...units].reverse())[0]!.filter((u) => u.family === 'positive_acceptance').map((u) => u.id)).toEqual([...pa].reverse());
  });
});
