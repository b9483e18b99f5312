// rendered_text: the `rendered` forms of a post's title, content and excerpt as WordPress 6.1 prints them
// (get_the_title() with the_title's filters, the_content, the_excerpt( get_the_excerpt() )), read by id, in the list
// and by an anonymous client in the view context, and a private or protected title's prefix (get_the_title()). The
// renderings are contracts/wordpress/content's (the mock renders with the same), never a copy here.
//
// A site's configuration changes some renderings, and a conformant site must not fail for it. What the check
// learns from the answer itself: a content.rendered holding the prediction inside more markup passes (a plugin
// adding to the_content); a rendering that matches the site without wptexturize (run_wptexturize false) or without
// smilies (use_smilies off) passes, with that said. A generated excerpt that is the content's words cut at another
// length or ending in another "more" (a theme's excerpt_length or excerpt_more filter) cannot be told from a fault
// from outside: that is a finding of severity `assumed` (a warning by default). A private title under another prefix
// than "Private: " (a translation, private_title_format) likewise. Anything else is a failure (convention).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { EXCERPT_LENGTH, EXCERPT_MORE, renderContent, renderExcerpt, renderTitle, type SiteRendering } from '../../../contracts/wordpress/content/post-text.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import { byId, cannotWrite, emitterFor, makeOwn, ownWord, readList } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import { SIGNED_IN_BY_HEADERS, type Unit, type UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';

export const RENDERED_TEXT = 'rendered_text';

type Rec = Record<string, unknown>;

/** The site configurations tried, WordPress's defaults first; each named for the message. */
const SITES: readonly { site: SiteRendering; name: string }[] = [
  { site: {}, name: '' },
  { site: { smilies: false }, name: 'use_smilies off' },
  { site: { texturize: false }, name: 'run_wptexturize false' },
  { site: { texturize: false, smilies: false }, name: 'run_wptexturize false, use_smilies off' },
];

/** The verdict on one rendered field. */
export interface TextVerdict {
  outcome: 'pass' | 'fail';
  severity: Severity;
  message: string;
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 220 ? `${s.slice(0, 217)}...` : s;
};

/** Whether `got` is `want`, or (where plugins may add markup) holds it. */
const holds = (got: string, want: string, inside: boolean): boolean => got === want || (inside && want !== '' && got.includes(want));

/**
 * Judges `got` against the renderings of each site configuration (`render`): the default passes, another
 * configuration passes with its name, none fails.
 */
export function judgeRendered(field: string, got: unknown, render: (site: SiteRendering) => string, inside: boolean): TextVerdict {
  const wanted = SITES.map((s) => ({ ...s, want: render(s.site) }));
  if (typeof got !== 'string') return { outcome: 'fail', severity: 'convention', message: `${field}: expected ${show(wanted[0]!.want)}, read ${show(got)}` };
  const match = wanted.find((w) => holds(got, w.want, inside));
  if (match) return { outcome: 'pass', severity: 'convention', message: `${field} as WordPress renders it${match.name ? ` on a site with ${match.name}` : ''}${inside && got !== match.want ? ' (inside markup the site adds)' : ''}` };
  return { outcome: 'fail', severity: 'convention', message: `${field}: expected ${show(wanted[0]!.want)}${inside ? ' (or more markup around it)' : ''}, read ${show(got)}` };
}

/** The most words a generated excerpt is tried at, as another excerpt_length. */
const MOST_WORDS = 100;

/**
 * A generated excerpt (an empty excerpt.raw): the first 55 words of the rendered content and " [&hellip;]" in a
 * paragraph. The same words cut at another length, or followed by another "more", is what an excerpt_length or
 * excerpt_more filter makes: severity `assumed`, since the suite cannot read the site's filters.
 */
export function judgeGeneratedExcerpt(got: unknown, content: string): TextVerdict {
  const exact = judgeRendered('excerpt.rendered', got, (site) => renderExcerpt('', content, undefined, site), false);
  if (exact.outcome === 'pass' || typeof got !== 'string') return exact;
  for (const { site, name } of SITES) {
    // The content's words as the excerpt would print them, to tell a "more" from the content going on.
    const all = renderExcerpt('', content, undefined, { ...site, excerptLength: MOST_WORDS, excerptMore: '' }).replace(/^<p>/, '').replace(/<\/p>\n$/, '').split(/\s+/);
    let words = 0;
    for (let n = 1; n <= MOST_WORDS; n++) {
      // The first n words with no "more": `<p>w1 … wn</p>\n`; the site's excerpt starts with `<p>w1 … wn`.
      const cut = renderExcerpt('', content, undefined, { ...site, excerptLength: n, excerptMore: '' }).replace(/<\/p>\n$/, '');
      const next = got.charAt(cut.length);
      if (got.startsWith(cut) && (next === '' || next === ' ' || next === '<' || next === '&' || next === '\n')) words = n;
      else if (!got.startsWith(cut)) break;
    }
    const later = new Set(all.slice(words));
    const rest = got.slice(renderExcerpt('', content, undefined, { ...site, excerptLength: words, excerptMore: '' }).replace(/<\/p>\n$/, '').length);
    if (words > 0 && !rest.split(/\s+/).some((w) => later.has(w))) {
      const config = words === EXCERPT_LENGTH ? `another excerpt_more: ${show(got.slice(renderExcerpt('', content, undefined, { ...site, excerptMore: '' }).replace(/<\/p>\n$/, '').length))} where WordPress's is ${show(EXCERPT_MORE)} and a paragraph's end` : `${words} word(s) of the content where WordPress's excerpt_length is ${EXCERPT_LENGTH}`;
      return { outcome: 'fail', severity: 'assumed', message: `excerpt.rendered is the content's words with ${config}${name ? ` (on a site with ${name})` : ''}: a theme's or plugin's excerpt_length or excerpt_more filter does this, and so does a fault; the suite cannot read the site's filters. ${exact.message}` };
    }
  }
  return exact;
}

/** "Private: " + the rendered title; another prefix ending ": " (a translation or private_title_format) is `assumed`. */
export function judgePrivateTitle(got: unknown, raw: string): TextVerdict {
  const exact = judgeRendered('title.rendered', got, (site) => renderTitle(raw, 'private', site), false);
  if (exact.outcome === 'pass' || typeof got !== 'string') return exact;
  for (const { site, name } of SITES) {
    const plain = renderTitle(raw, 'publish', site);
    const prefix = got.endsWith(plain) ? got.slice(0, got.length - plain.length) : '';
    if (/^[^<>\n]{1,40}: $/u.test(prefix) && prefix !== 'Private: ') {
      return { outcome: 'fail', severity: 'assumed', message: `title.rendered is the private title under the prefix ${show(prefix)}${name ? ` (on a site with ${name})` : ''} where WordPress's English one is "Private: ": a translation or a private_title_format filter does this. ${exact.message}` };
    }
  }
  return exact;
}

type Emit = ReturnType<typeof emitterFor>;

/** A record from an answer of 200 or 201; the outcome to emit when there is none. */
function recordOf(e: Exchange, what: string): { rec?: Rec; outcome?: { outcome: 'inconclusive' | 'fail' | 'skip' | 'pass'; message: string } } {
  const t = transportOutcome(e);
  if (t) return { outcome: { outcome: t.outcome as 'inconclusive', message: t.message } };
  const b = e.response && (e.response.status === 200 || e.response.status === 201) ? jsonBody(e.response) : undefined;
  if (!isPlainObject(b)) return { outcome: { outcome: 'inconclusive', message: `${what} answered ${describeAnswer(e.response)}, without the record: nothing to compare` } };
  return { rec: b };
}

const textAt = (rec: Rec, field: string): unknown => (isPlainObject(rec[field]) ? (rec[field] as Rec)['rendered'] : undefined);

/** Emits one case from the verdicts on its fields: the worst first (a convention failure, then an assumed one). */
function emitVerdicts(emit: Emit, variant: string, what: string, e: Exchange, verdicts: readonly TextVerdict[]): void {
  const failed = verdicts.filter((v) => v.outcome === 'fail');
  const convention = failed.filter((v) => v.severity === 'convention');
  if (convention.length) return emit(variant, 'fail', `${what}: ${convention.map((v) => v.message).join('; ')}`, e, 'convention');
  if (failed.length) return emit(variant, 'fail', `${what}: ${failed.map((v) => v.message).join('; ')}`, e, 'assumed');
  emit(variant, 'pass', `${what}: ${verdicts.length} field(s) rendered as WordPress renders them (${verdicts.map((v) => v.message).join('; ')})`, e, 'convention');
}

/** The event's texts: quotes, dashes, an ampersand, an apostrophe, two paragraphs, a smiley, and 60 more words. */
function eventText(marker: string, word: string): { title: string; content: string } {
  const words = Array.from({ length: 60 }, (_, i) => `w${i + 1}`).join(' ');
  return {
    title: `${marker} "${word}" -- x & y it's Wordpress...`,
    content: `line one ${word} it's :)\n\nline two -- "q" ${words}`,
  };
}

async function readRecord(env: UnitEnv, op: Operation, id: number, query: Rec, auth?: false): Promise<Exchange> {
  return env.send({ method: 'GET', route: fillTemplate(op.path, { id }), query, ...(auth === false ? { auth: false } : {}) }, op);
}

/** An own published event: its three rendered texts by id, in the list and anonymous; then an excerpt of its own. */
async function eventTexts(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const word = ownWord(env.runId, unitId);
  const emit = emitterFor(env, RENDERED_TEXT, res.create, 'convention');
  const text = eventText(env.marker, word);
  const made = await makeOwn(env, res, unitId, `rt ${word}`, { ...text, excerpt: '', status: 'publish' });
  const variants = ['id', 'list', 'anonymous', 'excerpt'];
  if (!made.own) {
    const t = transportOutcome(made.exchange);
    return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating a record of its own answered ${describeAnswer(made.exchange.response)}: nothing to read`, made.exchange));
  }
  const id = made.own.id;
  const created = recordOf(made.exchange, 'the create').rec ?? {};
  // What WordPress stored (title.raw and content.raw of the create's answer; the suite's text where not shown):
  // write_read_back judges the storing, this check the rendering of what is stored.
  const raw = (field: string, sent: string): string => {
    const v = isPlainObject(created[field]) ? (created[field] as Rec)['raw'] : undefined;
    return typeof v === 'string' ? v : sent;
  };
  const title = raw('title', text.title);
  const content = raw('content', text.content);
  const judge = (rec: Rec): TextVerdict[] => [
    judgeRendered('title.rendered', textAt(rec, 'title'), (site) => renderTitle(title, 'publish', site), false),
    judgeRendered('content.rendered', textAt(rec, 'content'), (site) => renderContent(content, site), true),
    judgeGeneratedExcerpt(textAt(rec, 'excerpt'), content),
  ];
  const reads: { variant: string; what: string; e: Promise<Exchange>; pick: (e: Exchange) => Rec | undefined }[] = [
    { variant: 'id', what: `record ${id} read by id (context=edit)`, e: readRecord(env, res.read, id, { context: 'edit' }), pick: (e) => recordOf(e, '').rec },
    {
      variant: 'list',
      what: `record ${id} in the list ${res.list.path} (narrowed to it)`,
      e: readList(env, res.list, { ...(res.list.params.some((p) => p.name === 'include') ? { include: [id] } : { search: word.toLowerCase() }) }).then((r) => r.e),
      pick: (e) => {
        const b = e.response?.status === 200 ? jsonBody(e.response) : undefined;
        const rec = Array.isArray(b) ? byId(b, id) : undefined;
        return isPlainObject(rec) ? rec : undefined;
      },
    },
    { variant: 'anonymous', what: `record ${id} read by id anonymously (context=view)`, e: env.headersSignIn ? Promise.resolve(made.exchange) : readRecord(env, res.read, id, {}, false), pick: (e) => recordOf(e, '').rec },
  ];
  for (const r of reads) {
    if (r.variant === 'anonymous' && env.headersSignIn) {
      emit(r.variant, 'skip', SIGNED_IN_BY_HEADERS);
      continue;
    }
    const e = await r.e;
    const t = transportOutcome(e);
    if (t) {
      emit(r.variant, t.outcome, t.message, e);
      continue;
    }
    const rec = r.pick(e);
    if (!rec) {
      emit(r.variant, 'inconclusive', `${r.what} answered ${describeAnswer(e.response)}, without the record: nothing to compare`, e);
      continue;
    }
    emitVerdicts(emit, r.variant, r.what, e, judge(rec));
  }
  // An excerpt of its own: the_excerpt of it, `<p>x</p>\n` (wpautop), never the generated one.
  const own = `x ${word}'s`;
  const e = await env.send({ method: res.update.method, route: fillTemplate(res.update.path, { id }), body: { kind: 'json', value: { excerpt: own } }, intent: 'write' }, res.update);
  const got = recordOf(e, `the update of record ${id} with excerpt ${show(own)}`);
  if (!got.rec) return emit('excerpt', got.outcome!.outcome, got.outcome!.message, e);
  const stored = isPlainObject(got.rec['excerpt']) && typeof (got.rec['excerpt'] as Rec)['raw'] === 'string' ? String((got.rec['excerpt'] as Rec)['raw']) : own;
  emitVerdicts(emit, 'excerpt', `record ${id} updated with excerpt ${show(own)}`, e, [judgeRendered('excerpt.rendered', textAt(got.rec, 'excerpt'), (site) => renderExcerpt(stored, content, undefined, site), false)]);
}

/** An own private venue: "Private: " + its title; made public behind a password, its title without a prefix. */
async function titleFormats(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const word = ownWord(env.runId, unitId);
  const emit = emitterFor(env, RENDERED_TEXT, res.create, 'convention');
  const sent = `${env.marker} ${word}'s -- "venue"`;
  const made = await makeOwn(env, res, unitId, `rt ${word}`, { title: sent, status: 'private' });
  const variants = ['private', 'protected', 'protected:anonymous'];
  if (!made.own) {
    const t = transportOutcome(made.exchange);
    return variants.forEach((v) => emit(v, t?.outcome ?? 'inconclusive', t?.message ?? `creating a record of its own answered ${describeAnswer(made.exchange.response)}: nothing to read`, made.exchange));
  }
  const id = made.own.id;
  const created = recordOf(made.exchange, 'the create').rec ?? {};
  const rawTitle = isPlainObject(created['title']) && typeof (created['title'] as Rec)['raw'] === 'string' ? String((created['title'] as Rec)['raw']) : sent.trim();
  const e1 = await readRecord(env, res.read, id, { context: 'edit' });
  const r1 = recordOf(e1, `private record ${id} read by id`);
  if (r1.rec) emitVerdicts(emit, 'private', `private record ${id} read by id (context=edit)`, e1, [judgePrivateTitle(textAt(r1.rec, 'title'), rawTitle)]);
  else emit('private', r1.outcome!.outcome, r1.outcome!.message, e1);
  // The posts controller sets protected_title_format to '%s': a protected title shows no "Protected: ".
  const e2 = await env.send({ method: res.update.method, route: fillTemplate(res.update.path, { id }), body: { kind: 'json', value: { status: 'publish', password: `pw${word}` } }, intent: 'write' }, res.update);
  const r2 = recordOf(e2, `the update of record ${id} to publish with a password`);
  const plain = (site: SiteRendering) => renderTitle(rawTitle, 'publish', site);
  if (!r2.rec) return ['protected', 'protected:anonymous'].forEach((v) => emit(v, r2.outcome!.outcome, r2.outcome!.message, e2));
  emitVerdicts(emit, 'protected', `record ${id} updated to publish with a password`, e2, [judgeRendered('title.rendered', textAt(r2.rec, 'title'), plain, false)]);
  if (env.headersSignIn) return emit('protected:anonymous', 'skip', SIGNED_IN_BY_HEADERS);
  const e3 = await readRecord(env, res.read, id, {}, false);
  const r3 = recordOf(e3, `protected record ${id} read anonymously`);
  if (r3.rec) emitVerdicts(emit, 'protected:anonymous', `protected record ${id} read by id anonymously`, e3, [judgeRendered('title.rendered', textAt(r3.rec, 'title'), plain, false)]);
  else emit('protected:anonymous', r3.outcome!.outcome, r3.outcome!.message, e3);
}

/**
 * Two units on cal/v1 (core's posts controller): an event's three texts, a venue's private and protected titles.
 * The legacy namespace is The Events Calendar's own controller, whose texts the documents do not give: not judged.
 */
export function planRenderedText(contract: Contract): Unit[] {
  const resources = calendarResources(contract).filter((r) => r.namespace === 'cal/v1' && (r.resource === 'event' || r.resource === 'venue'));
  return resources.map((res) => {
    const id = `${RENDERED_TEXT}:${res.namespace}/${res.resource}`;
    const ops = [res.create, res.read, res.list, res.update];
    return {
      id,
      family: RENDERED_TEXT,
      checks: [RENDERED_TEXT],
      operations: ops,
      writes: true,
      run: async (env: UnitEnv) => {
        const why = cannotWrite(env, [res.create, res.read, res.update]);
        const first = res.resource === 'event' ? 'id' : 'private';
        if (why) return env.emit({ check: RENDERED_TEXT, operation: res.create, variant: first, severity: 'convention', outcome: 'skip', message: `not run: ${why}; the check renders records of its own` });
        return res.resource === 'event' ? eventTexts(env, res, id) : titleFormats(env, res, id);
      },
    };
  });
}
