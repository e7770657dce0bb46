import { z } from 'zod';
import { PlatformId } from './common';
import { PostSchema } from './scheduled';
import { TargetStatusSchema } from './publish';

/**
 * What a take-down did to one target (POST /content/scheduled/unpublish):
 * - `removed`: deleted now (or the platform said it was already gone);
 * - `already_removed`: taken down by an earlier call; nothing was sent;
 * - `not_supported`: the platform (or this connection's kind of login) offers no deletion; still published;
 * - `not_published`: the target has no post to take down (not yet published, failed, cancelled, needs_review);
 * - `failed`: the platform refused or could not be reached; still published; calling again retries;
 * - `unknown`: the deletion went out and no answer came back; still published; calling again
 *   first asks the platform whether the post still exists, and deletes only if it does.
 */
export const TAKEDOWN_RESULTS = Object.freeze(['removed', 'already_removed', 'not_supported', 'not_published', 'failed', 'unknown'] as const);
export type TakedownResult = (typeof TAKEDOWN_RESULTS)[number];

export const TakedownTargetSchema = z
  .object({
    platform: PlatformId,
    type: z.string(),
    status: TargetStatusSchema.meta({ description: 'The target status after the call.' }),
    result: z.enum(TAKEDOWN_RESULTS),
    post_id: z.string().nullable(),
    message: z.string().meta({ description: 'What happened, in words (the platform reason when it refused).' }),
  })
  .meta({ id: 'TakedownTarget' });
export type TakedownTarget = z.infer<typeof TakedownTargetSchema>;

export const UnpublishResponseSchema = z
  .object({
    success: z.literal(true),
    message: z.string(),
    job_id: z.string(),
    changed: z.boolean().meta({ description: 'Whether this call took anything down (false on a repeated call).' }),
    targets: z.array(TakedownTargetSchema),
    post: PostSchema,
  })
  .meta({ id: 'UnpublishResponse', description: 'The answer of a take-down: per target what happened, and the job as it now is.' });
export type UnpublishResponse = z.infer<typeof UnpublishResponseSchema>;
