import { platformName } from '../lib/names';
import { formatInZone, wallTime } from '../lib/time';
import type { Target } from '../lib/types';

/** `15:42`, or the full date and time when it is not today in `zone`. */
function untilText(iso: string, zone: string, now: number): string {
  const at = wallTime(iso, zone);
  return at.slice(0, 10) === wallTime(new Date(now).toISOString(), zone).slice(0, 10) ? at.slice(11, 16) : formatInZone(iso, zone);
}

/**
 * What holds a scheduled target and until when (the API's `next_attempt_at` and `hold`):
 * "Waiting for X's rate limit until 15:42", "Retrying at 15:42", with the platform's or the
 * failed attempt's words after it. Nothing when nothing holds the target. Posts, Review and
 * the calendar's selected post show it, so a target is never `scheduled` at a time already
 * past with no word (issue 35).
 */
export function HoldLine({ target, zone, now = Date.now() }: { target: Pick<Target, 'platform' | 'next_attempt_at' | 'hold'>; zone: string; now?: number }) {
  const { hold, next_attempt_at: at } = target;
  if (!hold || !at) return null;
  const until = untilText(at, zone, now);
  const name = platformName(target.platform);
  const head = hold.reason === 'rate_limit' ? `Waiting for ${name}'s ${hold.applies_to === 'app' ? 'app-wide rate limit' : 'rate limit'} until ` : 'Retrying at ';
  return (
    <p class="hold">
      {head}
      <time dateTime={at}>{until}</time>
      <span class="muted"> ({hold.message})</span>
    </p>
  );
}
