import type { Platform } from '@socialpub/core';
import type { Credentials, TokenUpdate } from '../../store/credentials';
import type { Refresher } from '../platform-module';
import { GraphApiError, GraphTransportError } from './graph-client';

const DAY = 86_400_000;

const graphTransient = (err: unknown) =>
  err instanceof GraphTransportError || (err instanceof GraphApiError && (err.status >= 500 || err.error.is_transient === true || err.error.code === 1 || err.error.code === 2));

const fromGrant = (creds: Credentials, grant: { accessToken: string; expiresIn: number | null }, now: number): TokenUpdate => ({
  secrets: { ...creds.secrets, access_token: grant.accessToken },
  tokenExpiresAt: grant.expiresIn ? now + grant.expiresIn * 1000 : null,
  tokenObtainedAt: now,
});

type GraphRefresh = (o: { baseUrl: string; token: string; signal: AbortSignal }) => Promise<{ accessToken: string; expiresIn: number | null }>;

/**
 * A long-lived Meta token refresher (Instagram Login, Threads): the platform refuses to
 * refresh a token younger than a day; the new token replaces the old one.
 */
export function metaRefresher(platform: Platform, host: string, refresh: GraphRefresh, applies: (c: Credentials) => boolean = () => true): Refresher {
  return {
    platform,
    applies,
    minAgeMs: DAY,
    refresh: async (c, d) => fromGrant(c, await refresh({ baseUrl: d.baseUrl(host), token: c.secrets.access_token ?? '', signal: d.signal }), d.clock.now()),
    isTransient: graphTransient,
  };
}
