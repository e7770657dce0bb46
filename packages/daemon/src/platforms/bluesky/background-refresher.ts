import type { AddressGuard } from '../../net/address-guard';
import type { Refresher } from '../platform-module';
import { refreshShared } from '../shared/ensure-access-token';
import { TokenRefreshError } from '../shared/token-refresh-error';
import { defaultPdsGuard } from './pds-access';
import { blueskySessionRefresher } from './session';

/**
 * Keeps a live Bluesky session's refresh chain alive: refreshSession once the access token
 * is a day old (the refresh JWT lives 90 days and rotates), a new session from the app
 * password when the chain broke. Shares the in-process refresh with publishing targets.
 */
export function blueskyBackgroundRefresher(guard: AddressGuard = defaultPdsGuard): Refresher {
  const session = blueskySessionRefresher(guard);
  return {
    platform: 'bluesky',
    applies: (c) => Boolean(c.secrets.refresh_token || c.secrets.app_password),
    minAgeMs: 24 * 3_600_000,
    refresh: (c, d) => refreshShared(c, session, { baseUrl: d.baseUrl, signal: d.signal, clock: d.clock }),
    isTransient: (err) => !(err instanceof TokenRefreshError && err.permanent),
  };
}
