import type { Got } from 'got';
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

/** Refreshes one connection's tokens; the result is what `saveTokens` stores. */
export type TokenRefresher = (creds: Credentials, env: TokenEnv) => Promise<TokenUpdate>;
