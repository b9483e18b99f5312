// The text `--help` prints. Kept next to the parser so a new flag and its description change together.

import { DEFAULT_AUTH_ENV } from '../report/curl.ts';
import { DEFAULTS } from './args.ts';

export function usage(toolName: string): string {
  return `Usage: ${toolName} <command> [flags]

Commands:
  test    Send requests to a live site and check its REST interface against the contract
  diff    Compare a live site's answers with the contract, and report the differences
  proxy   Forward a client's traffic to --upstream and check it against the contract
  merge   Merge the JSON reports of a sharded run: ${toolName} merge reports/shard-*.json

Target (test, diff):
  --base-url URL          Site to test, http(s) (required), e.g. https://staging.example.org
  --api-root PATH         REST root under the site (default ${DEFAULTS.apiRoot}); 'rest_route' for
                          sites without pretty permalinks (/?rest_route=)
  --auth-env VAR          Name of the environment variable that holds user:application-password
                          (default: ${DEFAULT_AUTH_ENV}, when it is set). There is no password flag.
  --read-only             Send no request that creates, changes or deletes anything

Selection and pacing (test, diff):
  --only LIST             Comma-separated namespaces, routes or checks to run (repeatable)
  --skip LIST             Comma-separated namespaces, routes or checks to leave out (repeatable)
  --seed N                Seed for generated inputs (default: random, printed in the report)
  --runs N                Generated cases per parameter (default ${DEFAULTS.runs})
  --max-requests N        Stop after N requests (default ${DEFAULTS.maxRequests})
  --rps N                 At most N requests per second, 0 = unlimited (default ${DEFAULTS.rps})
  --timeout-ms N          Timeout of one request (default ${DEFAULTS.timeoutMs})
  --shard i/n             Run the i-th of n parts (1 <= i <= n); merge the parts afterwards

Proxy:
  --upstream URL          Server to forward to (required for proxy)
  --port N                Port to listen on (default ${DEFAULTS.port})
  (also --api-root, --auth-env, --read-only, --only, --skip, --timeout-ms)

Verdict:
  --conventions error|warn      Findings that break WordPress conventions (default error)
  --response-shapes error|warn  Findings on response shapes the documents never showed (default warn)
                                Findings against documented facts always fail the run.
  --baseline FILE         Earlier JSON report, or {accepted: [{id, reason}]} (JSON or YAML):
                          only failures it does not list fail the run

Reports (all commands):
  --report-dir DIR        Where to write reports (default reports/)
  --format LIST           Any of junit,json,html (default all)

  -h, --help              Show this text
  --version               Show the version

Exit codes:
  0  every case passed (or failed only as the baseline and the policy allow)
  1  at least one failure that fails the run
  2  usage error, unreadable input, or the target could not be reached
  3  internal error, or a command not implemented yet
`;
}
