// The stateful fuzz test's requests: a seeded sequence of abstract commands (fast-check), made concrete against what
// the run has created so far. Valid and one-constraint-violating requests of every operation come from the
// contract's generators; the rest stress what those do not: very long titles and contents (180-10,000 characters,
// Latin and Cyrillic), the same title created again and again, updates, deletes, lists and embeds of what was
// created, batches of up to 25 items mixing all of these, and the public add-on routes with long values, through
// all three API roots and both languages. Pure: no clock, no I/O; the same seed gives the same requests.
import fc from 'fast-check';
import type { Contract } from '../../../contracts/lib/loader.ts';
import { anyViolation, encodeBody, toUrl, validRequest, type WireRequest } from '../../../contracts/lib/arbitraries/index.ts';
import type { MockRequest } from '../core/types.ts';

type Resource = 'events' | 'venues' | 'organizers';
type Ns = 'cal/v1' | 'cal/events/v1';

/** A text built from a seed: `length` characters of one alphabet, words separated by spaces. */
interface TextSpec {
  alphabet: 'latin' | 'cyrillic' | 'mixed';
  length: number;
  seed: number;
}

type Command =
  | { kind: 'valid'; op: number; seed: number; root: number }
  | { kind: 'violation'; op: number; seed: number; root: number }
  | { kind: 'create'; ns: Ns; resource: Resource; title: TextSpec; content?: TextSpec; root: number }
  /** The same title as an earlier create (the slug memo's path; a title whose slug reaches 200 characters hangs it). */
  | { kind: 'again'; pick: number; ns: Ns; resource: Resource; root: number }
  | { kind: 'sameShort'; ns: Ns; resource: Resource; root: number }
  | { kind: 'update'; pick: number; ns: Ns; title?: TextSpec; content?: TextSpec; method: 'PUT' | 'PATCH' }
  | { kind: 'delete'; pick: number; force: boolean }
  | { kind: 'read'; pick: number; ns: Ns; query: string; root: number }
  | { kind: 'list'; ns: Ns; resource: Resource; query: string; search?: TextSpec; root: number }
  | { kind: 'batch'; items: BatchItem[]; requireAll: boolean; root: number }
  | { kind: 'public'; route: 'register' | 'token' | 'feedback' | 'schema'; value: TextSpec; salt: number };

type BatchItem =
  | { kind: 'create'; ns: Ns; resource: Resource; title: TextSpec }
  | { kind: 'update'; pick: number; title: TextSpec }
  | { kind: 'delete'; pick: number }
  | { kind: 'invalid'; variant: number };

interface FuzzOptions {
  /** Include `again` commands for long titles: two creates of a title whose slug reaches the 200-character cap. */
  slugCapFamily: boolean;
}

const ROOTS = ['/wp-json', '/uk/wp-json', '/?rest_route=', '/uk/?rest_route='] as const;
const NS: readonly Ns[] = ['cal/v1', 'cal/events/v1'];
const RESOURCES: readonly Resource[] = ['events', 'venues', 'organizers'];

// Unbiased seeds: fast-check favours small integers, which would give many texts the same start, and a long title
// created twice is the `again` family's business, not an accident of the generator.
const text = (min: number, max: number): fc.Arbitrary<TextSpec> =>
  fc.record({ alphabet: fc.constantFrom('latin', 'cyrillic', 'mixed'), length: fc.integer({ min, max }), seed: fc.noBias(fc.integer()) });
const longTitle = fc.oneof({ weight: 3, arbitrary: text(180, 1_000) }, { weight: 1, arbitrary: text(1_000, 10_000) });

export function commandArb(contract: Contract, opts: FuzzOptions): fc.Arbitrary<Command> {
  const ops = contract.operations.length;
  const ns = fc.constantFrom(...NS);
  const resource = fc.constantFrom(...RESOURCES);
  const root = fc.nat(ROOTS.length - 1);
  const pick = fc.nat();
  const batchItem: fc.Arbitrary<BatchItem> = fc.oneof(
    fc.record({ kind: fc.constant('create' as const), ns, resource, title: text(1, 2_000) }),
    fc.record({ kind: fc.constant('update' as const), pick, title: text(180, 2_000) }),
    fc.record({ kind: fc.constant('delete' as const), pick }),
    fc.record({ kind: fc.constant('invalid' as const), variant: fc.nat(5) }),
  );
  const arbs: fc.WeightedArbitrary<Command>[] = [
    { weight: 25, arbitrary: fc.record({ kind: fc.constant('valid' as const), op: fc.nat(ops - 1), seed: fc.integer(), root }) },
    { weight: 12, arbitrary: fc.record({ kind: fc.constant('violation' as const), op: fc.nat(ops - 1), seed: fc.integer(), root }) },
    { weight: 15, arbitrary: fc.record({ kind: fc.constant('create' as const), ns, resource, title: longTitle, content: fc.option(text(0, 10_000), { nil: undefined }), root }, { requiredKeys: ['kind', 'ns', 'resource', 'title', 'root'] }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('sameShort' as const), ns, resource, root }) },
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('update' as const), pick, ns, title: fc.option(longTitle, { nil: undefined }), content: fc.option(text(0, 10_000), { nil: undefined }), method: fc.constantFrom('PUT' as const, 'PATCH' as const) }, { requiredKeys: ['kind', 'pick', 'ns', 'method'] }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick, force: fc.boolean() }) },
    { weight: 10, arbitrary: fc.record({ kind: fc.constant('read' as const), pick, ns, query: fc.constantFrom('', '_embed', '_fields=id,title,venue', '_envelope', 'context=view'), root }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('list' as const), ns, resource, query: fc.constantFrom('per_page=100', 'per_page=100&_embed', 'status=publish&page=2', 'per_page=5&orderby=title'), search: fc.option(text(1, 3_000), { nil: undefined }), root }, { requiredKeys: ['kind', 'ns', 'resource', 'query', 'root'] }) },
    // Up to 26 items: the 26th makes the whole batch a 400.
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('batch' as const), items: fc.array(batchItem, { minLength: 1, maxLength: 26 }), requireAll: fc.boolean(), root }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('public' as const), route: fc.constantFrom('register' as const, 'token' as const, 'feedback' as const, 'schema' as const), value: text(1, 10_000), salt: fc.nat() }) },
  ];
  if (opts.slugCapFamily) arbs.push({ weight: 6, arbitrary: fc.record({ kind: fc.constant('again' as const), pick, ns, resource, root }) });
  return fc.oneof(...arbs);
}

const LATIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CYRILLIC = 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюяАБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ';
const PUNCT = " '-.,&:!?\"()";

/** The text of a spec: random words (xorshift from the seed), so two specs share a prefix only by chance. */
function textOf(spec: TextSpec): string {
  let x = spec.seed | 0 || 0x9e3779b9;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const letters = spec.alphabet === 'latin' ? LATIN : spec.alphabet === 'cyrillic' ? CYRILLIC : LATIN + CYRILLIC;
  let out = '';
  while (out.length < spec.length) {
    const r = next();
    out += r % 7 === 0 ? PUNCT[r % PUNCT.length]! : r % 5 === 0 ? ' ' : letters[r % letters.length]!;
  }
  return out.slice(0, spec.length);
}

/** What the run has made so far: created records (for updates, reads, deletes) and the titles it used. */
export interface FuzzState {
  created: { resource: Resource; id: number }[];
  titles: { title: string; resource: Resource }[];
}

interface Concrete {
  request: MockRequest;
  /** A short, reproducible description for logs: method, URL and the body's size and start. */
  what: string;
  /** Set for creates: the title (to be created again) and the resource, once the answer gives the ID. */
  creates?: { title: string; resource: Resource };
}

function jsonRequest(method: string, url: string, body?: unknown): MockRequest {
  const headers: Record<string, string> = { host: '127.0.0.1:4010' };
  if (body === undefined) return { method, url, headers, origin: 'http://127.0.0.1:4010' };
  headers['content-type'] = 'application/json';
  return { method, url, headers, origin: 'http://127.0.0.1:4010', body: JSON.stringify(body) };
}

function wire(req: WireRequest, root: string): MockRequest {
  const enc = encodeBody(req);
  const headers: Record<string, string> = { host: '127.0.0.1:4010', ...req.headers };
  if (enc) headers['content-type'] = enc.contentType;
  return { method: req.method, url: toUrl('', root, req), headers, origin: 'http://127.0.0.1:4010', ...(enc ? { body: enc.payload } : {}) };
}

function url(root: string, route: string, query = ''): string {
  const rest = root.endsWith('rest_route=');
  return `${root}${route}${query ? `${rest ? '&' : '?'}${query}` : ''}`;
}

const TITLE_KEY: Record<Ns, Record<Resource, string>> = {
  'cal/v1': { events: 'title', venues: 'title', organizers: 'title' },
  'cal/events/v1': { events: 'title', venues: 'venue', organizers: 'organizer' },
};

function describe(r: MockRequest): string {
  const body = typeof r.body === 'string' ? r.body : r.body ? `<${r.body.length} bytes>` : '';
  return `${r.method} ${r.url.length > 160 ? `${r.url.slice(0, 160)}…(${r.url.length})` : r.url}${body ? ` body(${body.length}): ${body.slice(0, 120)}` : ''}`;
}

/** Makes commands concrete; keeps one arbitrary per operation. */
export class Realizer {
  private readonly valid = new Map<number, fc.Arbitrary<WireRequest>>();
  private readonly violating = new Map<number, fc.Arbitrary<{ request: WireRequest }> | undefined>();

  constructor(private readonly contract: Contract) {}

  private sample<T>(arb: fc.Arbitrary<T>, seed: number): T {
    return fc.sample(arb, { seed, numRuns: 1 })[0]!;
  }

  private target(state: FuzzState, pick: number): { resource: Resource; id: number } | undefined {
    return state.created.length ? state.created[pick % state.created.length] : undefined;
  }

  concrete(cmd: Command, state: FuzzState): Concrete {
    const out = (request: MockRequest, creates?: Concrete['creates']): Concrete => ({ request, what: describe(request), ...(creates ? { creates } : {}) });
    switch (cmd.kind) {
      case 'valid': {
        const op = this.contract.operations[cmd.op]!;
        let arb = this.valid.get(cmd.op);
        if (!arb) this.valid.set(cmd.op, (arb = validRequest(this.contract, op.id)));
        return out(wire(this.sample(arb, cmd.seed), ROOTS[cmd.root]!));
      }
      case 'violation': {
        const op = this.contract.operations[cmd.op]!;
        if (!this.violating.has(cmd.op)) this.violating.set(cmd.op, anyViolation(this.contract, op.id, { wireOnly: false }));
        const arb = this.violating.get(cmd.op);
        if (!arb) return out(jsonRequest('GET', url(ROOTS[cmd.root]!, `/${op.namespace}`)));
        return out(wire(this.sample(arb, cmd.seed).request, ROOTS[cmd.root]!));
      }
      case 'create': {
        const title = textOf(cmd.title);
        const body: Record<string, unknown> = { [TITLE_KEY[cmd.ns][cmd.resource]]: title, status: 'publish' };
        if (cmd.content) body[cmd.ns === 'cal/v1' ? 'content' : 'description'] = textOf(cmd.content);
        return out(jsonRequest('POST', url(ROOTS[cmd.root]!, `/${cmd.ns}/${cmd.resource}`), body), { title, resource: cmd.resource });
      }
      case 'again': {
        const earlier = state.titles.length ? state.titles[cmd.pick % state.titles.length]! : { title: 'Міжнародний фестиваль документального кіно', resource: cmd.resource };
        const body = { [TITLE_KEY[cmd.ns][earlier.resource]]: earlier.title, status: 'publish' };
        return out(jsonRequest('POST', url(ROOTS[cmd.root]!, `/${cmd.ns}/${earlier.resource}`), body), earlier);
      }
      case 'sameShort': {
        const body = { [TITLE_KEY[cmd.ns][cmd.resource]]: 'Open-air cinema night', status: 'publish' };
        return out(jsonRequest('POST', url(ROOTS[cmd.root]!, `/${cmd.ns}/${cmd.resource}`), body), { title: 'Open-air cinema night', resource: cmd.resource });
      }
      case 'update': {
        const t = this.target(state, cmd.pick);
        if (!t) return out(jsonRequest('GET', '/wp-json/cal/v1/events?per_page=1'));
        const body: Record<string, unknown> = {};
        if (cmd.title) body[TITLE_KEY[cmd.ns][t.resource]] = textOf(cmd.title);
        if (cmd.content) body[cmd.ns === 'cal/v1' ? 'content' : 'description'] = textOf(cmd.content);
        // The legacy namespace takes POST for updates, cal/v1 PUT/PATCH.
        const method = cmd.ns === 'cal/v1' ? cmd.method : 'POST';
        return out(jsonRequest(method, `/wp-json/${cmd.ns}/${t.resource}/${t.id}`, body));
      }
      case 'delete': {
        const t = this.target(state, cmd.pick);
        if (!t) return out(jsonRequest('GET', '/wp-json/cal/v1/venues?per_page=1'));
        return out(jsonRequest('DELETE', `/wp-json/cal/v1/${t.resource}/${t.id}${cmd.force ? '?force=true' : ''}`));
      }
      case 'read': {
        const t = this.target(state, cmd.pick) ?? { resource: 'events' as const, id: 92 };
        return out(jsonRequest('GET', url(ROOTS[cmd.root]!, `/${cmd.ns}/${t.resource}/${t.id}`, cmd.query)));
      }
      case 'list': {
        const search = cmd.search ? `&search=${encodeURIComponent(textOf(cmd.search))}` : '';
        return out(jsonRequest('GET', url(ROOTS[cmd.root]!, `/${cmd.ns}/${cmd.resource}`, `${cmd.query}${search}`)));
      }
      case 'batch': {
        const requests = cmd.items.map((item) => this.batchItem(item, state));
        return out(jsonRequest('POST', url(ROOTS[cmd.root]!, '/batch/v1'), { ...(cmd.requireAll ? { validation: 'require-all-validate' } : {}), requests }));
      }
      case 'public': {
        const value = textOf(cmd.value);
        if (cmd.route === 'register') return out(jsonRequest('POST', '/wp-json/lms/v1/token/register', { username: `fuzz.${cmd.salt}`, password: value }));
        if (cmd.route === 'token') return out(jsonRequest('POST', '/wp-json/lms/v1/token', { username: value.slice(0, 60), password: value }));
        if (cmd.route === 'schema') return out(jsonRequest('GET', '/wp-json/forms/v1/contact-forms/5/feedback/schema'));
        return out(jsonRequest('POST', '/uk/wp-json/forms/v1/contact-forms/5/feedback', { 'your-name': value, 'your-email': `${value.slice(0, 40)}@example.com`, 'your-subject': value, 'your-message': value }));
      }
    }
  }

  private batchItem(item: BatchItem, state: FuzzState): { method?: string; path: string; body?: Record<string, unknown> } {
    switch (item.kind) {
      case 'create':
        return { path: `/${item.ns}/${item.resource}`, body: { [TITLE_KEY[item.ns][item.resource]]: textOf(item.title), status: 'publish' } };
      case 'update': {
        const t = this.target(state, item.pick) ?? { resource: 'events' as const, id: 92 };
        return { method: 'PUT', path: `/cal/v1/${t.resource}/${t.id}`, body: { title: textOf(item.title) } };
      }
      case 'delete': {
        const t = this.target(state, item.pick) ?? { resource: 'organizers' as const, id: 999_999 };
        return { method: 'DELETE', path: `/cal/v1/${t.resource}/${t.id}` };
      }
      case 'invalid':
        return [
          { path: '/cal/v1/events', body: { title: 'x', status: 'bogus' } },
          { path: '/cal/v1/no-such-route' },
          { method: 'GET', path: '/cal/v1/events' },
          { path: '/forms/v1/contact-forms' },
          { path: 'no-leading-slash' },
          { path: '/cal/v1/events', body: { start_date: 'not a date' } },
        ][item.variant]!;
    }
  }
}
