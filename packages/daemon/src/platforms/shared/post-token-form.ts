import got from 'got';
import type { TokenEnv } from './token-env';
import { TokenRefreshError } from './token-refresh-error';
import { wasSent } from './was-sent';

/** An OAuth token endpoint's JSON answer. */
export interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  refresh_expires_in?: number;
  scope?: string;
  token_type?: string;
  open_id?: string;
  error?: string | { code?: string; message?: string };
  error_description?: string;
  log_id?: string;
}

/** POSTs a form to a token endpoint; transport failures and 5xx are transient, 4xx are the platform's refusal. */
export async function postTokenForm(url: string, form: Record<string, string>, env: TokenEnv, headers: Record<string, string> = {}): Promise<TokenResponse> {
  let res;
  try {
    res = await (env.http ?? got)(url, {
      method: 'POST',
      form,
      headers: { accept: 'application/json', ...headers },
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: 30_000 },
      signal: env.signal,
    });
  } catch (err) {
    throw new TokenRefreshError(`No answer from the token endpoint${wasSent(err) ? '' : ' (not reached)'}: ${(err as Error).message}`, false);
  }
  let body: TokenResponse;
  try {
    body = JSON.parse(String(res.body || '{}')) as TokenResponse;
  } catch {
    body = {};
  }
  if (res.statusCode >= 500 || res.statusCode === 429) throw new TokenRefreshError(`The token endpoint answered ${res.statusCode}`, false);
  const err = typeof body.error === 'string' ? body.error : body.error?.code && body.error.code !== 'ok' ? body.error.code : null;
  if (res.statusCode >= 400 || err || !body.access_token) {
    const description = body.error_description ?? (typeof body.error === 'object' ? body.error?.message : undefined) ?? `HTTP ${res.statusCode}`;
    throw new TokenRefreshError(`The platform refused the token request: ${err ?? 'error'}: ${description}`, true, err);
  }
  return body;
}
