import type { Platform } from '@socialpub/core';
import { isPlatform, PLATFORMS } from '@socialpub/core';

/** The publisher's caps of targets in flight, as the operator may set them (unset ones take the publisher's defaults). */
export interface PublishConcurrency {
  /** Per connection (one user's account on one platform). */
  connection?: number;
  /** Per platform across its connections, for every platform... */
  platform?: number;
  /** ...or for one. */
  platforms?: Partial<Record<Platform, number>>;
  /** Across everything. */
  global?: number;
}

const KEYS = `connection, platform, global or a platform (${PLATFORMS.join(', ')})`;

/**
 * Reads the caps from `key=N` pairs, comma separated, as SOCIALPUB_PUBLISH_CONCURRENCY
 * and the config file's `publish_concurrency` object give them: `connection`, `platform`,
 * `global`, or a platform's name for that platform alone. Each must be a whole number of
 * at least 1. `where` names the source in errors.
 */
export function parsePublishConcurrency(entries: Iterable<[string, unknown]>, where: string, fail: (message: string) => Error): PublishConcurrency {
  const out: PublishConcurrency = {};
  for (const [rawKey, value] of entries) {
    const key = rawKey.trim();
    const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw fail(`${where}: ${key} must be a whole number of at least 1, not ${JSON.stringify(value)}`);
    if (key === 'connection' || key === 'platform' || key === 'global') out[key] = n;
    else if (isPlatform(key)) out.platforms = { ...out.platforms, [key]: n };
    else throw fail(`${where}: unknown key "${key}" (use ${KEYS})`);
  }
  return out;
}

/** `connection=4,platform=128,twitter=16` -> its pairs (a part without `=` is an error). */
export function publishConcurrencyPairs(text: string, where: string, fail: (message: string) => Error): [string, string][] {
  return text
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) throw fail(`${where}: cannot read "${part.trim()}" (use key=N pairs like connection=4,platform=256,global=1024)`);
      return [part.slice(0, eq), part.slice(eq + 1)];
    });
}

/** The publisher's options for these caps. */
export function publisherConcurrencyOptions(c: PublishConcurrency): {
  concurrency?: number | Partial<Record<Platform, number>>;
  connectionConcurrency?: number;
  globalConcurrency?: number;
} {
  const perPlatform =
    c.platforms === undefined ? c.platform : Object.fromEntries(PLATFORMS.map((p) => [p, c.platforms?.[p] ?? c.platform]).filter(([, n]) => n !== undefined));
  return {
    ...(perPlatform !== undefined ? { concurrency: perPlatform } : {}),
    ...(c.connection !== undefined ? { connectionConcurrency: c.connection } : {}),
    ...(c.global !== undefined ? { globalConcurrency: c.global } : {}),
  };
}
