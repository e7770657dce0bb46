import type { PublishContext } from '../adapter';
import { OutcomeUnknownError, PermanentError, RetryableError } from '../errors';
import { POST_COLLECTION, type BlueskySession, type StrongRef } from './bluesky-session';
import { checkpointOf as cpOf } from './checkpoint';

/**
 * Writes the record at its own key, exactly once: a key an earlier attempt sent is asked
 * about first (getRecord); a createRecord the PDS refuses or leaves unanswered is looked
 * up at the key, and a record found there is the one this target made. Nothing found
 * after an unanswered request: the next attempt writes the same key, which the PDS
 * refuses if the first request landed after all.
 */
export async function createAtKey(ctx: Pick<PublishContext, 'checkpoint' | 'clock'>, s: BlueskySession, rkey: string, build: () => Promise<Record<string, unknown>>, step: string, sending?: () => Promise<void>): Promise<StrongRef> {
  if (cpOf(ctx).requested?.[rkey]) {
    const found = await s.getPost(rkey, `${step} lookup`);
    if (found) return found;
  }
  const record = await build();
  await sending?.();
  await ctx.checkpoint.save({ requested: { ...(cpOf(ctx).requested ?? {}), [rkey]: ctx.clock.now() } });
  try {
    const res = await s.call(step, true, (c) => c.procedure<{ uri: string; cid: string }>('com.atproto.repo.createRecord', { json: { repo: s.did, collection: POST_COLLECTION, rkey, record } }));
    return { uri: res.body.uri, cid: res.body.cid };
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError || err instanceof PermanentError)) throw err;
    let found: StrongRef | null;
    try {
      found = await s.getPost(rkey, `${step} lookup`);
    } catch {
      throw err;
    }
    if (found) return found;
    if (err instanceof OutcomeUnknownError) {
      throw new RetryableError(`${err.message}; the PDS has no record at ${rkey}, so the next attempt writes that key again (a late first write makes it refuse the second)`, { platformCode: err.platformCode, cause: err });
    }
    throw err;
  }
}
