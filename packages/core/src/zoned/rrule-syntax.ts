/**
 * RFC 5545 (3.3.10) syntax checks the RRULE library leaves lenient: it ignores unknown
 * parts and out-of-range BYxxx values, where a scheduler must refuse them (a rule that
 * silently means something else publishes at the wrong times).
 */

const RANGES: Record<string, [number, number, boolean]> = {
  // part: [min, max, negative allowed]
  BYSECOND: [0, 60, false],
  BYMINUTE: [0, 59, false],
  BYHOUR: [0, 23, false],
  BYMONTHDAY: [1, 31, true],
  BYYEARDAY: [1, 366, true],
  BYWEEKNO: [1, 53, true],
  BYMONTH: [1, 12, false],
  BYSETPOS: [1, 366, true],
};
const WEEKDAY = '(?:MO|TU|WE|TH|FR|SA|SU)';
const BYDAY = new RegExp(`^(?:[+-]?(?:[1-9]|[1-4]\\d|5[0-3]))?${WEEKDAY}$`);
const KNOWN = new Set(['FREQ', 'UNTIL', 'COUNT', 'INTERVAL', 'BYDAY', 'WKST', ...Object.keys(RANGES)]);
/** Frequencies a posting series may have: at most one period a day (HOURLY and finer are refused). */
export const SERIES_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;

export interface RruleParts {
  /** The rule without an `RRULE:` prefix, parts upper-cased, as stored. */
  text: string;
  parts: Map<string, string>;
}

/** Parses `FREQ=WEEKLY;BYDAY=MO,TH` (an `RRULE:` prefix is allowed); returns the problem as text when invalid. */
export function checkRruleSyntax(input: string): RruleParts | string {
  const text = input.trim().replace(/^RRULE:/i, '');
  if (text.length === 0) return 'is empty; give an RFC 5545 RRULE such as FREQ=WEEKLY;BYDAY=MO,TH';
  if (/[\r\n]/.test(text) || /^DTSTART/i.test(text)) return 'must be one RRULE line (the start is scheduled_for, not DTSTART)';
  const parts = new Map<string, string>();
  for (const raw of text.split(';')) {
    const eq = raw.indexOf('=');
    if (eq <= 0 || eq === raw.length - 1) return `"${raw}" is not a NAME=VALUE rule part`;
    const name = raw.slice(0, eq).toUpperCase();
    const value = raw.slice(eq + 1).toUpperCase();
    if (!KNOWN.has(name)) return `"${name}" is not an RFC 5545 rule part`;
    if (parts.has(name)) return `${name} is given twice`;
    parts.set(name, value);
    const problem = checkPart(name, value);
    if (problem) return problem;
  }
  const freq = parts.get('FREQ');
  if (!freq) return 'must include FREQ (e.g. FREQ=WEEKLY)';
  if (!(SERIES_FREQUENCIES as readonly string[]).includes(freq)) {
    return `FREQ=${freq} is not allowed: a series repeats at most daily (FREQ is one of ${SERIES_FREQUENCIES.join(', ')}; for several times a day make one series per time)`;
  }
  if (parts.has('COUNT') && parts.has('UNTIL')) return 'COUNT and UNTIL cannot both be given (RFC 5545)';
  // The finest step is the hour: BYHOUR lists give several times a day (documented since the
  // series shipped), but a list of minutes or seconds made occurrences a minute apart under
  // FREQ=DAILY (issue 28: BYMINUTE=0,…,59 with count 500).
  for (const name of ['BYMINUTE', 'BYSECOND'] as const) {
    const values = parts.get(name)?.split(',') ?? [];
    if (values.length > 1) {
      return `${name}=${parts.get(name)} gives ${values.length} times an hour: a series repeats at most hourly (several hours of a day with BYHOUR), so ${name} takes one value (make one series per time)`;
    }
  }
  const monthDays = parts.get('BYMONTHDAY')?.split(',').map(Number);
  const months = parts.get('BYMONTH')?.split(',').map(Number);
  if (monthDays && months && monthDays.every((d) => d > 0) && months.every((m) => monthDays.every((d) => d > (MONTH_DAYS[m - 1] as number)))) {
    return `BYMONTHDAY=${parts.get('BYMONTHDAY')} never falls in BYMONTH=${parts.get('BYMONTH')}: the rule has no date`;
  }
  const setPos = parts.get('BYSETPOS');
  if (setPos) {
    const most = occurrencesPerPeriod(freq, parts);
    for (const v of setPos.split(',')) {
      if (Math.abs(Number(v)) > most) {
        return `BYSETPOS value "${v}" asks for date ${Math.abs(Number(v))} of a ${PERIOD[freq]}, but this rule has at most ${most} dates in a ${PERIOD[freq]}`;
      }
    }
  }
  return { text: [...parts].map(([k, v]) => `${k}=${v}`).join(';'), parts };
}

/** The most days of each month (February: 29). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const PERIOD: Record<string, string> = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' };

/**
 * The most dates one period (FREQ) of the rule can hold: each BYxxx part limits the set on
 * its own (they intersect), so the smallest of their counts is a bound. With one time of
 * day (checked above) a date is one occurrence. BYSETPOS beyond it can never match, and
 * the expansion would search every period for it.
 */
/** The most occurrences one period can hold: its dates times the hours of each (BYHOUR). */
function occurrencesPerPeriod(freq: string, parts: Map<string, string>): number {
  return datesPerPeriod(freq, parts) * (parts.get('BYHOUR')?.split(',').length ?? 1);
}

function datesPerPeriod(freq: string, parts: Map<string, string>): number {
  const count = (name: string) => parts.get(name)?.split(',').length ?? 0;
  const byDay = parts.get('BYDAY')?.split(',') ?? [];
  // A weekday without ordinal: up to 5 a month, 53 a year; with an ordinal: one.
  const weekdays = (plain: number) => byDay.reduce((n, d) => n + (/^[A-Z]{2}$/.test(d) ? plain : 1), 0);
  const bounds: number[] = [];
  switch (freq) {
    case 'DAILY':
      return 1;
    case 'WEEKLY':
      bounds.push(7);
      if (byDay.length) bounds.push(new Set(byDay.map((d) => d.slice(-2))).size);
      break;
    case 'MONTHLY':
      bounds.push(31);
      if (count('BYMONTHDAY')) bounds.push(count('BYMONTHDAY'));
      if (byDay.length) bounds.push(weekdays(5));
      break;
    default: {
      bounds.push(366);
      const months = count('BYMONTH') || 12;
      if (count('BYMONTH')) bounds.push(months * 31);
      if (count('BYYEARDAY')) bounds.push(count('BYYEARDAY'));
      if (count('BYWEEKNO')) bounds.push(count('BYWEEKNO') * 7);
      if (count('BYMONTHDAY')) bounds.push(months * count('BYMONTHDAY'));
      if (byDay.length) bounds.push(count('BYMONTH') ? months * weekdays(5) : weekdays(53));
    }
  }
  return Math.min(...bounds);
}

function checkPart(name: string, value: string): string | null {
  switch (name) {
    case 'FREQ':
      return /^(?:SECONDLY|MINUTELY|HOURLY|DAILY|WEEKLY|MONTHLY|YEARLY)$/.test(value) ? null : `FREQ=${value} is not a frequency`;
    case 'COUNT':
    case 'INTERVAL':
      return /^[1-9]\d{0,5}$/.test(value) ? null : `${name} must be a whole number of at least 1`;
    case 'UNTIL':
      return /^\d{8}(?:T\d{6}Z?)?$/.test(value) ? null : 'UNTIL must be a date (20271231) or a UTC date-time (20271231T235959Z); or give recurrence.until';
    case 'WKST':
      return new RegExp(`^${WEEKDAY}$`).test(value) ? null : `WKST=${value} is not a weekday (MO..SU)`;
    case 'BYDAY':
      for (const d of value.split(',')) if (!BYDAY.test(d)) return `BYDAY value "${d}" is not a weekday (MO..SU, optionally with an ordinal like 1MO or -1FR)`;
      return null;
    default: {
      const [min, max, negative] = RANGES[name] as [number, number, boolean];
      for (const v of value.split(',')) {
        const n = /^[+-]?\d{1,3}$/.test(v) ? Number(v) : NaN;
        const abs = Math.abs(n);
        if (!Number.isInteger(n) || abs < min || abs > max || (n < 0 && !negative) || (n === 0 && min > 0)) {
          return `${name} value "${v}" is out of range (${negative ? `±${min}..${max}` : `${min}..${max}`})`;
        }
      }
      return null;
    }
  }
}
