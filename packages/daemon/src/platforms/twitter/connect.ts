import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import type { ConnectionInfo } from '../../store/connections';
import { systemClock } from '../../util/clock';
import type { PlatformConnectDeps } from '../shared/platform-connect-deps';
import { exchangeAuthorizationCode } from '../shared/exchange-authorization-code';
import { ask } from '../shared/ask';
import { authorizeWithPkce } from '../shared/authorize-with-pkce';
import { X_TOKEN_PATH, xClientAuth } from './refresh-token';
import { XApiError, XClient, type XAuth } from './x-client';

/** Scopes for publishing (docs/reference/platforms.md §3.4); offline.access brings the refresh token. */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

export interface TwitterConnectOptions {
  userId: string;
  /** `oauth2` (PKCE in the browser; default) or `oauth1` (pasted user tokens that never expire). */
  auth?: 'oauth2' | 'oauth1';
  /** OAuth 2.0: the app's client id, and its secret for confidential clients (empty for public ones). */
  clientId?: string;
  clientSecret?: string;
  /** OAuth 2.0: the callback URL registered in the X app, exactly. Default `http://127.0.0.1:8765/callback`. */
  redirectUri?: string;
  /** OAuth 1.0a: the app's API key pair and the user's access token pair (developer portal > Keys and tokens). */
  consumerKey?: string;
  consumerSecret?: string;
  accessToken?: string;
  accessTokenSecret?: string;
  timeoutMs?: number;
}

async function whoAmI(client: XClient): Promise<{ id: string; username: string; name?: string }> {
  try {
    const me = await client.request<{ data?: { id: string; username: string; name?: string } }>('/2/users/me', { method: 'GET' });
    if (!me.body.data?.id) throw new ConnectError('X answered /2/users/me without a user');
    return me.body.data;
  } catch (err) {
    if (err instanceof XApiError) throw new ConnectError(`X refused the credentials (${err.status}): ${err.message}`);
    throw err;
  }
}

/**
 * `socialpub connect twitter`: OAuth 2.0 with PKCE and a loopback redirect using the
 * user's own X app, or pasted OAuth 1.0a user tokens (checked with a signed request).
 * The connection keeps the account id and handle (for permalinks) and the sealed tokens.
 */
export async function connectTwitter(options: TwitterConnectOptions, io: ConnectIO, deps: PlatformConnectDeps): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const auth =
    options.auth ??
    (options.consumerKey || options.accessToken
      ? 'oauth1'
      : await io.choose('How should socialpub sign in to X?', [
          { label: 'OAuth 2.0 in the browser (your app\'s client id; tokens refresh)', value: 'oauth2' as const },
          { label: 'Paste OAuth 1.0a user tokens (never expire)', value: 'oauth1' as const },
        ]));

  if (auth === 'oauth1') {
    const keys = {
      consumerKey: await ask(io, options.consumerKey, 'API key (consumer key)'),
      consumerSecret: await ask(io, options.consumerSecret, 'API key secret', { secret: true }),
      token: await ask(io, options.accessToken, 'Access token'),
      tokenSecret: await ask(io, options.accessTokenSecret, 'Access token secret', { secret: true }),
    };
    const client = new XClient({ baseUrl: baseUrl('api.x.com'), auth: { kind: 'oauth1', keys }, http: deps.http });
    const me = await whoAmI(client);
    const info = deps.connections.save(options.userId, 'twitter', {
      mode: 'live',
      accountId: me.id,
      accountName: me.username,
      secrets: { consumer_key: keys.consumerKey, consumer_secret: keys.consumerSecret, oauth_token: keys.token, oauth_token_secret: keys.tokenSecret },
      tokenExpiresAt: null,
      tokenObtainedAt: clock.now(),
      meta: { auth: 'oauth1', username: me.username },
    });
    io.print(`Connected X account @${me.username} (OAuth 1.0a).`);
    return info;
  }

  const clientId = await ask(io, options.clientId, 'OAuth 2.0 client id');
  const clientSecret = await ask(io, options.clientSecret, 'Client secret (empty for a public client)', { secret: true, optional: true });
  // The consent page lives on x.com (tests map it to the simulator).
  const authorizeBase = baseUrl('x.com');
  const { code, redirectUri, codeVerifier } = await authorizeWithPkce({
    redirectUri: options.redirectUri ?? 'http://127.0.0.1:8765/callback',
    io,
    clock,
    timeoutMs: options.timeoutMs,
    buildUrl: (r) =>
      `${authorizeBase}/i/oauth2/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: r.redirectUri,
        scope: X_SCOPES.join(' '),
        state: r.state,
        code_challenge: r.codeChallenge,
        code_challenge_method: 'S256',
      })}`,
  });
  // The code lives 30 seconds: exchange it at once.
  const tokens = await exchangeAuthorizationCode(
    baseUrl('api.x.com') + X_TOKEN_PATH,
    { code, grant_type: 'authorization_code', redirect_uri: redirectUri, code_verifier: codeVerifier, client_id: clientId },
    { baseUrl, clock, http: deps.http },
    xClientAuth(clientId, clientSecret || undefined),
  );
  const granted = (tokens.scope ?? '').split(/[\s,]+/);
  const missing = X_SCOPES.filter((s) => !granted.includes(s));
  if (missing.length > 0) throw new ConnectError(`X granted no ${missing.join(', ')}; enable them for the app (User authentication settings: Read and write) and connect again`);
  const now = clock.now();
  const authToken: XAuth = { kind: 'oauth2', token: tokens.access_token as string };
  const me = await whoAmI(new XClient({ baseUrl: baseUrl('api.x.com'), auth: authToken, http: deps.http }));
  const info = deps.connections.save(options.userId, 'twitter', {
    mode: 'live',
    accountId: me.id,
    accountName: me.username,
    secrets: { access_token: tokens.access_token, refresh_token: tokens.refresh_token, client_id: clientId, client_secret: clientSecret || undefined },
    tokenExpiresAt: typeof tokens.expires_in === 'number' ? now + tokens.expires_in * 1000 : null,
    tokenObtainedAt: now,
    meta: { auth: 'oauth2', username: me.username, scopes: granted },
  });
  io.print(`Connected X account @${me.username}.`);
  return info;
}
