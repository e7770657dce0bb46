import { NotFoundError, SETTLED_JOB_STATUSES, type Post, type SocialpubEvent } from '@socialpub/sdk';
import type { Ctx } from '../context';

const settled = (post: Post) => (SETTLED_JOB_STATUSES as readonly string[]).includes(post.status);

/**
 * Follows a job until it settles, woken by its events (GET /events with job_id) instead of
 * polling: each event of the job re-reads it once. The job's kept events are replayed
 * first, so nothing that happened before the stream opened is missed. Against a daemon
 * without /events it falls back to polling.
 */
export async function followJob(ctx: Ctx, jobId: string, onChange: (post: Post, event: SocialpubEvent | null) => void): Promise<Post> {
  const client = await ctx.client();
  let post = (await client.scheduled.get(jobId)).post;
  onChange(post, null);
  if (settled(post)) return post;
  const controller = new AbortController();
  try {
    for await (const event of client.events.stream({ since: 'evt_0', jobId, signal: controller.signal })) {
      post = (await client.scheduled.get(jobId)).post;
      onChange(post, event);
      if (!settled(post)) continue;
      // Settled: the events that led there are committed; pass on those not seen yet.
      for await (const rest of client.events.stream({ since: event.id, jobId, untilCaughtUp: true, signal: controller.signal })) onChange(post, rest);
      return post;
    }
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return client.scheduled.waitUntilDone(jobId, { interval: 500, maxInterval: 5_000, onProgress: (p: Post) => onChange(p, null) });
  } finally {
    controller.abort();
  }
  return post;
}
