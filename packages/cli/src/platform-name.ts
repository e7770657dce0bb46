import { isPlatform, PLATFORMS, platformDescriptions, type Platform } from '@socialpub/core';
import { UsageError } from './errors';

/** Other names people type for a platform, from the descriptions' aliases (X is Twitter's name since 2023). */
const aliasOf = (name: string): Platform | null => (platformDescriptions().find((d) => d.aliases?.includes(name))?.id as Platform | undefined) ?? null;

/** `x for twitter`. */
const aliasesInWords = () =>
  platformDescriptions()
    .flatMap((d) => (d.aliases ?? []).map((a) => `${a} for ${d.id}`))
    .join(', ');

/**
 * A platform name as a person types it, to the API's name: case does not matter
 * (`Twitter`, `INSTAGRAM`) and an alias names its platform (`x` is twitter). Null when it names no platform. The
 * daemon's API takes the canonical lower-case names only (docs/cli.md).
 */
export function platformName(text: string): Platform | null {
  const name = text.trim().toLowerCase();
  if (isPlatform(name)) return name;
  return aliasOf(name);
}

/** Like platformName, but an unknown name is a usage error (exit 2) that lists the known ones. */
export function parsePlatform(text: string, flag?: string): Platform {
  const platform = platformName(text);
  if (platform) return platform;
  throw new UsageError(`${flag ? `${flag}: ` : ''}unknown platform "${text}" (known: ${PLATFORMS.join(', ')}; ${aliasesInWords()})`);
}

/**
 * One of the user's connections as a person names it, to the daemon's name: `X:brand` is
 * `twitter:brand`, `Twitter` is `twitter` (its default account); a connection id (`con_…`)
 * and anything unknown pass as typed (the daemon names what is wrong).
 */
export function accountName(text: string): string {
  const colon = text.indexOf(':');
  const platform = platformName(colon < 0 ? text : text.slice(0, colon));
  if (!platform) return text;
  return colon < 0 ? platform : `${platform}:${text.slice(colon + 1).trim()}`;
}
