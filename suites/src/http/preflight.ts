// Before anything else: is there a WordPress REST root where the person pointed us? An answer that is
// not one (connection refused, a timeout, an HTML page) ends the run with exit 2 and a message that says
// what to change, since every check would fail for the same uninteresting reason.

import { TargetUnreachableError } from '../cli/errors.ts';
import { parseDescriptor, type LiveDescriptor } from '../diff/descriptor.ts';
import type { HttpClient } from './client.ts';
import { jsonBody, type Exchange } from './types.ts';

export interface Reached {
  descriptor: LiveDescriptor;
  exchange: Exchange;
}

export async function reachRoot(client: HttpClient): Promise<Reached> {
  // Without credentials first: a wrong application password makes some sites answer 401 even here,
  // and that is a different message than "not a WordPress".
  const exchange = await client.send({ method: 'GET', route: '/', auth: false });
  const url = exchange.request.url;
  const { target } = client;
  const hint = `check --base-url (${target.baseUrl}) and --api-root (${target.apiRoot})`;
  if (exchange.error) {
    const { kind, message } = exchange.error;
    if (kind === 'timeout') throw new TargetUnreachableError(`${url} did not answer within the timeout: ${message}; ${hint}, or raise --timeout-ms`);
    if (kind === 'aborted') throw new TargetUnreachableError(`stopped before ${url} answered`);
    throw new TargetUnreachableError(`cannot reach ${url} (${message}); ${hint}, and that the site is running`);
  }
  const r = exchange.response!;
  const body = jsonBody(r);
  const type = r.headers['content-type'] ?? 'no content type';
  if (r.status !== 200 || body === undefined) {
    const alt = target.apiRoot === '/wp-json' ? " (a site without pretty permalinks needs --api-root rest_route)" : '';
    throw new TargetUnreachableError(`${url} is not a WordPress REST root: it answered ${r.status} with ${type}; ${hint}${alt}`);
  }
  try {
    return { descriptor: parseDescriptor(body), exchange };
  } catch (e) {
    throw new TargetUnreachableError(`${url} answered JSON but not a WordPress REST root (${(e as Error).message}); ${hint}`);
  }
}
