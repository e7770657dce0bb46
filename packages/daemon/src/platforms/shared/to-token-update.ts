import type { TokenUpdate } from '../adapter';
import type { TokenResponse } from './post-token-form';

/** What a token response means for the stored connection (expiry from the response, never assumed). */
export function toTokenUpdate(body: TokenResponse, now: number): TokenUpdate {
  return {
    secrets: { access_token: body.access_token, refresh_token: body.refresh_token },
    tokenExpiresAt: typeof body.expires_in === 'number' ? now + body.expires_in * 1000 : null,
    ...(typeof body.refresh_expires_in === 'number' ? { refreshExpiresAt: now + body.refresh_expires_in * 1000 } : {}),
    tokenObtainedAt: now,
  };
}
