import type { Platform } from '@socialpub/core';
import { tokenRefreshers } from '../platforms/registry';
import { refreshShared } from '../platforms/shared/ensure-access-token';
import type { TokenRefresher } from '../platforms/shared/token-env';
import type { Credentials, TokenUpdate } from '../store/credentials';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';

const DAY = 86_400_000;

/** What the refresher needs: the connections (store.connections.list) and their credentials (store.credentials). */
export interface RefreshableConnections {
  list(): { id: string; platform: Platform; mode: 'live' | 'sandbox'; status: 'active' | 'expired'; tokenExpiresAt: number | null; tokenObtainedAt: number | null }[];
  credentialsById(id: string): Credentials | null;
  saveTokens(id: string, update: TokenUpdate): void;
  markExpired(id: string, reason: string): void;
}

export interface TokenRefreshLoopOptions {
  connections: RefreshableConnections;
  clock: Clock;
  log?: Logger;
  /** Refreshers to use. Default: every platform's (platforms/registry.ts). */
  refreshers?: TokenRefresher[];
  /** How often connections are looked at. Default 1 hour. */
  intervalMs?: number;
  /** Refresh once the token expires within this. Default 30 days (Meta long-lived tokens last 60). */
  aheadMs?: number;
  /** Host -> base URL (live: https://host). */
  baseUrl?: (host: string) => string;
  /** Told of every failed refresh (the connection.refresh_failed event); `willRetry` false when the connection was marked expired. */
  onRefreshFailed?: (conn: { id: string; platform: Platform }, error: string, willRetry: boolean) => void;
}

export interface RefreshReport {
  refreshed: string[];
  expired: string[];
  deferred: string[];
}

/**
 * Keeps live tokens fresh: a connection whose token is at least the platform's minimum
 * age and expires within `aheadMs` is refreshed and the new token stored at once. A
 * refresh the platform refuses marks the connection expired (shown by `connections list`
 * and GET /platforms, and its targets fail with auth_expired); a transient error leaves it
 * as it is for the next round.
 */
export class TokenRefreshLoop {
  readonly #o: Required<Omit<TokenRefreshLoopOptions, 'refreshers' | 'log'>> & { log: Logger | null };
  readonly #refreshers: readonly TokenRefresher[];
  #stop: AbortController | null = null;
  #loop: Promise<void> | null = null;

  constructor(options: TokenRefreshLoopOptions) {
    this.#o = { intervalMs: 3_600_000, aheadMs: 30 * DAY, baseUrl: (h) => `https://${h}`, log: null, onRefreshFailed: () => {}, ...options };
    this.#refreshers = options.refreshers ?? tokenRefreshers();
  }

  async runOnce(signal: AbortSignal = new AbortController().signal): Promise<RefreshReport> {
    const { connections, clock, aheadMs } = this.#o;
    const report: RefreshReport = { refreshed: [], expired: [], deferred: [] };
    const now = clock.now();
    for (const conn of connections.list()) {
      if (conn.mode !== 'live' || conn.status !== 'active') continue;
      const refresher = this.#refreshers.find((r) => r.platform === conn.platform);
      if (!refresher) continue;
      const age = conn.tokenObtainedAt === null ? Infinity : now - conn.tokenObtainedAt;
      if (age < refresher.minAgeMs) continue;
      if (conn.tokenExpiresAt !== null && conn.tokenExpiresAt - now > aheadMs) continue;
      const creds = connections.credentialsById(conn.id);
      if (!creds || !refresher.applies(creds)) continue;
      try {
        const env = { baseUrl: this.#o.baseUrl, signal, clock };
        // A rotating refresh token is shared with publishing targets refreshing at the same moment.
        const update = refresher.rotating ? await refreshShared(creds, refresher, env) : await refresher.refresh(creds, env);
        connections.saveTokens(conn.id, update);
        report.refreshed.push(conn.id);
        this.#o.log?.info('token refreshed', { connection: conn.id, platform: conn.platform });
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        if (refresher.isTransient(err)) {
          report.deferred.push(conn.id);
          this.#o.log?.warn('token refresh failed for now; will retry', { connection: conn.id, platform: conn.platform, error: why });
          this.#o.onRefreshFailed(conn, why, true);
        } else {
          connections.markExpired(conn.id, `token refresh refused: ${why}`);
          report.expired.push(conn.id);
          this.#o.log?.warn('token refresh refused; connection marked expired', { connection: conn.id, platform: conn.platform, error: why });
          this.#o.onRefreshFailed(conn, why, false);
        }
      }
    }
    return report;
  }

  start(): void {
    if (this.#loop) return;
    const stop = (this.#stop = new AbortController());
    this.#loop = (async () => {
      while (!stop.signal.aborted) {
        try {
          await this.runOnce(stop.signal);
        } catch (err) {
          this.#o.log?.error('token refresher round failed', { error: (err as Error).message });
        }
        try {
          await this.#o.clock.sleep(this.#o.intervalMs, stop.signal);
        } catch {
          return;
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stop?.abort();
    await this.#loop;
    this.#loop = null;
  }
}
