import type { Got } from 'got';
import type { Platform } from '@socialpub/core';
import type { Credentials, TokenUpdate } from '../../store/credentials';
import type { TokenRefresher } from '../shared/token-env';
import { GraphApiError, GraphTransportError } from './graph-client';

const DAY = 86_400_000;

const graphTransient = (err: unknown) =>
  err instanceof GraphTransportError || (err instanceof GraphApiError && (err.status >= 500 || err.error.is_transient === true || err.error.code === 1 || err.error.code === 2));

const fromGrant = (creds: Credentials, grant: { accessToken: string; expiresIn: number | null }, now: number): TokenUpdate => ({
  secrets: { ...creds.secrets, access_token: grant.accessToken },
  tokenExpiresAt: grant.expiresIn ? now + grant.expiresIn * 1000 : null,
  tokenObtainedAt: now,
});

type GraphRefresh = (o: { baseUrl: string; token: string; signal?: AbortSignal; http?: Got }) => Promise<{ accessToken: string; expiresIn: number | null }>;

/**
 * The TokenRefresher of a long-lived Meta token (Instagram Login, Threads), used by the
 * background round and by MetaRun after an auth error: the platform refuses to refresh a
 * token younger than a day; the new token replaces the old one (no separate refresh token).
 */
export function metaTokenRefresher(platform: Platform, host: string, refresh: GraphRefresh, applies: (c: Credentials) => boolean = () => true): TokenRefresher {
  return {
    platform,
    applies,
    minAgeMs: DAY,
    rotating: false,
    refresh: async (c, d) => fromGrant(c, await refresh({ baseUrl: d.baseUrl(host), token: c.secrets.access_token ?? '', ...(d.signal ? { signal: d.signal } : {}), ...(d.http ? { http: d.http } : {}) }), d.clock.now()),
    isTransient: graphTransient,
  };
}
