import type { TokenUpdate } from '../adapter';
import { postTokenForm, type TokenResponse } from '../shared/post-token-form';
import { oauth2TokenRefresher } from '../shared/oauth2-token-refresher';
import type { TokenRefresher } from '../shared/token-env';
import { TokenRefreshError } from '../shared/token-refresh-error';

/** LinkedIn's OAuth host and token endpoint (3-legged flow): `POST https://www.linkedin.com/oauth/v2/accessToken`. */
export const LINKEDIN_OAUTH_HOST = 'www.linkedin.com';
export const LINKEDIN_TOKEN_PATH = '/oauth/v2/accessToken';

/** LinkedIn's token answer names the refresh token's lifetime `refresh_token_expires_in`. */
export type LinkedinTokenResponse = TokenResponse & { refresh_token_expires_in?: number; id_token?: string };

export function linkedinTokenUpdate(body: LinkedinTokenResponse, now: number): TokenUpdate {
  return {
    secrets: { access_token: body.access_token, refresh_token: body.refresh_token },
    tokenExpiresAt: typeof body.expires_in === 'number' ? now + body.expires_in * 1000 : null,
    ...(typeof body.refresh_token_expires_in === 'number' ? { refreshExpiresAt: now + body.refresh_token_expires_in * 1000 } : {}),
    tokenObtainedAt: now,
  };
}

/**
 * Refreshes a LinkedIn token where LinkedIn granted a refresh token (programmatic refresh
 * tokens: approved Marketing/Community Management apps). The refresh token does not
 * rotate; it keeps its own expiry (a year from the first grant).
 */
export const linkedinTokenRefresher: TokenRefresher = oauth2TokenRefresher('linkedin', 7 * 24 * 3_600_000, async (creds, env) => {
  const clientId = creds.secrets.client_id ?? (creds.mode === 'sandbox' ? 'sandbox' : undefined);
  const clientSecret = creds.secrets.client_secret ?? (creds.mode === 'sandbox' ? 'sandbox' : undefined);
  const refreshToken = creds.secrets.refresh_token;
  if (!clientId || !clientSecret || !refreshToken) throw new TokenRefreshError('The LinkedIn connection has no client id, client secret or refresh token', true, 'invalid_request');
  const body = (await postTokenForm(
    env.baseUrl(LINKEDIN_OAUTH_HOST) + LINKEDIN_TOKEN_PATH,
    { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, client_secret: clientSecret },
    env,
  )) as LinkedinTokenResponse;
  return linkedinTokenUpdate(body, env.clock.now());
});
