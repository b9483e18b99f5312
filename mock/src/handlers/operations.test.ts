// The operation table answers exactly the contract's operations: one handler per operationId, none missing, none
// left over. An operation added to the contract without a handler fails here, before any request finds it.
import { describe, expect, it } from 'vitest';
import { sharedContract } from '../testing/harness.ts';
import { Discovery } from './discovery.ts';
import { operationTable } from './operations.ts';

describe('operation table', () => {
  it("its keys are exactly the contract's 204 operationIds, each with a handler", () => {
    const contract = sharedContract();
    const discovery = new Discovery(contract, { name: 'x', description: 'x', timezone: 'UTC', gmtOffset: () => 0 }, { enabled: false, maxBytes: 0 });
    const table = operationTable({ contract, discovery });
    const ids = contract.operations.map((o) => o.id);
    expect(ids).toHaveLength(204);
    expect(Object.keys(table).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(typeof table[id], id).toBe('function');
  });
});
