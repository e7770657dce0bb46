import { formatInstant, parseInstant, parseOffset } from '@socialpub/core';
import { UsageError } from './errors';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A time typed by a person, to the ISO instant the API wants:
 * - ISO 8601 with a zone (`2026-12-25T10:00:00Z`, `…+02:00`) as is;
 * - without a zone (`2026-12-25 10:00`) in the local time zone, as people mean it;
 * - `+30m`, `+2h`, `+1h30m` from now.
 */
export function parseWhen(text: string, flag: string, now: number = Date.now()): string {
  const t = text.trim();
  if (t.startsWith('+')) {
    const ms = parseOffset(t);
    if (ms === null) throw new UsageError(`${flag} "${text}": an offset looks like +30m, +2h or +1h30m (at most 8760h)`);
    return formatInstant(now + ms);
  }
  const zoned = parseInstant(t);
  if (zoned !== null) return formatInstant(zoned);
  const m = LOCAL.exec(t);
  if (m) {
    const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
    const date = new Date(y, mo - 1, d, h, mi, s);
    if (date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d && date.getHours() === h && date.getMinutes() === mi) {
      return formatInstant(date.getTime());
    }
  }
  throw new UsageError(`${flag} "${text}" is not a time: use 2026-12-25T10:00:00Z, 2026-12-25 10:00 (local) or +2h`);
}

/** `key=value` flags (repeatable) to pairs; the first `=` splits. */
export function parseAssignments(values: readonly string[], flag: string, shape: string): [string, string][] {
  return values.map((v) => {
    const i = v.indexOf('=');
    if (i <= 0 || i === v.length - 1) throw new UsageError(`${flag} "${v}" must look like ${shape}`);
    return [v.slice(0, i).trim(), v.slice(i + 1)];
  });
}

/** A type_schedule value: offsets (`+1h`) stay relative to the base time; times become ISO instants. */
export function scheduleValue(text: string, flag: string): string {
  if (text.trim().startsWith('+')) {
    if (parseOffset(text.trim()) === null) throw new UsageError(`${flag} "${text}": an offset looks like +30m, +2h or +1h30m`);
    return text.trim();
  }
  return parseWhen(text, flag);
}

/** `2026-12-25 10:00` or `2026-12-25T10:00[:00]` as the API's wall-time form, for --tz; a time with an offset or Z stays. */
export function wallTime(text: string, flag: string): string {
  const t = text.trim();
  if (t.startsWith('+')) return parseWhen(t, flag);
  if (/(?:Z|[+-]\d{2}:\d{2})$/i.test(t)) return parseWhen(t, flag);
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)$/.exec(t);
  if (!m) throw new UsageError(`${flag} "${text}" is not a time: use 2026-12-25 10:00 (in --tz), 2026-12-25T10:00:00Z or +2h`);
  return `${m[1]}T${m[2]}`;
}
