/**
 * Times in the person's zone, with Intl only (the calendar view uses luxon through
 * FullCalendar's plugin). Wall times go to the API as `YYYY-MM-DDTHH:MM:SS` with the zone
 * named beside them, so the daemon resolves them (and refuses a DST gap with its reason).
 */
const cache = new Map<string, Intl.DateTimeFormat>();

function fmt(zone: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = zone + JSON.stringify(opts);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { ...opts, timeZone: zone });
    cache.set(key, f);
  }
  return f;
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** "Wed 25 Dec 2026, 10:00 CET" */
export function formatInZone(iso: string | null | undefined, zone: string): string {
  if (!iso) return 'now';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return fmt(zone, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(d);
}

/** The wall time of an instant in a zone, as a datetime-local value: "2026-12-25T10:00". */
export function wallTime(iso: string, zone: string): string {
  const parts = Object.fromEntries(
    fmt(zone, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A datetime-local value as the API's wall time (seconds added). */
export function toApiWall(local: string): string {
  return local.length === 16 ? `${local}:00` : local;
}

export function relative(iso: string, now = Date.now()): string {
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const abs = Math.abs(s);
  if (abs < 60) return rtf.format(s, 'second');
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}

/**
 * The local date (YYYY-MM-DD) of an instant in a zone, memoised per instant: the calendar
 * asks it for every entry of a month. A bare date (an all-day entry) is its own day.
 */
export function dayInZone(zone: string): (iso: string) => string {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const seen = new Map<string, string>();
  return (iso) => {
    if (iso.length === 10) return iso;
    let day = seen.get(iso);
    if (day === undefined) {
      day = f.format(new Date(iso));
      seen.set(iso, day);
    }
    return day;
  };
}

/** The instant a local date (YYYY-MM-DD) starts in a zone, as ISO UTC (DST-aware: the zone's offset on that day). */
export function startOfDayIn(date: string, zone: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const offsetAt = (t: number) => {
    const p = Object.fromEntries(fmt(zone, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - t;
  };
  let t = guess - offsetAt(guess);
  t = guess - offsetAt(t);
  return new Date(t).toISOString();
}

/** The day after a local date (YYYY-MM-DD), by the calendar. */
export function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
