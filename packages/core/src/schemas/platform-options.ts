import { z } from 'zod';
import { platformDescriptions, type Platform } from '../platforms';
import { BlueskyOptionsSchema } from './options/bluesky';
import { FacebookOptionsSchema } from './options/facebook';
import { InstagramOptionsSchema } from './options/instagram';
import { LinkedinOptionsSchema } from './options/linkedin';
import { MastodonOptionsSchema } from './options/mastodon';
import { PinterestOptionsSchema } from './options/pinterest';
import { ThreadsOptionsSchema } from './options/threads';
import { TiktokOptionsSchema } from './options/tiktok';
import { TwitterOptionsSchema } from './options/twitter';
import { YoutubeOptionsSchema } from './options/youtube';

export * from './options/bluesky';
export * from './options/facebook';
export * from './options/instagram';
export * from './options/linkedin';
export * from './options/mastodon';
export * from './options/pinterest';
export * from './options/threads';
export * from './options/tiktok';
export * from './options/twitter';
export * from './options/youtube';

/** The options schemas of core's own platforms: one line each (a platform without options has none). */
const BUILT_IN_OPTIONS = {
  youtube: YoutubeOptionsSchema,
  tiktok: TiktokOptionsSchema,
  instagram: InstagramOptionsSchema,
  facebook: FacebookOptionsSchema,
  threads: ThreadsOptionsSchema,
  twitter: TwitterOptionsSchema,
  bluesky: BlueskyOptionsSchema,
  mastodon: MastodonOptionsSchema,
  linkedin: LinkedinOptionsSchema,
  pinterest: PinterestOptionsSchema,
} as const satisfies Partial<Record<Platform, z.ZodObject>>;

/** The options schema of each platform that has options: core's own, then those of registered platforms' descriptions. */
export const PLATFORM_OPTION_SCHEMAS = {
  ...BUILT_IN_OPTIONS,
  ...Object.fromEntries(platformDescriptions().flatMap((d) => (d.options ? [[d.id, d.options]] : []))),
} as typeof BUILT_IN_OPTIONS;

type OptionsShape = { [P in keyof typeof BUILT_IN_OPTIONS]: z.ZodOptional<(typeof BUILT_IN_OPTIONS)[P]> };

/** The options of each platform, keyed by platform: unknown platforms and fields refused. */
const OptionsByPlatformSchema = z.strictObject(Object.fromEntries(Object.entries(PLATFORM_OPTION_SCHEMAS).map(([p, schema]) => [p, schema.optional()])) as OptionsShape);

/**
 * platform_options as requests send it: keyed by platform, or by `platform:label` for one of
 * the user's other accounts (docs/api.md "Accounts"), whose entry the request schemas check
 * with its platform's schema (publish.ts checkAccountOptions).
 */
export const PlatformOptionsSchema = OptionsByPlatformSchema.catchall(z.record(z.string(), z.unknown())).meta({
  id: 'PlatformOptions',
  description: 'Per-platform options, keyed by platform (or platform:label for another of your accounts, with that platform\'s fields); each key must be among platforms.',
});
/** The options of one account per platform (the seed interface's keys). */
export type PlatformOptions = z.infer<typeof OptionsByPlatformSchema>;

/**
 * The JSON Schema (draft 2020-12, input side) of a platform's options, generated from its
 * zod schema, for GET /platforms; null for a platform without options yet.
 */
export function platformOptionsJsonSchema(platform: string): Record<string, unknown> | null {
  const schema = (PLATFORM_OPTION_SCHEMAS as Record<string, z.ZodType | undefined>)[platform];
  if (!schema) return null;
  const out = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown> & { $ref?: string; $defs?: Record<string, Record<string, unknown>> };
  // The schema carries an OpenAPI id, so zod answers with a $ref to it: inline the one definition.
  const id = out.$ref?.replace('#/$defs/', '');
  const def = id ? out.$defs?.[id] : undefined;
  return def ? { $schema: out.$schema, title: id, ...def } : out;
}
