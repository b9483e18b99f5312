// Browser entry of the mock (`site-contracts/mock/browser`): the same stateful mock as `createMock()`, built from
// what is in memory instead of files, so that it runs in a page, e.g. behind MSW's service worker:
//
//   import { setupWorker } from 'msw/browser';
//   import contractYaml from 'site-contracts/openapi.yaml?raw';   // Vite; any way of getting the text will do
//   import { createBrowserMock } from 'site-contracts/mock/browser';
//   import { wordpressHandlers } from 'site-contracts/mock/msw';
//   const mock = await createBrowserMock({ contract: contractYaml });
//   await setupWorker(...wordpressHandlers(mock)).start();
//
// Nothing reachable from here imports a `node:` module or uses a Node global; mock/src/adapters/msw.browser.test.ts
// bundles it for the browser platform, which would fail if anything did.
import { parse } from 'yaml';
import { loadContractWith, parseContractWith, type Contract } from '../../contracts/lib/contract.ts';
import { createAjv } from '../../contracts/lib/ajv.ts';
import type { JsonSchema } from '../../contracts/lib/types.ts';
import { generateFixtures } from '../../fixtures/lib/generate-all.ts';
import { assembleMock, type Mock, type MockBehaviour } from './assemble.ts';
import { checkFixtureSet } from './store/fixture-schema.ts';
import { FIXTURE_FILES, type FixtureSet } from '../../contracts/model/records.ts';
import { createStore } from './store/store.ts';
import { systemClock } from './core/types.ts';

export type { Credentials, Mock, MockBehaviour } from './assemble.ts';
export type { MockRequest, MockResponse, Clock } from './core/types.ts';
export { FixtureError } from '../../contracts/model/fixture-error.ts';

export interface BrowserMockOptions extends MockBehaviour {
  /**
   * The contract: the text of contracts/openapi.yaml (`site-contracts/openapi.yaml`), that text already parsed
   * (YAML or JSON, a plain object), or a contract loaded with `loadContract()`. Parsing the YAML text takes about half
   * a second; a parsed object is much quicker.
   */
  contract: string | JsonSchema | Contract;
  /**
   * The parsed contents of the three fixture files (calendar.json, addons.json, users.json), checked as the Node
   * entry checks the files (a FixtureError names what is wrong). Default: the fixtures generated from `seed`, which
   * for seed 1 (the default) are exactly the committed fixtures/, so the data is the same as `npm run mock`'s.
   */
  fixtures?: { calendar: unknown; addons: unknown; users: unknown };
  /** Compile every validator at start (startup cost paid up front instead of on first use). */
  compileAll?: boolean;
}

function isContract(c: BrowserMockOptions['contract']): c is Contract {
  return typeof c === 'object' && c !== null && Array.isArray((c as Contract).operations) && typeof (c as Contract).match === 'function';
}

/** Loads a contract from its text or its parsed document (`loadContract` of the Node entry, without the file). */
export function contractFrom(source: string | JsonSchema): Contract {
  return loadContractWith(createAjv, typeof source === 'string' ? parseContractWith(parse, source) : source);
}

/** The mock, from in-memory inputs. Same behaviour and API as `createMock()` of `site-contracts/mock`. */
export async function createBrowserMock(options: BrowserMockOptions): Promise<Mock> {
  const contract = isContract(options.contract) ? options.contract : contractFrom(options.contract);
  // The mock validates with validateBounded() (core/params.ts): its validators, not validate()'s.
  if (options.compileAll) contract.compileAll('bounded');
  const clock = options.clock ?? systemClock;
  const fixtures: FixtureSet = options.fixtures
    ? checkFixtureSet({ calendar: options.fixtures.calendar, addons: options.fixtures.addons, users: options.fixtures.users }, FIXTURE_FILES)
    : generateFixtures({ seed: options.seed ?? 1 });
  const store = createStore(fixtures, { now: () => new Date(clock.now()) });
  return assembleMock(contract, store, options);
}
