// What the fault tests of suites/src/checks/faults*.test.ts share: faults made of a route's query, and the runs of
// a test file's harness (the selection against the unbroken mock first, so that a deviation the mock already has
// cannot be mistaken for the effect of the fault). The tests are four files so that vitest's two forks share them:
// one file of 41 tests took six minutes beside another `npm test` on the 2-core machine.
import type { RunResult } from '../report/model.ts';
import { failedBy as failedByOf, parse, plain, withHeader, withQuery, type Fault, type MockResponse } from './faulty-mock.ts';

/** A file's harness (faulty-mock.ts's harnessForFile()). */
type Harness = Parameters<typeof failedByOf>[0];

export const withoutHeader = (res: MockResponse, name: string): MockResponse => withHeader(res, name, undefined);

export const BOOLEAN = /^(true|false|1|0)$/i;

/** A server that reads the query of a GET to `route` otherwise than it was sent, when `when` holds. */
export function readsQueryAs(route: string, when: (q: URLSearchParams) => boolean, edit: (q: URLSearchParams) => void): Fault {
  return (req, next) => {
    const { route: r, query } = parse(req);
    // HEAD is read as its GET (head compares the two).
    return (req.method === 'GET' || req.method === 'HEAD') && r === route && when(query) ? next(withQuery(req, edit)) : next(req);
  };
}

/**
 * The fault's answer as the adapter should send it (plain). The mock's response cache hands back `bodyBytes`
 * beside `body`, and the node adapter sends those bytes when present; a fault that rewrote `body` on a
 * cached answer (`{...res, body}`) would otherwise be sent unchanged, so the fault would hit only the
 * first of two identical reads within a second (that made the descriptor fault look like a
 * rest_route_equivalence and method_override finding: one form was rewritten, the other was not).
 * The harness drops them from every answer a fault gives; a fault that answers from inside keeps doing it.
 */
export const asFaulted = plain;

/** The runs of a file's harness: a selection with a fault, and what the fault alone made fail. */
export function faultRuns(h: Harness) {
  const runSuite = async (fault: Fault | undefined, only: string): Promise<RunResult> => (await h.run(fault, only)).run;
  /** The cases that fail with the fault and did not fail without it (faulty-mock.ts's failedBy()). */
  const failedBy = (fault: Fault, only: string): Promise<RunResult['cases']> => failedByOf(h, fault, only);
  /** The checks of those cases. */
  const caughtBy = async (fault: Fault, only: string): Promise<string[]> => [...new Set((await failedBy(fault, only)).map((c) => c.check))].sort();
  return { runSuite, caughtBy, failedBy };
}
