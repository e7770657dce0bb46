import { z } from 'zod';
import { PLATFORM_INFO, allowsType, isPlatform } from '../platforms';
import { TARGET_STATUSES } from '../states';
import { InstantOut, PlatformId } from './common';
import { RecurrenceSchema, TimeIn, ZoneName } from './zoned';
import { PlatformOptionsSchema } from './platform-options';
import { MediaUrlListSchema } from './media-urls';
import { FirstCommentSchema, ThreadSchema, checkReplies } from './replies';

const nonEmpty = (what: string) => z.string({ error: `${what} must be a string` }).refine((s) => s.trim().length > 0, { error: `${what} must not be empty` });

export const PublishRequestSchema = z
  .object({
    caption: nonEmpty('caption').meta({ description: 'Default caption for every platform without a platform_captions entry.' }),
    platforms: z.array(PlatformId).min(1, { error: 'platforms must name at least one platform' }),
    platform_captions: z.record(z.string(), nonEmpty('a platform caption')).nullish(),
    platform_types: z.record(z.string(), z.array(z.string()).min(1, { error: 'list at least one content type' })).nullish(),
    media_urls: MediaUrlListSchema.nullish(),
    publish_now: z.boolean().nullish(),
    scheduled_for: TimeIn.nullish(),
    type_schedule: z.record(z.string(), z.string()).nullish().meta({
      description: 'Content type, platform or platform.type -> offset (+1h, +30m, +1h30m) or ISO 8601 time.',
    }),
    require_approval: z.boolean().nullish(),
    platform_options: PlatformOptionsSchema.nullish().meta({
      description: 'Per-platform options (YouTube title, privacy, tags…; TikTok privacy level, interactions, disclosure). Left out, each platform publishes as before: defaults from the caption and the connection.',
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
    checkReplies(req, ctx);
    for (const [p, types] of Object.entries(req.platform_types ?? {})) {
      if (!isPlatform(p)) continue;
      types.forEach((t, i) => {
        if (!allowsType(p, t)) {
          ctx.addIssue({ code: 'custom', path: ['platform_types', p, i], message: `${p} has no content type "${t}" (allowed: ${PLATFORM_INFO[p].types.join(', ')})` });
        }
      });
    }
  })
  .meta({ id: 'PublishRequest' });
export type PublishRequest = z.infer<typeof PublishRequestSchema>;
/** What a caller may write: optional fields may be left out. */
export type PublishRequestInput = z.input<typeof PublishRequestSchema>;

/** Something accepted that may not go as hoped (e.g. a repeated caption a platform refuses). */
export const WarningSchema = z.looseObject({ path: z.string(), message: z.string(), code: z.string() }).meta({ id: 'Warning' });
export type Warning = z.infer<typeof WarningSchema>;

export const TargetStatusSchema = z.enum(TARGET_STATUSES).meta({ id: 'TargetStatus' });

export const TargetSummarySchema = z
  .object({ platform: PlatformId, type: z.string(), scheduled_for: InstantOut, status: TargetStatusSchema })
  .meta({ id: 'TargetSummary' });

export const PublishResultSchema = z
  .object({
    success: z.literal(true),
    message: z.string(),
    job_id: z.string(),
    scheduled_for: InstantOut.nullable(),
    platforms: z.array(PlatformId),
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
