import { z } from 'zod';
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

/** The options schema of each platform that has options so far. */
export const PLATFORM_OPTION_SCHEMAS = {
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
} as const;

export const PlatformOptionsSchema = z
  .strictObject({
    youtube: YoutubeOptionsSchema.optional(),
    tiktok: TiktokOptionsSchema.optional(),
    instagram: InstagramOptionsSchema.optional(),
    facebook: FacebookOptionsSchema.optional(),
    threads: ThreadsOptionsSchema.optional(),
    twitter: TwitterOptionsSchema.optional(),
    bluesky: BlueskyOptionsSchema.optional(),
    mastodon: MastodonOptionsSchema.optional(),
    linkedin: LinkedinOptionsSchema.optional(),
    pinterest: PinterestOptionsSchema.optional(),
  })
  .meta({ id: 'PlatformOptions', description: 'Per-platform options, keyed by platform; each platform must be among platforms.' });
export type PlatformOptions = z.infer<typeof PlatformOptionsSchema>;

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
