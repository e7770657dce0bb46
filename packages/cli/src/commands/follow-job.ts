import { NotFoundError, SETTLED_JOB_STATUSES, applyJobEvent, type Post, type SocialpubEvent } from '@socialpub/sdk';
import type { Ctx } from '../context';

const settled = (post: Post) => (SETTLED_JOB_STATUSES as readonly string[]).includes(post.status);
/** The statuses post.finished announces: a job that reached one has its post.finished still to come, the last of its events. */
const FINISHED: readonly string[] = ['published', 'partially_published', 'failed'];

/**
 * Follows a job until it settles on its events (GET /events with job_id), for at most 3
 * counted requests however long it takes (issue 35): the post read once, the stream (the
 * job's kept events replayed first, so nothing that happened before it opened is missed),
 * and the post read again once the events say it settled. In between the post shown is the
 * one the events leave (the SDK's applyJobEvent): a target a rate limit holds shows
 * `next_attempt_at` and `hold` from its `target.retrying`. Against a daemon without
 * /events it falls back to the SDK's wait.
 */
export async function followJob(ctx: Ctx, jobId: string, onChange: (post: Post, event: SocialpubEvent | null) => void): Promise<Post> {
  const client = await ctx.client();
  let post = (await client.scheduled.get(jobId)).post;
  onChange(post, null);
  if (settled(post)) return post;
  const controller = new AbortController();
  try {
    for await (const event of client.events.stream({ since: 'evt_0', jobId, signal: controller.signal })) {
      post = applyJobEvent(post, event);
      onChange(post, event);
      // Settled by the events, and its last event seen: read it once as the daemon has it.
      if (!settled(post) || (FINISHED.includes(post.status) && event.type !== 'post.finished')) continue;
      post = (await client.scheduled.get(jobId)).post;
      if (settled(post)) return post;
    }
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return client.scheduled.waitUntilDone(jobId, { interval: 500, maxInterval: 5_000, onProgress: (p: Post) => onChange(p, null) });
  } finally {
    controller.abort();
  }
  return post;
}
