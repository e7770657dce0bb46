import { SANDBOX_POSTS_LIMIT_DEFAULT, SANDBOX_POSTS_LIMIT_MAX } from '../api-limits';
import { z } from 'zod';
import { InstantOut, PlatformId } from './common';

export { SANDBOX_POSTS_LIMIT_DEFAULT, SANDBOX_POSTS_LIMIT_MAX };

/** Query of GET /sandbox/posts (an extension): what the platform simulators received. */
export const SandboxPostsQuerySchema = z.object({
  platform: PlatformId.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(SANDBOX_POSTS_LIMIT_MAX, { error: `limit must be at most ${SANDBOX_POSTS_LIMIT_MAX}` })
    .default(SANDBOX_POSTS_LIMIT_DEFAULT),
});
/** What a client may send: both optional. */
export type SandboxPostsQuery = { platform?: z.infer<typeof PlatformId> | undefined; limit?: number | undefined };

export const SandboxPostSchema = z
  .object({
    platform: PlatformId,
    kind: z.string().meta({ description: 'What the simulator made: a tweet, a container publish, a video, ...' }),
    post_id: z.string(),
    post_url: z.string().nullable(),
    account_id: z.string().nullable(),
    created_at: InstantOut,
    body: z.record(z.string(), z.unknown()).meta({ description: 'What the adapter sent, as the simulator recorded it.' }),
    removed_at: InstantOut.nullable().optional().meta({ description: 'When the simulator deleted the post (a take-down), else null.' }),
    label: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "The label of the sandbox account that made it (twitter:brand's brand), telling two sandbox accounts of one network apart; null when no connection of it is known. Added with several accounts per network.", example: 'brand' }),
  })
  .meta({ id: 'SandboxPost' });
export type SandboxPost = z.infer<typeof SandboxPostSchema>;

export const SandboxPostsResponseSchema = z
  .object({ success: z.literal(true), posts: z.array(SandboxPostSchema) })
  .meta({ id: 'SandboxPostsResponse', description: 'The most recent posts the simulators received, oldest first.' });
export type SandboxPostsResponse = z.infer<typeof SandboxPostsResponseSchema>;
