import type { TargetReplies } from '@socialpub/core';
import type { Credentials, RepliesContext, MediaItem, PublishContext } from '../platforms/adapter';
import type { ClaimedTarget } from '../store/target-queue';
import type { ResolvedOptions } from './options';
import { PermanentError } from '../platforms/errors';
import { applyMergePatch } from '../platforms/shared/merge-patch';
import { LeaseLostError } from './lease-keeper';

type ContextOptions = Pick<
  ResolvedOptions,
  'queue' | 'checkpoints' | 'clock' | 'owner' | 'leaseMs' | 'connections' | 'log' | 'sandboxBaseUrl' | 'publicBaseUrl'
>;

/**
 * The context an adapter publishes or reconciles with: the claimed target, its media and
 * credentials, and the writes it may make. A checkpoint is saved only while this process
 * still holds the lease; `onExpired` is told when the adapter marks the connection expired.
 */
export function buildContext(
  o: ContextOptions,
  t: ClaimedTarget,
  credentials: Credentials,
  media: MediaItem[],
  signal: AbortSignal,
  onExpired: () => void,
  threadMedia: MediaItem[][] = [],
  /** How a checkpoint is written; default: under the lease (a preparation writes while the target is scheduled). */
  persist?: (patch: Record<string, unknown>) => Promise<void>,
): PublishContext {
  const { checkpoints, clock, owner, leaseMs, connections, log } = o;
  const data: Record<string, unknown> = { ...t.checkpoint };
  const sandbox = o.sandboxBaseUrl;
  /**
   * On disk before the adapter's next step (group-committed with the other writes of the
   * moment, the saves of the moment in one statement): a save is always waited for, as the
   * adapter's next step may be a platform call that must not be made twice.
   */
  const save = async (patch: Record<string, unknown>, followUps?: TargetReplies) => {
    const now = clock.now();
    if (persist) await persist(patch);
    else if (!(await checkpoints.run({ id: t.id, owner, patch, now, leaseUntil: now + leaseMs, ...(followUps ? { followUps } : {}) }))) throw new LeaseLostError(t.id);
    // As the store merged it (json_patch): what a later attempt, after a restart, reads.
    applyMergePatch(data, patch);
  };
  let followUps: RepliesContext | undefined;
  if (t.thread.length > 0 || t.firstComment !== null) {
    const done: TargetReplies = { ...t.replies };
    followUps = {
      thread: t.thread,
      threadMedia,
      firstComment: t.firstComment,
      data: done,
      save: async (patch, checkpoint = {}) => {
        await save(checkpoint, patch);
        Object.assign(done, patch);
      },
    };
  }
  return {
    target: {
      id: t.id,
      jobId: t.jobId,
      platform: t.platform,
      type: t.type,
      caption: t.caption,
      options: t.options,
      dueAt: t.dueAt,
      attempt: t.attempt,
      attemptStartedAt: t.attemptStartedAt,
    },
    media,
    credentials,
    saveTokens: async (update) => {
      await connections.saveTokens(credentials.connectionId, update);
    },
    markConnectionExpired: async (reason) => {
      onExpired();
      await connections.markExpired(credentials.connectionId, reason);
    },
    checkpoint: { data, save: (patch) => save(patch) },
    ...(followUps ? { replies: followUps } : {}),
    baseUrl: (host) => {
      if (credentials.mode === 'live') return `https://${host}`;
      if (!sandbox) throw new PermanentError(`no ${t.platform} simulator is available for sandbox connections`);
      return sandbox(t.platform, host);
    },
    publicBaseUrl: o.publicBaseUrl,
    clock,
    signal,
    log,
  };
}
