import type { AccountAccess } from '../adapter';
import { AuthExpiredError } from '../errors';
import { ensureAccessToken } from '../shared/ensure-access-token';
import { linkedinTokenRefresher } from './refresh-token';

export const RECONNECT = 'reconnect with `socialpub connect linkedin`';

/**
 * A usable LinkedIn access token: refreshed first where LinkedIn granted a refresh token;
 * without one, a token past its 60 days marks the connection expired with the reconnect step.
 */
export async function linkedinToken(ctx: AccountAccess, force = false): Promise<string> {
  const c = ctx.credentials;
  if (!c.secrets.refresh_token && c.tokenExpiresAt !== null && c.tokenExpiresAt <= ctx.clock.now()) {
    const reason = `The LinkedIn access token expired and LinkedIn granted this app no refresh token; ${RECONNECT}`;
    await ctx.markConnectionExpired(reason);
    throw new AuthExpiredError(reason, { platformCode: 'token_expired' });
  }
  return ensureAccessToken(ctx, linkedinTokenRefresher, { force });
}
