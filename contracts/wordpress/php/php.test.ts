import { describe, expect, it } from 'vitest';
import {
  addQueryArg,
  isNumeric,
  phpArrayKey,
  phpFloatToString,
  phpJsonDecode,
  phpJsonNumber,
  phpParseMultipart,
  phpParseStr,
  phpToJs,
  phpUrlDecode,
  phpUrlEncode,
  urlencodeDeep,
  wpJsonEncode,
  wpParseList,
  wpSprintfList,
} from './index.ts';

// Expected values below were produced by PHP 8.2.36 (the reference server's runtime) with parse_str(), json_encode(),
// json_decode() and WordPress 6.1.9's add_query_arg() / urlencode_deep(), then transcribed here.

const parsed = (q: string) => phpToJs(phpParseStr(q));
const keys = (q: string) => [...phpParseStr(q).keys()];

describe('phpParseStr (PHP $_GET / parse_str)', () => {
  it('mangles names, builds arrays, lets later plain keys win', () => {
    expect(parsed('a.b=1&a b=2& c=3&[x]=4&d[=5&e[f=6&g[h]i=7&k[]=1&k[]=2&k[5]=x&k[]=y')).toEqual({
      a_b: '2',
      c: '3',
      d_: '5',
      e_f: '6',
      g: { h: '7' },
      k: { 0: '1', 1: '2', 5: 'x', 6: 'y' },
    });
    expect(parsed('a=1&a=2&b[]=1&b=2&c=2&c[]=1')).toEqual({ a: '2', b: '2', c: ['1'] });
    expect(parsed('x[a.b][c d]=1&y[a[b]=2&z[]][]=3')).toEqual({ x: { 'a.b': { 'c d': '1' } }, y: { 'a[b': '2' }, z: ['3'] });
    expect(parsed('a[b.c d[e=1')).toEqual({ a_b_c_d_e: '1' });
    expect(parsed('a.b[c.d]=1')).toEqual({ a_b: { 'c.d': '1' } });
    expect(parsed('a[b][c=1')).toEqual({ a: { b: '1' } });
    expect(parsed('a[b]x[c]=1')).toEqual({ a: { b: '1' } });
    expect(parsed('a=1&a[b]=2')).toEqual({ a: { b: '2' } });
    expect(parsed('a[b]=1&a=2&a[c]=3')).toEqual({ a: { c: '3' } });
    expect(parsed('a[]=1&a[][x]=2')).toEqual({ a: ['1', { x: '2' }] });
    expect(parsed('+a=1&a+=2&%20b=3')).toEqual({ a: '1', a_: '2', b: '3' });
    expect(parsed('k=1&&=2&=&&k2')).toEqual({ k: '1', k2: '' });
  });

  it('treats one whitespace character in brackets as [] but keeps other indexes verbatim', () => {
    expect(parsed('t[ ]=1&u[.]=2')).toEqual({ t: ['1'], u: { '.': '2' } });
    expect(parsed('t[ a]=1&u[a ]=2&v[%09b]=3&w[%0a]=4&x[ 5]=6&y[5 ]=7')).toEqual({
      t: { ' a': '1' },
      u: { 'a ': '2' },
      v: { '\tb': '3' },
      w: ['4'],
      x: { ' 5': '6' },
      y: { '5 ': '7' },
    });
    expect(parsed('a[  ]=1&b[%09]=1&c[%0d]=1&d[%0b]=1&e[%0c]=1&f[ %09 ]=1&g[%00]=1')).toEqual({
      a: { '  ': '1' },
      b: ['1'],
      c: ['1'],
      d: ['1'],
      e: ['1'],
      f: { ' \t ': '1' },
      g_: '1',
    });
  });

  it('keeps PHP key order and integer keys', () => {
    expect(keys('5=a&a=b&-3=c&03=d&-0=e')).toEqual([5, 'a', -3, '03', '-0']);
    const p = phpParseStr('p[1]=a&p[0]=b&m[a][]=1&m[a][]=2&m[b]=3&m[0]=4&m[]=5');
    expect([...(p.get('p') as Map<unknown, unknown>).keys()]).toEqual([1, 0]);
    expect(phpToJs(p.get('m'))).toEqual({ a: ['1', '2'], b: '3', 0: '4', 1: '5' });
    expect([...(p.get('m') as Map<unknown, unknown>).keys()]).toEqual(['a', 'b', 0, 1]);
    expect(phpToJs(phpParseStr('x[]=1&x[a]=2&x[]=3').get('x'))).toEqual({ 0: '1', a: '2', 1: '3' });
    // PHP 8.2 continues after the highest integer key, negative ones included.
    expect(phpToJs(phpParseStr('n[-5]=a&n[]=b').get('n'))).toEqual({ '-5': 'a', '-4': 'b' });
  });

  it('decodes like urldecode and truncates names at NUL', () => {
    expect(parsed('q=%zz%41+b%2&r=%00x&s%00t=1&%41=1')).toEqual({ q: '%zzA b%2', r: '\0x', s: '1', A: '1' });
  });

  it('drops a variable nested deeper than 64 levels, and stops after 1000 variables', () => {
    expect(keys('x' + '[a]'.repeat(64) + '=1')).toEqual(['x']);
    expect(parsed('x=1&x' + '[a]'.repeat(65) + '=1&y=2')).toEqual({ y: '2' });
    const many = Array.from({ length: 1005 }, (_, i) => `k${i + 1}=1`);
    expect(phpParseStr(many.join('&')).size).toBe(1000);
    expect(phpParseStr('&&&&' + many.join('&')).size).toBe(1000);
    expect(phpParseStr('=x&=y&' + many.join('&')).size).toBe(998);
  });
});

describe('phpParseMultipart (PHP $_POST of multipart/form-data)', () => {
  const body = (parts: string[], b = 'XyZ') => `preamble\r\n${parts.map((p) => `--${b}\r\n${p}\r\n`).join('')}--${b}--\r\nepilogue`;
  it('reads fields, brackets and quoted names; skips files and parts without a name', () => {
    const m = phpParseMultipart(
      body([
        'Content-Disposition: form-data; name="title"\r\n\r\nLine one\r\nline two',
        'Content-Disposition: form-data; name="tags[]"\r\n\r\n5',
        'content-disposition: form-data; name=tags[]\r\n\r\n6',
        'Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nignored',
        'Content-Disposition: form-data\r\n\r\nno name',
      ]),
      'XyZ',
    );
    expect(phpToJs(m)).toEqual({ title: 'Line one\r\nline two', tags: ['5', '6'] });
  });
  it('yields nothing for a wrong boundary or no boundary, and stops at max_input_vars', () => {
    expect(phpParseMultipart(body(['Content-Disposition: form-data; name="a"\r\n\r\n1']), 'other').size).toBe(0);
    expect(phpParseMultipart(body(['Content-Disposition: form-data; name="a"\r\n\r\n1']), '').size).toBe(0);
    const many = body(Array.from({ length: 5 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\n${i}`));
    expect(phpParseMultipart(many, 'XyZ', { maxInputVars: 3 }).size).toBe(3);
  });
});

describe('url coding', () => {
  it('urlencode encodes ~ and uses + for spaces; urldecode keeps broken escapes', () => {
    expect(phpUrlEncode("a b~*-_.!'()é/")).toBe('a+b%7E%2A-_.%21%27%28%29%C3%A9%2F');
    expect(phpUrlDecode('a+b%2Fc%zz%')).toBe('a b/c%zz%');
    // Bytes that are no UTF-8 stay the bytes PHP holds, and urlencode() gives them back: WordPress 6.1.9 rebuilds
    // ?x=%ff&z=%e2%82 as x=%FF&z=%E2%82 in its pagination Link (a case of the differential test).
    expect(phpUrlEncode(phpUrlDecode('%ff'))).toBe('%FF');
    expect(phpUrlEncode(phpUrlDecode('%e2%82'))).toBe('%E2%82');
    expect(phpUrlDecode('%C3%A9%zz')).toBe('é%zz');
  });
  it('phpArrayKey follows zend_symtable numeric strings', () => {
    expect(['5', '-5', '05', '-0', '5 ', '9223372036854775808', '0'].map(phpArrayKey)).toEqual([5, -5, '05', '-0', '5 ', '9223372036854775808', 0]);
  });
});

describe('numbers', () => {
  it('(string) cast uses 14 significant digits', () => {
    const cases: [number, string][] = [
      [1e14, '1.0E+14'],
      [1.5e15, '1.5E+15'],
      [0.0001, '0.0001'],
      [1e-5, '1.0E-5'],
      [0.1 + 0.2, '0.3'],
      [1 / 3, '0.33333333333333'],
      [-1.5e-10, '-1.5E-10'],
      [2.5e20, '2.5E+20'],
      [9007199254740992.5, '9.007199254741E+15'],
    ];
    for (const [n, s] of cases) expect(phpFloatToString(n)).toBe(s);
  });
  it('json_encode prints shortest floats, exponent beyond 17 digits', () => {
    const cases: [number, string][] = [
      [1e25, '1.0e+25'],
      [1e17, '1.0e+17'],
      [123456789012345678, '1.2345678901234568e+17'],
      [0.1, '0.1'],
      [0.1 + 0.2, '0.30000000000000004'],
      [1e-7, '1.0e-7'],
      [1e-5, '1.0e-5'],
      [0.0001, '0.0001'],
      [1.5e300, '1.5e+300'],
      [100, '100'],
      [1 / 3, '0.3333333333333333'],
    ];
    for (const [n, s] of cases) expect(phpJsonNumber(n)).toBe(s);
  });
  it('is_numeric accepts surrounding whitespace, leading dot, trailing dot', () => {
    const yes = [' 1', '1 ', '1.', '.5', '1e5', '\n1\n', '+.5e-3', '\v1', '\f1', 5, 1.5];
    const no = ['0x1A', ' ', '1e', '', 'abc', '1,5', null, true, [1]];
    for (const v of yes) expect(isNumeric(v), String(v)).toBe(true);
    for (const v of no) expect(isNumeric(v), String(v)).toBe(false);
  });
});

describe('wpJsonEncode (PHP json_encode defaults)', () => {
  it('escapes slashes and non-ASCII, keeps < > & \' and DEL', () => {
    expect(wpJsonEncode(['é/ü😀\u007f\u001f<>&\''])).toBe('["\\u00e9\\/\\u00fc\\ud83d\\ude00\u007f\\u001f<>&\'"]');
    expect(wpJsonEncode({ href: 'http://a/b' })).toBe('{"href":"http:\\/\\/a\\/b"}');
    expect(wpJsonEncode('\b\f\n\r\t"\\')).toBe('"\\b\\f\\n\\r\\t\\"\\\\"');
  });
  it('prints Maps as lists or objects like PHP arrays', () => {
    expect(wpJsonEncode(new Map([[3, 'x']]))).toBe('{"3":"x"}');
    expect(wpJsonEncode(new Map([[0, 'a'], [1, 'b']]))).toBe('["a","b"]');
    expect(wpJsonEncode(new Map([[1, 'a'], [0, 'b']]))).toBe('{"1":"a","0":"b"}');
  });
  it('pretty-prints with four spaces like JSON_PRETTY_PRINT', () => {
    expect(wpJsonEncode({ a: [], b: {}, c: [1, [2, []]] }, { pretty: true })).toBe(
      '{\n    "a": [],\n    "b": {},\n    "c": [\n        1,\n        [\n            2,\n            []\n        ]\n    ]\n}',
    );
  });
});

describe('phpJsonDecode (json_decode($s, true) error codes)', () => {
  const cases: [string, number][] = [
    ['{"title": "broken",', 4],
    ['"abc', 3],
    ['[1,\x01]', 3],
    ['"\\ud800"', 10],
    ['"\\udc00"', 10],
    ['"\\ud800\\u0041"', 10],
    ['[1] x', 4],
    ['{"a":1,}', 4],
    ['01', 4],
    ['[1.]', 4],
    ['-', 4],
    ['[-]', 4],
    ['tru', 4],
    ['TRUE', 4],
    ['[1,]', 4],
    ['{"a" 1}', 4],
    ['{a:1}', 4],
    ['\ufeff{}', 4],
    ['"\\x"', 4],
    ['"\\u12"', 4],
    ['["a\0"]', 3],
    ['[1]\0', 3],
    ['1 2', 4],
    ['{"a":1}}', 4],
    ['[', 4],
    ['{', 4],
    ['{"a":', 4],
    ['1.5e', 4],
    ['[\x7f]', 4],
    ['[1]\x0b', 3],
    ['é', 4],
    ['"a', 3],
    ['[1,"a', 3],
  ];
  for (const [src, code] of cases) {
    it(`${JSON.stringify(src)} → ${code}`, () => {
      const r = phpJsonDecode(src);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe(code);
    });
  }
  it('reports bad UTF-8 bytes as 5', () => {
    for (const hex of ['5b22ff225d', 'ff', '22c322', '22eda08022', '22c0af22']) {
      const r = phpJsonDecode(Buffer.from(hex, 'hex'));
      expect(r).toMatchObject({ ok: false, code: 5, message: 'Malformed UTF-8 characters, possibly incorrectly encoded' });
    }
  });
  it('accepts what PHP accepts', () => {
    expect(phpJsonDecode('"\\u00e9\\ud83d\\ude00"')).toEqual({ ok: true, value: 'é😀' });
    expect(phpJsonDecode('  [ ]  ')).toEqual({ ok: true, value: [] });
    expect(phpJsonDecode('1E+5')).toEqual({ ok: true, value: 100000 });
    expect(phpJsonDecode('[1]\n\r\t ')).toEqual({ ok: true, value: [1] });
  });
  it('fails at 512 nested containers', () => {
    expect(phpJsonDecode('['.repeat(511) + ']'.repeat(511)).ok).toBe(true);
    expect(phpJsonDecode('['.repeat(512) + ']'.repeat(512))).toMatchObject({ ok: false, code: 1, message: 'Maximum stack depth exceeded' });
  });
  it('gives the message text WordPress puts in json_error_message', () => {
    expect(phpJsonDecode('{"title": "broken",')).toEqual({ ok: false, code: 4, message: 'Syntax error' });
    expect(phpJsonDecode('"abc')).toMatchObject({ message: 'Control character error, possibly incorrectly encoded' });
    expect(phpJsonDecode('"\\ud800"')).toMatchObject({ message: 'Single unpaired UTF-16 surrogate in unicode escape' });
  });
});

describe('addQueryArg (WordPress add_query_arg with urlencode_deep params)', () => {
  const base = 'http://127.0.0.1:8089/wp-json/wp/v2/posts';
  const rebuild = (params: Record<string, unknown> | Map<string | number, unknown>) =>
    addQueryArg({ page: 7 }, addQueryArg(urlencodeDeep(params) as Map<string | number, unknown>, base));
  it('matches PHP output', () => {
    expect(rebuild({ per_page: 2, page: 1 })).toBe(`${base}?per_page=2&page=7`);
    expect(rebuild({ per_page: 5, author: [1], _fields: 'id,author' })).toBe(`${base}?per_page=5&author%5B0%5D=1&_fields=id%2Cauthor&page=7`);
    expect(rebuild({ sticky: false, per_page: 2, _fields: 'id,sticky' })).toBe(`${base}?sticky&per_page=2&_fields=id%2Csticky&page=7`);
    expect(rebuild({ _pretty: '', per_page: 1, _fields: 'id,title' })).toBe(`${base}?_pretty&per_page=1&_fields=id%2Ctitle&page=7`);
    expect(rebuild({ rest_route: '/wp/v2/posts', per_page: 1 })).toBe(`${base}?rest_route=%2Fwp%2Fv2%2Fposts&per_page=1&page=7`);
    expect(rebuild({ search: 'a b&c=d/é~', tags: { terms: [1, 2], operator: 'AND' }, x: true, n: null, e: [] })).toBe(
      `${base}?search=a+b%26c%3Dd%2F%C3%A9%7E&tags%5Bterms%5D%5B0%5D=1&tags%5Bterms%5D%5B1%5D=2&tags%5Boperator%5D=AND&x=1&n&page=7`,
    );
    expect(rebuild(new Map<string | number, unknown>([['a.b', '1'], ['c d', '2'], [0, 'zero'], ['k', 1.5]]))).toBe(
      `${base}?a_b=1&c_d=2&0=zero&k=1.5&page=7`,
    );
    expect(addQueryArg({ page: 2 }, addQueryArg(urlencodeDeep({ a: 'x' }) as Map<string, unknown>, 'http://h/p?z=1&a=old#frag'))).toBe(
      'http://h/p?z=1&a=x&page=2#frag',
    );
  });
});

describe('wp_parse_list and wp_sprintf %l', () => {
  it('splits on commas and whitespace', () => {
    expect(wpParseList('1, 2,,3 \n4')).toEqual(['1', '2', '3', '4']);
    expect(wpParseList('')).toEqual([]);
    expect(wpParseList(['a', 1, null, ['x'], true])).toEqual(['a', 1, true]);
  });
  it('joins lists the English way', () => {
    expect(wpSprintfList(['a'])).toBe('a');
    expect(wpSprintfList(['a', 'b'])).toBe('a and b');
    expect(wpSprintfList(['a', 'b', 'c'])).toBe('a, b, and c');
  });
});
