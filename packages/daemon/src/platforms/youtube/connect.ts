import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import type { ConnectionInfo } from '../../store/connections';
import { systemClock } from '../../util/clock';
import { exchangeAuthorizationCode } from '../shared/exchange-authorization-code';
import { ask } from '../shared/ask';
import { authorizeWithPkce } from '../shared/authorize-with-pkce';
import type { PlatformConnectDeps } from '../shared/platform-connect-deps';
import { parseGoogleError } from './google-client';
import got, { type Response } from 'got';

/** Upload, plus read-only access to find the channel. */
/** upload to upload, readonly to find the channel, force-ssl for the first comment (commentThreads.insert; docs/reference/platforms.md §12.6.5). */
export const YOUTUBE_SCOPES = ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly', 'https://www.googleapis.com/auth/youtube.force-ssl'];

export interface YoutubeConnectOptions {
  userId: string;
  /** A Google OAuth client of type "Desktop app" (any loopback port works) or "Web application". */
  clientId?: string;
  clientSecret?: string;
  /** Default `http://127.0.0.1:0/callback` (any free port, as Google allows for desktop clients). */
  redirectUri?: string;
  /** public (default), unlisted or private. Unverified Google projects are forced to private by YouTube. */
  privacyStatus?: 'public' | 'unlisted' | 'private';
  timeoutMs?: number;
}

/**
 * `socialpub connect youtube`: Google OAuth with PKCE, `access_type=offline` and
 * `prompt=consent` (so a refresh token is issued), then the channel the account owns.
 */
export async function connectYoutube(options: YoutubeConnectOptions, io: ConnectIO, deps: PlatformConnectDeps): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const clientId = await ask(io, options.clientId, 'Google OAuth client id');
  const clientSecret = await ask(io, options.clientSecret, 'Client secret', { secret: true });
  const { code, redirectUri, codeVerifier } = await authorizeWithPkce({
    redirectUri: options.redirectUri ?? 'http://127.0.0.1:0/callback',
    io,
    clock,
    timeoutMs: options.timeoutMs,
    buildUrl: (r) =>
      `${baseUrl('accounts.google.com')}/o/oauth2/v2/auth?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: r.redirectUri,
        response_type: 'code',
        scope: YOUTUBE_SCOPES.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        state: r.state,
        code_challenge: r.codeChallenge,
        code_challenge_method: 'S256',
      })}`,
  });
  const tokens = await exchangeAuthorizationCode(
    baseUrl('oauth2.googleapis.com') + '/token',
    { code, client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri, grant_type: 'authorization_code', code_verifier: codeVerifier },
    { baseUrl, clock, http: deps.http },
  );
  if (!tokens.refresh_token) {
    throw new ConnectError('Google sent no refresh token. Remove socialpub\'s access at https://myaccount.google.com/permissions and connect again.');
  }
  const granted = (tokens.scope ?? '').split(/\s+/);
  if (!granted.includes(YOUTUBE_SCOPES[0]!)) throw new ConnectError('Google did not grant the youtube.upload scope; tick it on the consent screen and connect again');
  const now = clock.now();
  const res = (await (deps.http ?? got)(`${baseUrl('www.googleapis.com')}/youtube/v3/channels?part=snippet&mine=true`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
    throwHttpErrors: false,
    retry: { limit: 0 },
  })) as Response<string>;
  if (res.statusCode !== 200) throw new ConnectError(`YouTube refused the channel lookup: ${parseGoogleError(res.statusCode, res.body).message}`);
  const channel = (JSON.parse(res.body) as { items?: Array<{ id: string; snippet?: { title?: string } }> }).items?.[0];
  if (!channel) throw new ConnectError('This Google account has no YouTube channel yet: create one at youtube.com, then connect again');
  const saved = deps.connections.save(options.userId, 'youtube', {
    mode: 'live',
    accountId: channel.id,
    accountName: channel.snippet?.title ?? null,
    secrets: { access_token: tokens.access_token, refresh_token: tokens.refresh_token, client_id: clientId, client_secret: clientSecret },
    tokenExpiresAt: typeof tokens.expires_in === 'number' ? now + tokens.expires_in * 1000 : null,
    tokenObtainedAt: now,
    meta: { scopes: granted, ...(options.privacyStatus ? { privacy_status: options.privacyStatus } : {}) },
  });
  io.print(`Connected YouTube channel ${channel.snippet?.title ?? channel.id}.`);
  return saved;
}
