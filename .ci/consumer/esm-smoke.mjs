// Plain node, no TypeScript, no loader: the package's entry points as an installed package serves them. The mock
// starts in-process and answers a request, and the generators give requests the contract and the mock agree on.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { DEFAULT_CONTRACT_PATH, loadContractFile } from 'site-contracts';
import { toTyped, toUrl, validRequest, violatingRequest } from 'site-contracts/arbitraries';
import { createMock, DEFAULT_FIXTURES_DIR, listen } from 'site-contracts/mock';

const installed = realpathSync(new URL('./node_modules/site-contracts/', import.meta.url));
assert.ok(DEFAULT_CONTRACT_PATH.startsWith(installed), `contract read from the installed package: ${DEFAULT_CONTRACT_PATH}`);
assert.ok(DEFAULT_FIXTURES_DIR.startsWith(installed), `fixtures read from the installed package: ${DEFAULT_FIXTURES_DIR}`);
assert.match(import.meta.resolve('site-contracts/openapi.yaml'), /\/node_modules\/site-contracts\/contracts\/openapi\.yaml$/);
assert.equal(createRequire(import.meta.url)('site-contracts/package.json').name, 'site-contracts');

const contract = loadContractFile();
assert.equal(contract.operations.length, 204);
const op = contract.operation('getCalV1Events');

// Sampled requests are valid by the contract ...
const requests = fc.sample(validRequest(contract, 'getCalV1Events'), { numRuns: 25, seed: 12 });
for (const r of requests) assert.deepEqual(contract.validate(op, toTyped(op, r)).issues, [], JSON.stringify(r));

const mock = await createMock({ contract });
const server = await listen(mock.respond, { port: 0, host: '127.0.0.1' });
try {
  const res = await fetch(`${server.url}/wp-json/cal/v1/events?per_page=2&_fields=id,title`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-wp-total'), '137');
  const events = await res.json();
  assert.equal(events.length, 2);

  // ... and the mock takes them: no 4xx, no 5xx.
  for (const r of requests) {
    const answer = await fetch(toUrl(server.url, '/wp-json', r));
    assert.equal(answer.status, 200, `${toUrl(server.url, '/wp-json', r)} answered ${answer.status}: ${await answer.text()}`);
    await answer.arrayBuffer().catch(() => undefined);
  }

  // At the edge: per_page=100 is taken, 101 refused.
  assert.equal((await fetch(`${server.url}/wp-json/cal/v1/events?per_page=100&_fields=id`)).status, 200);
  const edge = await fetch(`${server.url}/wp-json/cal/v1/events?per_page=101`);
  assert.equal(edge.status, 400);
  assert.equal((await edge.json()).code, 'rest_invalid_param');

  // A generated per_page above 100 is WordPress's 400 naming the parameter too.
  const [tooMany] = fc.sample(violatingRequest(contract, 'getCalV1Events', 'getCalV1Events query.per_page maximum'), { numRuns: 1, seed: 12 });
  const refused = await fetch(toUrl(server.url, '/wp-json', tooMany.request));
  assert.equal(refused.status, 400);
  const error = await refused.json();
  assert.equal(error.code, 'rest_invalid_param');
  assert.ok('per_page' in error.data.params);

  console.log(`esm: ${contract.operations.length} operations; ${requests.length} generated requests valid and answered 200 by the in-process mock at ${server.url}; per_page=100 answered 200, 101 400, generated per_page=${new URL(toUrl(server.url, '/wp-json', tooMany.request)).searchParams.get('per_page')} answered 400 ${error.code}`);
} finally {
  await server.close();
  await mock.close();
}
