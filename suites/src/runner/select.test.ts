import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { planAll, SELECTABLE_CHECKS } from '../checks/registry.ts';
import { UsageError } from '../errors.ts';
import { fnv1a } from '../checks/kit/hash.ts';
import { inShard, parseFilter, select, unitSeed } from './select.ts';

const contract = loadContractFile();
const units = planAll(contract);
const none = parseFilter([], contract, SELECTABLE_CHECKS, '--only');

describe('parseFilter', () => {
  it('reads namespaces (root included), routes, operationIds and checks', () => {
    const f = parseFilter(['root', 'batch/v1', '/cal/v1/events', 'getOembed10Embed', 'cors'], contract, SELECTABLE_CHECKS, '--only');
    expect([...f.namespaces]).toEqual(['', 'batch/v1']);
    expect([...f.routes]).toEqual(['/cal/v1/events']);
    expect([...f.operations]).toEqual(['getOembed10Embed']);
    expect([...f.checks]).toEqual(['cors']);
  });

  it('refuses what names nothing, so a typo cannot empty a run', () => {
    expect(() => parseFilter(['wp/v2'], contract, SELECTABLE_CHECKS, '--only')).toThrow(UsageError);
    expect(() => parseFilter(['/cal/v9'], contract, SELECTABLE_CHECKS, '--skip')).toThrow(/--skip \/cal\/v9: no route/);
  });
});

describe('select', () => {
  it('--only namespaces keeps units that stay inside them, and every check', () => {
    const only = parseFilter(['root', 'batch/v1', 'oembed/1.0'], contract, SELECTABLE_CHECKS, '--only');
    const { units: picked, checks } = select(units, SELECTABLE_CHECKS, only, none);
    const namespaces = new Set(picked.flatMap((u) => u.operations.map((o) => o.namespace)));
    expect([...namespaces].sort()).toEqual(['', 'batch/v1', 'oembed/1.0']);
    expect(picked.some((u) => u.family === 'lifecycle' || u.family === 'cross_namespace')).toBe(false);
    expect(picked.some((u) => u.family === 'batch_limit')).toBe(true);
    expect(checks.size).toBe(SELECTABLE_CHECKS.length);
  });

  it('combines a check with a namespace, and --skip removes by route or check', () => {
    const only = parseFilter(['cal/v1', 'negative_rejection'], contract, SELECTABLE_CHECKS, '--only');
    const { units: picked, checks } = select(units, SELECTABLE_CHECKS, only, none);
    expect(picked.every((u) => u.family === 'negative_rejection' && u.operations.every((o) => o.namespace === 'cal/v1'))).toBe(true);
    expect([...checks]).toEqual(['negative_rejection']);
    const skip = parseFilter(['/cal/v1/events', 'cors'], contract, SELECTABLE_CHECKS, '--skip');
    const rest = select(units, SELECTABLE_CHECKS, none, skip);
    expect(rest.units.some((u) => u.operations.some((o) => o.path.startsWith('/cal/v1/events')))).toBe(false);
    expect(rest.checks.has('cors')).toBe(false);
  });
});

describe('shards and seeds', () => {
  it('puts every unit in exactly one shard, stably', () => {
    const counts = [0, 0, 0];
    for (const u of units) {
      const hits = [1, 2, 3].filter((index) => inShard(u.id, { index, total: 3 }));
      expect(hits).toHaveLength(1);
      counts[hits[0]! - 1]!++;
    }
    expect(Math.min(...counts)).toBeGreaterThan(units.length / 5);
    expect(fnv1a('negative_rejection:getCalV1Events')).toBe(fnv1a('negative_rejection:getCalV1Events'));
  });

  it('gives each unit its own seed, the same alone or among all', () => {
    expect(unitSeed(1, 'a')).toBe(unitSeed(1, 'a'));
    expect(unitSeed(1, 'a')).not.toBe(unitSeed(1, 'b'));
    expect(unitSeed(1, 'a')).not.toBe(unitSeed(2, 'a'));
  });

  it('has stable, unique unit ids', () => {
    const ids = units.map((u) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
