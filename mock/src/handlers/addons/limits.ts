// Bounds of what the public add-on routes (anyone may call them, even with --auth) keep in the store. A mock left
// running all day must not grow without end because a client registers, logs in or submits in a loop; past a bound
// the route answers a WordPress-shaped error and keeps nothing. POST /__mock/reset empties them again.
import type { Store } from '../../store/store.ts';
import type { ErrorReply } from '../context.ts';
import { err } from './util.ts';
import type { WpError } from '../../../../contracts/wordpress/schema/types.ts';
import { stringCopy, utf8Length } from '../../../../contracts/wordpress/bytes.ts';

export const LIMITS = {
  /** Learning-module users, fixtures included (`lms/v1/token/register`). */
  lmsUsers: 10_000,
  /** Characters of a registered password. */
  lmsPasswordChars: 255,
  /** Seconds a learning-module token is valid (the JWT-auth plugins' default: seven days). */
  lmsTokenSeconds: 7 * 24 * 3600,
  /** Seconds an expired token is still kept (validating it says "expired", not "invalid"); then a login drops it. */
  lmsExpiredTokenSeconds: 30 * 24 * 3600,
  /** Tokens kept per user: a login past it revokes that user's oldest token, as a session limit does. */
  lmsTokensPerUser: 20,
  /** Tokens kept in all (those expired for longer than lmsExpiredTokenSeconds are dropped first). */
  lmsTokens: 20_000,
  /** Stored contact-form submissions, fixtures included. */
  feedbackRecords: 10_000,
  /** UTF-8 bytes of all stored submission names and values together (each value is already capped by its maxlength). */
  feedbackBytes: 16 * 1024 * 1024,
} as const;

/** The code and message of the 429 a full route answers. */
type Limit = Pick<WpError, 'code' | 'message'>;

/** 429 with the error shape every add-on answers in: the store is full for this route until a reset. */
export function limitReached(limit: Limit): ErrorReply {
  return err(limit.code, limit.message, 429);
}

function valueBytes(fields: Readonly<Record<string, string>>): number {
  let n = 0;
  for (const k of Object.keys(fields)) n += utf8Length(k) + utf8Length(fields[k]!);
  return n;
}

/**
 * What a public route keeps, as strings of its own: a value cut from a request (a slice of a 7 MB upload) would
 * otherwise keep the whole upload alive as long as it is stored, whatever the byte bound counts.
 */
export function kept(fields: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(fields)) out[stringCopy(k)] = stringCopy(fields[k]!);
  return out;
}

/** Undefined when one more submission with these values fits; else the limit it would pass. */
export function feedbackRoom(store: Store, fields: Readonly<Record<string, string>>): Limit | undefined {
  const stored = store.table('feedback');
  if (stored.size >= LIMITS.feedbackRecords) {
    return { code: 'wpcf7_feedback_limit', message: `The mock keeps at most ${LIMITS.feedbackRecords.toLocaleString('en')} submissions; POST /__mock/reset clears them.` };
  }
  let bytes = valueBytes(fields);
  for (const f of stored.values()) bytes += valueBytes(f.fields);
  if (bytes > LIMITS.feedbackBytes) {
    return { code: 'wpcf7_feedback_limit', message: `The mock keeps at most ${LIMITS.feedbackBytes.toLocaleString('en')} bytes of submissions; POST /__mock/reset clears them.` };
  }
  return undefined;
}
