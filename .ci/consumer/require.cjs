// A CommonJS project's require(). The package is ESM; Node 20.19 and later load ES modules through require() when
// they have no top-level await, so this works there. Where it cannot, it must fail saying so, not with an internal
// error from deep inside the package.
const assert = require('node:assert/strict');

let contracts, arbitraries, mock;
try {
  contracts = require('site-contracts');
  arbitraries = require('site-contracts/arbitraries');
  mock = require('site-contracts/mock');
} catch (e) {
  // What Node says when it cannot require() an ES module: the message must name ES modules.
  console.error(`require: failed: ${e.code}: ${e.message}`);
  assert.ok(['ERR_REQUIRE_ESM', 'ERR_REQUIRE_ASYNC_MODULE'].includes(e.code), `not an ESM-only failure: ${e.code}`);
  assert.match(e.message, /ES Module|ESM|ECMAScript/i);
  console.log('require: the package is ESM-only here, and require() says so');
  process.exit(0);
}
const contract = contracts.loadContractFile();
assert.equal(contract.operations.length, 204);
assert.equal(typeof arbitraries.validRequest, 'function');
assert.equal(typeof mock.createMock, 'function');
mock.createMock({ contract }).then(async (m) => {
  const res = await m.handle({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=1', headers: { host: 'example.org' } });
  assert.equal(res.status, 200);
  console.log(`require: works (node ${process.version}): ${contract.operations.length} operations, the mock answered ${res.status}`);
});
