import { z } from 'zod';
import { CONTENT_TYPES } from '../platforms';
import { InstantOut, KeyScopeSchema, PlatformId } from './common';

export const AuthValidateResponseSchema = z
  .object({
    success: z.literal(true),
    valid: z.literal(true),
    user: z.object({ id: z.uuid(), email: z.string() }),
    // Optional in the schema only: a daemon from before key scopes does not send it (its keys are all full).
    scope: KeyScopeSchema.optional().meta({ description: "The presented key's scope (the dashboard's session: full). Absent from daemons before key scopes, whose keys are all full." }),
  })
  .meta({ id: 'AuthValidateResponse' });
export type AuthValidateResponse = z.infer<typeof AuthValidateResponseSchema>;

const MediaRuleSchema = z.object({
  min: z.number().int(),
  max: z.number().int(),
  kinds: z.array(z.enum(['image', 'video', 'document'])),
  video_alone: z.boolean(),
});

export const ConnectionPauseSchema = z
  .object({
    until: InstantOut.meta({ description: 'When publishing through the connection resumes: the reset the platform gave.' }),
    applies_to: z.enum(['connection', 'app']).meta({
      description: "`connection`: this account's own limit. `app`: a limit of the application as a whole (e.g. YouTube's daily quota), which pauses every connection of the platform.",
    }),
    reason: z.string().meta({ description: "The platform's message." }),
    platform_code: z.string().nullable(),
  })
  .meta({
    id: 'ConnectionPause',
    description: "A platform's rate limit or usage cap holding back this connection's targets (they stay scheduled and go out at `until`).",
  });
export type ConnectionPause = z.infer<typeof ConnectionPauseSchema>;

/** A Mastodon server's own limits, as its /api/v2/instance states them. */
export const ServerLimitsSchema = z
  .object({
    characters: z.number().int().meta({ description: 'Characters a status may have (its text and content warning together).' }),
    characters_reserved_per_url: z.number().int().meta({ description: 'Characters every link counts, whatever its length.' }),
    max_media_attachments: z.number().int(),
    poll_max_options: z.number().int(),
    poll_max_characters_per_option: z.number().int(),
    poll_min_expiration: z.number().int().meta({ description: 'Seconds.' }),
    poll_max_expiration: z.number().int().meta({ description: 'Seconds.' }),
    image_size_limit: z.number().int().meta({ description: 'Bytes.' }),
    video_size_limit: z.number().int().meta({ description: 'Bytes.' }),
    description_limit: z.number().int().meta({ description: 'Characters of a media description (alt text).' }),
    supported_mime_types: z.array(z.string()),
  })
  .meta({ id: 'ServerLimits' });
export type ServerLimits = z.infer<typeof ServerLimitsSchema>;

export const ConnectionInfoSchema = z
  .object({
    mode: z.enum(['live', 'sandbox']),
    status: z.enum(['active', 'expired']),
    account: z.string().nullable(),
    page: z.string().nullable(),
    token_expires_at: InstantOut.nullable(),
    /** Null when nothing holds the connection back. */
    paused: ConnectionPauseSchema.nullable(),
    server: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'mastodon: the server the account lives on (https://mastodon.social); absent for the other platforms.' }),
    server_limits: ServerLimitsSchema.nullable()
      .optional()
      .meta({ description: "mastodon: the limits the connected server states (/api/v2/instance), kept with the connection; the platform's caption and media above are these. Absent for the other platforms." }),
    // Came with Pinterest: optional, so a client still reads a daemon from before it.
    boards: z
      .array(z.object({ id: z.string(), name: z.string() }))
      .optional()
      .meta({ description: "pinterest: the account's boards (id, name) as listed at connect time; `page` is the board pins go to unless platform_options.pinterest.board_id names another." }),
  })
  .meta({ id: 'ConnectionInfo' });

export const ApiVersionSchema = z
  .object({
    version: z.string().meta({ description: 'The API version the daemon sends now (LinkedIn: `Linkedin-Version: YYYYMM`).' }),
    source: z.enum(['default', 'pinned', 'stepped_forward']).meta({
      description: '`default`: worked out from the date; `pinned`: set by `setting`; `stepped_forward`: the platform retired the version before it (426) and the daemon moved to the newest active one.',
    }),
    setting: z.string().meta({ description: 'The setting that pins the version (an environment variable).' }),
    previous: z.string().nullable().meta({ description: 'The retired version it stepped forward from, else null.' }),
    changed_at: InstantOut.nullable().meta({ description: 'When it stepped forward, else null.' }),
  })
  .meta({ id: 'ApiVersion', description: "The platform API version in use, for platforms whose API is versioned by date (LinkedIn); null for the others." });
export type ApiVersion = z.infer<typeof ApiVersionSchema>;

export const PlatformsResponseSchema = z
  .object({
    success: z.literal(true),
    platforms: z.array(
      z.object({
        platform: PlatformId,
        types: z.array(z.enum(CONTENT_TYPES)),
        default_type: z.enum(CONTENT_TYPES),
        caption: z.object({
          max: z.number().int(),
          counting: z.string(),
          max_hashtags: z.number().int().nullable(),
          max_mentions: z.number().int().nullable(),
          max_links: z.number().int().nullable(),
          url_length: z.number().int().nullable().optional().meta({ description: "Characters each link counts whatever its length (mastodon: the server's characters_reserved_per_url); absent where links count as written." }),
        }),
        media: z.record(z.string(), MediaRuleSchema),
        pulls_media: z.boolean(),
        options: z
          .record(z.string(), z.unknown())
          .nullable()
          .meta({ description: "JSON Schema (draft 2020-12) of the platform's platform_options entry, generated from the same zod schema the daemon validates with; null when the platform has no options yet." }),
        connection: ConnectionInfoSchema.nullable(),
        // Came with LinkedIn's monthly versions: optional, so a client still reads a daemon from before it.
        api_version: ApiVersionSchema.nullable().optional(),
        // Came with the inbox (issue 37): optional, so a client still reads a daemon from before it.
        comments: z
          .object({
            supported: z.boolean(),
            reason: z.string().nullable(),
            hide_on_network: z
              .boolean()
              .optional()
              .meta({ description: 'Whether POST /inbox/{id}/hide hides the comment on the network too (X, Bluesky, Instagram, Facebook, Threads, YouTube), not in the inbox only. Added after `supported`.' }),
          })
          .optional()
          .meta({ description: 'Whether the inbox reads comments on this network and replies to them; `reason` says why not (no comment API for apps: tiktok, pinterest; or not read yet).' }),
      }),
    ),
  })
  .meta({ id: 'PlatformsResponse' });
export type PlatformsResponse = z.infer<typeof PlatformsResponseSchema>;

const count = z.number().int();

export const HealthResponseSchema = z
  .object({
    status: z.enum(['ok', 'unhealthy']),
    version: z.string(),
    time: InstantOut,
    uptime_s: z.number(),
    scheduler: z.object({
      running: z.boolean(),
      last_tick: InstantOut.nullable(),
      stalled: z.boolean(),
      wheel_size: z.number().int(),
    }),
    // Targets per status. `removed` came with take-downs, `changes_requested` with the revision loop: optional, so a client still reads a daemon from before them.
    targets: z.object({
      pending_approval: count,
      scheduled: count,
      publishing: count,
      published: count,
      failed: count,
      cancelled: count,
      needs_review: count,
      removed: count.optional(),
      changes_requested: count.optional(),
    }),
    // The database (issue 34): which, and whether it answers; a daemon that lost it is unhealthy and publishes nothing.
    database: z.object({ kind: z.enum(['sqlite', 'postgres']), ok: z.boolean(), error: z.string().optional() }).optional(),
    // The daemons over this database that renewed their heartbeat lately (one on SQLite); `leader` runs the once-per-database work.
    daemons: z
      .array(
        z.object({
          id: z.string(),
          host: z.string(),
          pid: z.number().int(),
          url: z.string().nullable(),
          version: z.string(),
          leader: z.boolean(),
          started_at: InstantOut,
          heartbeat_at: InstantOut,
        }),
      )
      .optional(),
  })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

/** Answer of GET /openapi.json: the OpenAPI 3.1 document of the API (its own format; only its version is checked here). */
export const OpenApiDocumentSchema = z.looseObject({ openapi: z.string() });
