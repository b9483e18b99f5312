// Code that makes a V8 hidden class (a Map) each time it runs, found with TypeScript's parser. Such a class is made in
// the old generation and points back at what made it: a generator function made per call (`(function* () {...})()`)
// is the constructor of a class of its own; an object literal with a getter or setter holds a new accessor per call;
// a class declared inside a function is a new class per call. Until the next full collection, every young-generation
// collection then treats those dead classes as roots, and copies and promotes all the call's closure reached: in the
// mock, a 25-create batch's whole rendering (79 KB a batch kept through each collection, against 21 KB once the three
// shapes were gone; scavenges of 3.7 ms against 2.2). Made once, at the top of a module, each is harmless.
import ts from 'typescript';
import { isChecked, type ProjectFile } from './exports.ts';

export interface PerCallClass {
  /** `path:line` */
  at: string;
  what: 'generator function made per call' | 'accessor in an object literal made per call' | 'class declared per call';
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** The constructs of one file's text that make a hidden class per call. */
export function perCallClassesIn(path: string, text: string): PerCallClass[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: PerCallClass[] = [];
  const at = (node: ts.Node) => `${path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node, inFunction: boolean): void => {
    // A generator function expression is made each time its expression runs, at the top of a module too (once there,
    // but a module-level IIFE is rare enough to name); a generator method of an object literal, each time the literal does.
    if (ts.isFunctionExpression(node) && node.asteriskToken) out.push({ at: at(node), what: 'generator function made per call' });
    if (inFunction && ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        if (ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) out.push({ at: at(p), what: 'accessor in an object literal made per call' });
        else if (ts.isMethodDeclaration(p) && p.asteriskToken) out.push({ at: at(p), what: 'generator function made per call' });
      }
    }
    if (inFunction && (ts.isClassDeclaration(node) || ts.isClassExpression(node))) out.push({ at: at(node), what: 'class declared per call' });
    // A class body's methods run per call, but the class itself is made once: its members are not "inside a function"
    // until their own bodies.
    const nested = inFunction || FUNCTION_KINDS.has(node.kind);
    ts.forEachChild(node, (child) => visit(child, nested));
  };
  visit(source, false);
  return out;
}

/**
 * Every such construct in the code requests run through: the mock's and the contract layer's modules (exports.ts's
 * isChecked: no tests, nothing generated). The suites make their client and progress line once per run.
 */
export function perCallClasses(files: readonly ProjectFile[]): PerCallClass[] {
  return files
    .filter((f) => isChecked(f) && /^(mock|contracts)\//.test(f.path))
    .flatMap((f) => perCallClassesIn(f.path, f.text))
    .sort((a, b) => a.at.localeCompare(b.at));
}
