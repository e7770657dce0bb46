import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import type { ConnectionInfo } from '../../store/connections';
import { systemClock } from '../../util/clock';
import { exchangeAuthorizationCode } from '../shared/exchange-authorization-code';
import { ask } from '../shared/ask';
import { authorizeWithPkce } from '../shared/authorize-with-pkce';
import type { PlatformConnectDeps } from '../shared/platform-connect-deps';
import { TIKTOK_TOKEN_PATH } from './refresh-token';
import { TikTokApiError, TikTokClient } from './tiktok-client';

// video.list: the figures of the creator's videos (analytics, docs/reference/platforms.md §18.8).
export const TIKTOK_SCOPES = ['user.info.basic', 'video.publish', 'video.list'];

export interface TiktokConnectOptions {
  userId: string;
  clientKey?: string;
  clientSecret?: string;
  /**
   * The redirect URI registered for the app. Desktop apps use a loopback URI
   * (`http://127.0.0.1:8765/callback/`, default); web apps must use https, which switches
   * to paste mode (the user pastes the address the browser landed on).
   */
  redirectUri?: string;
  /** The app passed TikTok's audit: post publicly by default. Without it, posts are SELF_ONLY. */
  audited?: boolean;
  /** A fixed privacy level (must be one the creator offers at publish time). */
  privacyLevel?: 'PUBLIC_TO_EVERYONE' | 'MUTUAL_FOLLOW_FRIENDS' | 'FOLLOWER_OF_CREATOR' | 'SELF_ONLY';
  timeoutMs?: number;
}

/** Hex of the S256 challenge: TikTok's desktop PKCE expects the SHA-256 in hex, not base64url. */
const hexChallenge = (base64url: string) => Buffer.from(base64url, 'base64url').toString('hex');

/**
 * `socialpub connect tiktok`: Login Kit with the user's own client key and secret, PKCE,
 * and the video.publish scope; stores the rotating token pair with both lifetimes from
 * the response, the open_id and the creator's @username (for permalinks).
 */
export async function connectTiktok(options: TiktokConnectOptions, io: ConnectIO, deps: PlatformConnectDeps): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const clientKey = await ask(io, options.clientKey, 'TikTok client key');
  const clientSecret = await ask(io, options.clientSecret, 'TikTok client secret', { secret: true });
  const redirect = options.redirectUri ?? 'http://127.0.0.1:8765/callback/';
  const loopback = redirect.startsWith('http://');
  const { code, redirectUri, codeVerifier, params } = await authorizeWithPkce({
    redirectUri: redirect,
    io,
    clock,
    timeoutMs: options.timeoutMs,
    buildUrl: (r) => {
      const q = new URLSearchParams({ client_key: clientKey, scope: TIKTOK_SCOPES.join(','), response_type: 'code', redirect_uri: r.redirectUri, state: r.state });
      // PKCE is for desktop (loopback) apps; web apps authenticate with the client secret alone.
      if (loopback) {
        q.set('code_challenge', hexChallenge(r.codeChallenge));
        q.set('code_challenge_method', 'S256');
      }
      return `${baseUrl('www.tiktok.com')}/v2/auth/authorize/?${q}`;
    },
  });
  const form: Record<string, string> = { client_key: clientKey, client_secret: clientSecret, code: decodeURIComponent(code), grant_type: 'authorization_code', redirect_uri: redirectUri };
  if (loopback) form.code_verifier = codeVerifier;
  const tokens = await exchangeAuthorizationCode(baseUrl('open.tiktokapis.com') + TIKTOK_TOKEN_PATH, form, { baseUrl, clock, http: deps.http });
  const granted = (tokens.scope ?? params.scopes ?? '').split(/[\s,]+/);
  if (!granted.includes('video.publish')) throw new ConnectError('TikTok did not grant video.publish: add the Content Posting API (Direct Post) to the app and approve the scope, then connect again');
  const now = clock.now();
  const client = new TikTokClient({ baseUrl: baseUrl('open.tiktokapis.com'), token: tokens.access_token as string, http: deps.http });
  let username: string | null = null;
  try {
    const info = await client.post<{ creator_username?: string }>('/v2/post/publish/creator_info/query/', {});
    username = info.creator_username ?? null;
  } catch (err) {
    if (err instanceof TikTokApiError && err.code.startsWith('spam_risk')) io.print(`Note: TikTok says ${err.message}`);
    else throw new ConnectError(`TikTok refused the new token: ${(err as Error).message}`);
  }
  const meta: Record<string, unknown> = { username, scopes: granted, audited: options.audited === true };
  if (options.privacyLevel) meta.privacy_level = options.privacyLevel;
  const saved = deps.connections.save(options.userId, 'tiktok', {
    mode: 'live',
    accountId: tokens.open_id ?? null,
    accountName: username,
    secrets: { access_token: tokens.access_token, refresh_token: tokens.refresh_token, client_key: clientKey, client_secret: clientSecret },
    tokenExpiresAt: typeof tokens.expires_in === 'number' ? now + tokens.expires_in * 1000 : null,
    refreshExpiresAt: typeof tokens.refresh_expires_in === 'number' ? now + tokens.refresh_expires_in * 1000 : null,
    tokenObtainedAt: now,
    meta,
  });
  io.print(`Connected TikTok account${username ? ` @${username}` : ''}${options.audited ? '' : ' (unaudited app: posts are private, SELF_ONLY)'}.`);
  return saved;
}
