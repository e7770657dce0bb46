import { postTokenForm } from '../shared/post-token-form';
import { toTokenUpdate } from '../shared/to-token-update';
import { TokenRefreshError } from '../shared/token-refresh-error';
import { oauth2TokenRefresher } from '../shared/oauth2-token-refresher';
import type { TokenRefresher } from '../shared/token-env';

/** TikTok's token endpoint (docs/reference/platforms.md §5.4). */
export const TIKTOK_TOKEN_PATH = '/v2/oauth/token/';

/**
 * Refreshes a TikTok user token. TikTok rotates refresh tokens ("the previous refresh
 * token stops working once a new one is issued"): the new pair is stored before use, and
 * both lifetimes come from `expires_in` / `refresh_expires_in`.
 * TikTok connections: refreshed in the background at least twice a day so the 180-day rotating refresh token stays current.
 */
export const tiktokTokenRefresher: TokenRefresher = oauth2TokenRefresher('tiktok', 12 * 3_600_000, async (creds, env) => {
  const sandbox = creds.mode === 'sandbox' ? 'sandbox' : undefined;
  const { refresh_token: refreshToken } = creds.secrets;
  const clientKey = creds.secrets.client_key ?? sandbox;
  const clientSecret = creds.secrets.client_secret ?? sandbox;
  if (!clientKey || !clientSecret || !refreshToken) throw new TokenRefreshError('The TikTok connection has no client key, client secret or refresh token', true, 'invalid_request');
  const body = await postTokenForm(env.baseUrl('open.tiktokapis.com') + TIKTOK_TOKEN_PATH, {
    client_key: clientKey,
    client_secret: clientSecret,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  }, env);
  return toTokenUpdate(body, env.clock.now());
});
