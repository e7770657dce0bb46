/**
 * How a 429 is said, the same way by the daemon and by every tool of ours (issue 35): what
 * ran out, what to do and when, after the one word our tools put before a failure:
 * `error: rate limited (scheduled-content: 100 an hour); try again in 25 min (at 15:42)`.
 * The daemon says the part it knows (it does not know the reader's time zone); each client
 * adds the local time to try again at.
 */

/** The word every tool of ours puts before a failure (the CLI's stderr line, the SDK's RateLimitError, MCP tool errors). */
export const ERROR_WORD = 'error:';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A window as words: `an hour`, `a minute`, `10 minutes`, `a day`, `90 s`. */
export function perWindow(windowMs: number): string {
  for (const [ms, one, many] of [
    [DAY, 'a day', 'days'],
    [HOUR, 'an hour', 'hours'],
    [MINUTE, 'a minute', 'minutes'],
  ] as const) {
    if (windowMs % ms === 0) return windowMs === ms ? one : `per ${windowMs / ms} ${many}`;
  }
  return `per ${Math.round(windowMs / 1000)} s`;
}

/** A wait as words: `45 s`, `25 min` (rounded up), `2 h 5 min`. */
export function waitWords(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** The daemon's 429 message: `rate limited (scheduled-content: 100 an hour); try again in 25 min`. */
export function rateLimitedMessage(what: string, limit: number, windowMs: number, retryAfterSeconds: number): string {
  return `rate limited (${what}: ${limit} ${perWindow(windowMs)}); try again in ${waitWords(retryAfterSeconds)}`;
}

/** `15:42` in `timeZone` (default the machine's), with the day when it is not today there: `26 Dec 00:10`. */
export function clockTime(at: number, now: number, timeZone?: string): string {
  const zone = timeZone ? { timeZone } : {};
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...zone }).format(at);
  const day = (t: number) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', ...zone }).format(t);
  return day(at) === day(now) ? time : `${day(at)} ${time}`;
}

/**
 * A 429 as our tools say it: the daemon's message (the error word taken off, if any) with
 * the local time to try again at, `… try again in 25 min (at 15:42)`. Without a wait, the
 * message as it is.
 */
export function withRetryTime(message: string, retryAfterSeconds: number | undefined, now: number, timeZone?: string): string {
  const text = withoutErrorWord(message);
  if (retryAfterSeconds === undefined || / \(at [^)]*\)$/.test(text)) return text;
  return `${text} (at ${clockTime(now + retryAfterSeconds * 1000, now, timeZone)})`;
}

/** `error: …` -> `…` (a logger that prints the word itself must not print it twice). */
export function withoutErrorWord(message: string): string {
  return message.startsWith(`${ERROR_WORD} `) ? message.slice(ERROR_WORD.length + 1) : message;
}
