// Who may reach the mock, before anything else runs: two rules a development server keeps for a process on a
// developer's machine that a web page could otherwise drive.
//
// 1. The Host must be one of the mock's own names, on every route (the REST API, the site's pages, /__mock/). A page
//    of another site can point its own name at 127.0.0.1 (DNS rebinding) and then read and write the mock as a
//    same-origin page; its requests carry that name in Host. Own names: an IP address (a rebinding page has a name,
//    never an address), `localhost` and `*.localhost`, the address the request reached, the site URL's host, and what
//    `allowedHosts` adds (the CLI adds --host, the machine's name when bound to every address, and --allowed-hosts).
//    This is the list Vite keeps (`server.allowedHosts`: localhost, `.localhost`, IP addresses, a leading dot for a
//    domain and its subdomains), with webpack-dev-server's `all` to turn it off. A request without Host (HTTP/1.0, an
//    MSW intercept) has no name to check, nor has one a program hands to `handle()` itself (no adapter's address, no
//    client connection: nothing reached the network, so no page could have rebound a name to it). The port is not checked: a dev server's proxy forwards its own
//    (localhost:5173) and a container's port is mapped; a rebinding page is caught by its name.
//
// 2. The control routes (/__mock/: reset, the store's state, the page) refuse requests from pages of other sites.
//    Under --auth the browser keeps the administrator's Basic credentials for the mock once the page asked for them,
//    and sends them with any request to it, a cross-site form POST included (no preflight): it would reset the store.
//    The REST routes answer cross-origin requests as WordPress does (CORS is its convention, and a frontend on
//    another port calls them so), so this rule is theirs alone. Decided as the Fetch Metadata "resource isolation
//    policy" does: an `Origin` is allowed when its host is one of the mock's own names (the page is on this machine,
//    or is the mock's own page) and refused otherwise (`null` too); without Origin, `Sec-Fetch-Site: cross-site` is
//    refused except for a top-level navigation to a page (a link from elsewhere opens the mock's page; the page
//    cannot be framed: frame-ancestors 'none'). Scripts, curl and test runners send neither and pass.
import { wpError } from '../wire/errors.ts';
import type { MockRequest, MockResponse } from './types.ts';

/** Names the mock answers to besides its own: `events.test`, `.example.org` (the domain and its subdomains), or 'all'. */
export type AllowedHosts = readonly string[] | 'all';

/** A Host or URL host as compared: lower case, no port, no IPv6 brackets, no trailing dot. */
export function hostName(hostPort: string): string {
  let h = hostPort.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    h = end < 0 ? h.slice(1) : h.slice(1, end);
  } else {
    const colon = h.indexOf(':');
    if (colon >= 0 && colon === h.lastIndexOf(':')) h = h.slice(0, colon);
  }
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
/** An IPv6 address as hostName() leaves it: hex groups and colons (an IPv4 tail allowed), nothing of a name. */
const IPV6 = /^[0-9a-f]{0,4}:[0-9a-f:.]*$/;
const isIp = (name: string): boolean => IPV4.test(name) || IPV6.test(name);
const isLoopback = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost') || name === '::1' || name === '::ffff:127.0.0.1' || (IPV4.test(name) && name.startsWith('127.'));

function listed(name: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => {
    const entry = a.toLowerCase();
    return entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === hostName(entry);
  });
}

interface FrontDoor {
  allowedHosts: AllowedHosts;
  /** The site URL's host, when the mock was given one. */
  siteHost?: string;
}

/** The names every request may use besides IP addresses: loopback, the address reached, the site URL's, the list. */
function namedOwn(name: string, req: MockRequest, door: FrontDoor): boolean {
  if (door.allowedHosts === 'all' || isLoopback(name)) return true;
  if (req.origin !== undefined && name === hostName(new URL(req.origin).host)) return true;
  if (door.siteHost !== undefined && name === door.siteHost) return true;
  return listed(name, door.allowedHosts);
}

function refusal(req: MockRequest, code: string, message: string): MockResponse {
  const error = wpError(code, message, { status: 403 });
  const text = JSON.stringify(error.body);
  // Readable by the page that was refused (it learns nothing but why), as the control routes' answers are.
  const cors: Record<string, string> = req.headers.origin ? { 'Access-Control-Allow-Origin': '*' } : {};
  return { status: 403, headers: { ...cors, 'Content-Type': 'application/json; charset=UTF-8' }, body: req.method.toUpperCase() === 'HEAD' ? '' : text };
}

/** Rule 1: a 403 for a request whose Host is not one of the mock's names; undefined to let it in. */
export function foreignHost(req: MockRequest, door: FrontDoor): MockResponse | undefined {
  const host = req.headers.host;
  if (host === undefined || door.allowedHosts === 'all') return undefined;
  if (req.origin === undefined && req.client === undefined) return undefined;
  const name = hostName(host);
  if (isIp(name) || namedOwn(name, req, door)) return undefined;
  const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
  return refusal(
    req,
    'mock_host_not_allowed',
    `Host "${shown}" is not one of this mock's names (localhost, its IP addresses${door.siteHost ? `, ${door.siteHost}` : ''}${door.allowedHosts.length ? `, ${door.allowedHosts.join(', ')}` : ''}): ` +
      `a page of another site could point that name at this machine (DNS rebinding). If it is yours, start the mock with --allowed-hosts ${shown}.`,
  );
}

/** Rule 2, for the control routes: a 403 for a request from a page of another site; undefined to let it in. */
export function crossSite(req: MockRequest, door: FrontDoor): MockResponse | undefined {
  if (door.allowedHosts === 'all') return undefined;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let name: string | undefined;
    try {
      name = origin === 'null' ? undefined : hostName(new URL(origin).host);
    } catch {
      name = undefined;
    }
    const own = name !== undefined && (namedOwn(name, req, door) || (req.headers.host !== undefined && name === hostName(req.headers.host)));
    if (own) return undefined;
    const shown = origin.length > 100 ? `${origin.slice(0, 100)}…` : origin;
    return refusal(req, 'mock_cross_site', `The mock's control routes refuse requests from pages of other sites (Origin ${shown}). Use the mock's own page, a script or curl; a page on a host of your own may be added with --allowed-hosts.`);
  }
  if (req.headers['sec-fetch-site'] !== 'cross-site') return undefined;
  const method = req.method.toUpperCase();
  const navigation = (method === 'GET' || method === 'HEAD') && req.headers['sec-fetch-mode'] === 'navigate' && req.headers['sec-fetch-dest'] === 'document';
  if (navigation) return undefined;
  return refusal(req, 'mock_cross_site', "The mock's control routes refuse requests from pages of other sites (Sec-Fetch-Site: cross-site). Use the mock's own page, a script or curl.");
}
