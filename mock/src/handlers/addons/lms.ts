// `lms/v1`: token login for the learning module. 001 §5 leaves the header, format and lifetime open; the mock
// follows the widespread JWT-auth plugin convention: POST /token with username and password answers a token,
// /token/validate reads `Authorization: Bearer <token>` (or a `token` field), /token/register adds a user.
// Tokens are opaque (48 hex characters from the seeded generator) and last seven days (LIMITS.lmsTokenSeconds);
// expired tokens are dropped at the next login, and users and live tokens are bounded (limits.ts).
import { addSeconds } from '../../../../contracts/wordpress/time.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { LIMITS, limitReached } from './limits.ts';
import { stringCopy } from '../../../../contracts/wordpress/bytes.ts';
import { arg, err, nowUtc, storeRefusal, str } from './util.ts';

function bearer(ctx: HandlerCtx): string | undefined {
  const h = ctx.headers.authorization;
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1] ?? str(ctx.input.token);
}

function issue(ctx: HandlerCtx): Reply {
  const username = str(arg(ctx, 'username')) ?? '';
  const password = str(arg(ctx, 'password')) ?? '';
  if (username === '') return err('lms_auth_empty_username', 'The username field is empty.', 403);
  if (password === '') return err('lms_auth_empty_password', 'The password field is empty.', 403);
  const user = ctx.store.table('lmsUsers').get(username);
  if (!user) return err('lms_auth_invalid_username', 'Unknown username. Check again or try your email address.', 403);
  if (user.password !== password) return err('lms_auth_incorrect_password', `The password you entered for the username ${username} is incorrect.`, 403);
  const issued = nowUtc(ctx);
  const expires = addSeconds(issued, LIMITS.lmsTokenSeconds);
  const token = ctx.rng.hex(48);
  try {
    if (!makeRoom(ctx, username, issued)) {
      return limitReached({ code: 'lms_auth_too_many_tokens', message: `The mock keeps at most ${LIMITS.lmsTokens.toLocaleString('en')} live tokens; POST /__mock/reset clears them.` });
    }
    ctx.store.put('lmsTokens', { token, username, issued_at: issued, expires_at: expires });
  } catch (e) {
    return storeRefusal(e);
  }
  return ok({ token, user_nicename: username, user_display_name: username, expires_at: `${expires.replace(' ', 'T')}Z` });
}

/**
 * Room for one more token of `username`: tokens expired for more than LIMITS.lmsExpiredTokenSeconds go (until then
 * validating one still says it expired), then this user's oldest beyond the per-user bound. False when the others
 * still fill the table.
 */
function makeRoom(ctx: HandlerCtx, username: string, now: string): boolean {
  const tokens = ctx.store.table('lmsTokens');
  for (const t of tokens.values()) if (addSeconds(t.expires_at, LIMITS.lmsExpiredTokenSeconds) <= now) ctx.store.remove('lmsTokens', t.token);
  const own = tokens.values().filter((t) => t.username === username).sort((a, b) => (a.issued_at < b.issued_at ? -1 : a.issued_at > b.issued_at ? 1 : 0));
  for (const t of own.slice(0, Math.max(0, own.length - (LIMITS.lmsTokensPerUser - 1)))) ctx.store.remove('lmsTokens', t.token);
  return tokens.size < LIMITS.lmsTokens;
}

function validate(ctx: HandlerCtx): Reply {
  const token = bearer(ctx);
  if (!token) return err('lms_auth_no_auth_header', 'Authorization header not found.', 403);
  const stored = ctx.store.table('lmsTokens').get(token);
  if (!stored) return err('lms_auth_invalid_token', 'The token is not valid.', 403);
  if (stored.expires_at <= nowUtc(ctx)) return err('lms_auth_expired_token', 'The token has expired.', 403);
  return ok({ code: 'lms_auth_valid_token', data: { status: 200, username: stored.username, expires_at: `${stored.expires_at.replace(' ', 'T')}Z` } });
}

function register(ctx: HandlerCtx): Reply {
  const username = str(arg(ctx, 'username')) ?? '';
  const password = str(arg(ctx, 'password')) ?? '';
  if (username === '' || password === '') return err('lms_register_missing_fields', 'A username and a password are required.', 400, { params: ['username', 'password'] });
  if (!/^[A-Za-z0-9._@-]{3,60}$/.test(username)) return err('lms_register_invalid_username', 'The username may use letters, digits and . _ @ - only (3-60 characters).', 400);
  if (password.length > LIMITS.lmsPasswordChars) return err('lms_register_invalid_password', `The password may be at most ${LIMITS.lmsPasswordChars} characters long.`, 400);
  const users = ctx.store.table('lmsUsers');
  if (users.has(username)) return err('lms_register_username_exists', 'Sorry, that username already exists!', 400);
  if (users.size >= LIMITS.lmsUsers) {
    return limitReached({ code: 'lms_register_limit', message: `The mock keeps at most ${LIMITS.lmsUsers.toLocaleString('en')} learning-module users; POST /__mock/reset clears them.` });
  }
  try {
    ctx.store.put('lmsUsers', { username: stringCopy(username), password: stringCopy(password) });
  } catch (e) {
    return storeRefusal(e);
  }
  return ok({ code: 'lms_user_registered', message: 'The user was registered.', data: { status: 200, username } });
}

/** The learning module's operations, each its own handler. */
export const lmsHandlers = { issue, validate, register } as const;
