/** Time in and out: strict ISO 8601 with a zone in, UTC with milliseconds and Z out. */

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:\d{2})$/;

/**
 * Parses an ISO 8601 date-time that carries a zone designator. Returns epoch
 * milliseconds, or null for anything else: no zone, a date alone, an impossible date
 * (2026-02-30), a 24th hour or a 60th second.
 */
export function parseInstant(text: string): number | null {
  const m = INSTANT.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '0', zone] = m as unknown as string[];
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Math.floor(Number(`0.${frac}`) * 1000);
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  let offsetMin = 0;
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const oh = Number(zone.slice(1, 3)), om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  }
  return local - offsetMin * 60_000;
}

/** Epoch milliseconds to `2026-12-25T10:00:00.000Z`. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/** At most 8760 hours (one year) in an offset. */
export const MAX_OFFSET_MS = 8760 * 3_600_000;

const OFFSET = /^\+(?:(\d{1,7})h)?(?:(\d{1,9})m)?$/;

/** Parses `+<N>h`, `+<N>m`, `+<N>h<M>m` into milliseconds; null when malformed or over 8760 h. */
export function parseOffset(text: string): number | null {
  const m = OFFSET.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  const ms = Number(m[1] ?? 0) * 3_600_000 + Number(m[2] ?? 0) * 60_000;
  return ms <= MAX_OFFSET_MS ? ms : null;
}

/** A type_schedule value: an offset from the base time, or an absolute instant. */
export type ScheduleValue = { kind: 'offset'; ms: number } | { kind: 'absolute'; at: number };

export function parseScheduleValue(text: string): ScheduleValue | null {
  if (text.startsWith('+')) {
    const ms = parseOffset(text);
    return ms === null ? null : { kind: 'offset', ms };
  }
  const at = parseInstant(text);
  return at === null ? null : { kind: 'absolute', at };
}

/** A scheduled_for this far in the past is still accepted (due now); further back is a 400. */
export const PAST_TOLERANCE_MS = 60_000;
