import type { TokenUpdate } from '../adapter';
import { postTokenForm, type TokenResponse } from '../shared/post-token-form';
import { oauth2TokenRefresher } from '../shared/oauth2-token-refresher';
import type { TokenRefresher } from '../shared/token-env';
import { TokenRefreshError } from '../shared/token-refresh-error';

/** Pinterest's hosts: the API (and its token endpoint `POST /v5/oauth/token`) and the consent page (`www.pinterest.com/oauth/`). */
export const PINTEREST_API_HOST = 'api.pinterest.com';
export const PINTEREST_WWW_HOST = 'www.pinterest.com';
export const PINTEREST_TOKEN_PATH = '/v5/oauth/token';

/** Pinterest's token answer names the refresh token's lifetime `refresh_token_expires_in` (and `_at`, epoch seconds). */
export type PinterestTokenResponse = TokenResponse & { refresh_token_expires_in?: number; refresh_token_expires_at?: number; response_type?: string };

/** The token endpoint authenticates the app with HTTP Basic (client id and secret). */
export const basicAuth = (clientId: string, clientSecret: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
});

export function pinterestTokenUpdate(body: PinterestTokenResponse, now: number): TokenUpdate {
  const refreshExpiresAt =
    typeof body.refresh_token_expires_at === 'number' ? body.refresh_token_expires_at * 1000 : typeof body.refresh_token_expires_in === 'number' ? now + body.refresh_token_expires_in * 1000 : undefined;
  return {
    secrets: { access_token: body.access_token, refresh_token: body.refresh_token },
    tokenExpiresAt: typeof body.expires_in === 'number' ? now + body.expires_in * 1000 : null,
    ...(refreshExpiresAt !== undefined ? { refreshExpiresAt } : {}),
    tokenObtainedAt: now,
  };
}

/**
 * Refreshes a Pinterest token (`grant_type=refresh_token`, the app in HTTP Basic). Access
 * tokens live 30 days and refresh tokens a year; an answer without a refresh token keeps
 * the stored one (ensure-access-token never overwrites it with an empty one).
 */
export const pinterestTokenRefresher: TokenRefresher = oauth2TokenRefresher('pinterest', 7 * 24 * 3_600_000, async (creds, env) => {
  const clientId = creds.secrets.client_id ?? (creds.mode === 'sandbox' ? 'sandbox' : undefined);
  const clientSecret = creds.secrets.client_secret ?? (creds.mode === 'sandbox' ? 'sandbox' : undefined);
  const refreshToken = creds.secrets.refresh_token;
  if (!clientId || !clientSecret || !refreshToken) throw new TokenRefreshError('The Pinterest connection has no client id, client secret or refresh token', true, 'invalid_request');
  const body = (await postTokenForm(
    env.baseUrl(PINTEREST_API_HOST) + PINTEREST_TOKEN_PATH,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    env,
    basicAuth(clientId, clientSecret),
  )) as PinterestTokenResponse;
  return pinterestTokenUpdate(body, env.clock.now());
});
