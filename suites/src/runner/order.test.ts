import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { planAll } from '../checks/registry.ts';
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
    const writes = (u: (typeof units)[number]): boolean => u.writes === true || u.operations.some((o) => !['GET', 'HEAD', 'OPTIONS'].includes(o.method));
    const described = ps.map((p) => ({ documented: rankOf(p[0]!.family) < 4, writes: writes(p[0]!) }));
    expect(described).toEqual([
      { documented: true, writes: false },
      { documented: true, writes: true },
      { documented: false, writes: false },
      { documented: false, writes: true },
    ]);
    for (const p of ps) {
      // One kind of unit in each phase (a unit sending any write method runs with the writers: a refused
      // anonymous create is sent again with credentials), ranks never going down.
      expect(new Set(p.map(writes)).size).toBe(1);
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
    // negative_rejection on a create is not flagged as writing, yet its credentialed twin may create: it runs with the writers.
    const create = units.find((u) => u.id === 'negative_rejection:postCalV1Events')!;
    expect(create.writes).toBeUndefined();
    expect(phases(units)[1]!).toContain(create);
    expect(phases(units)[0]!.filter((u) => u.family === 'positive_acceptance').map((u) => u.id)).toEqual(pa);
    // The plan's order decides ties: reversed, the same ranks run in the other order.
    expect(phases([...units].reverse())[0]!.filter((u) => u.family === 'positive_acceptance').map((u) => u.id)).toEqual([...pa].reverse());
  });
});
