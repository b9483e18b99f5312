// `site-contracts diff` for people: one line per difference, aligned, and for machines the same as
// report cases (so --baseline can accept known differences and CI gets JUnit/HTML like for `test`).

import { buildCase } from '../report/case.ts';
import type { CaseResult, SeverityPolicy } from '../report/model.ts';
import { GLOBAL_NAMESPACE } from '../report/model.ts';
import type { ArgForm, DiffResult, KeywordDiff } from './diff.ts';

const DESCRIPTOR_CHECK = 'descriptor';

function show(v: unknown): string {
  if (v === undefined) return '-';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 48 ? `${s.slice(0, 45)}...` : s;
}

function form(f: ArgForm | undefined): string {
  if (!f) return '-';
  const parts = Object.entries(f)
    .filter(([k, v]) => !(k === 'required' && v === false))
    .map(([k, v]) => (k === 'required' ? 'required' : `${k}=${show(v)}`));
  return parts.join(' ') || '(no keywords)';
}

function keywordLine(k: KeywordDiff): string {
  return `${k.keyword}: ${show(k.contract)} / ${show(k.target)}`;
}

function diffRows(d: DiffResult): string[][] {
  const rows: string[][] = [];
  for (const o of d.operations) {
    if (o.kind === 'route-missing') rows.push([o.route, o.method, 'route missing', '', '']);
    else if (o.kind === 'method-missing') rows.push([o.route, o.method, 'method missing', '', '']);
    for (const a of o.args) {
      if (a.kind === 'missing') rows.push([o.route, o.method, `arg ${a.name} missing`, form(a.contract), '-']);
      else if (a.kind === 'extra') rows.push([o.route, o.method, `arg ${a.name} extra`, '-', form(a.target)]);
      else for (const k of a.keywords) rows.push([o.route, o.method, `arg ${a.name} ${k.keyword}`, show(k.contract), show(k.target)]);
    }
  }
  for (const x of d.extras) rows.push([x.route, x.methods.join(','), x.kind === 'route-extra' ? 'route extra' : 'method extra', '-', x.pattern]);
  return rows;
}

export function renderTable(d: DiffResult): string {
  const header = ['ROUTE', 'METHOD', 'DIFFERENCE', 'CONTRACT', 'TARGET'];
  const rows = diffRows(d);
  const s = d.summary;
  const lines: string[] = [];
  if (rows.length) {
    const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))));
    const line = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
    lines.push(line(header), ...rows.map(line));
  }
  lines.push(
    `site-contracts diff: ${s.identical ? 'IDENTICAL' : 'DIFFERENT'}: ${s.operations} operations compared: ${s.same} the same, ${s.routeMissing} on missing routes, ${s.methodMissing} missing methods, ${s.withArgDiffs} with ${s.argDiffs} argument differences; ${s.extras} extra routes or methods`,
  );
  if (d.otherNamespaces.length) lines.push(`  not compared (namespaces the contract does not describe): ${d.otherNamespaces.join(', ')}`);
  return lines.join('\n') + '\n';
}

/** One case per operation (and per extra), so reports, --baseline and merge work as for `test`. */
export function diffCases(d: DiffResult, policy: SeverityPolicy): CaseResult[] {
  const ctx = { policy };
  const out: CaseResult[] = [];
  for (const o of d.operations) {
    const base = { check: DESCRIPTOR_CHECK, namespace: o.namespace === '' ? 'root' : o.namespace, operationId: o.operationId, method: o.method, route: o.route, severity: 'documented' as const, durationMs: 0 };
    if (o.kind === 'route-missing') out.push(buildCase({ ...base, variant: 'route', outcome: 'fail', message: `the target's descriptor has no route ${o.route}` }, ctx));
    else if (o.kind === 'method-missing') out.push(buildCase({ ...base, variant: 'method', outcome: 'fail', message: `the target's descriptor lists ${o.route} without ${o.method}` }, ctx));
    else {
      out.push(buildCase({ ...base, variant: 'method', outcome: 'pass', message: 'listed' }, ctx));
      for (const a of o.args) {
        const message =
          a.kind === 'missing'
            ? `argument ${a.name} (${form(a.contract)}) is not listed by the target`
            : a.kind === 'extra'
              ? `the target lists argument ${a.name} (${form(a.target)}), which the contract does not have`
              : `argument ${a.name} differs (contract / target): ${a.keywords.map(keywordLine).join('; ')}`;
        out.push(buildCase({ ...base, variant: `arg.${a.name}`, outcome: 'fail', message }, ctx));
      }
      if (o.args.length === 0) out.push(buildCase({ ...base, variant: 'args', outcome: 'pass', message: 'every argument as in the contract' }, ctx));
    }
  }
  for (const x of d.extras) {
    out.push(
      buildCase(
        {
          check: DESCRIPTOR_CHECK,
          namespace: x.namespace === '' ? GLOBAL_NAMESPACE : x.namespace,
          method: x.methods.join(','),
          route: x.route,
          variant: `extra ${x.methods.join(',')} ${x.route}`,
          severity: 'documented',
          outcome: 'fail',
          message: x.kind === 'route-extra' ? `the target lists ${x.route} (${x.pattern}), which the contract does not have` : `the target serves ${x.methods.join(', ')} on ${x.route}, which the contract does not have`,
          durationMs: 0,
        },
        ctx,
      ),
    );
  }
  return out;
}

/**
 * Which count of the diff's summary a case of diffCases() stands for: `listed` is the passing "route and
 * method listed" case every operation on a served route has besides its argument cases.
 */
export type DifferenceKind = 'same' | 'route-missing' | 'method-missing' | 'args' | 'extra' | 'listed';

/**
 * Read back from the variants diffCases() writes (the one place that names them), so that a report can
 * count and filter by the diff's own summary: one `same` case per operation the same, one `args` case per
 * argument difference, one case per missing route, missing method and extra. Undefined for a case that
 * is not the descriptor check's.
 */
export function differenceOf(c: CaseResult): DifferenceKind | undefined {
  if (c.check !== DESCRIPTOR_CHECK) return undefined;
  const v = c.variant ?? '';
  if (v === 'route') return 'route-missing';
  if (v === 'method') return c.status === 'passed' ? 'listed' : 'method-missing';
  if (v === 'args') return 'same';
  if (v.startsWith('arg.')) return 'args';
  if (v.startsWith('extra ')) return 'extra';
  return undefined;
}
