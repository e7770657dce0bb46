import { z } from 'zod';
import { MAX_SERIES_OCCURRENCES } from '../zoned/limits';
import { TIME_IN_MESSAGE, UNKNOWN_ZONE_MESSAGE, isTimeIn, isZoneName } from '../zoned/time-shape';

/**
 * A time in a request: an instant with `Z` or an offset, or a local wall time without one
 * (`2026-12-25T10:00:00`), which needs a zone (the request's timezone, else the user's
 * setting); whether the wall time exists in that zone is checked when the zone is known.
 */
export const TimeIn = z
  .string()
  .refine(isTimeIn, { error: TIME_IN_MESSAGE })
  .meta({
    description: 'ISO 8601 date-time with Z or an offset, or a local wall time without offset interpreted in the timezone in force.',
    example: '2026-12-25T10:00:00',
  });

/** An IANA time zone name, checked against the zone database (`Europe/Berlin`, `UTC`). */
export const ZoneName = z
  .string({ error: 'timezone must be a string' })
  .refine(isZoneName, { error: `timezone ${UNKNOWN_ZONE_MESSAGE}` })
  .meta({ id: 'TimeZone', description: 'IANA time zone name.', example: 'Europe/Berlin' });

export const RecurrenceSchema = z
  .object({
    rrule: z.string({ error: 'recurrence.rrule must be a string' }).meta({
      description: 'RFC 5545 RRULE without DTSTART (the series starts at scheduled_for), e.g. FREQ=WEEKLY;BYDAY=MO,TH.',
      example: 'FREQ=WEEKLY;BYDAY=MO,TH',
    }),
    count: z
      .number({ error: 'recurrence.count must be a whole number' })
      .int({ error: 'recurrence.count must be a whole number' })
      .min(1, { error: 'recurrence.count must be at least 1' })
      .max(MAX_SERIES_OCCURRENCES, { error: `recurrence.count must be at most ${MAX_SERIES_OCCURRENCES}` })
      .nullish(),
    until: TimeIn.nullish().meta({ description: 'Last possible occurrence (instant, or local wall time in the post zone).' }),
  })
  .meta({ id: 'Recurrence', description: `A repeating post: one job per occurrence, at most ${MAX_SERIES_OCCURRENCES} in all.` });
export type RecurrenceInput = z.infer<typeof RecurrenceSchema>;
