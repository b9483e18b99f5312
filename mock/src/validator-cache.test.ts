// A mock whose contract's validators come from the validator cache (contracts/lib/validator-cache.ts, what a vitest
// file after the first one gets) answers byte for byte what a mock compiling every validator answers (a cold start):
// status, headers and body, for valid and refused requests of every collection the contract lists and for writes.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CacheIo } from '../../contracts/lib/contract-cache.ts';
import { DEFAULT_CONTRACT_PATH, loadContract, loadContractFile, type Contract } from '../../contracts/lib/loader.ts';
import { validatorCache } from '../../contracts/lib/validator-cache.ts';
import { fixedRequests } from './testing/fixed-requests.ts';
import { call, freshMock } from './testing/harness.ts';

const cold = loadContractFile(DEFAULT_CONTRACT_PATH, undefined, null);

function memoryIo(): CacheIo & { files: Map<string, string>; writes: number } {
  const files = new Map<string, string>();
  const io = { files, writes: 0, read: (p: string) => files.get(p), write: (p: string, t: string) => void (io.writes++, files.set(p, t)) };
  return io;
}

const cachedContract = (io: CacheIo): Contract =>
  loadContract(cold.doc, { validators: validatorCache({ dirs: ['/cache'], io, requireModule: createRequire(import.meta.url) }) });

async function answers(contract: Contract): Promise<string[]> {
  const mock = await freshMock({ contract });
  const admin = mock.credentials();
  return fixedRequests(contract).map((r) => {
    const res = call(mock, r.method, r.url, { auth: admin, ...(r.body !== undefined ? { body: r.body } : {}) });
    return JSON.stringify([r.method, r.url, res.status, res.headers, res.body]);
  });
}

describe('a mock started warm from the validator cache', () => {
  it('answers byte for byte what a mock started cold answers, and compiles no request validator', async () => {
    const io = memoryIo();
    const first = await answers(cachedContract(io));
    const written = io.writes;
    expect(written).toBeGreaterThan(40);
    const warm = cachedContract(io);
    const warmAnswers = await answers(warm);
    expect(io.writes).toBe(written);
    const coldAnswers = await answers(loadContractFile(DEFAULT_CONTRACT_PATH, (p) => readFileSync(p, 'utf8'), null));
    expect(warmAnswers).toEqual(coldAnswers);
    expect(first).toEqual(coldAnswers);
    // Both refusals and acceptances were compared.
    const statuses = new Set(coldAnswers.map((a) => (JSON.parse(a) as unknown[])[2]));
    expect([...statuses]).toEqual(expect.arrayContaining([200, 201, 207, 400]));
  });
});
