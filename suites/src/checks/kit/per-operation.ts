// What the run-wide sweeps (error_envelope, auth_status, content_type) keep of a unit's answers: per operation, how
// many they judged and the first one that was wrong, never every body (a target may answer each with megabytes).

import type { Operation } from '../../../../contracts/lib/types.ts';
import type { Exchange } from '../../http/types.ts';
import type { Finding, Unit } from './unit.ts';

interface OperationSlot {
  op: Operation | undefined;
  /** Answers judged. */
  judged: number;
  /** The first of them that was wrong, with what was wrong. */
  worst?: { e: Exchange; problem: string };
}

export class FirstProblemPerOperation<X extends object = object> {
  private readonly byOp = new Map<string, OperationSlot & X>();

  /** `extra`: the sweep's own counters, for a new slot. */
  constructor(private readonly extra: () => X = () => ({}) as X) {}

  /** Counts `e` for `op`, and keeps it when it is the operation's first wrong answer (`problem` runs only until then). */
  add(op: Operation | undefined, e: Exchange, problem: () => string | undefined): OperationSlot & X {
    const key = op?.id ?? '';
    let slot = this.byOp.get(key);
    if (!slot) {
      slot = { ...this.extra(), op, judged: 0 };
      this.byOp.set(key, slot);
    }
    slot.judged++;
    if (!slot.worst) {
      const p = problem();
      if (p) slot.worst = { e, problem: p };
    }
    return slot;
  }

  slots(): (OperationSlot & X)[] {
    return [...this.byOp.values()];
  }
}

/** Where a sweep's finding belongs: its operation, or the unit's namespace for answers no operation matched. */
export function findingPlace(op: Operation | undefined, unit: Unit): Pick<Finding, 'operation' | 'namespace'> {
  return op ? { operation: op } : { namespace: unit.namespaces?.[0] ?? '' };
}
