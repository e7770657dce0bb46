import { postTokenForm } from '../shared/post-token-form';
import { toTokenUpdate } from '../shared/to-token-update';
import { TokenRefreshError } from '../shared/token-refresh-error';
import { oauth2TokenRefresher } from '../shared/oauth2-token-refresher';
import type { TokenRefresher } from '../shared/token-env';

/** Google's token endpoint (docs/reference/platforms.md §6.4). */
export const GOOGLE_TOKEN_HOST = 'oauth2.googleapis.com';

/**
 * Refreshes a Google access token. Google does not rotate refresh tokens: the answer has
 * none, and the stored one is kept (saveTokens never overwrites with an empty value).
 * Google connections: refreshed in the background daily (a refresh token unused for 6 months stops working).
 */
export const youtubeTokenRefresher: TokenRefresher = oauth2TokenRefresher('youtube', 24 * 3_600_000, async (creds, env) => {
  const { client_secret: clientSecret, refresh_token: refreshToken } = creds.secrets;
  const clientId = creds.secrets.client_id ?? (creds.mode === 'sandbox' ? 'sandbox' : undefined);
  if (!clientId || !refreshToken) throw new TokenRefreshError('The YouTube connection has no client id or refresh token', true, 'invalid_request');
  const form: Record<string, string> = { client_id: clientId, grant_type: 'refresh_token', refresh_token: refreshToken };
  if (clientSecret) form.client_secret = clientSecret;
  const body = await postTokenForm(env.baseUrl(GOOGLE_TOKEN_HOST) + '/token', form, env);
  return toTokenUpdate(body, env.clock.now());
});
