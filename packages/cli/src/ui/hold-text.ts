import { platformDescription, wallTimeOf, type Target } from '@socialpub/core';

/** `15:42 UTC`, `15:42 Europe/Berlin`; with the date when it is not the day of `now` there. */
function clockTime(iso: string, zone: string, now: number): string {
  const at = wallTimeOf(Date.parse(iso), zone);
  const day = wallTimeOf(now, zone).slice(0, 10);
  return `${at.slice(0, 10) === day ? '' : `${at.slice(0, 10)} `}${at.slice(11, 16)} ${zone}`;
}

/**
 * What holds a scheduled target, in words, or null when nothing does (the API's
 * `next_attempt_at` and `hold`): "waiting for X's rate limit until 15:42 UTC (X rate limit
 * reached: Too Many Requests)", "retrying at 15:42 UTC (connect ECONNRESET)". `schedule
 * show` and `publish --wait` show it, so a target is never `scheduled` at a past time with
 * no word (issue 35).
 */
export function holdText(t: Pick<Target, 'platform' | 'next_attempt_at' | 'hold'>, zone: string | null | undefined, now = Date.now()): string | null {
  if (!t.hold || !t.next_attempt_at) return null;
  const at = clockTime(t.next_attempt_at, zone || 'UTC', now);
  const name = platformDescription(t.platform)?.name ?? t.platform;
  if (t.hold.reason === 'rate_limit') {
    const whose = t.hold.applies_to === 'app' ? `${name}'s app-wide rate limit` : `${name}'s rate limit`;
    return `waiting for ${whose} until ${at} (${t.hold.message})`;
  }
  return `retrying at ${at} (${t.hold.message})`;
}
