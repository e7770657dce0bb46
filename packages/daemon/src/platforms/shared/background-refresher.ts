import type { Platform } from '@socialpub/core';
import type { Refresher } from '../../connect/token-refresher';
import { systemClock, type Clock } from '../../util/clock';
import { refreshShared, TokenRefreshError, type TokenRefresher } from './ensure-access-token';
import { refreshTwitterToken } from '../twitter/refresh-token';

const HOUR = 3_600_000;

/**
 * An entry for the daemon's background TokenRefresher. Publishing refreshes these short
 * tokens on demand; the background round keeps the refresh chains alive (X and TikTok
 * refresh tokens die unused, Google's after 6 months) by refreshing a connection once its
 * token is `minAgeMs` old. It shares the in-process refresh with publishing targets, so a
 * rotating refresh token is never spent twice.
 */
export function backgroundRefresher(platform: Platform, refresher: TokenRefresher, minAgeMs: number, clock: Clock = systemClock): Refresher {
  return {
    platform,
    applies: (c) => Boolean(c.secrets.refresh_token) && !c.secrets.oauth_token,
    minAgeMs,
    refresh: (c, d) => refreshShared(c, refresher, { baseUrl: d.baseUrl, signal: d.signal, clock }),
    isTransient: (err) => !(err instanceof TokenRefreshError && err.permanent),
  };
}

/** X OAuth 2.0 connections (OAuth 1.0a tokens never expire and are left alone). */
export const twitterBackgroundRefresher = backgroundRefresher('twitter', refreshTwitterToken, 12 * HOUR);
