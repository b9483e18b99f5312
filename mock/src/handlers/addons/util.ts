// Helpers the add-on handlers share. The add-ons' error codes are not documented (000 §7, 001 §4: "not shown");
// each plugin's own style is imitated: a snake_case code, a sentence, `data.status`.
import type { JsonObject, JsonValue } from '../../../../contracts/model/records.ts';
import { StoreError } from '../../store/store.ts';
import { epochToWall } from '../../../../contracts/wordpress/time.ts';
import { wpError } from '../../wire/errors.ts';
import { fail, type ErrorReply, type HandlerCtx } from '../context.ts';
import { invalidParam, siteNow } from '../calendar/common.ts';

export function err(code: string, message: string, status: number, extra: Record<string, unknown> = {}): ErrorReply {
  return fail(wpError(code, message, { status, ...extra }));
}

/** The site's wall clock now, `YYYY-MM-DD HH:MM:SS`. */
export const nowWall = siteNow;

export function nowUtc(ctx: HandlerCtx): string {
  return epochToWall(Math.floor(ctx.now / 1000) * 1000);
}

/** A parameter from the declared params, else from the undeclared input (for † routes). */
export function arg(ctx: HandlerCtx, name: string): unknown {
  return ctx.params[name] ?? ctx.input[name];
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export function int(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return undefined;
}

/** A JSON-safe copy: the store only takes JSON values. */
export function json<T>(v: T): T {
  return JSON.parse(JSON.stringify(v ?? null)) as T;
}

/**
 * What a settings write takes from the request: every field it carried (declared or not, † routes), JSON-safe, but
 * the language switch and the `_`-prefixed globals (`_fields`, `_envelope`...), which are not settings.
 */
export function settingsInput(ctx: HandlerCtx): JsonObject {
  const patch: JsonObject = {};
  for (const [k, v] of Object.entries(ctx.input)) if (k !== 'i18n_language' && !k.startsWith('_')) patch[k] = json(v) as JsonValue;
  return patch;
}

/** Store refusals of add-on writes as a 400 naming the field. */
export function storeRefusal(e: unknown): ErrorReply {
  if (e instanceof StoreError) return invalidParam(e.field ?? 'body');
  throw e;
}

