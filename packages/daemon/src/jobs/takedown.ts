import { formatInstant, parseAccountKey, type Platform, type TakedownTarget, type UnpublishResponse } from '@socialpub/core';
import { connectionCall, type ConnectionCallDeps } from '../platforms/connection-call';
import type { PostRemover } from '../platforms/remove-post';
import type { TargetRecord } from '../store/jobs';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import { ServiceError } from '../util/service-error';
import type { PostsService } from './jobs-service';
import { takeDownTarget, type TargetTakedown } from './take-down-target';

/** A platform's take-down support (platforms/registry.ts createRemovers). */
export type RemoverEntry = PostRemover | { unsupported: string };

export interface TakedownServiceDeps {
  store: Store;
  clock: Clock;
  logger: RootLogger;
  jobs: Pick<PostsService, 'get'>;
  removers: Map<Platform, RemoverEntry>;
  /** How calls on a connection's behalf are made (tokens stored, sandbox connections to the simulators). */
  calls: ConnectionCallDeps;
  /** Bound on one take-down call's platform requests (ms). Default 5 minutes. */
  timeoutMs?: number;
}

export type TakedownService = ReturnType<typeof createTakedownService>;

/**
 * Take-downs: POST /content/scheduled/unpublish (docs/api.md "Take-downs"). Every published
 * target whose platform deletes posts is deleted there and becomes `removed` (with the
 * `target.removed` event); the others answer why they stay published. Idempotent: removed
 * targets are reported as such and nothing is sent again. One take-down per job at a time
 * in this process; the state changes are compare-and-set on `published`.
 */
export function createTakedownService(deps: TakedownServiceDeps) {
  const { store, clock } = deps;
  const running = new Set<string>();

  /** One published target: refused by the platform or connection, or deleted (then recorded). */
  async function takeDown(userId: string, t: TargetRecord & { postId: string }, signal: AbortSignal): Promise<TakedownTarget> {
    const answer = (result: TakedownTarget['result'], message: string, status = t.status): TakedownTarget => ({ platform: t.platform, type: t.type, status, result, post_id: t.postId, message });
    const remover = deps.removers.get(t.platform);
    if (!remover || 'unsupported' in remover) return answer('not_supported', remover?.unsupported ?? `${t.platform} has no take-down support`);
    // The account that published it: a post is taken down through it or not at all.
    const credentials = store.credentials.credentialsFor(userId, t.platform, t.connectionId, parseAccountKey(t.accountKey)?.label ?? null);
    const published = { type: t.type, postId: t.postId, checkpoint: store.removals.checkpointOf(t.id), replies: t.replies };
    let outcome: TargetTakedown;
    if (!credentials) {
      outcome = { result: 'failed', code: 'platform_not_connected', message: `${t.accountKey} is not connected: connect it again (socialpub connect ${t.platform}${t.accountKey === t.platform ? '' : ` --label ${parseAccountKey(t.accountKey)?.label}`}) to take this post down` };
    } else {
      const refusal = remover.refusal(credentials, published);
      if (refusal) return answer('not_supported', refusal);
      const ctx = connectionCall(deps.calls, t.platform, credentials, signal, { job: t.jobId, target: t.id, op: 'takedown' });
      outcome = await takeDownTarget(remover, ctx, remover.remoteIds(published), t.removal?.state === 'unknown');
    }
    const now = clock.now();
    if (outcome.result === 'removed') {
      const done = await store.commits.durable(() => store.removals.markRemoved(t.jobId, t.id, now));
      return done ? answer('removed', outcome.message, 'removed') : answer('already_removed', 'taken down by another request meanwhile', 'removed');
    }
    const problem = { state: outcome.result, code: outcome.code, message: outcome.message, at: now };
    await store.commits.durable(() => store.removals.noteProblem(t.jobId, t.id, problem));
    deps.logger.warn('take-down did not complete', { job: t.jobId, target: t.id, platform: t.platform, result: outcome.result, code: outcome.code });
    const hint = outcome.result === 'unknown' ? '; calling unpublish again first checks whether it is gone' : '; calling unpublish again retries';
    return answer(outcome.result, `${outcome.message}${hint}`);
  }

  function summary(jobId: string, results: readonly TakedownTarget[]): string {
    const count = (r: TakedownTarget['result']) => results.filter((x) => x.result === r).length;
    const removedNow = count('removed');
    const stays = results.filter((x) => x.status === 'published').map((x) => `${x.platform} ${x.type}: ${x.result.replace('_', ' ')}`);
    if (removedNow === 0 && stays.length === 0) return `Nothing changed: every published post of ${jobId} was already taken down`;
    const head = removedNow > 0 ? `Took down ${removedNow} post${removedNow === 1 ? '' : 's'} of ${jobId}` : `Took nothing down from ${jobId}`;
    return stays.length > 0 ? `${head}; still published: ${stays.join(', ')}` : head;
  }

  return {
    async unpublish(user: User, jobId: string): Promise<UnpublishResponse> {
      const before = deps.jobs.get(user, jobId);
      const job = store.jobs.get(jobId);
      if (!job) throw new ServiceError('not_found', `no job ${jobId}`);
      if (!job.targets.some((t) => t.status === 'published' || t.status === 'removed')) {
        throw new ServiceError('conflict', `nothing of ${jobId} is published, so there is nothing to take down (status: ${before.status})`);
      }
      if (running.has(jobId)) throw new ServiceError('conflict', `a take-down of ${jobId} is already running; ask again when it has answered`);
      running.add(jobId);
      try {
        const signal = AbortSignal.timeout(deps.timeoutMs ?? 5 * 60_000);
        const results = await Promise.all(
          job.targets.map(async (t): Promise<TakedownTarget> => {
            const base = { platform: t.platform, type: t.type, status: t.status, post_id: t.postId };
            if (t.status === 'removed') {
              return { ...base, result: 'already_removed', message: `taken down at ${formatInstant(t.removedAt ?? t.updatedAt)}; nothing was sent` };
            }
            if (t.status !== 'published' || t.postId === null) return { ...base, result: 'not_published', message: `${t.status}: no post to take down` };
            return takeDown(user.id, { ...t, postId: t.postId }, signal);
          }),
        );
        return {
          success: true,
          message: summary(jobId, results),
          job_id: jobId,
          changed: results.some((r) => r.result === 'removed'),
          targets: results,
          post: deps.jobs.get(user, jobId),
        };
      } finally {
        running.delete(jobId);
      }
    },
  };
}
