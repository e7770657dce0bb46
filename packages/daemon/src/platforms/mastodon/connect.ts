import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import { AddressGuard } from '../../net/address-guard';
import type { ConnectionInfo } from '../../store/connections';
import type { OAuthApp } from '../../store/oauth-apps';
import { systemClock } from '../../util/clock';
import { ask } from '../shared/ask';
import { authorizeWithPkce } from '../shared/authorize-with-pkce';
import type { ConnectDeps } from '../platform-module';
import type { PlatformConnectDeps } from '../shared/platform-connect-deps';
import { MastodonApiError, MastodonClient, MastodonTransportError } from './mastodon-client';
import { limitsFromInstance } from './server-limits';
import { checkServerUrl } from './server-url';

/**
 * Scopes asked for: posting statuses and media, and reading the account (who it is) and
 * its statuses (to find a status whose Idempotency-Key the server may have forgotten).
 */
export const MASTODON_SCOPES = ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'];

export interface MastodonConnectOptions {
  userId: string;
  /** The server the account lives on: `https://mastodon.social` (asked when missing). */
  server?: string;
  /** The loopback redirect registered with the server's app. Default `http://127.0.0.1:8765/callback`. */
  redirectUri?: string;
  timeoutMs?: number;
}

export interface MastodonConnectDeps extends PlatformConnectDeps, Pick<ConnectDeps, 'oauthApps'> {
  /** Checks the server's addresses (default: the daemon's guard, public addresses only); null only in tests against a loopback server. */
  guard?: AddressGuard | null;
}

interface Instance {
  domain?: string;
  version?: string;
  configuration?: { statuses?: unknown };
}

const describe = (err: unknown) => (err instanceof MastodonApiError ? `${err.status}: ${err.message}` : (err as Error).message);

/**
 * `socialpub connect mastodon --server https://mastodon.social`: checks the server is a
 * public https Mastodon server (GET /api/v2/instance, whose limits are kept with the
 * connection), registers socialpub as an app there once (POST /api/v1/apps, kept per
 * server), then OAuth authorization code with PKCE through a loopback redirect, the token
 * exchange and verify_credentials. Mastodon's tokens do not expire, so there is no refresh.
 */
export async function connectMastodon(options: MastodonConnectOptions, io: ConnectIO, deps: MastodonConnectDeps): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const guard = deps.guard === undefined ? new AddressGuard() : deps.guard;
  const server = await checkServerUrl(await ask(io, options.server, 'Mastodon server (e.g. https://mastodon.social)'), guard);
  const origin = server.origin;
  const client = (token?: string) => new MastodonClient({ baseUrl: baseUrl(server.host), ...(token ? { token } : {}), ...(guard ? { guard } : {}), ...(deps.http ? { http: deps.http } : {}) });

  let instance: Instance;
  try {
    instance = (await client().request<Instance>('/api/v2/instance', { method: 'GET' })).body;
  } catch (err) {
    if (err instanceof MastodonTransportError) throw new ConnectError(`--server: ${origin} did not answer (${err.message})`);
    throw new ConnectError(`--server: ${origin} is not a Mastodon server (GET /api/v2/instance answered ${describe(err)}; Mastodon 4.0 or later is needed)`);
  }
  if (typeof instance !== 'object' || instance === null || typeof instance.version !== 'string' || !instance.configuration?.statuses) {
    throw new ConnectError(`--server: ${origin} is not a Mastodon server (its /api/v2/instance has no version and status configuration)`);
  }
  const limits = limitsFromInstance(instance);

  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:8765/callback';
  // The app lists its redirect URI exactly, so the loopback port must be fixed (not 0: any port).
  if (/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):0\//.test(redirectUri)) throw new ConnectError('--redirect-uri: a Mastodon app registers its redirect URI exactly; name a fixed port (default http://127.0.0.1:8765/callback)');
  const scopes = MASTODON_SCOPES.join(' ');
  let app = deps.oauthApps?.get('mastodon', origin) ?? null;
  if (!app || app.redirectUri !== redirectUri || app.scopes !== scopes) {
    try {
      const res = await client().request<{ client_id: string; client_secret: string }>('/api/v1/apps', {
        method: 'POST',
        json: { client_name: 'socialpub', redirect_uris: [redirectUri], scopes },
      });
      app = { clientId: res.body.client_id, clientSecret: res.body.client_secret, redirectUri, scopes, createdAt: clock.now() } satisfies OAuthApp;
    } catch (err) {
      throw new ConnectError(`${origin} refused to register socialpub as an app (${describe(err)})`);
    }
    deps.oauthApps?.save('mastodon', origin, app);
  }
  const registered = app;

  const { code, codeVerifier } = await authorizeWithPkce({
    redirectUri,
    io,
    clock,
    timeoutMs: options.timeoutMs,
    buildUrl: (r) =>
      `${baseUrl(server.host)}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: registered.clientId,
        redirect_uri: r.redirectUri,
        scope: scopes,
        state: r.state,
        code_challenge: r.codeChallenge,
        code_challenge_method: 'S256',
      })}`,
  });

  let token: { access_token: string; scope?: string };
  try {
    token = (
      await client().request<{ access_token: string; scope?: string }>('/oauth/token', {
        method: 'POST',
        json: { grant_type: 'authorization_code', code, client_id: registered.clientId, client_secret: registered.clientSecret, redirect_uri: redirectUri, code_verifier: codeVerifier, scope: scopes },
      })
    ).body;
  } catch (err) {
    throw new ConnectError(`${origin} refused the authorization code (${describe(err)}); connect again`);
  }
  const granted = (token.scope ?? scopes).split(/[\s+]+/);
  const missing = MASTODON_SCOPES.filter((s) => !granted.includes(s) && !granted.includes(s.split(':')[0]!));
  if (missing.length > 0) throw new ConnectError(`${origin} granted no ${missing.join(', ')}; connect again and allow them`);

  let me: { id: string; username: string; acct: string; url?: string };
  try {
    me = (await client(token.access_token).request<{ id: string; username: string; acct: string; url?: string }>('/api/v1/accounts/verify_credentials', { method: 'GET' })).body;
  } catch (err) {
    throw new ConnectError(`${origin} refused the new access token (${describe(err)})`);
  }
  const handle = `@${me.username}@${server.host}`;
  const info = deps.connections.save(options.userId, 'mastodon', {
    mode: 'live',
    accountId: me.id,
    accountName: handle,
    secrets: { access_token: token.access_token, client_id: registered.clientId, client_secret: registered.clientSecret },
    tokenExpiresAt: null,
    tokenObtainedAt: clock.now(),
    meta: { server: origin, username: me.username, version: instance.version, scopes: granted, limits },
  });
  io.print(`Connected Mastodon account ${handle} (statuses up to ${limits.characters} characters, ${limits.max_media_attachments} media).`);
  return info;
}
