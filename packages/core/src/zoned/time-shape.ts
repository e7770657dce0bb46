import { parseInstant } from '../time';

/**
 * Shape checks for the request schemas, without the Temporal polyfill (so the SDK, which
 * bundles the schemas, stays small): whether a text can be a time or a zone at all. What a
 * wall time means in a zone is resolve-time.ts's, with Temporal.
 */

/** `2026-12-25T10:00` or `2026-12-25T10:00:00(.fff)`: a local wall time, no offset, no zone. */
export const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

/** An IANA zone name (Europe/Berlin, UTC); offsets like +02:00 are not zones here. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

export const UNKNOWN_ZONE_MESSAGE = 'is not a known IANA time zone name (e.g. Europe/Berlin, America/New_York, UTC)';
export const TIME_IN_MESSAGE = 'must be an ISO 8601 date-time with a zone (2026-12-25T10:00:00Z, +01:00) or, with a timezone, a local wall time (2026-12-25T10:00:00)';

/** A well-formed wall time on a real calendar day (no 2026-02-30, no hour 24). */
export function isWallTime(text: string): boolean {
  const m = WALL_TIME.exec(text);
  if (!m) return false;
  const [y, mo, d, h, mi, s = 0] = m.slice(1, 7).map((v) => Number(v ?? 0)) as number[];
  if ((h as number) > 23 || (mi as number) > 59 || (s as number) > 59) return false;
  // Calendar validity only (no zone involved): the UTC calendar has every date any zone has.
  const day = new Date(Date.UTC(y as number, (mo as number) - 1, d as number));
  return day.getUTCFullYear() === y && day.getUTCMonth() === (mo as number) - 1 && day.getUTCDate() === d;
}

/** True when the text is an instant or a well-formed local wall time (the schema's check; zones come later). */
export function isTimeIn(text: string): boolean {
  return parseInstant(text) !== null || isWallTime(text);
}

/** Whether the zone database (ICU, as Temporal uses it) knows the name; fixed offsets are refused. */
export function isZoneName(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
