import type { CallContext } from '../adapter';
import { ensureAccessToken } from '../shared/ensure-access-token';
import { twitterTokenRefresher } from './refresh-token';
import type { XAuth } from './x-client';

/** OAuth 1.0a when the connection holds user-context keys, else the (refreshed) OAuth 2.0 token. */
export async function xAuthFor(ctx: CallContext, force = false): Promise<XAuth> {
  const s = ctx.credentials.secrets;
  if (s.oauth_token && s.oauth_token_secret && s.consumer_key && s.consumer_secret) {
    return { kind: 'oauth1', keys: { consumerKey: s.consumer_key, consumerSecret: s.consumer_secret, token: s.oauth_token, tokenSecret: s.oauth_token_secret } };
  }
  return { kind: 'oauth2', token: await ensureAccessToken(ctx, twitterTokenRefresher, { force }) };
}
