// passwords: a password-protected record as core's posts controller shows it (cal/v1 is built on it). A venue of the
// suite's own created with `password` answers (edit context, every write's answer) with that password and
// content.protected true; an anonymous read shows neither the content nor the excerpt (post_password_required():
// both render as '') nor the password field; the same read with `?password=<the password>` shows the content
// (can_access_password_content()), with a password one character off it is 403 rest_post_incorrect_password
// (get_item_permissions_check(), hash_equals()); the anonymous list (?include=) hides them as the read does. A private
// record keeps no password (wp_insert_post()). Measured on a live 6.1.9 (:8090). A site that refuses an anonymous read of the record altogether shows nothing it should hide:
// inconclusive, not failed. The legacy namespace (The Events Calendar's own controllers) is not judged here.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { cannotWrite } from './kit/oracle_kit.ts';
import { calendarResources, idOf, listRecords, type CalendarResource } from './kit/resources.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody } from '../http/types.ts';
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
        // The list prepares each record as the read does (get_items() → prepare_item_for_response()): hidden there too.
        const listed = await env.send({ method: 'GET', route: fillTemplate(venue.list.path, {}), query: { include: made.id }, auth: false }, venue.list);
        const rec = (listRecords(jsonBody(listed.response)) ?? []).find((r) => idOf(r) === made.id);
        if (isPlainObject(rec)) {
          const l: Sent = { e: listed, status: listed.response!.status, body: rec };
          const lc = part(l, 'content');
          const lx = part(l, 'excerpt');
          v.expect(lc.rendered === '' && lx.rendered === '' && lc.protected === true, l, `an anonymous list (?include=${made.id}) shows content.rendered ${q(lc.rendered)}, excerpt.rendered ${q(lx.rendered)} and content.protected ${q(lc.protected)}, not "", "" and true (get_items() prepares each record as the read does)`, 'so does the anonymous list');
        }
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
  {
    // prepare_item_for_database(): never sticky and protected. The create that asks for both is refused; so is
    // sticky=true on the protected venue made above (post_password_required(): a REST client holds no password cookie).
    const v = new Verdict();
    const both = await create(env, venue, unitId, { password, sticky: true }, `${env.marker} ${unitId} sticky`);
    const refusal = (s: Sent): string => `${describeAnswer(s.e.response)}${typeof s.body?.code === 'string' ? ` (${s.body.code})` : ''}`;
    v.expect(both.status === 400 && both.body?.code === 'rest_invalid_field', both, `a venue created with a password and sticky=true answered ${refusal(both)}, not 400 rest_invalid_field`, 'password with sticky=true is 400 rest_invalid_field');
    if (v.needs(made, 'creating a venue with a password')) {
      const stick = await send(env, venue.update, 'PATCH', made.id!, { body: { sticky: true } });
      v.expect(stick.status === 400 && stick.body?.code === 'rest_invalid_field', stick, `PATCH sticky=true on a protected venue answered ${refusal(stick)}, not 400 rest_invalid_field`, 'sticky=true on a protected venue too');
    }
    emit(env, PASSWORDS, venue.create, 'sticky', 'convention', v, 'a record never both sticky and password-protected (prepare_item_for_database())');
  }
}

/**
 * The legacy read's `password` (000 §2.1: "read/delete by ID additionally accept password"): an event of the
 * suite's own protected through cal/v1 (core's field) reads anonymously through cal/events/v1 with its password,
 * the description showing; without it the read is refused (The Events Calendar answers 401/403) or shows no
 * description. A site that refuses the read even with the password fails: the documents give the parameter.
 */
async function legacyPassword(env: UnitEnv, event: CalendarResource, legacy: Operation, unitId: string): Promise<void> {
  const w = word(env, unitId, 2);
  const secret = `Secret ${w}`;
  const password = `pw-${w}`;
  const made = await create(env, event, unitId, { password, content: `<p>${secret}</p>`, status: 'publish' }, `${env.marker} ${unitId} legacy`);
  const v = new Verdict();
  if (v.needs(made, 'creating a cal/v1 event with a password')) {
    const right = await send(env, legacy, 'GET', made.id!, { auth: false, query: { password } });
    const shown = right.body?.['description'];
    v.expect(right.status === 200 && typeof shown === 'string' && shown.includes(secret), right, `an anonymous legacy read with ?password=<the password> answered ${describeAnswer(right.e.response)} with description ${q(shown)}, not the event's description (${q(secret)})`, 'the right password shows the description');
    const none = await send(env, legacy, 'GET', made.id!, { auth: false });
    const leaked = none.status === 200 && JSON.stringify(none.body ?? {}).includes(secret);
    v.expect(!leaked && none.status !== undefined && (none.status === 200 || (none.status >= 400 && none.status < 500)), none, `an anonymous legacy read without the password answered ${describeAnswer(none.e.response)}${leaked ? ` showing the protected text ${q(secret)}` : ''}: neither refused nor shown without its description`, 'without it the description is withheld');
  }
  emit(env, PASSWORDS, legacy, 'legacy', 'documented', v, "the legacy read's password parameter unlocking a protected event (000 §2.1)");
}

export function planPasswords(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const venue = resources.find((r) => r.namespace === 'cal/v1' && r.resource === 'venue');
  if (!venue) return [];
  const id = `${PASSWORDS}:cal/v1`;
  const ops = [venue.create, venue.read, venue.update];
  const event = resources.find((r) => r.namespace === 'cal/v1' && r.resource === 'event');
  const legacy = resources.find((r) => r.namespace === 'cal/events/v1' && r.resource === 'event')?.read;
  const legacyUnit: Unit[] = event && legacy && legacy.params.some((p) => p.name === 'password') ? [{
    id: `${PASSWORDS}:cal/events/v1`, family: PASSWORDS, checks: [PASSWORDS], operations: [legacy, event.create], writes: true,
    run: async (env: UnitEnv) => {
      const why = cannotWrite(env, [legacy, event.create]);
      if (why) return env.emit({ check: PASSWORDS, operation: legacy, variant: 'legacy', severity: 'documented', outcome: 'skip', message: `not run: ${why}; the check judges an event of its own` });
      return legacyPassword(env, event, legacy, `${PASSWORDS}:cal/events/v1`);
    },
  }] : [];
  return [...legacyUnit, {
    id, family: PASSWORDS, checks: [PASSWORDS], operations: ops, writes: true,
    run: async (env: UnitEnv) => {
      const why = cannotWrite(env, ops);
      if (why) return env.emit({ check: PASSWORDS, operation: venue.read, variant: 'all', severity: 'convention', outcome: 'skip', message: `not run: ${why}; the check judges a record of its own` });
      return passwords(env, venue, id);
    },
  }];
}
