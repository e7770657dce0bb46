import type { AttemptScope, Settled, Task } from './task';
import { RateLimitedError, RetryableError } from '../platforms/errors';
import { errorMessage, published, review } from './attempt-ends';
import { retryDelay } from './backoff';
import { buildContext } from './build-context';
import { endAttempt } from './end-attempt';
import { LeaseLostError } from './lease-keeper';

/**
 * Settles a target found `publishing` without a live owner: takes over its lease and asks
 * the adapter whether the interrupted attempt was published. It never publishes; it ends
 * in published, back to scheduled (provably not posted) or needs_review. A transient error
 * keeps the target `publishing` and looks again later, up to `maxReconcileTries` times
 * (counted in `tries`, by target id).
 */
export async function reconcileAttempt(
  scope: AttemptScope,
  tries: Map<string, number>,
  task: Task,
  signal: AbortSignal,
): Promise<Settled['result']> {
  const { o } = scope;
  const { queue, clock, owner, leaseMs } = o;
  const now = clock.now();
  const claimed = queue.takeOver(task.id, now, owner, now + leaseMs, task.deadOwner);
  if (!claimed) return 'skipped';
  const lease = o.leases.hold(claimed.id, signal);
  try {
    const conn = queue.connectionState(claimed.userId, claimed.platform, claimed.connectionId, claimed.label);
    const credentials = conn.state === 'active' ? await o.connections.credentialsFor(claimed.userId, claimed.platform, claimed.connectionId, claimed.label) : null;
    const adapter = o.adapters.get(claimed.platform);
    if (!credentials || !adapter) {
      const why = !adapter ? `no ${claimed.platform} adapter` : `the ${claimed.platform} connection is ${conn.state}`;
      return endAttempt(scope, claimed, review(`could not check whether the interrupted attempt was published: ${why}`));
    }
    const result = await adapter.reconcile(buildContext(o, claimed, credentials, [], signal, () => {}));
    tries.delete(claimed.id);
    switch (result.state) {
      case 'published':
        return endAttempt(scope, claimed, published(result.outcome, clock.now(), 'reconciled_published'), result.state);
      case 'not_published':
        return endAttempt(
          scope,
          claimed,
          { status: 'scheduled', nextAttemptAt: clock.now(), outcome: 'reconciled_not_published', attemptErrorCode: null, error: null },
          result.reason,
        );
      case 'unknown':
        return endAttempt(scope, claimed, review(result.reason), result.reason);
    }
  } catch (err) {
    if (scope.abandoned(claimed.id)) return 'abandoned';
    if (err instanceof LeaseLostError || lease.lost()) return 'lease_lost';
    const n = (tries.get(claimed.id) ?? 0) + 1;
    if ((err instanceof RetryableError || err instanceof RateLimitedError) && n < o.maxReconcileTries) {
      // Still unknown: keep the target in publishing and look again when this lease runs out.
      tries.set(claimed.id, n);
      const t = clock.now();
      const wait = err instanceof RateLimitedError ? err.until - t : Math.max(err.after ?? 0, retryDelay(n, o.backoff, o.random));
      queue.renewLease(claimed.id, owner, t + Math.max(wait, 1));
      return 'reconcile_later';
    }
    tries.delete(claimed.id);
    return endAttempt(scope, claimed, review(`could not check whether the interrupted attempt was published: ${errorMessage(err)}`));
  } finally {
    lease.stop();
  }
}
