// .ci/layers/per-call-classes.ts: the mock and the contract layer make no hidden class per call, and the scan finds
// each shape that does, inside a function, and not the same code made once.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './layers.ts';
import { perCallClasses, perCallClassesIn } from './per-call-classes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the mock and the contract layer', () => {
  it('make no hidden class per call', () => {
    expect(perCallClasses(sourceFiles(root))).toEqual([]);
  });
});

describe('the scan', () => {
  const whats = (text: string) => perCallClassesIn('mock/src/x.ts', text).map((c) => `${c.at} ${c.what}`);

  it.each([
    ['a generator IIFE', 'function f(v: number) {\n  return (function* () {\n    yield v;\n  })();\n}', 'mock/src/x.ts:2 generator function made per call'],
    ['a generator method in a literal', 'function f(v: number) {\n  return { *[Symbol.iterator]() { yield v; } };\n}', 'mock/src/x.ts:2 generator function made per call'],
    ['a getter in a literal', 'function f(v: number) {\n  return { get x() { return v; } };\n}', 'mock/src/x.ts:2 accessor in an object literal made per call'],
    ['a setter in a literal', 'const f = (v: number) => ({\n  set x(n: number) { v = n; },\n});', 'mock/src/x.ts:2 accessor in an object literal made per call'],
    ['a class in a function', 'function f() {\n  class A {}\n  return new A();\n}', 'mock/src/x.ts:2 class declared per call'],
    ['a class expression in a method', 'class B {\n  m() {\n    return class {};\n  }\n}', 'mock/src/x.ts:3 class declared per call'],
    ['a getter in a literal inside a class method', 'class B {\n  m(v: number) {\n    return { get x() { return v; } };\n  }\n}', 'mock/src/x.ts:3 accessor in an object literal made per call'],
  ])('finds %s', (_, text, found) => {
    expect(whats(text)).toEqual([found]);
  });

  it.each([
    ['a top-level generator function', 'function* steps(v: number) {\n  yield v;\n}'],
    ['a literal with a getter made once, at the top of a module', 'export const config = { get now() { return Date.now(); } };'],
    ['a class with getters and generator methods', 'class A {\n  get x() { return 1; }\n  *items() { yield 1; }\n}'],
    ['methods and arrows in a literal made per call', 'function f(v: number) {\n  return { json() { return v; }, next: () => v };\n}'],
  ])('passes %s', (_, text) => {
    expect(whats(text)).toEqual([]);
  });

  it('looks at the mock and the contract layer only, and not at tests', () => {
    const text = 'function f(v: number) {\n  return { get x() { return v; } };\n}';
    const files = ['mock/src/a.ts', 'contracts/lib/b.ts', 'suites/src/c.ts', 'mock/src/d.test.ts'].map((path) => ({ path, text }));
    expect(perCallClasses(files).map((c) => c.at)).toEqual(['contracts/lib/b.ts:2', 'mock/src/a.ts:2']);
  });
});
