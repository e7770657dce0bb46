import type { ConnectionPause, Platform } from '@socialpub/core';
import { formatInstant } from '@socialpub/core';
import type { DB } from './database';

/** Whom a platform's limit applies to: one connection (an account), or every connection of the platform (the app's limit). */
export type PauseScope = 'connection' | 'app';

/** A publishing pause: nothing more is sent through what it applies to until `until`. */
export interface PlatformPause {
  appliesTo: PauseScope;
  platform: Platform;
  /** The connection's user; null for an app-wide pause. */
  userId: string | null;
  /** The account paused (its connection); null for an app-wide pause and one recorded before accounts had labels (it holds every account of the user's platform). */
  connectionId: string | null;
  until: number;
  /** The platform's message. */
  reason: string;
  platformCode: string | null;
  createdAt: number;
}

interface PauseRow {
  scope: string;
  platform: Platform;
  user_id: string | null;
  until: number;
  reason: string;
  platform_code: string | null;
  created_at: number;
}

/**
 * The row key of a pause: `account:<connection id>` (one account, as the networks count
 * their limits), `app:<platform>`, or `connection:<user>:<platform>` (recorded before
 * accounts had labels, or for a target without a connection: every account of the user's
 * platform).
 */
export const pauseScopeKey = (platform: Platform, userId: string | null, connectionId: string | null = null) =>
  userId === null ? `app:${platform}` : connectionId !== null ? `account:${connectionId}` : `connection:${userId}:${platform}`;

const ACCOUNT_PREFIX = 'account:';

const toPause = (r: PauseRow): PlatformPause => ({
  appliesTo: r.user_id === null ? 'app' : 'connection',
  platform: r.platform,
  userId: r.user_id,
  connectionId: r.scope.startsWith(ACCOUNT_PREFIX) ? r.scope.slice(ACCOUNT_PREFIX.length) : null,
  until: r.until,
  reason: r.reason,
  platformCode: r.platform_code,
  createdAt: r.created_at,
});

export type PlatformPausesRepository = ReturnType<typeof createPlatformPausesRepository>;

/**
 * Pauses from the platforms' rate limits (migration 070), kept so they survive a restart
 * and can be shown. A pause only ever moves later: a second limit with an earlier reset
 * does not shorten the first.
 */
export function createPlatformPausesRepository(db: DB) {
  const upsert = db.prepare(
    `INSERT INTO platform_pauses (scope, platform, user_id, until, reason, platform_code, created_at)
     VALUES (@scope, @platform, @userId, @until, @reason, @platformCode, @now)
     ON CONFLICT (scope) DO UPDATE SET until = excluded.until, reason = excluded.reason,
       platform_code = excluded.platform_code, created_at = excluded.created_at
     WHERE excluded.until > platform_pauses.until`,
  );
  const active = db.prepare<[number], PauseRow>(
    'SELECT scope, platform, user_id, until, reason, platform_code, created_at FROM platform_pauses WHERE until > ? ORDER BY until',
  );
  const forConnection = db.prepare<[number, string, string, string, string], PauseRow>(
    `SELECT scope, platform, user_id, until, reason, platform_code, created_at FROM platform_pauses
      WHERE until > ? AND scope IN (?, ?, ?) AND platform = ? ORDER BY until DESC LIMIT 1`,
  );
  const prune = db.prepare('DELETE FROM platform_pauses WHERE until <= ?');

  return {
    /** Records a pause (or moves an existing one later). */
    set(p: { platform: Platform; userId: string | null; connectionId?: string | null; until: number; reason: string; platformCode: string | null }, now: number): void {
      upsert.run({ scope: pauseScopeKey(p.platform, p.userId, p.connectionId ?? null), platform: p.platform, userId: p.userId, until: p.until, reason: p.reason, platformCode: p.platformCode, now });
    },
    /** Every pause still running at `now`, soonest end first. */
    active(now: number): PlatformPause[] {
      return active.all(now).map(toPause);
    },
    /**
     * What holds one of a user's accounts at `now` (`connectionId`; null: the user's
     * platform as a whole): its own pause, one recorded for the user's platform, or the
     * platform's app-wide one, whichever ends latest; null when none.
     */
    forConnection(userId: string, platform: Platform, now: number, connectionId: string | null = null): PlatformPause | null {
      const own = connectionId === null ? pauseScopeKey(platform, userId) : pauseScopeKey(platform, userId, connectionId);
      const r = forConnection.get(now, own, pauseScopeKey(platform, userId), pauseScopeKey(platform, null), platform);
      return r ? toPause(r) : null;
    },
    /** Deletes pauses that ended by `now`; returns how many. */
    prune(now: number): number {
      return prune.run(now).changes;
    },
  };
}

/** A pause as the API and the CLI show it (null: not paused). */
export function pauseInfo(p: PlatformPause | null): ConnectionPause | null {
  return p ? { until: formatInstant(p.until), applies_to: p.appliesTo, reason: p.reason, platform_code: p.platformCode } : null;
}
