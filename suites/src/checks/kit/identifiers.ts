// Identifiers the site issues and the suite cannot know: an import's `batch_hash`, a nonce, an API key, a slider's
// alias or a translation job no list of the documents names. Every request to such a route names one that does
// not exist, so the site refuses all of them for that one reason (404 slider_not_found, 400 naming batch_hash), and
// nothing is shown about any other parameter. That is one inconclusive finding with its reason, not one per
// parameter, enum value and edge: the route's cases that could not be judged are kept, as skipped, pointing to it.
// A refusal of a value the documents allow, and an acceptance, are still judged as they come.

import type { Operation } from '../../../../contracts/lib/types.ts';
import { textKind } from '../../../../contracts/lib/arbitraries/index.ts';
import type { Exchange } from '../../http/types.ts';
import { heldForm } from './bodies.ts';
import type { Finding, UnitEnv } from './unit.ts';
import { refKey, type ReferenceField, type ReferenceValues } from './references.ts';
import { namedByRefusal } from './retry.ts';
import { describeAnswer, wpError } from './wp.ts';

interface Unknowable {
  param: string;
  /** Why the suite cannot know a value for it. */
  why: string;
}

/**
 * The parameters of `op` whose values only the site can issue: a path parameter no list names (or whose list is
 * empty on the target), a required token, hash, nonce or key. `ownPath`: the path names a record the suite made.
 */
export function unknowables(op: Operation, refs: readonly ReferenceField[], values: ReferenceValues | undefined, ownPath = false): Unknowable[] {
  const out: Unknowable[] = [];
  for (const p of op.params) {
    const ref = refs.find((f) => f.location === p.in && f.param === p.name);
    if (p.in === 'path') {
      if (ownPath) continue;
      if (!ref) out.push({ param: p.name, why: `{${p.name}} names a record the site makes, and no list of the documents names its records` });
      else if ((values?.ids.get(refKey(ref))?.length ?? 0) === 0) out.push({ param: p.name, why: `{${p.name}} names a record, and the target lists none (${values?.source.get(refKey(ref)) ?? `GET ${ref.list.path}`})` });
      continue;
    }
    if (p.required && !ref && textKind(p.name) === 'token') out.push({ param: p.name, why: `${p.name} is a value the site issues (an import's batch hash, a nonce, a key) that the suite cannot know` });
  }
  return out;
}

/** `3× 404 rest_post_invalid_id, 1× 401 rest_forbidden`: what came back instead of an acceptance. */
export function answers(es: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const e of es) {
    const k = e.response ? describeAnswer(e.response) : (e.error?.kind ?? 'no answer');
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n}× ${k}`).join(', ');
}

interface Collapsing {
  /** The unit's env, whose findings of `check` wait for done(). */
  env: UnitEnv;
  done(): void;
}

/** Whether an answer is the site refusing the identifier: a 404 that is not rest_no_route, or a 400 naming it. */
export function refusedIdentifier(ids: readonly Unknowable[], e: Exchange | undefined): boolean {
  const r = e?.response;
  if (!e || !r) return false;
  if (r.status === 404) return wpError(r)?.code !== 'rest_no_route';
  return namedByRefusal(e).some((n) => ids.some((i) => i.param === n));
}

/** What one collapsed finding says: its variant, why its cases showed nothing, and what each skipped one says. */
interface Summary {
  variant: string;
  skipped: string;
  message: (answers: string, n: number) => string;
}

/**
 * Holds the findings of `check` on `op` until done(). Then, when `collapse(held)` holds, the inconclusive ones
 * `caused` by one reason become one inconclusive finding that gives it, and each of them a skip that points to
 * it; otherwise they go out as they came.
 */
function holding(env: UnitEnv, op: Operation, check: string, summary: Summary, collapse: (held: readonly Finding[]) => boolean, caused: (f: Finding) => boolean): Collapsing {
  const held: Finding[] = [];
  // Held in the form that keeps a bounded part of a body: an operation's findings may be hundreds of answers.
  const inner: UnitEnv = { ...env, emit: (f) => (f.check === check && f.operation === op ? held.push(f.exchange ? { ...f, exchange: heldForm(f.exchange) } : f) : env.emit(f)) };
  return {
    env: inner,
    done: () => {
      const inc = held.filter((f) => f.outcome === 'inconclusive' && caused(f));
      if (inc.length === 0 || !collapse(held)) {
        for (const f of held) env.emit(f);
        return;
      }
      for (const f of held) {
        if (!inc.includes(f)) env.emit(f);
        else env.emit({ ...f, outcome: 'skip', message: `not judged on its own: ${summary.skipped} (see ${summary.variant}); ${f.message ?? ''}` });
      }
      const shown = inc.map((f) => f.exchange).filter((e): e is Exchange => e !== undefined);
      env.emit({
        check,
        operation: op,
        variant: summary.variant,
        // The severity of the cases it stands for: error_envelope's are convention, negative_rejection's documented.
        severity: inc[0]!.severity,
        outcome: 'inconclusive',
        message: summary.message(answers(shown), inc.length),
        ...(shown.length ? { exchange: shown[shown.length - 1]! } : {}),
      });
    },
  };
}

/**
 * Holds the findings of `check` on `op` until done(). Then, when `ids` is not empty and `collapse(held)` holds,
 * the inconclusive ones `caused` by the identifier (default: all) become one inconclusive finding naming the
 * identifiers, and each of them a skip that points to it; otherwise they go out as they came.
 */
export function collapsing(
  env: UnitEnv,
  op: Operation,
  check: string,
  ids: readonly Unknowable[],
  collapse: (held: readonly Finding[]) => boolean,
  caused: (f: Finding) => boolean = () => true,
): Collapsing {
  if (ids.length === 0) return { env, done: () => undefined };
  const names = ids.map((i) => i.param).join(', ');
  const summary: Summary = {
    variant: `identifier:${ids.map((i) => i.param).join(',')}`,
    skipped: `every request named a ${names} the target does not have`,
    message: (shown, n) => `${ids.map((i) => i.why).join('; ')}: every request named one the target does not have (${shown}), so ${n} case(s) of ${check} show nothing about the route's other parameters`,
  };
  return holding(env, op, check, summary, collapse, caused);
}

const forbidden = (f: Finding): boolean => f.exchange?.response?.status === 401 || f.exchange?.response?.status === 403;

/**
 * A route that refuses every request for who is asking (401 anonymously, 403 for a user who may not): one
 * inconclusive finding with that reason, when nothing of `check` on it was accepted.
 */
export function refusedForWho(env: UnitEnv, op: Operation, check: string): Collapsing {
  const summary: Summary = {
    variant: 'permission',
    skipped: 'every request was refused for who is asking',
    message: (shown, n) =>
      `every request was refused for who is asking (${shown}), so ${n} case(s) of ${check} show nothing about the route's parameters: ${env.hasCredentials ? 'it needs a user with more rights than the one this run signs in as' : 'it needs credentials, which this run does not have (--auth-env)'}`,
  };
  return holding(env, op, check, summary, (held) => !held.some((f) => f.outcome === 'pass') && held.filter((f) => f.outcome === 'inconclusive').every(forbidden), forbidden);
}
