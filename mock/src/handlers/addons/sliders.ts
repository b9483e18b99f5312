// `sliderrevolution`: read-only sliders (001 §4.6). A slider is addressed by alias (or numeric ID); `slides/{id}`
// lists one slider's slides, `stream/{id}` the slides of several sliders (`1,3`), `modal/{slider}` a slider
// prepared for a modal.
import type { Slider } from '../../../../contracts/model/records.ts';
import type { Stored } from '../../store/store.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { err } from './util.ts';

function summary(s: Stored<Slider>) {
  return { id: s.id, alias: s.alias, title: s.title, slides: s.slides.length };
}

function byKey(ctx: HandlerCtx, key: string): Stored<Slider> | undefined {
  const table = ctx.store.table('sliders');
  return /^\d+$/.test(key) ? (table.get(Number(key)) ?? table.find((s) => s.alias === key)) : table.find((s) => s.alias === key);
}

function published(s: Stored<Slider>) {
  return s.slides.filter((sl) => sl.published).slice().sort((a, b) => a.order - b.order);
}

const missing = () => err('slider_not_found', 'Slider not found.', 404);

const list = (ctx: HandlerCtx): Reply => ok(ctx.store.table('sliders').values().map(summary));

function stream(ctx: HandlerCtx): Reply {
  const ids = (ctx.pathParams.id ?? '').split(',').filter((x) => x !== '').map(Number);
  const found = ids.map((id) => ctx.store.table('sliders').get(id)).filter((s): s is Stored<Slider> => s !== undefined);
  if (found.length === 0) return missing();
  return ok(found.flatMap((s) => published(s).map((sl) => ({ ...sl, slider: s.alias }))));
}

function slides(ctx: HandlerCtx): Reply {
  const s = ctx.store.table('sliders').get(Number(ctx.pathParams.id));
  return s ? ok(published(s)) : missing();
}

function one(ctx: HandlerCtx, modal: boolean): Reply {
  const s = byKey(ctx, ctx.pathParams.slider ?? '');
  if (!s) return missing();
  const body = { ...summary(s), slides: published(s) };
  return ok(modal ? { ...body, modal: true, trigger: `#slider-${s.alias}` } : body);
}

/** The slider add-on's operations, each its own handler. */
export const sliderHandlers = {
  list,
  stream,
  slides,
  slider: (ctx: HandlerCtx): Reply => one(ctx, false),
  modal: (ctx: HandlerCtx): Reply => one(ctx, true),
} as const;
