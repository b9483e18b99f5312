// The target's neighbours: every address a generated request carries names a reserved domain (RFC 2606, RFC 6761),
// never a host of someone else's. A site that fetches what it is given (oEmbed's proxy with discover=true, a remote
// image) or mails an address would otherwise reach random hosts on the internet on the suite's behalf.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { constraintsOf, edgeCases, validRequest, violatingRequest } from './index.ts';
import { isReservedHost, uri } from './formats.ts';
import { textKind } from './plausible.ts';
import type { WireRequest } from './model.ts';
import { bodyValues } from './wire.ts';

const contract = loadContractFile();

/** Every string leaf of a request, with the parameter it sits under. */
function strings(req: WireRequest): { param: string; value: string }[] {
  const out: { param: string; value: string }[] = [];
  const walk = (param: string, v: unknown): void => {
    if (typeof v === 'string') out.push({ param, value: v });
    else if (Array.isArray(v)) v.forEach((x) => walk(param, x));
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(param, x);
  };
  for (const [k, v] of Object.entries(req.query)) walk(k, v);
  for (const [k, v] of Object.entries(req.pathParams)) walk(k, v);
  if (req.body) for (const [k, v] of Object.entries(bodyValues(req.body))) walk(k, v);
  return out;
}

const SCHEMED = /\bhttps?:\/\/([^/?#\s:@]+)/gi;
const MAILED = /@([a-z0-9.-]+\.[a-z]{2,})\b/gi;
// What a lenient site would take for an address with its scheme left out (esc_url_raw() adds http://).
const BARE_HOST = /^(?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?:\/|$)/i;

/** Hosts a value names that are not reserved; `addressed`: the field holds an address (url, website, image...). */
function foreignHosts(value: string, addressed = true): string[] {
  const hosts = [...value.matchAll(SCHEMED), ...value.matchAll(MAILED)].map((m) => m[1]!);
  const bare = BARE_HOST.exec(value)?.[1];
  if (bare && (addressed || bare.startsWith('www.'))) hosts.push(bare);
  return hosts.filter((h) => !isReservedHost(h));
}

function offenders(reqs: readonly WireRequest[]): string[] {
  return reqs.flatMap((r) => strings(r).flatMap(({ param, value }) => foreignHosts(value, ['url', 'media', 'email'].includes(textKind(param))).map((h) => `${r.operationId} ${param}=${JSON.stringify(value)} (${h})`)));
}

describe("the target's neighbours", () => {
  it('knows the reserved domains, and nothing that only ends like one', () => {
    for (const h of ['example.com', 'www.example.org', 'a.example.net', 'events.test', 'x.invalid', 'site.example', 'EXAMPLE.COM.']) expect(isReservedHost(h), h).toBe(true);
    for (const h of ['notexample.com', 'example.co', 'test.com', 'invalid.org', 'attest', 'example.com.evil.io']) expect(isReservedHost(h), h).toBe(false);
    expect(foreignHosts('see https://evil.io/x and mail a@b.io')).toEqual(['evil.io', 'b.io']);
    expect(foreignHosts('tickets.example.org/poster.jpg')).toEqual([]);
    expect(foreignHosts('www.evil.io')).toEqual(['evil.io'.replace(/^/, 'www.')]);
  });

  it('gives URLs on reserved hosts only', () => {
    for (const u of fc.sample(uri, { seed: 1, numRuns: 500 })) expect(isReservedHost(new URL(u).hostname), u).toBe(true);
  });

  it('sends no address of another host in any valid, violating or edge request of any operation', () => {
    const reqs: WireRequest[] = [];
    for (const op of contract.operations) {
      for (const plausible of [false, true]) reqs.push(...fc.sample(validRequest(contract, op.id, { optional: 'all', plausible }), { seed: 3, numRuns: 8 }));
      for (const c of constraintsOf(contract, op)) {
        if (c.wire.kind === 'not-applicable') continue;
        try {
          reqs.push(...fc.sample(violatingRequest(contract, op.id, c.id), { seed: 3, numRuns: 3 }).map((v) => v.request));
        } catch {
          // A constraint without a generator: nothing is sent for it.
        }
      }
      reqs.push(...edgeCases(contract, op).map((e) => e.request));
    }
    expect(reqs.length).toBeGreaterThan(5000);
    expect(offenders(reqs)).toEqual([]);
  });

  it("gives oEmbed's url, the one a site fetches, only reserved hosts, valid or broken", () => {
    const valid = fc.sample(validRequest(contract, 'getOembed10Proxy'), { seed: 9, numRuns: 200 });
    const broken = fc.sample(violatingRequest(contract, 'getOembed10Proxy', 'getOembed10Proxy query.url format:uri'), { seed: 9, numRuns: 200 }).map((v) => v.request);
    const urls = [...valid, ...broken].map((r) => String(r.query['url']));
    expect(urls.filter((u) => /^https?:\/\//.test(u)).length).toBeGreaterThan(100);
    expect(offenders([...valid, ...broken])).toEqual([]);
  });
});
