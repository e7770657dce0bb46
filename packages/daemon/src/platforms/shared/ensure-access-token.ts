import type { AccountAccess, Credentials, TokenUpdate } from '../adapter';
import { AuthExpiredError, RetryableError } from '../errors';
import type { TokenEnv, TokenRefresher } from './token-env';
import { TokenRefreshError } from './token-refresh-error';

/**
 * Access tokens for the OAuth 2.0 platforms (X, TikTok, Google). Shared because the rules are the same: refresh shortly before expiry,
 * store the new access token and the (possibly rotated) refresh token together BEFORE
 * using either, keep the old refresh token when none comes back, take expiry from each
 * response, and mark the connection expired only when the platform refuses the refresh.
 */

/** Refresh this long before the stated expiry. */
const SKEW_MS = 2 * 60_000;

/**
 * The latest refresh per connection in this process: concurrent targets share one refresh
 * (a rotating refresh token is single-use), and a target that loaded its credentials
 * before another target refreshed uses the newer tokens instead of the spent refresh token.
 */
const inFlight = new Map<string, Promise<TokenUpdate>>();
const latest = new Map<string, TokenUpdate>();
/**
 * Refreshes the platform made that could not be stored (the write failed). The rotated
 * refresh token in them is the only valid one, so it is kept here and stored first thing
 * on the next use instead of being lost (which would end a rotating chain).
 */
const unsaved = new Map<string, TokenUpdate>();

function apply(creds: Credentials, update: TokenUpdate): void {
  for (const [k, v] of Object.entries(update.secrets)) if (v) creds.secrets[k] = v;
  if (update.tokenExpiresAt !== undefined) creds.tokenExpiresAt = update.tokenExpiresAt;
  if (update.refreshExpiresAt !== undefined) creds.refreshExpiresAt = update.refreshExpiresAt;
  if (update.tokenObtainedAt !== undefined) creds.tokenObtainedAt = update.tokenObtainedAt;
}

/** Forgets cached refreshes (tests; a reconnect replaces the connection's tokens). */
export function forgetRefreshes(connectionId?: string): void {
  if (connectionId) {
    latest.delete(connectionId);
    inFlight.delete(connectionId);
    unsaved.delete(connectionId);
  } else {
    latest.clear();
    inFlight.clear();
    unsaved.clear();
  }
}

/**
 * Refreshes a connection's tokens once for everyone asking at the same time in this
 * process (publishing targets and the background refresher), and persists the result with
 * `persist` before anyone may use it. A caller whose credentials predate a refresh made
 * here gets that refresh's tokens instead of spending an already-rotated refresh token.
 */
export async function refreshShared(creds: Credentials, refresher: TokenRefresher, env: TokenEnv, persist?: (update: TokenUpdate) => Promise<void>): Promise<TokenUpdate> {
  const cached = latest.get(creds.connectionId);
  if (cached && (cached.tokenObtainedAt ?? 0) > (creds.tokenObtainedAt ?? 0) && (cached.tokenExpiresAt ?? Infinity) - env.clock.now() > SKEW_MS) return cached;
  let pending = inFlight.get(creds.connectionId);
  if (!pending) {
    pending = (async () => {
      // A reconnect since then replaced the tokens: the kept refresh is stale.
      const kept = unsaved.get(creds.connectionId);
      const usable = kept && (kept.tokenObtainedAt ?? 0) >= (creds.tokenObtainedAt ?? 0) ? kept : undefined;
      const update = usable ?? (await refresher.refresh(creds, env));
      try {
        await persist?.(update);
      } catch (err) {
        unsaved.set(creds.connectionId, update);
        throw new TokenRefreshError(`The refreshed tokens could not be stored (kept in memory, stored on the next attempt): ${(err as Error).message}`, false);
      }
      unsaved.delete(creds.connectionId);
      latest.set(creds.connectionId, update);
      return update;
    })();
    inFlight.set(creds.connectionId, pending);
    pending.then(
      () => inFlight.delete(creds.connectionId),
      () => inFlight.delete(creds.connectionId),
    );
  }
  return pending;
}

/**
 * A usable access token for the target's connection: refreshed (and stored) first when it
 * is about to expire or when `force` is set (after a 401).
 */
export async function ensureAccessToken(ctx: AccountAccess, refresher: TokenRefresher, options: { force?: boolean } = {}): Promise<string> {
  const creds = ctx.credentials;
  const cached = latest.get(creds.connectionId);
  if (cached && (cached.tokenObtainedAt ?? 0) > (creds.tokenObtainedAt ?? 0)) apply(creds, cached);
  const now = ctx.clock.now();
  const token = creds.secrets.access_token;
  const fresh = token && (creds.tokenExpiresAt === null || creds.tokenExpiresAt - now > SKEW_MS);
  if (fresh && !options.force) return token;
  if (!creds.secrets.refresh_token) {
    if (token && !options.force && (creds.tokenExpiresAt === null || creds.tokenExpiresAt > now)) return token;
    const reason = 'The access token expired and the connection has no refresh token';
    await ctx.markConnectionExpired(reason);
    throw new AuthExpiredError(`${reason}; reconnect the account`, { platformCode: 'token_expired' });
  }

  try {
    // Stored before anything uses it: a rotated refresh token that is lost would end the connection.
    apply(creds, await refreshShared(creds, refresher, { baseUrl: (h) => ctx.baseUrl(h), clock: ctx.clock, signal: ctx.signal }, (u) => ctx.saveTokens(u)));
  } catch (err) {
    if (err instanceof TokenRefreshError && err.permanent) {
      await ctx.markConnectionExpired(err.message);
      throw new AuthExpiredError(`${err.message}; reconnect the account`, { platformCode: err.code ?? 'invalid_grant', cause: err });
    }
    throw new RetryableError(`Could not refresh the access token: ${(err as Error).message}`, { platformCode: 'token_refresh', cause: err });
  }
  return creds.secrets.access_token as string;
}
