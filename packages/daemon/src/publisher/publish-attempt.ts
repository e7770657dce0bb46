import type { Credentials, MediaItem } from '../platforms/adapter';
import type { AttemptPhase } from './classify-outcome';
import type { AttemptScope, Settled, Task } from './task';
import { OutcomeUnknownError } from '../platforms/errors';
import { authExpired, errorMessage, noAdapter, notConnected, platformCodeOf, published } from './attempt-ends';
import { buildContext } from './build-context';
import { classifyOutcome } from './classify-outcome';
import { endAttempt } from './end-attempt';
import { LeaseLostError } from './lease-keeper';

/** How long a target whose connection is at its cap on other daemons waits before asking again. */
export const LANE_RETRY_MS = 200;

/**
 * One publish attempt: claims the target by compare-and-set (nothing is sent unless the
 * claim wins), keeps the lease while the adapter runs, and records how the attempt ended.
 */
export async function publishAttempt(scope: AttemptScope, task: Task, signal: AbortSignal): Promise<Settled['result']> {
  const { o } = scope;
  const { queue, clock } = o;
  // The connection (or its platform's app) may have been paused while this waited for a slot.
  if (scope.holdIfPaused(task.id, task.userId, task.platform, clock.now(), task.connectionId)) return 'scheduled';
  // What was being made ahead for it (a Threads container) is taken up rather than made twice.
  await scope.preparation(task.id);
  // Nothing is sent before the claim is on disk: a crash then finds it and reconciles. The
  // claims of the moment are made together, in one statement (store/target-claims.ts).
  let claimed = await o.claims.run(task.id);
  // PostgreSQL, several daemons: the connection has its cap of targets in flight on them all,
  // or another daemon recorded a platform's limit this one has not read yet. The target
  // stays scheduled; it waits here, in its slot, for one on the database (docs/scaling.md).
  while (claimed === 'at_cap' || claimed === 'paused') {
    if (claimed === 'paused') scope.reloadPauses(clock.now());
    if (scope.holdIfPaused(task.id, task.userId, task.platform, clock.now(), task.connectionId)) return 'scheduled';
    try {
      await clock.sleep(LANE_RETRY_MS, signal);
    } catch {
      return 'skipped';
    }
    if (!scope.accepting()) return 'skipped';
    claimed = await o.claims.run(task.id);
  }
  if (!claimed) return 'skipped';
  const lease = o.leases.hold(claimed.id, signal);
  let phase: AttemptPhase = 'setup';
  let credentials: Credentials | null = null;
  let expiredByAdapter = false;
  try {
    const conn = claimed.connection ?? queue.connectionState(claimed.userId, claimed.platform, claimed.connectionId, claimed.label);
    if (conn.state === 'expired') {
      return endAttempt(scope, claimed, { status: 'failed', error: authExpired(claimed.platform, conn.reason) });
    }
    // As the claim read them, in its transaction with the state above (one statement for the
    // batch); a take-over's target has none and reads them here.
    if (conn.state === 'active') {
      credentials =
        claimed.credentials && o.connections.credentialsOf
          ? o.connections.credentialsOf(claimed.credentials)
          : await o.connections.credentialsFor(claimed.userId, claimed.platform, claimed.connectionId, claimed.label);
    }
    if (!credentials) return endAttempt(scope, claimed, { status: 'failed', error: notConnected(claimed.platform) });
    const adapter = o.adapters.get(claimed.platform);
    if (!adapter) return endAttempt(scope, claimed, { status: 'failed', error: noAdapter(claimed.platform) });
    phase = 'media';
    const media: MediaItem[] = claimed.mediaUrls.length > 0 ? await o.media.resolve(claimed.userId, claimed.mediaUrls, signal) : [];
    const threadMedia: MediaItem[][] = [];
    for (const part of claimed.thread) {
      const urls = part.media_urls ?? [];
      threadMedia.push(urls.length > 0 ? await o.media.resolve(claimed.userId, urls, signal) : []);
    }
    phase = 'adapter';
    const ctx = buildContext(
      o,
      claimed,
      credentials,
      media,
      signal,
      () => {
        expiredByAdapter = true;
      },
      threadMedia,
    );
    const outcome = await adapter.publish(ctx);
    return await endAttempt(scope, claimed, published(outcome, clock.now(), 'published'));
  } catch (err) {
    if (scope.abandoned(claimed.id)) return 'abandoned';
    if (err instanceof LeaseLostError || lease.lost()) return 'lease_lost';
    if (expiredByAdapter && !(err instanceof OutcomeUnknownError)) {
      return endAttempt(scope, claimed, {
        status: 'failed',
        error: { ...authExpired(claimed.platform, errorMessage(err)), platformCode: platformCodeOf(err) },
      });
    }
    return endAttempt(scope, claimed, classifyOutcome(scope, claimed, err, phase, credentials));
  } finally {
    lease.stop();
  }
}
