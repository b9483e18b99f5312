// What the mock holds at once for its clients, over all connections, one budget for each kind: request bodies being
// read (adapters/body-budget.ts), long answers being built (stages/respond.ts), answers being sent
// (adapters/answer-budget.ts), in bytes, and answers held back for latency (held.ts), one unit each. One rule for the
// four: a lease grows as its bytes come and is given back once; a refusable lease that would take its pool or its
// client past their bounds is refused room (and takes nothing), unless it is the only lease of its pool (so any single
// body, answer or encoding can still be had) or it stays within the budget's floor (a small answer is never refused
// because large unread ones fill the budget). What is refused is the caller's to answer, each with its own 503.
//
// Long answers being built: eight anonymous clients asking at once for a list of 100 events each embedding 500
// organizers (49 MB each) took the mock to 2.3 GB. A long list's encoding is built in steps (other clients are
// answered between them), so all eight were built together; the budget of answers in flight only saw each once whole,
// and then refused six of them. Now a list encoded in steps grows a lease as its items are encoded (characters count
// as bytes: WordPress's JSON is ASCII, every other character a \uXXXX escape), and a read refused room is answered 503.
//
// Shared fairly (issue 27): one anonymous client holding 200 delayed answers made every other client's request a 503,
// an administrator's too. Each budget is now two pools and a bound per client. Clients with valid credentials have a
// pool of the whole budget to themselves; clients without them share a pool of half of it, which they cannot pass:
// so a signed-in client is never refused because of anonymous ones. Within its pool one client (its address, and its
// user when signed in; anonymous clients from one address are one client) holds at most half of the pool, unless
// what it asks for is the only lease it holds: one client cannot take a whole pool, and one large answer still goes.
// (The memory bound is the signed-in pool plus the anonymous one: one and a half budgets.)
import { wpError, type WpErrorResponse } from '../wire/errors.ts';

/** 128 Mi characters of long answers being built at once (as much as the answers in flight). */
export const DEFAULT_MAX_ANSWER_CHARS_BUILDING = 128 * 1024 * 1024;

/** Who holds a lease: its key (address, and user when signed in) and whether its credentials checked out. */
export interface Client {
  readonly key: string;
  readonly signedIn: boolean;
}

/** A client the caller cannot tell apart (no address, no credentials): every such lease is one anonymous client's. */
export const UNKNOWN_CLIENT: Client = { key: '', signedIn: false };

/**
 * The client a request comes from: its address (as the adapter saw the connection; none in process), and its user
 * when its credentials check out. Anonymous requests from one address are one client.
 */
export function clientOf(address: string | undefined, userId: number | undefined): Client {
  return userId === undefined ? { key: address ?? '', signedIn: false } : { key: `${address ?? ''} ${userId}`, signedIn: true };
}

/** The anonymous clients' pool, as a share of the budget. */
const ANONYMOUS_SHARE = 1 / 2;
/** One client's bound, as a share of its pool. */
const CLIENT_SHARE = 1 / 2;

/** The bound a refused lease would have passed, for the refusal's words. */
export interface Shortage {
  /** `client`: this client's own bound; `anonymous`: the pool of clients without credentials; `signed-in`: theirs. */
  bound: 'client' | 'anonymous' | 'signed-in';
  max: number;
}

export class ByteBudget {
  #signedIn = 0;
  #anonymous = 0;
  readonly #byClient = new Map<string, number>();
  /** The pool clients without credentials share. */
  readonly anonymousMax: number;

  constructor(
    /** The signed-in clients' pool: the whole budget. */
    readonly max: number,
    /** A lease holding no more than this always fits. */
    private readonly floor = 0,
  ) {
    this.anonymousMax = Math.floor(max * ANONYMOUS_SHARE);
  }

  /** Held by every lease, in both pools. */
  get used(): number {
    return this.#signedIn + this.#anonymous;
  }

  /** What one client holds now. */
  heldBy(client: Client): number {
    return this.#byClient.get(poolKey(client)) ?? 0;
  }

  /** One client's bound in its pool. */
  clientMax(client: Client): number {
    return Math.floor((client.signedIn ? this.max : this.anonymousMax) * CLIENT_SHARE);
  }

  /** A lease for one body or answer of `client`; one that is not refusable (a write's answer) always grows. */
  open(refusable = true, client: Client = UNKNOWN_CLIENT): ByteLease {
    return new ByteLease(this, refusable, client);
  }

  /**
   * Whether a lease of `client` holding `held` bytes (counted already) may take `bytes` more: undefined when it may,
   * else the bound it would pass. Within the floor it always may; and so may the only lease of its pool.
   */
  shortage(client: Client, held: number, bytes: number): Shortage | undefined {
    if (held + bytes <= this.floor) return undefined;
    const pool = client.signedIn ? this.#signedIn : this.#anonymous;
    if (pool === held) return undefined;
    const mine = this.heldBy(client);
    const mineMax = this.clientMax(client);
    if (mine !== held && mine + bytes > mineMax) return { bound: 'client', max: mineMax };
    const poolMax = client.signedIn ? this.max : this.anonymousMax;
    if (pool + bytes > poolMax) return { bound: client.signedIn ? 'signed-in' : 'anonymous', max: poolMax };
    return undefined;
  }

  /** Counts `bytes` (negative: given back) for `client`. */
  add(client: Client, bytes: number): void {
    if (client.signedIn) this.#signedIn += bytes;
    else this.#anonymous += bytes;
    const key = poolKey(client);
    const now = (this.#byClient.get(key) ?? 0) + bytes;
    if (now === 0) this.#byClient.delete(key);
    else this.#byClient.set(key, now);
  }
}

/** A client's key in its pool: the same address signed in and not are two clients. */
function poolKey(client: Client): string {
  return client.signedIn ? `+${client.key}` : `-${client.key}`;
}

/** One body's or answer's bytes: grown as they come, given back (once) when it is done or dropped. */
export class ByteLease {
  #held = 0;
  #closed = false;
  /** Why the last grow() was refused. */
  refused: Shortage | undefined;
  constructor(
    private readonly budget: ByteBudget,
    private readonly refusable: boolean,
    private readonly client: Client,
  ) {}

  /** Takes `bytes` more; false (and nothing taken) when a refusable lease does not fit. A closed lease takes nothing. */
  grow(bytes: number): boolean {
    if (this.#closed) return true;
    if (this.refusable) {
      this.refused = this.budget.shortage(this.client, this.#held, bytes);
      if (this.refused) return false;
    }
    this.#held += bytes;
    this.budget.add(this.client, bytes);
    return true;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.budget.add(this.client, -this.#held);
    this.#held = 0;
  }
}

/** The bounds of a budget in words, for a refusal: the one passed, and where the others are. */
export function boundsText(budget: ByteBudget, unit: string, shortage: Shortage | undefined): string {
  const n = (x: number) => `${x.toLocaleString('en')} ${unit}`;
  const anonymousClient = budget.clientMax(UNKNOWN_CLIENT);
  const signedClient = budget.clientMax({ key: '', signedIn: true });
  if (shortage?.bound === 'client') return `one client (an address, with its credentials) holds at most ${n(shortage.max)} at once, and this one holds that much already`;
  if (shortage?.bound === 'anonymous') return `clients without valid credentials hold at most ${n(shortage.max)} at once together (${n(anonymousClient)} each); signed-in clients have ${n(budget.max)} of their own`;
  return `signed-in clients hold at most ${n(budget.max)} at once together (${n(signedClient)} each), and clients without credentials ${n(budget.anonymousMax)} (${n(anonymousClient)} each)`;
}

/**
 * A read refused room to build its answer: it ran, nothing changed, and its answer was not made. The same code as a
 * refused answer in flight (answer-budget.ts), sent with Retry-After: 1 and the REST API's own headers (CORS too,
 * so a page can read it).
 */
export function tooManyAnswersBuilding(budget: ByteBudget, shortage?: Shortage): WpErrorResponse {
  return wpError(
    'mock_too_many_answer_bytes',
    `The mock builds long answers within bounds: ${boundsText(budget, 'characters', shortage)}. This answer did not fit; nothing was changed. Try again.`,
    { status: 503 },
  );
}
