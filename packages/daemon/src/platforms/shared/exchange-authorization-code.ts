import { ConnectError } from '../../oauth/connect-error';
import { postTokenForm, type TokenResponse } from './post-token-form';
import type { TokenEnv } from './token-env';
import { TokenRefreshError } from './token-refresh-error';

/**
 * The connect flows' code exchange: POSTs the authorization code form to the token
 * endpoint at once (codes are short-lived) and turns any failure into a ConnectError the
 * user reads ("The platform refused the authorization code: invalid_grant: …").
 */
export async function exchangeAuthorizationCode(url: string, form: Record<string, string>, env: TokenEnv, headers: Record<string, string> = {}): Promise<TokenResponse> {
  try {
    return await postTokenForm(url, form, env, headers);
  } catch (err) {
    throw new ConnectError(err instanceof TokenRefreshError ? err.message.replace('token request', 'authorization code') : String(err));
  }
}
