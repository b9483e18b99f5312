// `forms/v1`: contact forms and their submissions, in the shape of the contact-form plugin's own REST API (every
// route is † in 001 §4.4, so bodies are read as that plugin reads them). State: forms are created, edited and
// deleted; a submission is validated against the form's tags (`[text* name]` is required, `[email ...]` must be an
// address, every text field has a `maxlength`) and stored, up to the limits in limits.ts. Everything here reads
// client text in one pass: no regular expression that could backtrack over it.
import type { ContactForm, ContactFormMail, FeedbackStatus } from '../../../../contracts/model/records.ts';
import type { Stored } from '../../store/store.ts';
import { sanitizeTitle, uniqueSlug } from '../../../../contracts/wordpress/slug.ts';
import { isEmail } from '../../../../contracts/wordpress/schema/index.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { feedbackRoom, kept, limitReached } from './limits.ts';
import { arg, err, json, nowWall, storeRefusal, str } from './util.ts';

import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';
interface FormTag {
  type: string;
  required: boolean;
  name: string;
  /** The `maxlength:N` option, else the plugin's default for the type (undefined: no limit). */
  maxlength?: number;
}

/** The contact-form plugin's default `maxlength` (get_maxlength_option( '400' ) for text fields, '2000' for a textarea). */
const DEFAULT_MAXLENGTH: Readonly<Record<string, number>> = { text: 400, email: 400, url: 400, tel: 400, textarea: 2000 };

const isTypeChar = (c: number) => (c >= 0x61 && c <= 0x7a) || c === 0x5f; // [a-z_]
const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isNameChar = (c: number) => isAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d; // [\w-]
const isSpace = (ch: string) => /\s/.test(ch);

function maxlengthOption(options: string, type: string): number | undefined {
  for (const opt of options.split(/\s+/)) {
    if (opt.startsWith('maxlength:')) {
      const digits = opt.slice('maxlength:'.length);
      if (digits !== '' && digits.length <= 9 && [...digits].every((d) => d >= '0' && d <= '9')) return Number(digits);
    }
  }
  return DEFAULT_MAXLENGTH[type];
}

/**
 * Form tags of the markup, without buttons: `[email* your-email autocomplete:email]` → email, required, your-email.
 * One left-to-right pass: a tag is `[`, a type, an optional `*`, white space, a name, options, `]`; where one does not
 * fit, the scan goes on after its `[`, and once no `]` is left no later tag can close either.
 */
export function formTags(markup: string): FormTag[] {
  const out: FormTag[] = [];
  const n = markup.length;
  let i = markup.indexOf('[');
  while (i >= 0) {
    let j = i + 1;
    while (j < n && isTypeChar(markup.charCodeAt(j))) j++;
    const type = markup.slice(i + 1, j);
    const required = markup[j] === '*';
    if (required) j++;
    const spaceStart = j;
    while (j < n && isSpace(markup[j]!)) j++;
    if (type === '' || j === spaceStart || j >= n || !isAlpha(markup.charCodeAt(j))) {
      i = markup.indexOf('[', i + 1);
      continue;
    }
    const nameStart = j;
    while (j < n && isNameChar(markup.charCodeAt(j))) j++;
    const close = markup.indexOf(']', j);
    if (close < 0) break;
    if (type !== 'submit') {
      const maxlength = maxlengthOption(markup.slice(j, close), type);
      out.push({ type, required, name: markup.slice(nameStart, j), ...(maxlength !== undefined ? { maxlength } : {}) });
    }
    i = markup.indexOf('[', close + 1);
  }
  return out;
}

/** The contact-form plugin's wpcf7_is_tel(), simplified: a leading `+` or digit, then digits and separators. */
function isTel(value: string): boolean {
  if (value.length < 3) return false;
  const first = value[0]!;
  if (first !== '+' && !(first >= '0' && first <= '9')) return false;
  for (let k = 1; k < value.length; k++) {
    const c = value[k]!;
    if (!((c >= '0' && c <= '9') || c === '(' || c === ')' || c === '.' || c === '-' || isSpace(c))) return false;
  }
  return true;
}

function summary(f: Stored<ContactForm>) {
  return { id: f.id, slug: f.slug, title: f.title, locale: f.locale };
}

function full(f: Stored<ContactForm>) {
  return { ...summary(f), properties: f.properties, config_errors: [] };
}

function notFound(): Reply {
  return err('wpcf7_not_found', 'The requested contact form was not found.', 404);
}

function formOf(ctx: HandlerCtx): Stored<ContactForm> | undefined {
  const id = ctx.pathParams.id;
  return id === undefined ? undefined : ctx.store.table('contactForms').get(Number(id));
}

const BLANK_MAIL: ContactFormMail = {
  active: false, subject: '', sender: '', recipient: '', body: '', additional_headers: '', attachments: '', use_html: false, exclude_blank: false,
};

function applyBody(ctx: HandlerCtx, base: ContactForm): ContactForm {
  const out = json(base) as ContactForm;
  const title = str(arg(ctx, 'title'));
  if (title !== undefined) out.title = title;
  const locale = str(arg(ctx, 'locale'));
  if (locale !== undefined) out.locale = locale;
  const form = str(arg(ctx, 'form'));
  if (form !== undefined) out.properties.form = form;
  for (const key of ['mail', 'mail_2'] as const) {
    const v = arg(ctx, key);
    if (isPlainObject(v)) out.properties[key] = { ...out.properties[key], ...(json(v) as Partial<ContactFormMail>) };
  }
  const messages = arg(ctx, 'messages');
  if (isPlainObject(messages)) out.properties.messages = { ...out.properties.messages, ...(json(messages) as Record<string, string>) };
  const extra = str(arg(ctx, 'additional_settings'));
  if (extra !== undefined) out.properties.additional_settings = extra;
  return out;
}

/** The form's post slug: from the title, unique among forms (`-2`, `-3`... as WordPress does). */
function slugify(ctx: HandlerCtx, title: string, id: number): string {
  const taken = new Set(ctx.store.table('contactForms').values().map((f) => f.slug));
  return uniqueSlug(sanitizeTitle(title) || `contact-form-${id}`, (s) => taken.has(s));
}

function feedback(ctx: HandlerCtx, form: Stored<ContactForm>): Reply {
  const tags = formTags(form.properties.form);
  const messages = form.properties.messages;
  const fields: Record<string, string> = {};
  const invalid: { field: string; message: string; idref: null; error_id: string }[] = [];
  for (const tag of tags) {
    const raw = ctx.input[tag.name];
    const value = Array.isArray(raw) ? raw.map(String).join(', ') : (str(raw) ?? '');
    const tooLong = tag.maxlength !== undefined && value.length > tag.maxlength;
    // A value over its maxlength is refused and kept only up to that length: what is stored stays bounded.
    fields[tag.name] = tooLong ? value.slice(0, tag.maxlength) : value;
    const fail = (message: string) => invalid.push({ field: tag.name, message, idref: null, error_id: `wpcf7-f${form.id}-o1-ve-${tag.name}` });
    if (tag.required && value.trim() === '') fail(messages.invalid_required ?? 'Please fill out this field.');
    else if (tooLong) fail(messages.invalid_too_long ?? 'This field has a too long input.');
    else if (tag.type === 'email' && value !== '' && !isEmail(value)) fail(messages.invalid_email ?? 'Please enter an email address.');
    else if (tag.type === 'tel' && value !== '' && !isTel(value)) fail(messages.invalid_tel ?? 'Please enter a telephone number.');
  }
  const status: FeedbackStatus = invalid.length ? 'validation_failed' : 'mail_sent';
  const room = feedbackRoom(ctx.store, fields);
  if (room) return limitReached(room);
  try {
    ctx.store.insert('feedback', (id) => ({ id, form_id: form.id, submitted_at: nowWall(ctx), status, fields: kept(fields), invalid_fields: invalid.map(({ field, message }) => ({ field, message })) }));
  } catch (e) {
    return storeRefusal(e);
  }
  return ok({
    contact_form_id: form.id,
    status,
    message: status === 'mail_sent' ? (messages.mail_sent_ok ?? 'Thank you for your message. It has been sent.') : (messages.validation_error ?? 'One or more fields have an error. Please check and try again.'),
    posted_data_hash: status === 'mail_sent' ? ctx.rng.hex(32) : '',
    into: `#wpcf7-f${form.id}-o1`,
    invalid_fields: invalid,
  });
}

/** The validation schema the plugin's front end fetches: one rule per required or typed field. */
function schema(form: Stored<ContactForm>) {
  const rules: Record<string, string | number>[] = [];
  const messages = form.properties.messages;
  for (const tag of formTags(form.properties.form)) {
    if (tag.required) rules.push({ rule: 'required', field: tag.name, error: messages.invalid_required ?? 'Please fill out this field.' });
    if (tag.maxlength !== undefined) rules.push({ rule: 'maxlength', field: tag.name, threshold: tag.maxlength, error: messages.invalid_too_long ?? 'This field has a too long input.' });
    if (tag.type === 'email') rules.push({ rule: 'email', field: tag.name, error: messages.invalid_email ?? 'Please enter an email address.' });
    if (tag.type === 'tel') rules.push({ rule: 'tel', field: tag.name, error: messages.invalid_tel ?? 'Please enter a telephone number.' });
  }
  return { version: 'Contact Form 7 SWV Schema 2024-10', locale: form.locale, rules };
}

function list(ctx: HandlerCtx): Reply {
  const all = ctx.store.table('contactForms').values().map(summary);
  return ok(all, 200, { pagination: { total: all.length, totalPages: all.length ? 1 : 0, page: 1 } });
}

function create(ctx: HandlerCtx): Reply {
  const title = str(arg(ctx, 'title')) ?? 'Untitled';
  try {
    const created = ctx.store.insert('contactForms', (id) =>
      applyBody(ctx, {
        id, title, slug: slugify(ctx, title, id), locale: ctx.lang === 'uk' ? 'uk' : 'en_US',
        properties: { form: '[submit "Submit"]', mail: { ...BLANK_MAIL, active: true }, mail_2: BLANK_MAIL, messages: {}, additional_settings: '' },
      }),
    );
    return ok(full(created), 201, { headers: { Location: `${ctx.links.apiRoot}forms/v1/contact-forms/${created.id}` } });
  } catch (e) {
    return storeRefusal(e);
  }
}

/** An item operation on the form the path names; 404 when there is none. */
const onForm = (f: (ctx: HandlerCtx, form: Stored<ContactForm>) => Reply) => (ctx: HandlerCtx): Reply => {
  const form = formOf(ctx);
  return form ? f(ctx, form) : notFound();
};

function update(ctx: HandlerCtx, form: Stored<ContactForm>): Reply {
  try {
    return ok(full(ctx.store.put('contactForms', applyBody(ctx, form as ContactForm))));
  } catch (e) {
    return storeRefusal(e);
  }
}

function remove(ctx: HandlerCtx, form: Stored<ContactForm>): Reply {
  const previous = full(form);
  ctx.store.remove('contactForms', form.id);
  return ok({ deleted: true, previous });
}

/** The contact-form add-on's operations, each its own handler. */
export const formHandlers = {
  list,
  create,
  read: onForm((_ctx, form) => ok(full(form))),
  update: onForm(update),
  delete: onForm(remove),
  feedback: onForm(feedback),
  schema: onForm((_ctx, form) => ok(schema(form))),
  refill: onForm(() => ok([])),
} as const;
