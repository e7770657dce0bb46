import { WEEKDAYS } from './weekly-slots';

const RFC_DAY: Record<string, string> = { mon: 'MO', tue: 'TU', wed: 'WE', thu: 'TH', fri: 'FR', sat: 'SA', sun: 'SU' };
const AT = /^(?:at\s+)?([01]?\d|2[0-3]):([0-5]\d)$/;

/**
 * The few friendly repeat forms the CLI accepts, as an RRULE; anything that already looks
 * like a rule (contains FREQ=) passes through unchanged. Returns null when not understood.
 *
 * - `daily [at HH:MM]`, `weekdays [at HH:MM]` (Monday to Friday)
 * - `weekly [on mon,thu] [at HH:MM]`
 * - `monthly [on <day of month>] [at HH:MM]`
 *
 * Without `at`, occurrences keep the time of the first post (scheduled_for).
 */
export function repeatToRrule(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/freq=/i.test(text)) return text.trim();
  const m = /^(daily|weekdays|weekly|monthly)(?: on ([a-z0-9, ]+?))?(?: (at \S+))?$/.exec(t);
  if (!m) return null;
  const [, freq, on, at] = m as unknown as [string, string, string | undefined, string | undefined];
  const parts: string[] = [];
  if (freq === 'daily') {
    if (on) return null;
    parts.push('FREQ=DAILY');
  } else if (freq === 'weekdays') {
    if (on) return null;
    parts.push('FREQ=WEEKLY', 'BYDAY=MO,TU,WE,TH,FR');
  } else if (freq === 'weekly') {
    parts.push('FREQ=WEEKLY');
    if (on) {
      const days = on.split(/[ ,]+/).filter(Boolean).map((d) => d.slice(0, 3));
      if (days.length === 0 || days.some((d) => !(WEEKDAYS as readonly string[]).includes(d))) return null;
      parts.push(`BYDAY=${[...new Set(days)].map((d) => RFC_DAY[d]).join(',')}`);
    }
  } else {
    parts.push('FREQ=MONTHLY');
    if (on) {
      const day = Number(on.trim());
      if (!Number.isInteger(day) || day < 1 || day > 31) return null;
      parts.push(`BYMONTHDAY=${day}`);
    }
  }
  if (at) {
    const hm = AT.exec(at);
    if (!hm) return null;
    parts.push(`BYHOUR=${Number(hm[1])}`, `BYMINUTE=${Number(hm[2])}`, 'BYSECOND=0');
  }
  return parts.join(';');
}
