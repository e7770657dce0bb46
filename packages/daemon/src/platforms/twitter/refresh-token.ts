import { oauth2TokenRefresher } from '../shared/oauth2-token-refresher';
import type { TokenRefresher } from '../shared/token-env';
import { postTokenForm } from '../shared/post-token-form';
import { toTokenUpdate } from '../shared/to-token-update';
import { TokenRefreshError } from '../shared/token-refresh-error';

/** X's token endpoint (docs/reference/platforms.md §3.4): `POST https://api.x.com/2/oauth2/token`. */
export const X_TOKEN_PATH = '/2/oauth2/token';

/** Basic auth for confidential X clients; public clients send `client_id` in the form instead. */
export function xClientAuth(clientId: string, clientSecret: string | undefined): Record<string, string> {
  return clientSecret ? { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` } : {};
}

/**
 * Refreshes an X OAuth 2.0 user token. X refresh tokens are single-use and rotating: the
 * answer's refresh_token replaces the stored one (ensureAccessToken stores both first).
 * X OAuth 2.0 connections, refreshed in the background twice a day (OAuth 1.0a tokens never expire and are left alone).
 */
export const twitterTokenRefresher: TokenRefresher = oauth2TokenRefresher('twitter', 12 * 3_600_000, async (creds, env) => {
  // Sandbox connections carry no app credentials; the simulator accepts any client id.
  const clientId = creds.secrets.client_id ?? (creds.mode === 'sandbox' ? 'sandbox' : undefined);
  const refreshToken = creds.secrets.refresh_token;
  if (!clientId || !refreshToken) throw new TokenRefreshError('The X connection has no client id or refresh token', true, 'invalid_request');
  const body = await postTokenForm(
    env.baseUrl('api.x.com') + X_TOKEN_PATH,
    { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId },
    env,
    xClientAuth(clientId, creds.secrets.client_secret),
  );
  return toTokenUpdate(body, env.clock.now());
});
