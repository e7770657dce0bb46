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
};

/** `media_urls.1` -> `--media #2`, `platform_captions.twitter` -> `--caption-for twitter`, `type_schedule.instagram.story` -> `--offset instagram.story`. */
export function flagForPath(path: string): string | undefined {
  const [head = '', ...rest] = path.split('.');
  const flag = FLAGS[head];
  if (!flag || !rest.length) return flag;
  if (head === 'platform_options') return `${flag} ${rest.join('.')}`;
  if (head === 'type_schedule') return `${flag} ${rest.join('.')}`;
  const [first = ''] = rest;
  return /^\d+$/.test(first) ? `${flag} #${Number(first) + 1}` : `${flag} ${first}`;
}

/** A problem from the daemon's `details`, with the flag that gives its field added (`flag`), when there is one. */
export function withFlag(detail: unknown): unknown {
  if (typeof detail !== 'object' || detail === null || !('path' in detail) || typeof detail.path !== 'string') return detail;
  const flag = flagForPath(detail.path);
  return flag ? { ...detail, flag } : detail;
}

/** The daemon's message starts with its first problem's field (`media_urls: …`); say the flag instead. */
export function messageInFlags(message: string, details: readonly unknown[] | undefined): string {
  for (const d of details ?? []) {
    if (typeof d !== 'object' || d === null || !('path' in d) || typeof d.path !== 'string') continue;
    const flag = flagForPath(d.path);
    if (flag && message.startsWith(`${d.path}: `)) return `${flag}: ${message.slice(d.path.length + 2)}`;
  }
  return message;
}
