// Every operation's permission is in its row of the operation table (issue 27: 35 path strings chose them before, and
// an administrator-only write nobody added to a list was open to editors). Two things hold it: every write states a
// permission of its own, a public one saying why; and each row's permission is what the mock enforces, checked here
// through the mock's request path for each operation of the contract, with the fixtures' users under --auth and the
// expectations written from WordPress's default roles, not from the mock's code.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeBody, toUrl, validRequest } from '../../../contracts/lib/arbitraries/index.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Permission } from '../auth/permissions.ts';
import type { Mock } from '../index.ts';
import { call, freshMock, sharedContract } from '../testing/harness.ts';
import { ADMIN, AUTHOR, EDITOR, givePassword, SUBSCRIBER, type Login } from '../testing/users.ts';
import type { OperationRow } from './context.ts';
import { Discovery } from './discovery.ts';
import { operationTable } from './operations.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Writes whose row states no permission, or a public one without a reason: `METHOD path`. */
function unstatedWrites(ops: readonly Operation[], table: Readonly<Record<string, Partial<OperationRow>>>): string[] {
  return ops
    .filter((op) => WRITE_METHODS.has(op.method))
    .filter((op) => {
      const p = table[op.id]?.permission;
      return p === undefined || (p.rule === 'public' && !(typeof p.why === 'string' && p.why.length > 0));
    })
    .map((op) => `${op.method} ${op.path}`);
}

function table(): Readonly<Record<string, OperationRow>> {
  const contract = sharedContract();
  const discovery = new Discovery(contract, { name: 'x', description: 'x', theme: 'x', timezone: 'UTC', gmtOffset: () => 0 }, { enabled: false, maxBytes: 0 });
  return operationTable({ contract, discovery });
}

describe('every write states its permission in its row', () => {
  it('the check names a write with none and a public write that gives no reason, and passes stated ones', () => {
    const ops = [
      { id: 'a', method: 'POST', path: '/x/v1/a' },
      { id: 'b', method: 'DELETE', path: '/x/v1/b' },
      { id: 'c', method: 'POST', path: '/x/v1/c' },
      { id: 'd', method: 'GET', path: '/x/v1/d' },
    ] as Operation[];
    const made: Record<string, Partial<OperationRow>> = {
      a: {},
      b: { permission: { rule: 'public' } },
      c: { permission: { rule: 'public', why: 'visitors submit it' } },
      d: { permission: { rule: 'public' } },
    };
    expect(unstatedWrites(ops, made)).toEqual(['POST /x/v1/a', 'DELETE /x/v1/b']);
  });

  it('all 204 operations have a row with a permission; every write states one, each public write says why', () => {
    const contract = sharedContract();
    const rows = table();
    expect(contract.operations.filter((op) => rows[op.id]?.permission === undefined).map((op) => op.id)).toEqual([]);
    const writes = contract.operations.filter((op) => WRITE_METHODS.has(op.method));
    expect(writes.length).toBeGreaterThan(120);
    expect(unstatedWrites(contract.operations, rows)).toEqual([]);
  });
});

// ---- each permission enforced as stated ------------------------------------------------------------------------

type Role = 'administrator' | 'editor' | 'author' | 'subscriber';
/** The default roles that hold each capability the table uses (populate_roles(), WordPress 6.1). */
const HOLDERS: Record<string, readonly Role[]> = {
  manage_options: ['administrator'],
  manage_categories: ['administrator', 'editor'],
  edit_posts: ['administrator', 'editor', 'author'],
};
const USERS: readonly { role: Role | 'anonymous'; auth?: Login }[] = [
  { role: 'anonymous' },
  { role: 'subscriber', auth: SUBSCRIBER },
  { role: 'author', auth: AUTHOR },
  { role: 'editor', auth: EDITOR },
  { role: 'administrator', auth: ADMIN },
];
/** The codes a permission callback refuses with (a handler's own 403s, such as a wrong login, are not these). */
const PERMISSION_CODES = new Set(['rest_forbidden', 'rest_forbidden_context', 'rest_cannot_create', 'rest_cannot_edit', 'rest_cannot_update', 'rest_cannot_delete', 'rest_cannot_edit_others']);

/** Who the permission lets in, and the code it refuses the others with; `undefined`: everyone. */
function expected(p: Permission): { roles: readonly Role[]; code: string } | undefined {
  switch (p.rule) {
    case 'public':
      return undefined;
    case 'capability':
      return { roles: HOLDERS[p.capability]!, code: p.refusal?.code ?? 'rest_forbidden' };
    case 'terms':
      if (p.action === 'list' || p.action === 'read') return undefined;
      return { roles: HOLDERS.manage_categories!, code: { create: 'rest_cannot_create', update: 'rest_cannot_update', delete: 'rest_cannot_delete' }[p.action] };
    case 'posts':
      // Asked about the administrator's published post, in the edit context where the row takes one.
      if (p.action === 'list') return p.core ? { roles: HOLDERS.edit_posts!, code: 'rest_forbidden_context' } : undefined;
      if (p.action === 'read') return p.core ? { roles: ['administrator', 'editor'], code: 'rest_forbidden_context' } : undefined;
      if (p.action === 'create') return { roles: HOLDERS.edit_posts!, code: 'rest_cannot_create' };
      // edit_post / delete_post of another user's published post: edit_others_posts and edit_published_posts.
      return { roles: ['administrator', 'editor'], code: p.action === 'update' ? 'rest_cannot_edit' : 'rest_cannot_delete' };
  }
}

describe("each row's permission, enforced as stated (--auth, the fixtures' users)", () => {
  let mock: Mock;
  let rows: Readonly<Record<string, OperationRow>>;
  beforeAll(async () => {
    mock = await freshMock({ auth: true });
    givePassword(mock, AUTHOR);
    rows = table();
  });

  /** A request the contract accepts (permission callbacks run after validation), on a record that exists. */
  function requestFor(op: Operation, p: Permission): { url: string; body?: string; contentType?: string } {
    if (p.rule === 'posts' && (p.action === 'list' || p.action === 'read' || p.action === 'delete')) {
      const query = p.core && p.action !== 'delete' ? '?context=edit' : '';
      return { url: `/wp-json${concrete(op.path, p)}${query}` };
    }
    const [wire] = fc.sample(validRequest(mock.contract, op.id), { numRuns: 1, seed: 7 });
    const w = { ...wire!, path: concrete(op.path, p), query: { ...wire!.query } };
    // Writing as another user and making a post sticky are rules of their own (rest_cannot_edit_others,
    // rest_cannot_assign_sticky), each shown at its edge in auth/permissions.test.ts. A template is checked against the
    // theme's before any permission (check_template(), a validate_callback): a drawn file name is a 400 for everyone.
    delete w.query.author;
    if (w.body && 'json' in w.body) {
      const { author: _author, sticky: _sticky, template: _template, ...rest } = w.body.json;
      w.body = { json: rest };
    } else if (w.body) {
      const form = new URLSearchParams(w.body.form);
      form.delete('author');
      form.delete('sticky');
      form.delete('template');
      w.body = { form: form.toString() };
    }
    const encoded = encodeBody(w);
    return { url: toUrl('', '/wp-json/', w), ...(encoded ? { body: encoded.payload, contentType: encoded.contentType } : {}) };
  }

  /** The path with IDs and slugs of records that exist: the administrator's published posts, a category, a tag. */
  function concrete(path: string, p: Permission): string {
    let id = '1';
    let slug = 'pagebuilder-one-addon-a';
    if (p.rule === 'posts') {
      const rec = mock.store.posts(p.type).values().find((r) => r.author === 1 && r.status === 'publish' && r.lang === 'en' && r.slug !== '')!;
      id = String(rec.id);
      slug = rec.slug;
    } else if (p.rule === 'terms') id = String(mock.store.terms(p.type).values()[0]!.id);
    return path.replace('{id}', id).replace('{slug}', slug).replace('{import_id}', 'abc').replace('{jobId}', '1').replace('{slider}', 'main');
  }

  it('each of the 204 operations lets in exactly whom its row says, and refuses the others with its code, 401 or 403', () => {
    const seen = { refusals: 0, allowed: 0 };
    const wrong: string[] = [];
    for (const op of mock.contract.operations) {
      const p = rows[op.id]!.permission;
      const want = expected(p);
      const req = requestFor(op, p);
      for (const u of USERS) {
        const res = call(mock, op.method, req.url, { ...(u.auth ? { auth: u.auth } : {}), ...(req.body !== undefined ? { body: req.body, headers: { 'content-type': req.contentType! } } : {}) });
        const refused = (res.status === 401 || res.status === 403) && PERMISSION_CODES.has(res.json?.code);
        const shouldRefuse = want !== undefined && !(u.role !== 'anonymous' && want.roles.includes(u.role));
        if (shouldRefuse) {
          seen.refusals++;
          const status = u.role === 'anonymous' ? 401 : 403;
          if (!refused || res.status !== status || res.json?.code !== want.code) wrong.push(`${op.method} ${op.path} as ${u.role}: want ${status} ${want.code}, got ${res.status} ${res.json?.code ?? res.body.slice(0, 80)}`);
        } else {
          seen.allowed++;
          if (refused) wrong.push(`${op.method} ${op.path} as ${u.role}: want it let in, got ${res.status} ${res.json?.code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Both halves ran: refusals of every kind, and requests let in.
    expect(seen.refusals).toBeGreaterThan(300);
    expect(seen.allowed).toBeGreaterThan(500);
  });
});
