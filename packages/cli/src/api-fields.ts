/**
 * The daemon names request fields (`media_urls.0`, `scheduled_for`); a person typed
 * flags. These turn one into the other for the messages the CLI prints.
 */
const FLAGS: Readonly<Record<string, string>> = {
  caption: 'the caption',
  platforms: '--platforms',
  platform_captions: '--caption-for',
  platform_types: '--type',
  media_urls: '--media',
  publish_now: '--now',
  scheduled_for: '--at',
  type_schedule: '--offset',
  require_approval: '--require-approval',
  platform_options: '--option',
  timezone: '--tz',
  queue: '--queue',
  thread: '--thread',
  first_comment: '--first-comment',
};

/** Fields under `recurrence`, each given by its own flag. */
const RECURRENCE: Readonly<Record<string, string>> = { rrule: '--repeat', count: '--count', until: '--until' };

/**
 * The long options of the command that ran, when known: a field maps to a flag only where
 * that command has it (`timezone` is `--tz` for publish, but the `timezone` argument for
 * `settings set`). Without it every mapping applies.
 */
export type CommandFlags = ReadonlySet<string> | undefined;

const has = (flags: CommandFlags, flag: string) => !flag.startsWith('--') || flags === undefined || flags.has(flag.split(' ')[0] as string);

/** `media_urls[1]` (the form some messages use) -> `media_urls.1`. */
const dotted = (path: string) => path.replace(/\[(\d+)\]/g, '.$1');

/** `media_urls.1` -> `--media #2`, `platform_captions.twitter` -> `--caption-for twitter`, `type_schedule.instagram.story` -> `--offset instagram.story`, `timezone` -> `--tz`. */
export function flagForPath(path: string, flags?: CommandFlags): string | undefined {
  const [head = '', ...rest] = dotted(path).split('.');
  if (head === 'recurrence') {
    const flag = RECURRENCE[rest[0] ?? 'rrule'];
    return flag && has(flags, flag) ? flag : undefined;
  }
  const flag = FLAGS[head];
  if (!flag || !has(flags, flag)) return undefined;
  if (!rest.length) return flag;
  if (head === 'platform_options') return `${flag} ${rest.join('.')}`;
  if (head === 'type_schedule') return `${flag} ${rest.join('.')}`;
  const [first = ''] = rest;
  return /^\d+$/.test(first) ? `${flag} #${Number(first) + 1}` : `${flag} ${first}`;
}

/** A problem from the daemon's `details`, with the flag that gives its field added (`flag`), when there is one. */
export function withFlag(detail: unknown, flags?: CommandFlags): unknown {
  if (typeof detail !== 'object' || detail === null || !('path' in detail) || typeof detail.path !== 'string') return detail;
  const flag = flagForPath(detail.path, flags);
  return flag ? { ...detail, flag } : detail;
}

/**
 * The daemon's message in the flags the user typed: its first problem's field at the start
 * (`media_urls: …` -> `--media: …`; `timezone: timezone is not …` -> `--tz is not …`), and
 * an item of a list named in the text (`media_urls[0] has none` -> `--media #1 has none`).
 */
export function messageInFlags(message: string, details: readonly unknown[] | undefined, flags?: CommandFlags): string {
  let text = message;
  for (const d of details ?? []) {
    if (typeof d !== 'object' || d === null || !('path' in d) || typeof d.path !== 'string') continue;
    const flag = flagForPath(d.path, flags);
    if (!flag || !text.startsWith(`${d.path}: `)) continue;
    const rest = text.slice(d.path.length + 2);
    text = rest.startsWith(`${d.path} `) ? `${flag}${rest.slice(d.path.length)}` : `${flag}: ${rest}`;
    break;
  }
  return text.replace(/\b(media_urls|thread)(?:\[(\d+)\]|\.(\d+))/g, (whole, field: string, a?: string, b?: string) => flagForPath(`${field}.${a ?? b}`, flags) ?? whole);
}
