// `lms/v1`: token login for the learning module. 001 §5 leaves the header, format and lifetime open; the mock
// follows the widespread JWT-auth plugin convention: POST /token with username and password answers a token,
// /token/validate reads `Authorization: Bearer <token>` (or a `token` field), /token/register adds a user.
// Tokens are opaque (48 hex characters from the seeded generator) and last seven days.
import { addSeconds } from '../../store/time.ts';
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { arg, err, nowUtc, storeRefusal, str } from './util.ts';

const TOKEN_SECONDS = 7 * 24 * 3600;

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
  const token = ctx.rng.hex(48);
  try {
    ctx.store.put('lmsTokens', { token, username, issued_at: issued, expires_at: addSeconds(issued, TOKEN_SECONDS) });
  } catch (e) {
    return storeRefusal(e);
  }
  return ok({ token, user_nicename: username, user_display_name: username, expires_at: `${addSeconds(issued, TOKEN_SECONDS).replace(' ', 'T')}Z` });
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
  if (ctx.store.table('lmsUsers').has(username)) return err('lms_register_username_exists', 'Sorry, that username already exists!', 400);
  try {
    ctx.store.put('lmsUsers', { username, password });
  } catch (e) {
    return storeRefusal(e);
  }
  return ok({ code: 'lms_user_registered', message: 'The user was registered.', data: { status: 200, username } });
}

export function lmsHandler(ctx: HandlerCtx): Reply {
  if (ctx.op.path === '/lms/v1/token') return issue(ctx);
  if (ctx.op.path === '/lms/v1/token/validate') return validate(ctx);
  return register(ctx);
}
