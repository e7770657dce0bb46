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
 * the DELETE went out without an answer, else `failed` with the platform's reason.
 */
export async function takeDownTarget(remover: PostRemover, ctx: CallContext, remoteIds: readonly string[], verifyFirst: boolean): Promise<TargetTakedown> {
  let gone = 0;
  for (const id of remoteIds) {
    try {
      if (verifyFirst && !(await remover.postExists(ctx, id))) {
        gone += 1;
        continue;
      }
      if ((await remover.deletePost(ctx, id)) === 'already_gone') gone += 1;
    } catch (err) {
      const e = err instanceof PublishError ? err : null;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof OutcomeUnknownError) return { result: 'unknown', code: e?.platformCode ?? 'outcome_unknown', message };
      return { result: 'failed', code: e?.platformCode ?? e?.kind ?? 'error', message };
    }
  }
  const all = remoteIds.length;
  return { result: 'removed', message: gone === all ? 'the platform no longer had it (already deleted)' : gone > 0 ? `deleted (${gone} of ${all} parts were already gone)` : 'deleted' };
}
