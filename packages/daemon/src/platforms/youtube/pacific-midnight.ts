const PACIFIC = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Minutes Pacific time is ahead of UTC at `instant` (-480 in winter, -420 in summer). */
function pacificOffsetMinutes(instant: number): number {
  const parts = Object.fromEntries(PACIFIC.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The next midnight in America/Los_Angeles after `now` (epoch ms): when YouTube Data API
 * quotas reset (docs/reference/platforms.md §6.5). DST-correct: the offset is read at the target day.
 */
export function nextPacificMidnight(now: number): number {
  const offset = pacificOffsetMinutes(now);
  const local = new Date(now + offset * 60_000);
  const nextLocalMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1);
  // Midnight local = that wall time minus the offset in force then (which may differ across a DST change).
  let candidate = nextLocalMidnight - offset * 60_000;
  const offsetThen = pacificOffsetMinutes(candidate);
  if (offsetThen !== offset) candidate = nextLocalMidnight - offsetThen * 60_000;
  return candidate;
}
