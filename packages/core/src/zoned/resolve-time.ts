import type { ErrorDetail } from '../errors';
import { parseInstant } from '../time';
import { zonedIsoOf } from './format-zoned';
import { TIME_IN_MESSAGE, WALL_TIME } from './time-shape';
import { Temporal } from './temporal';


/** A local time that a spring-forward change skips, with the valid times on either side. */
export interface WallTimeGap {
  /** The skipped wall-clock span, e.g. from 02:00 to 03:00. */
  from: string;
  to: string;
  /** The last valid minute before the gap and the first valid time after it (local, with offset). */
  nearest: [string, string];
}

export type ResolvedTime =
  | { ok: true; at: number }
  | { ok: false; reason: 'malformed' | 'needs_zone'; message: string }
  | { ok: false; reason: 'gap'; message: string; gap: WallTimeGap };


/** A PlainDateTime for a wall-time string, or null when the date or time is impossible. */
function plainOf(text: string): Temporal.PlainDateTime | null {
  const m = WALL_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = ''] = m as unknown as string[];
  const ns = (frac + '000000000').slice(0, 9);
  try {
    return Temporal.PlainDateTime.from(
      {
        year: Number(y), month: Number(mo), day: Number(d), hour: Number(h), minute: Number(mi), second: Number(s),
        millisecond: Number(ns.slice(0, 3)), microsecond: Number(ns.slice(3, 6)), nanosecond: Number(ns.slice(6)),
      },
      { overflow: 'reject' },
    );
  } catch {
    return null;
  }
}

/**
 * The instant for a local wall time in a zone. A time in an overlap (clocks fall back)
 * takes the earlier of its two instants; a time in a gap (clocks spring forward) is
 * refused with the gap and the nearest valid times, because any silent choice would
 * publish at a time the person did not ask for.
 */
export function resolveWallTime(plain: Temporal.PlainDateTime, zone: string): ResolvedTime {
  const earlier = plain.toZonedDateTime(zone, { disambiguation: 'earlier' });
  if (Temporal.PlainDateTime.compare(earlier.toPlainDateTime(), plain) === 0) return { ok: true, at: earlier.epochMilliseconds };
  // In a gap, 'earlier' shifts the wall time back by the gap's length, onto the old offset:
  // the next transition from there is the jump itself.
  const jump = earlier.getTimeZoneTransition('next');
  if (!jump) return { ok: true, at: earlier.epochMilliseconds };
  const lastBefore = jump.subtract({ minutes: 1 });
  const from = lastBefore.toPlainDateTime().add({ minutes: 1 });
  const to = jump.toPlainDateTime();
  const hm = (p: Temporal.PlainDateTime) => p.toPlainTime().toString({ smallestUnit: 'minute' });
  const gap: WallTimeGap = {
    from: hm(from),
    to: hm(to),
    nearest: [zonedIsoOf(lastBefore.epochMilliseconds, zone), zonedIsoOf(jump.epochMilliseconds, zone)],
  };
  const asked = plain.toString({ smallestUnit: 'second' });
  return {
    ok: false,
    reason: 'gap',
    gap,
    message:
      `${asked} does not exist in ${zone}: clocks jump from ${gap.from} to ${gap.to} on ${plain.toPlainDate().toString()}; ` +
      `the nearest valid times are ${gap.nearest[0]} and ${gap.nearest[1]}`,
  };
}

/**
 * A time given in a request: an instant (with `Z` or an offset: that instant, whatever the
 * zone) or, when a zone applies, a local wall time in that zone.
 */
export function resolveTimeIn(text: string, zone: string | null): ResolvedTime {
  const at = parseInstant(text);
  if (at !== null) return { ok: true, at };
  const plain = plainOf(text);
  if (!plain) return { ok: false, reason: 'malformed', message: TIME_IN_MESSAGE };
  if (zone === null) {
    return {
      ok: false,
      reason: 'needs_zone',
      message: 'is a local time without an offset: add timezone (an IANA name), set your timezone setting, or give an offset or Z',
    };
  }
  return resolveWallTime(plain, zone);
}


/** The 400 detail of a time that did not resolve; a gap names itself and the nearest valid times. */
export function timeIssue(path: string, r: Exclude<ResolvedTime, { ok: true }>): ErrorDetail {
  return r.reason === 'gap' ? { path, message: r.message, gap: { from: r.gap.from, to: r.gap.to }, nearest: r.gap.nearest } : { path, message: r.message };
}
