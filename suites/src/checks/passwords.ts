// passwords: a password-protected record as core's posts controller shows it (cal/v1 is built on it). A venue of the
// suite's own created with `password` answers (edit context, every write's answer) with that password and
// content.protected true; an anonymous read shows neither the content nor the excerpt (post_password_required():
// both render as '') nor the password field; the same read with `?password=<the password>` shows the content
// (can_access_password_content()), with a password one character off it is 403 rest_post_incorrect_password
// (get_item_permissions_check(), hash_equals()). A private record keeps no password (wp_insert_post()). Measured on
// a live 6.1.9 (:8090). A site that refuses an anonymous read of the record altogether shows nothing it should hide:
// inconclusive, not failed. The legacy namespace (The Events Calendar's own controllers) is not judged here.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { cannotWrite } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import { create, emit, send, Verdict, word, type Sent } from './kit/steps.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer } from './kit/wp.ts';

export const PASSWORDS = 'passwords';

const q = (v: unknown): string => JSON.stringify(v) ?? String(v);
/** `field.rendered` and `field.protected` of a posts-controller record. */
const part = (s: Sent, field: string): { rendered?: unknown; protected?: unknown } => {
  const v = s.body?.[field];
  return isPlainObject(v) ? (v as { rendered?: unknown; protected?: unknown }) : {};
};

async function passwords(env: UnitEnv, venue: CalendarResource, unitId: string): Promise<void> {
  const w = word(env, unitId, 1);
  const secret = `Secret ${w}`;
  const password = `pw-${w}`;
  const made = await create(env, venue, unitId, { password, content: `<p>${secret}</p>`, excerpt: `Hint ${w}` });
  {
    const v = new Verdict();
    if (v.needs(made, 'creating a venue with a password')) {
      v.expect(made.body.password === password && part(made, 'content').protected === true, made, `the create's answer shows password ${q(made.body.password)} and content.protected ${q(part(made, 'content').protected)}, not ${q(password)} and true`, 'the create answers with the password and content.protected true');
      const anon = await send(env, venue.read, 'GET', made.id!, { auth: false });
      if (v.needs(anon, 'reading it anonymously')) {
        const c = part(anon, 'content');
        const x = part(anon, 'excerpt');
        v.expect(c.rendered === '' && x.rendered === '', anon, `an anonymous read shows content.rendered ${q(c.rendered)} and excerpt.rendered ${q(x.rendered)}, not "" (post_password_required())`, 'an anonymous read shows content and excerpt as ""');
        v.expect(c.protected === true, anon, `an anonymous read shows content.protected ${q(c.protected)}, not true`, 'content.protected true');
        v.expect(!('password' in anon.body), anon, `an anonymous read shows the password field (${q(anon.body.password)}): it is for the edit context only`, 'and no password field');
      }
    }
    emit(env, PASSWORDS, venue.read, 'hidden', 'convention', v, "a protected record's text hidden from a reader without its password (post_password_required())");
  }
  {
    const v = new Verdict();
    const anon = made.id === undefined ? made : await send(env, venue.read, 'GET', made.id, { auth: false });
    if (v.needs(made, 'creating a venue with a password') && v.needs(anon, 'reading it anonymously without a password')) {
      const right = await send(env, venue.read, 'GET', made.id!, { auth: false, query: { password } });
      const shown = part(right, 'content').rendered;
      v.expect(right.status === 200 && typeof shown === 'string' && shown.includes(secret), right, `an anonymous read with ?password=<the password> answered ${describeAnswer(right.e.response)} with content.rendered ${q(shown)}, not the content (${q(secret)})`, 'the right password shows the content');
      const wrong = await send(env, venue.read, 'GET', made.id!, { auth: false, query: { password: `${password}x` } });
      v.expect(wrong.status === 403 && wrong.body?.code === 'rest_post_incorrect_password', wrong, `a read with a password one character off answered ${describeAnswer(wrong.e.response)}${typeof wrong.body?.code === 'string' ? ` (${wrong.body.code})` : ''}, not 403 rest_post_incorrect_password`, 'one character off is 403 rest_post_incorrect_password');
    }
    emit(env, PASSWORDS, venue.read, 'password_param', 'convention', v, "the read's password parameter to unlock a protected record (can_access_password_content())");
  }
  {
    const v = new Verdict();
    const priv = await create(env, venue, unitId, { password, status: 'private' }, `${env.marker} ${unitId} private`);
    if (v.needs(priv, 'creating a private venue with a password')) {
      v.expect(priv.body.password === '', priv, `a private venue created with password ${q(password)} answers password ${q(priv.body.password)}, not "" (wp_insert_post(): a private post keeps none)`, 'a private venue keeps no password');
    }
    emit(env, PASSWORDS, venue.create, 'private', 'convention', v, 'no password on a private record');
  }
}

export function planPasswords(contract: Contract): Unit[] {
  const venue = calendarResources(contract).find((r) => r.namespace === 'cal/v1' && r.resource === 'venue');
  if (!venue) return [];
  const id = `${PASSWORDS}:cal/v1`;
  const ops = [venue.create, venue.read];
  return [{
    id, family: PASSWORDS, checks: [PASSWORDS], operations: ops, writes: true,
    run: async (env: UnitEnv) => {
      const why = cannotWrite(env, ops);
      if (why) return env.emit({ check: PASSWORDS, operation: venue.read, variant: 'all', severity: 'convention', outcome: 'skip', message: `not run: ${why}; the check judges a record of its own` });
      return passwords(env, venue, id);
    },
  }];
}
