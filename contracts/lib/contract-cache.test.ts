// The parsed-contract cache against the canonical parse: whatever the YAML, the document read back from the cache
// equals parseContract's, a changed text never meets an old entry, and a torn file is parsed again and rewritten.
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { cacheKey, parseContractCached, projectCacheDir, type CacheIo } from './contract-cache.ts';
import { DEFAULT_CONTRACT_PATH, loadContract, parseContract } from './loader.ts';

function memoryIo(): CacheIo & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return { files, read: (p) => files.get(p), write: (p, t) => void files.set(p, t) };
}

// Documents as the contract's YAML holds them: objects, lists, strings, numbers, booleans, null, with keys such as
// "$ref", "x-…" and "200"; anchors and aliases too (the bundle uses them).
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('list'), tie('map')),
  leaf: fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(-0, 0.5), fc.boolean(), fc.constant(null)),
  list: fc.array(tie('node'), { maxLength: 4 }),
  map: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('$ref', 'x-wp-mark', '200', 'yes', 'on', '1e3')), tie('node'), { maxKeys: 4 }),
}));

describe('the parsed-contract cache', () => {
  it('gives back what parseContract gives, on a miss and on the hit after it, for any document', () => {
    fc.assert(
      fc.property(value.map, fc.boolean(), (doc, aliases) => {
        const text = stringify(doc, { aliasDuplicateObjects: aliases });
        const io = memoryIo();
        const miss = parseContractCached(text, ['/c'], '/c', io, parseContract);
        const hit = parseContractCached(text, ['/c'], '/c', io, parseContract);
        expect(miss.from).toBe('yaml');
        // What JSON cannot say (-0, infinities) is never cached: parsed from the YAML every time.
        const exact = isDeepStrictEqual(JSON.parse(JSON.stringify(parseContract(text))), parseContract(text));
        expect(hit.from).toBe(exact ? 'cache' : 'yaml');
        expect(hit.doc).toEqual(parseContract(text));
        expect(miss.doc).toEqual(parseContract(text));
        // Written as ASCII (ascii-json.ts), whatever the document's characters.
        for (const written of io.files.values()) expect(written).toMatch(/^[\x00-\x7f]*$/);
      }),
      { numRuns: 300 },
    );
  });

  it('holds for the real contract: the same operations, routes and document from the cache as from the YAML', () => {
    const text = readFileSync(DEFAULT_CONTRACT_PATH, 'utf8');
    const io = memoryIo();
    parseContractCached(text, ['/c'], '/c', io, parseContract);
    const cached = parseContractCached(text, ['/c'], '/c', io, parseContract);
    expect(cached.from).toBe('cache');
    const fresh = loadContract(parseContract(text));
    const viaCache = loadContract(cached.doc);
    expect(viaCache.doc).toEqual(fresh.doc);
    expect(viaCache.operations.map((o) => [o.id, o.method, o.path])).toEqual(fresh.operations.map((o) => [o.id, o.method, o.path]));
    expect(viaCache.requestSchema(viaCache.operation('getCalV1Events'))).toEqual(fresh.requestSchema(fresh.operation('getCalV1Events')));
  });

  it('keys entries by the text: an edit misses, and a torn file is parsed again and rewritten', () => {
    const io = memoryIo();
    const a = 'openapi: 3.1.0\ninfo: {title: a}\n';
    const b = 'openapi: 3.1.0\ninfo: {title: b}\n';
    expect(cacheKey(a)).not.toBe(cacheKey(b));
    parseContractCached(a, ['/c'], '/c', io, parseContract);
    expect(parseContractCached(b, ['/c'], '/c', io, parseContract)).toMatchObject({ from: 'yaml', doc: { info: { title: 'b' } } });
    const [path] = [...io.files.keys()].filter((p) => p.includes(cacheKey(a)));
    io.files.set(path!, '{"torn');
    expect(parseContractCached(a, ['/c'], '/c', io, parseContract)).toMatchObject({ from: 'yaml', wrote: path, doc: { info: { title: 'a' } } });
    expect(JSON.parse(io.files.get(path!)!)).toEqual(parseContract(a));
  });

  it('reads from the package first, writes to the project, and carries on where it cannot write', () => {
    const io = memoryIo();
    const text = 'a: 1\n';
    io.files.set(`/pkg/dist/contract-cache/openapi-${cacheKey(text)}.json`, '{"a":1}');
    expect(parseContractCached(text, ['/pkg/dist/contract-cache', '/proj'], '/proj', io, parseContract)).toEqual({ doc: { a: 1 }, from: 'cache' });
    const readOnly: CacheIo = { read: () => undefined, write: () => { throw new Error('EROFS'); } };
    expect(parseContractCached(text, ['/x'], '/x', readOnly, parseContract)).toEqual({ doc: { a: 1 }, from: 'yaml' });
    expect(projectCacheDir('/home/u/app/node_modules/site-contracts')).toBe('/home/u/app/node_modules/.cache/site-contracts');
    expect(projectCacheDir('/work/site-contracts')).toBe('/work/site-contracts/node_modules/.cache/site-contracts');
  });
});
