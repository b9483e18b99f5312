// Which write-method actions the documents describe as reads: sent signed in by default (positive_acceptance), and
// given a credentialed twin when refused anonymously (anonymous_refusal).

import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import { SAFE_METHODS } from '../../http/types.ts';

/** First words of a route's name that describe a read: `getPageSEOScore`, `token/validate`, `searchIntent`. */
const READING_VERBS: ReadonlySet<string> = new Set(['get', 'fetch', 'validate', 'search', 'check', 'verify', 'read', 'find', 'preview']);

/**
 * Whether the documents describe a write-method action as a read: its route's last name begins with a reading verb
 * (get, fetch, validate, search...), and the route is no stored thing (one a DELETE removes, like `searchPage`, whose
 * POST saves it). Such a request changes nothing the suite would have to undo, so it is sent with the run's
 * credentials by default: an add-on whose anonymous answer is 401 shows what it does for a signed-in user.
 */
export function describedAsReading(contract: Contract, op: Operation): boolean {
  if (op.kind !== 'action' || SAFE_METHODS.has(op.method) || op.method === 'DELETE' || contract.operations.some((o) => o.path === op.path && o.method === 'DELETE')) return false;
  const name = op.path.split('/').filter((s) => s !== '' && !s.startsWith('{')).at(-1) ?? '';
  const first = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_-]+/)[0]!.toLowerCase();
  return READING_VERBS.has(first);
}
