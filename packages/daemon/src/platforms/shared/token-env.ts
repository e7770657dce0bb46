import type { Got } from 'got';
import type { Platform } from '@socialpub/core';
import type { Credentials, TokenUpdate } from '../adapter';
import type { Clock } from '../../util/clock';

/** Where and how a token request is made. */
export interface TokenEnv {
  /** `https://<host>` live, the simulator's URL for sandbox connections. */
  baseUrl(host: string): string;
  clock: Clock;
  signal?: AbortSignal;
  http?: Got;
}

/**
 * A platform's way of refreshing a connection's tokens: the one token-refresh abstraction.
 * Each platform that can refresh has one (`<platform>/refresh-token.ts`, Bluesky's
 * session.ts), listed in its registry entry. Publishing uses it on demand
 * (ensureAccessToken, Meta's MetaRun after an auth error) and the daemon's background
 * TokenRefreshLoop uses it ahead of expiry.
 */
export interface TokenRefresher {
  readonly platform: Platform;
  /** Whether this connection's tokens can be refreshed this way (e.g. OAuth 2.0 with a refresh token; Instagram Login, not Facebook Login). */
  applies(credentials: Credentials): boolean;
  /** The background round refreshes a token once it is this old (Instagram and Threads refuse a younger one: 24 h). */
  readonly minAgeMs: number;
  /**
   * The refresh token is single-use (it rotates): concurrent refreshes of one connection in
   * this process must share one call (refreshShared), so a spent token is never used twice.
   */
  readonly rotating: boolean;
  /** One refresh at the platform: the new tokens, which `saveTokens` stores; throws on failure. */
  refresh(credentials: Credentials, env: TokenEnv): Promise<TokenUpdate>;
  /** A failure that does not mean the grant is gone (network, 5xx): retry later, keep the connection. */
  isTransient(err: unknown): boolean;
}
