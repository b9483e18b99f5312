// `sliderrevolution`: read-only sliders (001 §4.6). A slider is addressed by alias (or numeric ID); `slides/{id}`
// lists one slider's slides, `stream/{id}` the slides of several sliders (`1,3`), `modal/{slider}` a slider
// prepared for a modal.
import type { Slider } from '../../../../fixtures/model/records.ts';
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

export function slidersHandler(ctx: HandlerCtx): Reply {
  const path = ctx.op.path;
  if (path === '/sliderrevolution/sliders') return ok(ctx.store.table('sliders').values().map(summary));
  if (path.endsWith('/stream/{id}')) {
    const ids = (ctx.pathParams.id ?? '').split(',').filter((x) => x !== '').map(Number);
    const found = ids.map((id) => ctx.store.table('sliders').get(id)).filter((s): s is Stored<Slider> => s !== undefined);
    if (found.length === 0) return missing();
    return ok(found.flatMap((s) => published(s).map((sl) => ({ ...sl, slider: s.alias }))));
  }
  if (path.endsWith('/slides/{id}')) {
    const s = ctx.store.table('sliders').get(Number(ctx.pathParams.id));
    return s ? ok(published(s)) : missing();
  }
  const s = byKey(ctx, ctx.pathParams.slider ?? '');
  if (!s) return missing();
  const body = { ...summary(s), slides: published(s) };
  return ok(path.includes('/modal/') ? { ...body, modal: true, trigger: `#slider-${s.alias}` } : body);
}
