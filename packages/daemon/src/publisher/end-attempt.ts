import type { AttemptEnd, ClaimedTarget } from '../store/target-queue';
import type { AttemptScope, Settled } from './task';

/**
 * Writes the end of an attempt, if this process still holds the lease, and resolves once
 * it is on disk (group-committed with the other claims and ends of the moment); reports
 * what became of the target.
 */
export async function endAttempt(
  scope: Pick<AttemptScope, 'o' | 'stopped'>,
  t: ClaimedTarget,
  end: AttemptEnd,
  detail: string | null = null,
): Promise<Settled['result']> {
  if (scope.stopped()) return 'abandoned';
  const { o } = scope;
  const now = o.clock.now();
  // Written with the other ends of the moment (store/attempt-finish.ts), on disk before this goes on.
  if (!(await o.ends.run({ id: t.id, owner: o.owner, now, end, detail }))) return 'lease_lost';
  if (end.status === 'scheduled') o.scheduler.targetsChanged([t.id]);
  const fields = { target_id: t.id, platform: t.platform, attempt: t.attempt, status: end.status };
  if (end.status === 'published' || end.status === 'scheduled') o.log.info('target attempt ended', fields);
  else o.log.warn('target attempt ended', { ...fields, error_code: end.error.code, error: end.error.message });
  return end.status;
}
