import { NotFoundError, SETTLED_JOB_STATUSES, applyJobEvent, type Post, type SocialpubEvent } from '@socialpub/sdk';
import type { Ctx } from '../context';

const settled = (post: Post) => (SETTLED_JOB_STATUSES as readonly string[]).includes(post.status);
/** The statuses post.finished announces: a job that reached one has its post.finished still to come, the last of its events. */
const FINISHED: readonly string[] = ['published', 'partially_published', 'failed'];

/**
 * Follows a job until it settles on its events (GET /events with job_id and `with_post`):
 * the stream replays the job's kept events first (nothing that happened before it opened is
 * missed) and carries the post itself, when it opens and after each batch of events, so a
 * wait of any length is one counted request, of the events class, and spends none of the
 * scheduled-content class (100 an hour) that `schedule list` and `status` need. In between
 * the post shown is the one the events leave (the SDK's applyJobEvent): a target a rate
 * limit holds shows `next_attempt_at` and `hold` from its `target.retrying`. A daemon that
 * does not carry the post gets it read (GET /content/scheduled?job_id=) when the stream
 * opens and once the events say it settled: 3 counted requests. Against a daemon without
 * /events it falls back to the SDK's wait.
 */
export async function followJob(ctx: Ctx, jobId: string, onChange: (post: Post, event: SocialpubEvent | null) => void): Promise<Post> {
  const client = await ctx.client();
  const controller = new AbortController();
  let carried: Post | null = null;
  let carries = false;
  let wake: () => void = () => {};
  let opened!: () => void;
  const open = new Promise<'open'>((resolve) => (opened = () => resolve('open')));
  const events = client.events.stream({
    since: 'evt_0',
    jobId,
    signal: controller.signal,
    onOpen: () => opened(),
    onPost: (p) => {
      carried = p;
      carries = true;
      wake();
    },
  });
  /** The post the stream carried last, taken. */
  const take = (): Post => {
    const p = carried!;
    carried = null;
    return p;
  };
  try {
    let next = events.next();
    if ((await Promise.race([open, next.then(() => 'ended' as const)])) === 'ended') {
      await next; // refused (thrown), or stopped
      return (await client.scheduled.get(jobId)).post;
    }
    let post = carried ? take() : (await client.scheduled.get(jobId)).post;
    onChange(post, null);
    if (settled(post)) return post;
    let awaitingCopy = false;
    for (;;) {
      const woken = new Promise<'carried'>((resolve) => (wake = () => resolve('carried')));
      const r = carried ? 'carried' : await Promise.race([next, woken]);
      if (r === 'carried') {
        // The daemon's copy after a batch of events (or a reconnection): it decides once the events said settled.
        post = take();
        onChange(post, null);
        if (awaitingCopy && settled(post)) return post;
        continue;
      }
      if (r.done) return post;
      const event = r.value;
      post = applyJobEvent(post, event);
      onChange(post, event);
      next = events.next();
      // Settled by the events, and its last event seen: read it once as the daemon has it (or take the copy that follows this batch).
      if (!settled(post) || (FINISHED.includes(post.status) && event.type !== 'post.finished')) continue;
      if (carries) {
        awaitingCopy = true;
        continue;
      }
      post = (await client.scheduled.get(jobId)).post;
      if (settled(post)) return post;
    }
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return client.scheduled.waitUntilDone(jobId, { interval: 500, maxInterval: 5_000, onProgress: (p: Post) => onChange(p, null) });
  } finally {
    controller.abort();
    void events.return(undefined).catch(() => {});
  }
}
