import { z } from 'zod';
import { WEEKDAYS } from '../zoned/weekly-slots';
import { AccountKeySchema, InstantOut, PlatformId } from './common';
import { ZoneName } from './zoned';

// --- Settings -------------------------------------------------------------------------

export const SettingsSchema = z
  .object({
    timezone: z.string().nullable().meta({ description: 'IANA zone for local wall times and human output; null: UTC.' }),
    approval_workflow: z.boolean().meta({ description: 'Every new job waits for approval (changed with the CLI only).' }),
    // Always sent; optional in the type for older fixtures and daemons.
    agent_approval: z.boolean().optional().meta({ description: 'Every job an agent creates through MCP waits for a person (changed with the CLI only).' }),
  })
  .meta({ id: 'Settings' });
export type Settings = z.infer<typeof SettingsSchema>;

export const SettingsResponseSchema = z.object({ success: z.literal(true), settings: SettingsSchema }).meta({ id: 'SettingsResponse' });
export type SettingsResponse = z.infer<typeof SettingsResponseSchema>;

export const SettingsUpdateSchema = z
  .object({ timezone: ZoneName.nullable().meta({ description: 'IANA zone; null clears it (UTC).' }) })
  .meta({ id: 'SettingsUpdate' });
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

// --- Queue ----------------------------------------------------------------------------

export const MAX_QUEUE_SLOTS = 200;
export const MAX_SLOT_CAPACITY = 100;
export const MAX_NEXT_SLOTS = 100;

const Capacity = z
  .number({ error: 'capacity must be a whole number' })
  .int({ error: 'capacity must be a whole number' })
  .min(1, { error: 'capacity must be at least 1' })
  .max(MAX_SLOT_CAPACITY, { error: `capacity must be at most ${MAX_SLOT_CAPACITY}` });

export const QueueSlotSchema = z
  .object({
    day: z.enum(WEEKDAYS, { error: `day must be one of ${WEEKDAYS.join(', ')}` }),
    time: z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, { error: 'time must be HH:MM (24-hour local time)' }),
    platforms: z.array(PlatformId).min(1, { error: 'list at least one platform, or leave platforms out' }).nullish().meta({
      description: 'Only posts whose platforms are all among these take the slot; absent: any post.',
    }),
    capacity: Capacity.nullish().meta({ description: 'Posts this slot holds; default: the queue capacity.' }),
  })
  .meta({ id: 'QueueSlot' });

export const QueueSchema = z
  .object({
    timezone: z.string().meta({ description: 'IANA zone the slot times are in.' }),
    capacity: z.number().int().meta({ description: 'Posts a slot holds unless the slot says otherwise.' }),
    slots: z.array(QueueSlotSchema),
  })
  .meta({ id: 'Queue' });
export type Queue = z.infer<typeof QueueSchema>;

export const QueueUpdateSchema = z
  .object({
    timezone: ZoneName.nullish().meta({ description: 'Default: the user setting timezone, else UTC.' }),
    capacity: Capacity.nullish().meta({ description: 'Default 1.' }),
    slots: z.array(QueueSlotSchema).max(MAX_QUEUE_SLOTS, { error: `at most ${MAX_QUEUE_SLOTS} slots` }),
  })
  .superRefine((q, ctx) => {
    const seen = new Set<string>();
    q.slots.forEach((s, i) => {
      const key = `${s.day} ${s.time} ${[...(s.platforms ?? [])].sort().join(',')}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['slots', i], message: `${s.day} ${s.time} is listed twice for the same platforms` });
      seen.add(key);
    });
  })
  .meta({ id: 'QueueUpdate' });
export type QueueUpdate = z.infer<typeof QueueUpdateSchema>;
export type QueueUpdateInput = z.input<typeof QueueUpdateSchema>;

export const QueueResponseSchema = z.object({ success: z.literal(true), queue: QueueSchema }).meta({ id: 'QueueResponse' });
export type QueueResponse = z.infer<typeof QueueResponseSchema>;

export const QueueNextQuerySchema = z.object({
  count: z.coerce
    .number({ error: 'count must be a whole number' })
    .int({ error: 'count must be a whole number' })
    .min(1, { error: 'count must be at least 1' })
    .max(MAX_NEXT_SLOTS, { error: `count must be at most ${MAX_NEXT_SLOTS}` })
    .default(10),
  platforms: z.string().optional().meta({ description: 'Comma-separated platforms: only slots a post to them may take.' }),
});

export const FreeSlotSchema = z
  .object({
    scheduled_for: InstantOut,
    scheduled_local: z.string().meta({ description: 'Local wall time in the queue zone.' }),
    timezone: z.string(),
    slot: z.string().meta({ description: 'The weekly slot, e.g. "mon 09:00" or "mon 09:00 instagram,twitter".' }),
    free: z.number().int().meta({ description: 'Places left in this slot.' }),
  })
  .meta({ id: 'FreeSlot' });

export const QueueNextResponseSchema = z.object({ success: z.literal(true), slots: z.array(FreeSlotSchema) }).meta({ id: 'QueueNextResponse' });
export type QueueNextResponse = z.infer<typeof QueueNextResponseSchema>;

// --- Series ---------------------------------------------------------------------------

export const SERIES_STATUSES = ['active', 'finished', 'cancelled'] as const;

export const OccurrenceSchema = z
  .object({
    occurrence: z.number().int().meta({ description: '1-based position in the series.' }),
    scheduled_for: InstantOut,
    scheduled_local: z.string(),
    job_id: z.string().nullable().meta({ description: 'null until the daemon creates the job (within the horizon).' }),
    status: z.string().meta({ description: 'The job status, or "planned" before the job exists.' }),
  })
  .meta({ id: 'Occurrence' });

export const SeriesSchema = z
  .object({
    series_id: z.string(),
    status: z.enum(SERIES_STATUSES),
    rrule: z.string(),
    count: z.number().int().nullable(),
    until: InstantOut.nullable(),
    timezone: z.string(),
    caption: z.string(),
    platforms: z.array(AccountKeySchema),
    total: z.number().int().meta({ description: 'Occurrences in the whole series.' }),
    created: z.number().int().meta({ description: 'Occurrences whose jobs exist so far.' }),
    next_occurrences: z.array(OccurrenceSchema).meta({ description: 'The next occurrences not yet due (at most 5).' }),
    created_at: InstantOut,
  })
  .meta({ id: 'Series', description: 'A recurring post: its rule and its next occurrences.' });
export type Series = z.infer<typeof SeriesSchema>;

export const SeriesListResponseSchema = z.object({ success: z.literal(true), series: z.array(SeriesSchema) }).meta({ id: 'SeriesList' });
export type SeriesListResponse = z.infer<typeof SeriesListResponseSchema>;
export const SeriesResponseSchema = z.object({ success: z.literal(true), series: SeriesSchema }).meta({ id: 'SeriesResponse' });
export type SeriesResponse = z.infer<typeof SeriesResponseSchema>;
export const SeriesCancelResponseSchema = z
  .object({ success: z.literal(true), message: z.string(), series_id: z.string(), status: z.literal('cancelled'), cancelled_jobs: z.array(z.string()) })
  .meta({ id: 'SeriesCancelResponse' });
export type SeriesCancelResponse = z.infer<typeof SeriesCancelResponseSchema>;
export const SeriesIdQuerySchema = z.object({ series_id: z.string({ error: 'series_id is required' }).min(1, { error: 'series_id is required' }) });
