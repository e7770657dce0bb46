import type { Platform, TargetHold } from '@socialpub/core';
import type { PlatformPause } from '../store/platform-pauses';
import type { TargetRecord } from '../store/jobs';

/** What a presentation needs to tell held targets: the time, and the pause (if any) over each of the user's connections. */
export interface HoldLookup {
  now: number;
  /** The pause over the account (`connectionId`; null: the user's platform as a whole). */
  pauseOf(platform: Platform, connectionId?: string | null): PlatformPause | null;
}

/** A held target's next attempt and why. */
export interface TargetHoldView {
  at: number;
  hold: TargetHold;
}

/**
 * Why a scheduled target will not go out at its scheduled_for, and when it will: a pause
 * of its connection (or of the platform's app) from a platform's rate limit that ends
 * after scheduled_for, or a retry's backoff still ahead. null for a target nothing holds
 * (not scheduled, or going out at scheduled_for), so a target is never shown `scheduled`
 * at a past time with no word while something holds it (issue 35).
 */
export function targetHold(t: Pick<TargetRecord, 'status' | 'platform' | 'dueAt' | 'nextAttemptAt' | 'errorMessage' | 'platformCode'> & { connectionId?: string | null }, lookup: HoldLookup): TargetHoldView | null {
  if (t.status !== 'scheduled') return null;
  const { now } = lookup;
  const fireAt = t.nextAttemptAt ?? t.dueAt;
  const pause = lookup.pauseOf(t.platform, t.connectionId ?? null);
  if (pause !== null && pause.until > now && pause.until > t.dueAt) {
    return {
      at: Math.max(fireAt, pause.until),
      hold: { reason: 'rate_limit', message: pause.reason, platform_code: pause.platformCode, applies_to: pause.appliesTo },
    };
  }
  if (t.nextAttemptAt !== null && t.nextAttemptAt > now && t.nextAttemptAt > t.dueAt) {
    return {
      at: t.nextAttemptAt,
      hold: { reason: 'retry', message: t.errorMessage ?? 'the last attempt failed', platform_code: t.platformCode, applies_to: null },
    };
  }
  return null;
}

/** A lookup that finds nothing held (fixtures, presentations without a store). */
export const NO_HOLDS: HoldLookup = { now: 0, pauseOf: () => null };
