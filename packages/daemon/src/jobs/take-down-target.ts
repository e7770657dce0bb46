import type { CallContext } from '../platforms/adapter';
import { OutcomeUnknownError, PublishError } from '../platforms/errors';
import type { PostRemover } from '../platforms/remove-post';

/** How the take-down of one target ended. */
export type TargetTakedown =
  | { result: 'removed'; message: string }
  | { result: 'failed' | 'unknown'; code: string; message: string };

/**
 * Deletes a target's remote objects (`remoteIds`, in order, the post last) and says how it
 * went. An object the platform reports gone counts as deleted, so a repeated call after a
 * partial failure finishes the rest without harm. After an earlier unknown outcome
 * (`verifyFirst`) each object is first looked up and deleted only if it still exists: a
 * deletion is never blindly repeated. The first failure stops the target: `unknown` when
 * the DELETE went out without an answer, else `failed` with the platform's reason, and
 * the message names what is still up (the objects from the failed one on).
 */
export async function takeDownTarget(remover: PostRemover, ctx: CallContext, remoteIds: readonly string[], verifyFirst: boolean): Promise<TargetTakedown> {
  let gone = 0;
  for (const [i, id] of remoteIds.entries()) {
    try {
      if (verifyFirst && !(await remover.postExists(ctx, id))) {
        gone += 1;
        continue;
      }
      if ((await remover.deletePost(ctx, id)) === 'already_gone') gone += 1;
    } catch (err) {
      const e = err instanceof PublishError ? err : null;
      // What stayed up, exactly: this object on (when unknown, perhaps) and every one after it, the post last.
      const message = `${err instanceof Error ? err.message : String(err)}${stillUp(remoteIds, i)}`;
      if (err instanceof OutcomeUnknownError) return { result: 'unknown', code: e?.platformCode ?? 'outcome_unknown', message };
      return { result: 'failed', code: e?.platformCode ?? e?.kind ?? 'error', message };
    }
  }
  const all = remoteIds.length;
  return { result: 'removed', message: gone === all ? 'the platform no longer had it (already deleted)' : gone > 0 ? `deleted (${gone} of ${all} parts were already gone)` : 'deleted' };
}

/** ` (deleted 2 of 4: still up 111, 222)`: for a target of several objects, which stayed and which went. */
function stillUp(remoteIds: readonly string[], failedAt: number): string {
  if (remoteIds.length === 1) return '';
  const left = remoteIds.slice(failedAt);
  return ` (deleted ${failedAt} of ${remoteIds.length}: still up ${left.join(', ')}, the post last)`;
}
