import { bluesky } from './bluesky';
import { CONTENT_TYPES, type PlatformDescription, type PlatformInfo } from './description';
import { facebook } from './facebook';
import { instagram } from './instagram';
import { linkedin } from './linkedin';
import { mastodon } from './mastodon';
import { pinterest } from './pinterest';
import { threads } from './threads';
import { tiktok } from './tiktok';
import { twitter } from './twitter';
import { youtube } from './youtube';

/** The platforms socialpub publishes to: one line each (docs/platforms/adding-a-platform.md). */
const BUILT_IN = [instagram, facebook, twitter, threads, tiktok, youtube, bluesky, mastodon, linkedin, pinterest] as const;

export type Platform = (typeof BUILT_IN)[number]['id'];

const descriptions: PlatformDescription[] = [...BUILT_IN];
let fixed = false;

/**
 * The platform identifiers, in the registry's order. A platform registered with
 * registerPlatform() is added to this same array (core's schemas read it once, see there).
 */
export const PLATFORMS = BUILT_IN.map((d) => d.id) as unknown as readonly [Platform, ...Platform[]];

/** One table: types, defaults, caption limits and media rules, from each platform's description. */
export const PLATFORM_INFO: Readonly<Record<Platform, PlatformInfo>> = Object.fromEntries(BUILT_IN.map((d) => [d.id, d.info])) as Record<Platform, PlatformInfo>;

/**
 * Adds a platform described outside core (a test's, a plug-in's). It must come before core's
 * schemas are built (they list the platforms once, when `@socialpub/core`'s index is loaded):
 * register from a module that imports only `@socialpub/core/platforms`, ahead of anything
 * else. Afterwards it throws rather than leave the schemas without the platform.
 */
export function registerPlatform(description: PlatformDescription): void {
  const { id, info } = description;
  if (fixed) throw new Error(`platform ${id} registered after core's schemas were built: register it before @socialpub/core is imported`);
  if (!/^[a-z][a-z0-9_]*$/.test(id)) throw new Error(`platform id ${JSON.stringify(id)}: lowercase letters, digits and _ only`);
  if (descriptions.some((d) => d.id === id)) throw new Error(`platform ${id} is already registered`);
  const unknownType = info.types.find((t) => !(CONTENT_TYPES as readonly string[]).includes(t));
  if (unknownType) throw new Error(`platform ${id}: content type ${unknownType} is not one of ${CONTENT_TYPES.join(', ')}`);
  if (!info.types.includes(info.defaultType)) throw new Error(`platform ${id}: the default type ${info.defaultType} is not among its types`);
  descriptions.push(description);
  (PLATFORMS as unknown as string[]).push(id);
  (PLATFORM_INFO as Record<string, PlatformInfo>)[id] = info;
}

/**
 * Every platform's description, in the registry's order. Reading it for a schema fixes the
 * list: a later registerPlatform() throws.
 */
export function platformDescriptions(): readonly PlatformDescription[] {
  fixed = true;
  return descriptions;
}

/** The identifiers, for a schema that lists them (z.enum): fixes the list like platformDescriptions(). */
export function platformIds(): readonly [Platform, ...Platform[]] {
  fixed = true;
  return [...PLATFORMS];
}

/** One platform's description (undefined for an unknown identifier). */
export function platformDescription(platform: string): PlatformDescription | undefined {
  return descriptions.find((d) => d.id === platform);
}
