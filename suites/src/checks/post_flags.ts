// post_flags: the post fields of core's posts controller that name a state kept outside the post itself, written
// and read back on cal/v1 records of the suite's own (000 §2.5 lists them for events, organizers and venues):
// - sticky is membership of the site's sticky_posts option (stick_post(), unstick_post(), is_sticky()): a record
//   created sticky=true reads back true, to anyone who may read it; PATCH sticky=false reads back false;
// - format is the record's post_format term (set_post_format(), get_post_format()): aside reads back aside, and
//   standard (no term) reads back standard;
// - featured_media is the _thumbnail_id meta (set_post_thumbnail()): an id that is no attachment is ignored, the
//   create accepted with featured_media 0 (handle_featured_media()'s error is dropped by create_item()); an
//   image the site holds reads back its id, and 0 removes it.
// Measured on a live 6.1.9 (:8090). A site that shows no sticky or no format (a type without post-formats support
// has no format in its schema) is inconclusive for it, as is the featured image where the site lists no image: the
// suite finds one in /wp/v2/media (media_type=image) where the site lists that route, else as the featured image of
// a record the cal/v1 lists show (set_post_thumbnail() took it, so it is an image); it uploads nothing.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { templateKey } from '../diff/descriptor.ts';
import { jsonBody } from '../http/types.ts';
import { ownRecordsUnit, readList } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import { create, emit, send, Verdict, type Sent } from './kit/steps.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';

export const POST_FLAGS = 'post_flags';

/** An id no site has given an attachment: WordPress's ids are auto-increment from 1. */
export const NO_ATTACHMENT = 2000000001;

const q = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** Whether a record shows `field`: a site whose type lacks it (no post-formats support) shows none. */
const shows = (s: Sent, field: string): boolean => s.body !== undefined && field in s.body;

async function stickyAndFormat(env: UnitEnv, res: CalendarResource, unitId: string): Promise<Sent> {
  const made = await create(env, res, unitId, { sticky: true, format: 'aside' });
  // sticky_posts is one option of the whole site, read, changed and written back by every create and update that
  // sticks or unsticks (stick_post(), unstick_post()): another client's write at the same moment can undo ours (seen
  // on :8090 while other runs wrote). A sticky that reads back wrong is set and read again, up to three tries in
  // all, before it is judged; a site that does not keep it fails every time.
  const retried: string[] = [];
  const settle = async (read: () => Promise<Sent>, want: boolean, first: Sent, id: number): Promise<Sent> => {
    let got = first;
    for (let tries = 1; tries < 3 && got.body && 'sticky' in got.body && got.body['sticky'] !== want; tries++) {
      await send(env, res.update, 'PATCH', id, { body: { sticky: want } });
      got = await read();
      retried.push(`sticky=${want} sent again after a read showed ${q(!want)}`);
    }
    return got;
  };
  const anonRead = (): Promise<Sent> => send(env, res.read, 'GET', made.id!, { auth: false });
  const editRead = (): Promise<Sent> => send(env, res.read, 'GET', made.id!, { query: { context: 'edit' } });
  const anon = made.id === undefined ? made : await settle(anonRead, true, await anonRead(), made.id);
  const patched = made.id === undefined ? made : await send(env, res.update, 'PATCH', made.id, { body: { sticky: false, format: 'standard' } });
  const after = made.id === undefined ? made : await settle(editRead, false, await editRead(), made.id);
  for (const [field, on, off, severityRule] of [
    ['sticky', true, false, 'sticky=true read back true by anyone, sticky=false read back false (stick_post(), is_sticky())'],
    ['format', 'aside', 'standard', 'format=aside read back aside, format=standard read back standard (set_post_format(), get_post_format())'],
  ] as const) {
    const v = new Verdict();
    if (v.needs(made, `creating a ${res.resource} with sticky=true and format=aside`)) {
      if (!shows(made, field)) v.unjudged = { outcome: 'inconclusive', message: `the create's answer shows no ${field} (a type without it in its schema ignores it): nothing to compare`, e: made.e };
      v.expect(made.body[field] === on, made, `the create with ${field}=${q(on)} answers ${field} ${q(made.body[field])}`, `the create answers ${field} ${q(on)}`);
      // A site may refuse anonymous reads of the type altogether (permissions judges that): the rest is still judged.
      if (anon.status === 401 || anon.status === 403) v.did.push(`an anonymous read refused (${anon.status}): not judged for anonymous readers`);
      else if (v.needs(anon, 'reading it anonymously')) v.expect(anon.body[field] === on, anon, `an anonymous read shows ${field} ${q(anon.body[field])}, not ${q(on)}`, `an anonymous read shows ${q(on)}`);
      if (v.needs(patched, `PATCH ${field}=${q(off)}`) && v.needs(after, 'reading it back')) {
        if (field === 'sticky' && retried.length) v.did.push(`(${retried.join('; ')}: another client's write to sticky_posts may have undone the first)`);
        v.expect((field === 'sticky' || patched.body[field] === off) && after.body[field] === off, after, `PATCH ${field}=${q(off)} answers ${q(patched.body[field])} and reads back ${q(after.body[field])}`, `PATCH ${field}=${q(off)} reads back ${q(off)}`);
      }
    }
    emit(env, POST_FLAGS, res.update, field, 'documented', v, severityRule);
  }
  return made;
}

/** An image the site holds: from /wp/v2/media where listed, else the featured image of a record the lists show. */
async function findImage(env: UnitEnv, resources: readonly CalendarResource[]): Promise<number | undefined> {
  if (env.descriptor.byKey.has(templateKey('/wp/v2/media'))) {
    const e = await env.send({ method: 'GET', route: '/wp/v2/media', query: { media_type: 'image', per_page: 1 } });
    const b = e.response?.status === 200 ? jsonBody(e.response) : undefined;
    const id = Array.isArray(b) && isPlainObject(b[0]) ? b[0]['id'] : undefined;
    if (typeof id === 'number' && id > 0) return id;
  }
  for (const res of resources) {
    const r = await readList(env, res.list, {});
    for (const rec of r.records ?? []) {
      const id = isPlainObject(rec) ? rec['featured_media'] : undefined;
      if (typeof id === 'number' && id > 0 && id !== NO_ATTACHMENT) return id;
    }
  }
  return undefined;
}

async function featuredMedia(env: UnitEnv, res: CalendarResource, own: Sent, unitId: string, resources: readonly CalendarResource[]): Promise<void> {
  {
    const v = new Verdict();
    const made = await create(env, res, unitId, { featured_media: NO_ATTACHMENT }, `${env.marker} ${unitId} no image`);
    if (made.status === 400) v.expect(false, made, `a create naming featured_media ${NO_ATTACHMENT} (no attachment) was refused (${q(made.body?.['code'])}): create_item() drops handle_featured_media()'s error and saves the record`, '');
    else if (v.needs(made, `creating a ${res.resource} with featured_media ${NO_ATTACHMENT}`)) {
      if (!shows(made, 'featured_media')) v.unjudged = { outcome: 'inconclusive', message: 'the create\'s answer shows no featured_media: nothing to compare', e: made.e };
      // Which success status a create answers is create_status's finding (one cause, one finding): here, the field.
      v.expect(made.body['featured_media'] === 0, made, `answered ${made.status} with featured_media ${q(made.body['featured_media'])}, not 0`, `featured_media ${NO_ATTACHMENT} (no attachment) ignored: featured_media 0`);
    }
    emit(env, POST_FLAGS, res.create, 'featured_media:unknown', 'convention', v, 'an id that is no attachment ignored (handle_featured_media(), set_post_thumbnail())');
  }
  const v = new Verdict();
  if (v.needs(own, `creating a ${res.resource}`)) {
    const image = await findImage(env, resources);
    if (image === undefined) v.unjudged = { outcome: 'inconclusive', message: 'the site lists no image (no /wp/v2/media image, no record of the cal/v1 lists with a featured image) and the suite uploads none: nothing to set', e: own.e };
    else {
      const set = await send(env, res.update, 'PATCH', own.id!, { body: { featured_media: image } });
      const read = await send(env, res.read, 'GET', own.id!, { query: { context: 'edit' } });
      if (v.needs(set, `PATCH featured_media=${image}`) && v.needs(read, 'reading it back')) {
        v.expect(set.body['featured_media'] === image && read.body['featured_media'] === image, read, `PATCH featured_media=${image} (an image the site holds) answers ${q(set.body['featured_media'])} and reads back ${q(read.body['featured_media'])}`, `featured_media=${image} reads back ${image}`);
        const cleared = await send(env, res.update, 'PATCH', own.id!, { body: { featured_media: 0 } });
        const again = await send(env, res.read, 'GET', own.id!, { query: { context: 'edit' } });
        if (v.needs(cleared, 'PATCH featured_media=0') && v.needs(again, 'reading it back')) {
          v.expect(again.body['featured_media'] === 0, again, `PATCH featured_media=0 reads back ${q(again.body['featured_media'])}, not 0 (delete_post_thumbnail())`, 'featured_media=0 reads back 0');
        }
      }
    }
  }
  emit(env, POST_FLAGS, res.update, 'featured_media:image', 'documented', v, 'an image set as the featured image read back, and removed by 0 (set_post_thumbnail(), delete_post_thumbnail())');
}

/**
 * A unit per cal/v1 venue and organizer (their sticky defaults to false, 000 §2.5): sticky and format on a record of
 * its own; on the venue, featured_media too.
 */
export function planPostFlags(contract: Contract): Unit[] {
  const resources = calendarResources(contract).filter((r) => r.namespace === 'cal/v1');
  return resources
    .filter((r) => r.resource === 'venue' || r.resource === 'organizer')
    .map((res) => {
      const id = `${POST_FLAGS}:${res.namespace}/${res.resource}`;
      const ops = [res.create, res.read, res.update];
      return ownRecordsUnit({ id, check: POST_FLAGS, operations: ops, skip: { operation: res.update, variant: 'sticky', severity: 'documented', doing: 'the check writes a record of its own' } }, async (env) => {
        const own = await stickyAndFormat(env, res, id);
        if (res.resource === 'venue') await featuredMedia(env, res, own, id, resources);
      });
    });
}
