import type { BlueskyOptions } from '@socialpub/core';
import type { Got } from 'got';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { PermanentError } from '../errors';
import type { AddressGuard } from '../../net/address-guard';
import { withReplies } from '../shared/follow-ups/with-replies';
import type { ReplyPoster, PostedRef } from '../shared/follow-ups/reply-poster';
import { openSession, parsePostUri, postUrl, type BlueskySession, type StrongRef } from './bluesky-session';
import { checkpointOf as cpOf } from './checkpoint';
import { createAtKey } from './create-at-key';
import { safeLinkCardFetcher, type LinkCardFetcher } from './link-card';
import { defaultPdsGuard } from './pds-access';
import { postRecord, type PostRecordOptions, type RecordParts } from './post-record';
import { blueskyTokenRefresher } from './session';
import { recordKeyFor } from './tid';
import { validateBluesky } from './validate';

export { madeRecords } from './checkpoint';

export interface BlueskyAdapterDeps {
  /** Checks the PDS's and link cards' addresses (default: public addresses only). */
  guard?: AddressGuard;
  /** Checks link cards' addresses (default: `guard`). */
  linkCardGuard?: AddressGuard;
  /** Fetches link cards (default: through the SSRF-safe fetcher); null turns cards off. */
  linkCards?: LinkCardFetcher | null;
  /** Per-request timeout. Default 60 s (uploads get 10 minutes). */
  requestTimeoutMs?: number;
  /** Give up waiting for the video service after this long. Default 30 minutes. */
  maxProcessingMs?: number;
  http?: Got;
}

export function createBlueskyAdapter(deps: BlueskyAdapterDeps = {}): PlatformAdapter {
  const guard = deps.guard ?? defaultPdsGuard;
  const refresher = blueskyTokenRefresher(guard);
  const recordOptions: PostRecordOptions = {
    linkCards: deps.linkCards === undefined ? safeLinkCardFetcher(deps.linkCardGuard ?? guard) : deps.linkCards,
    video: { http: deps.http, timeoutMs: deps.requestTimeoutMs, maxProcessingMs: deps.maxProcessingMs ?? 30 * 60_000 },
  };

  const sessionFor = async (ctx: PublishContext): Promise<BlueskySession> => {
    const s = await openSession(ctx, { guard, refresher, http: deps.http, timeoutMs: deps.requestTimeoutMs }, { did: cpOf(ctx).did });
    if (!cpOf(ctx).did && typeof ctx.credentials.meta.did !== 'string') await ctx.checkpoint.save({ did: s.did });
    return s;
  };

  const outcome = (s: BlueskySession, ref: StrongRef): PublishOutcome => ({ postId: ref.uri, postUrl: postUrl(s.handle ?? s.did, parsePostUri(ref.uri)?.rkey ?? '') });
  const recordFor = (ctx: PublishContext, s: BlueskySession, p: RecordParts) => postRecord(ctx, s, p, recordOptions);

  async function remember(ctx: PublishContext, ref: StrongRef, extra: Record<string, unknown> = {}): Promise<void> {
    const made = cpOf(ctx).made ?? [];
    if (!made.some((m) => m.uri === ref.uri)) await ctx.checkpoint.save({ made: [...made, ref], ...extra });
    else if (Object.keys(extra).length) await ctx.checkpoint.save(extra);
  }

  /** A strong ref for a record this target made (its cid from the checkpoint, else from getRecord). */
  async function refOf(ctx: PublishContext, s: BlueskySession, uri: string): Promise<StrongRef> {
    const known = cpOf(ctx).made?.find((m) => m.uri === uri);
    if (known?.cid) return known;
    const rkey = parsePostUri(uri)?.rkey;
    const found = rkey ? await s.getPost(rkey, 'parent lookup') : null;
    if (!found) throw new PermanentError(`the post ${uri} this part replies to no longer exists`, { platformCode: 'RecordNotFound' });
    return found;
  }

  async function postReply(ctx: PublishContext, parentUri: string, key: number | 'comment', text: string, items: MediaItem[], step: string, sending?: () => Promise<void>): Promise<PostedRef> {
    const s = await sessionFor(ctx);
    const root = cpOf(ctx).post ?? (await refOf(ctx, s, parentUri));
    const parent = await refOf(ctx, s, parentUri);
    const ref = await createAtKey(ctx, s, recordKeyFor(ctx.target.id, key), () => recordFor(ctx, s, { text, media: items, prefix: `p${key}.`, alts: [], reply: { root, parent } }), step, sending);
    await remember(ctx, ref);
    const out = outcome(s, ref);
    return { id: out.postId, url: out.postUrl };
  }

  const followUps: ReplyPoster = {
    // A part's (and the comment's) key is fixed: one whose answer was lost is looked up, never written twice.
    replyResumable: true,
    commentResumable: true,
    reply: (ctx, parentId, part) => postReply(ctx, parentId, part.part, part.caption, part.media, `thread part ${part.part}`, part.sending),
    comment: (ctx, post, text) => postReply(ctx, post.postId, 'comment', text, [], 'first comment'),
  };

  return withReplies(
    {
      platform: 'bluesky',
      validate: validateBluesky,

      async publish(ctx) {
        const s = await sessionFor(ctx);
        const done = cpOf(ctx).post;
        if (done) return outcome(s, done);
        const ref = await createAtKey(ctx, s, recordKeyFor(ctx.target.id, 1), () => recordFor(ctx, s, { text: ctx.target.caption, media: ctx.media, prefix: '', alts: (ctx.target.options as BlueskyOptions).alt_texts ?? [] }), 'post');
        await remember(ctx, ref, { post: ref });
        return outcome(s, ref);
      },

      async reconcile(ctx): Promise<ReconcileResult> {
        try {
          const s = await sessionFor(ctx);
          const done = cpOf(ctx).post;
          if (done) return { state: 'published', outcome: outcome(s, done) };
          const found = await s.getPost(recordKeyFor(ctx.target.id, 1), 'post lookup');
          if (!found) return { state: 'not_published', reason: 'The PDS has no record at the post\'s record key: it was not made' };
          await remember(ctx, found, { post: found });
          return { state: 'published', outcome: outcome(s, found) };
        } catch (err) {
          return { state: 'unknown', reason: `Could not ask the Bluesky PDS whether the post exists: ${(err as Error).message}` };
        }
      },
    },
    followUps,
  );
}
