import { isPlatform, PLATFORMS, type Platform } from '@socialpub/core';
import { UsageError } from './errors';

/** Other names people type for a platform: X is Twitter's name since 2023. */
const ALIASES: Readonly<Record<string, Platform>> = { x: 'twitter' };

/**
 * A platform name as a person types it, to the API's name: case does not matter
 * (`Twitter`, `INSTAGRAM`) and `x` is twitter. Null when it names no platform. The
 * daemon's API takes the canonical lower-case names only (docs/cli.md).
 */
export function platformName(text: string): Platform | null {
  const name = text.trim().toLowerCase();
  if (isPlatform(name)) return name;
  return ALIASES[name] ?? null;
}

/** Like platformName, but an unknown name is a usage error (exit 2) that lists the known ones. */
export function parsePlatform(text: string, flag?: string): Platform {
  const platform = platformName(text);
  if (platform) return platform;
  throw new UsageError(`${flag ? `${flag}: ` : ''}unknown platform "${text}" (known: ${PLATFORMS.join(', ')}; x for twitter)`);
}
