import type { Platform } from '@socialpub/core';
import type { CredentialsService } from '../store/credentials';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import { ServiceError } from '../util/service-error';
import type { CallContext, Credentials } from './adapter';

/** What a call on a connection's behalf outside a publish needs from the daemon. */
export interface ConnectionCallDeps {
  /** Where renewed tokens and expiries go (store.credentials). */
  credentials: Pick<CredentialsService, 'saveTokens' | 'markExpired'>;
  clock: Clock;
  logger: RootLogger;
  /** The daemon's simulator for sandbox connections (null when none is served). */
  sandboxBaseUrl: ((platform: Platform, host: string) => string) | null;
}

/**
 * A CallContext for a connection (take-downs, creator info): refreshed tokens are stored
 * and a refused refresh marks the connection expired, as when publishing; live connections
 * reach `https://<host>`, sandbox ones the daemon's simulator.
 */
export function connectionCall(deps: ConnectionCallDeps, platform: Platform, credentials: Credentials, signal: AbortSignal, log: Record<string, unknown>): CallContext {
  return {
    target: { platform },
    credentials,
    saveTokens: async (update) => deps.credentials.saveTokens(credentials.connectionId, update),
    markConnectionExpired: async (reason) => deps.credentials.markExpired(credentials.connectionId, reason),
    baseUrl: (host) => {
      if (credentials.mode === 'live') return `https://${host}`;
      if (!deps.sandboxBaseUrl) throw new ServiceError('unavailable', `no ${platform} simulator is served for sandbox connections`);
      return deps.sandboxBaseUrl(platform, host);
    },
    clock: deps.clock,
    signal,
    log: deps.logger.child({ platform, ...log }),
  };
}
