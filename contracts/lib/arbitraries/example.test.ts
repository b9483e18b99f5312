// The README's example, run as it stands there (readme.test.ts checks the two stay the same).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from 'site-contracts';
import { anyViolation, encodeBody, toTyped, toUrl, validRequest, violatingRequest } from 'site-contracts/arbitraries';

const contract = loadContractFile();

// Your code under test: here, the events page's own check of the per_page it is about to send.
function perPageError(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n)) return 'per_page must be a whole number';
  if (n < 1 || n > 100) return 'per_page must be between 1 and 100';
  return undefined;
}

describe('events list: per_page', () => {
  it('lets through every request WordPress accepts', () => {
    fc.assert(
      fc.property(validRequest(contract, 'getCalV1Events'), (request) => {
        const url = new URL(toUrl('https://example.org', '/wp-json', request));
        expect(perPageError(url.searchParams.get('per_page'))).toBeUndefined();
      }),
    );
  });

  it('stops per_page below 1 and above 100, as WordPress does', () => {
    for (const id of ['getCalV1Events query.per_page minimum', 'getCalV1Events query.per_page maximum']) {
      fc.assert(
        fc.property(violatingRequest(contract, 'getCalV1Events', id), (violation) => {
          const url = new URL(toUrl('https://example.org', '/?rest_route=', violation.request));
          expect(perPageError(url.searchParams.get('per_page'))).toBeDefined();
        }),
      );
    }
  });
});

describe('batch requests', () => {
  const op = contract.operation('postBatchV1');

  it('are valid in form encoding too', () => {
    fc.assert(
      fc.property(validRequest(contract, 'postBatchV1', { encoding: 'form' }), (request) => {
        expect(encodeBody(request)?.contentType).toBe('application/x-www-form-urlencoded');
        expect(contract.validate(op, toTyped(op, request)).issues).toEqual([]);
      }),
    );
  });

  it('break in exactly the way each violation says', () => {
    fc.assert(
      fc.property(anyViolation(contract, 'postBatchV1')!, (violation) => {
        const issues = contract.validate(op, toTyped(op, violation.request)).issues;
        expect(issues.map((i) => [i.keyword, i.instancePath])).toContainEqual([violation.expected.keyword, violation.expected.instancePath]);
      }),
    );
  });
});
