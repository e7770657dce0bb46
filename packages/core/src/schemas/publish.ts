import { z } from 'zod';
import { parseAccountKey } from '../account-key';
import { PLATFORM_INFO, allowsType } from '../platforms';
import { TARGET_STATUSES } from '../states';
import { AccountKeySchema, InstantOut, PlatformId } from './common';
import { RecurrenceSchema, TimeIn, ZoneName } from './zoned';
import { PLATFORM_OPTION_SCHEMAS, PlatformOptionsSchema, type PlatformOptions } from './platform-options';
import type { Platform } from '../platforms';
import { MediaUrlListSchema } from './media-urls';
import { FirstCommentSchema, ThreadSchema, checkReplies } from './replies';

const nonEmpty = (what: string) => z.string({ error: `${what} must be a string` }).refine((s) => s.trim().length > 0, { error: `${what} must not be empty` });

/** Options keyed by `network:label` are checked with their network's schema (checkAccountOptions). */
export const AccountPlatformOptionsSchema = PlatformOptionsSchema;

/** Checks the options of each `network:label` key with its network's schema. */
export function checkAccountOptions(options: Record<string, unknown> | null | undefined, ctx: z.RefinementCtx): void {
  for (const [key, value] of Object.entries(options ?? {})) {
    const ref = parseAccountKey(key);
    if (!ref || ref.label === null) continue;
    const schema = (PLATFORM_OPTION_SCHEMAS as Record<string, z.ZodType | undefined>)[ref.platform];
    if (!schema) {
      ctx.addIssue({ code: 'custom', path: ['platform_options', key], message: `${ref.platform} takes no platform_options` });
      continue;
    }
    const r = schema.safeParse(value);
    if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', path: ['platform_options', key, ...issue.path.map((x) => (typeof x === 'symbol' ? String(x) : x))], message: issue.message });
  }
}


export const PublishRequestSchema = z
  .object({
    caption: nonEmpty('caption').meta({ description: 'Default caption for every platform without a platform_captions entry.' }),
    platforms: z.array(AccountKeySchema).min(1, { error: 'platforms must name at least one platform' }),
    platform_captions: z.record(z.string(), nonEmpty('a platform caption')).nullish(),
    platform_types: z.record(z.string(), z.array(z.string()).min(1, { error: 'list at least one content type' })).nullish(),
    media_urls: MediaUrlListSchema.nullish(),
    publish_now: z.boolean().nullish(),
    scheduled_for: TimeIn.nullish(),
    type_schedule: z.record(z.string(), z.string()).nullish().meta({
      description: 'Content type, platform or platform.type -> offset (+1h, +30m, +1h30m) or ISO 8601 time.',
    }),
    require_approval: z.boolean().nullish(),
    platform_options: AccountPlatformOptionsSchema.nullish().meta({
      description: 'Per-platform options (YouTube title, privacy, tags…; TikTok privacy level, interactions, disclosure), keyed like platforms (`twitter:brand` takes twitter’s options). Left out, each platform publishes as before: defaults from the caption and the connection.',
    }),
    timezone: ZoneName.nullish().meta({ description: 'IANA zone of local wall times in this request; default: the user setting timezone, else UTC.' }),
    queue: z.boolean().nullish().meta({ description: 'true: take the next free slot of the user queue instead of a time.' }),
    recurrence: RecurrenceSchema.nullish(),
    thread: ThreadSchema.nullish(),
    first_comment: FirstCommentSchema.nullish(),
  })
  .superRefine((req, ctx) => {
    if (req.queue === true && (req.scheduled_for != null || req.publish_now === true)) {
      ctx.addIssue({ code: 'custom', path: ['queue'], message: 'queue: true takes the next free slot; give no scheduled_for or publish_now with it' });
    }
    if (req.recurrence != null && (req.publish_now === true || req.queue === true)) {
      ctx.addIssue({ code: 'custom', path: ['recurrence'], message: 'a recurrence starts at scheduled_for; it cannot be combined with publish_now or queue' });
    }
    const seen = new Set<string>();
    req.platforms.forEach((p, i) => {
      if (seen.has(p)) ctx.addIssue({ code: 'custom', path: ['platforms', i], message: `${p} is listed twice` });
      seen.add(p);
    });
    for (const field of ['platform_captions', 'platform_types', 'platform_options'] as const) {
      for (const key of Object.keys(req[field] ?? {})) {
        if (!seen.has(key)) {
          ctx.addIssue({ code: 'custom', path: [field, key], message: `${key} is not among platforms` });
        }
      }
    }
    checkAccountOptions(req.platform_options, ctx);
    checkReplies(req, ctx);
    for (const [key, types] of Object.entries(req.platform_types ?? {})) {
      const p = parseAccountKey(key)?.platform;
      if (p === undefined) continue;
      types.forEach((t, i) => {
        if (!allowsType(p, t)) {
          ctx.addIssue({ code: 'custom', path: ['platform_types', key, i], message: `${p} has no content type "${t}" (allowed: ${PLATFORM_INFO[p].types.join(', ')})` });
        }
      });
    }
  })
  .meta({ id: 'PublishRequest' });
/** A publish request as sent: its `platforms` and per-target keys name accounts (`twitter`, `twitter:brand`). */
export type PublishRequest = z.infer<typeof PublishRequestSchema>;
/**
 * A request of one account per network (the seed interface): what the timing and platform
 * rules check, one per label of a PublishRequest (core splitByAccount).
 */
export type NetworkPublishRequest = Omit<PublishRequest, 'platforms' | 'platform_options'> & { platforms: Platform[]; platform_options?: PlatformOptions | null };
/** What a caller may write: optional fields may be left out. */
export type PublishRequestInput = z.input<typeof PublishRequestSchema>;

/** Something accepted that may not go as hoped (e.g. a repeated caption a platform refuses). */
export const WarningSchema = z.looseObject({ path: z.string(), message: z.string(), code: z.string() }).meta({ id: 'Warning' });
export type Warning = z.infer<typeof WarningSchema>;

export const TargetStatusSchema = z.enum(TARGET_STATUSES).meta({ id: 'TargetStatus' });

export const TargetSummarySchema = z
  .object({
    platform: PlatformId,
    type: z.string(),
    scheduled_for: InstantOut,
    status: TargetStatusSchema,
    // Added with several accounts per network: optional in the type so fixtures written before keep compiling.
    label: z.string().nullable().optional().meta({ description: 'The label of the account it publishes through (null: none connected when checked).' }),
    connection_id: z.string().nullable().optional().meta({ description: 'The connection (account) it publishes through.' }),
  })
  .meta({ id: 'TargetSummary' });

export const PublishResultSchema = z
  .object({
    success: z.literal(true),
    message: z.string(),
    job_id: z.string(),
    scheduled_for: InstantOut.nullable(),
    platforms: z.array(AccountKeySchema),
    status: z.enum(['publishing', 'scheduled', 'pending_approval']),
    targets: z.array(TargetSummarySchema),
    // Added for time zones, queues and series: always sent by this daemon; optional in the
    // type so clients and fixtures written before them keep compiling.
    timezone: z.string().optional().meta({ description: 'The zone the times were read in (UTC when none applied).' }),
    scheduled_local: z.string().nullable().optional().meta({ description: 'scheduled_for as local wall time in timezone.' }),
    queue_slot: z.string().nullable().optional().meta({ description: 'The weekly queue slot taken (queue: true), else null.' }),
    series_id: z.string().nullable().optional().meta({ description: 'The series of a recurring post, else null.' }),
    warnings: z.array(WarningSchema).optional(),
  })
  .meta({ id: 'PublishResult' });
export type PublishResult = z.infer<typeof PublishResultSchema>;

export const ValidateResultSchema = z
  .object({
    success: z.literal(true),
    valid: z.boolean(),
    targets: z.array(TargetSummarySchema.omit({ status: true })),
    errors: z.array(z.looseObject({ path: z.string(), message: z.string(), code: z.string().optional() })),
    warnings: z.array(WarningSchema).optional(),
  })
  .meta({ id: 'ValidateResult' });
export type ValidateResult = z.infer<typeof ValidateResultSchema>;
