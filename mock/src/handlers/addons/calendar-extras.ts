// The calendar's other routes (000 §4.3): rendered views, the onboarding wizard and the external import
// service's callbacks. Views answer a JSON string of HTML (the contract types the answer as JSON); the import
// callbacks move an import job along, checking the batch hash the job expects.
import type { ImportJob, ImportStatus, JsonObject } from '../../../../contracts/model/records.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { legacyLookup } from '../calendar/common.ts';
import { readsPost } from '../../auth/permissions.ts';
import { arg, err, int, json, nowWall, storeRefusal, str } from './util.ts';

import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';
function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function viewHtml(ctx: HandlerCtx): Reply {
  const view = str(arg(ctx, 'view')) ?? 'list';
  const now = nowWall(ctx);
  const events = ctx.store.events
    .values()
    .filter((e) => e.lang === ctx.lang && e.status === 'publish' && !e.hide_from_listings && e.end_date >= now)
    .sort((a, b) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : a.id - b.id))
    .slice(0, 12);
  const lookup = legacyLookup(ctx.store);
  const reader = { user: ctx.user, authRequired: ctx.authRequired };
  const items = events
    .map((e) => {
      // The venue's name is shown only to whoever could read the venue itself.
      const found = e.venues[0] === undefined ? undefined : lookup.venue(e.venues[0]);
      const venue = found && readsPost(reader, found) ? found : undefined;
      return `<article class="cal-events-${view}__event" data-event-id="${e.id}"><time datetime="${e.start_date.replace(' ', 'T')}">${e.start_date}</time><h3><a href="${ctx.links.home}/event/${e.slug}/">${escapeHtml(e.title)}</a></h3>${venue ? `<address>${escapeHtml(venue.title)}</address>` : ''}</article>`;
    })
    .join('');
  return ok(`<div class="cal-events-view cal-events-view--${escapeHtml(view)}" data-url="${escapeHtml(String(arg(ctx, 'u') ?? ''))}">${items || '<p class="cal-events-c-messages__message">There are no upcoming events.</p>'}</div>`);
}

function job(ctx: HandlerCtx): ImportJob | Reply {
  const id = ctx.pathParams.import_id ?? '';
  const found = ctx.store.table('importJobs').get(id);
  if (!found) return err('cal_import_not_found', `No import with the ID ${id}.`, 404);
  const hash = str(ctx.params.batch_hash) ?? '';
  // The expected hash is the import service's secret: a mismatch says so and nothing more.
  if (hash !== found.batch_hash) return err('cal_import_batch_hash_mismatch', 'The batch hash does not match the batch this import expects.', 409);
  return json(found) as ImportJob;
}

function importBatch(ctx: HandlerCtx): Reply {
  const found = job(ctx);
  if ('status' in found && typeof found.status === 'number') return found as Reply;
  const j = found as ImportJob;
  const pct = Math.max(0, Math.min(100, int(ctx.params.percentage_complete) ?? j.percentage_complete));
  // The next batch carries a new hash; the mock derives it so a client can follow the sequence.
  const next = ctx.rng.hex(40);
  const updated: ImportJob = {
    ...j,
    batch_hash: next,
    percentage_complete: pct,
    status: pct >= 100 ? 'success' : 'pending',
    ...(isPlainObject(ctx.params.status) ? { batch_status: json(ctx.params.status) as JsonObject } : {}),
    ...(int(ctx.params.interval) !== undefined ? { interval: int(ctx.params.interval)! } : {}),
    updated: nowWall(ctx),
  };
  try {
    ctx.store.put('importJobs', updated);
  } catch (e) {
    return storeRefusal(e);
  }
  return ok({ status: 'success', import_id: j.import_id, percentage_complete: pct, next_batch_hash: next, interval: updated.interval ?? 10 });
}

function importState(ctx: HandlerCtx): Reply {
  const found = job(ctx);
  if ('status' in found && typeof found.status === 'number') return found as Reply;
  const j = found as ImportJob;
  const updated: ImportJob = {
    ...j,
    status: (str(ctx.params.status) ?? j.status) as ImportStatus,
    message: str(ctx.params.message) ?? j.message,
    message_slug: str(ctx.params.message_slug) ?? j.message_slug,
    percentage_complete: Math.max(0, Math.min(100, int(ctx.params.percentage_complete) ?? j.percentage_complete)),
    updated: nowWall(ctx),
  };
  try {
    ctx.store.put('importJobs', updated);
  } catch (e) {
    return storeRefusal(e);
  }
  return ok({ status: 'success', import_id: j.import_id, state: updated.status, percentage_complete: updated.percentage_complete });
}

function onboardingWizard(ctx: HandlerCtx): Reply {
  if ((str(ctx.params.action_nonce) ?? '').trim() === '') return err('cal_onboarding_invalid_nonce', 'The request could not be verified.', 403);
  return ok({ success: true, message: 'Onboarding data saved.', data: { completed: true } });
}

/** The calendar's own extra operations (views, onboarding, the import service's callbacks), each its own handler. */
export const calendarExtraHandlers = { viewHtml, onboardingWizard, importBatch, importState } as const;
