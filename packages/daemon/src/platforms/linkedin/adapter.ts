import type { Got } from 'got';
import type { LinkedinOptions } from '@socialpub/core';
import type { AccountAccess, AccountCheckInput, AccountCheckResult, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { OutcomeUnknownError, PublishError, RetryableError } from '../errors';
import { withReplies } from '../shared/follow-ups/with-replies';
import type { ReplyPoster } from '../shared/follow-ups/reply-poster';
import type { LinkedinVersions } from './api-version';
import { header } from '../shared/response-header';
import { encodeUrn, linkedinSession, postUrl, type LinkedinSession } from './linkedin-session';
import { organizationUrn, renderLittleText, toCommentary } from './little-text';
import { uploadMedia, type UploadDeps } from './media-upload';
import { administeredOrganizations, memberUrn } from './organizations';
import { validateLinkedin } from './validate';

export interface LinkedinAdapterDeps extends UploadDeps {
  versions: LinkedinVersions;
  http?: Got;
  requestTimeoutMs?: number;
  /** Reconcile waits until this long after the post request before concluding "not posted" (reads may lag). Default 10 s. */
  reconcileSettleMs?: number;
}

interface LinkedinCheckpoint {
  /** The post's author URN, fixed on the first attempt (reconcile reads this author's posts). */
  author?: string;
  /** The commentary sent (reconcile matches it). */
  commentary?: string;
  /** Set just before POST /rest/posts: from here on a post may exist. */
  postRequestedAt?: number;
  postUrn?: string;
}

interface PostElement {
  id?: string;
  author?: string;
  commentary?: string;
  createdAt?: number;
  publishedAt?: number;
  lifecycleState?: string;
}

const squash = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

/**
 * LinkedIn's Posts API (`POST /rest/posts`) for a member or an organization: text in the
 * little-text format, one image or video, 2-20 images (multiImage), or a PDF document,
 * uploaded through the Images, Videos and Documents APIs; a first comment through
 * socialActions. LinkedIn takes no idempotency key, so an unanswered post request is
 * settled by reading the author's recent posts for the commentary sent.
 */
export function createLinkedinAdapter(deps: LinkedinAdapterDeps): PlatformAdapter {
  const settleMs = deps.reconcileSettleMs ?? 10_000;
  const session = (ctx: AccountAccess) => linkedinSession(ctx, deps);

  /** The author: the post's organization option, else the connection's organization, else the member. */
  async function authorOf(ctx: PublishContext, s: LinkedinSession): Promise<string> {
    const cp = ctx.checkpoint.data as LinkedinCheckpoint;
    if (cp.author) return cp.author;
    const o = ctx.target.options as LinkedinOptions;
    const author = o.organization ? organizationUrn(o.organization) : ctx.credentials.pageId?.startsWith('urn:li:organization:') ? ctx.credentials.pageId : await memberUrn(ctx, s);
    await ctx.checkpoint.save({ author });
    return author;
  }

  /** The post with this commentary by `author` created since `since`, among the author's latest (GET /rest/posts?q=author). */
  async function findPost(s: LinkedinSession, author: string, commentary: string, since: number): Promise<string | null> {
    const res = await s.call('looking for the post', false, (c) =>
      c.request<{ elements?: PostElement[] }>('/rest/posts', { method: 'GET', query: { q: 'author', author, count: '50', sortBy: 'CREATED' } }),
    );
    const want = squash(renderLittleText(commentary));
    const hit = (res.body.elements ?? []).find(
      (p) => p.id && (p.createdAt ?? p.publishedAt ?? 0) >= since - 5_000 && p.lifecycleState !== 'DRAFT' && squash(renderLittleText(p.commentary ?? '')) === want,
    );
    return hit?.id ?? null;
  }

  /** Looks for the post after an unknown outcome, once now and once after LinkedIn's reads settle; null when not found or unreadable. */
  async function lookAfterUnknown(ctx: PublishContext, s: LinkedinSession, cp: Required<Pick<LinkedinCheckpoint, 'author' | 'commentary' | 'postRequestedAt'>>): Promise<string | null> {
    const since = Math.min(cp.postRequestedAt, ctx.target.attemptStartedAt);
    try {
      const found = await findPost(s, cp.author, cp.commentary, since);
      if (found) return found;
      const settleAt = cp.postRequestedAt + settleMs;
      if (ctx.clock.now() < settleAt) await ctx.clock.sleep(settleAt - ctx.clock.now(), ctx.signal);
      return await findPost(s, cp.author, cp.commentary, since);
    } catch {
      return null;
    }
  }

  function postBody(ctx: PublishContext, author: string, commentary: string, urns: string[]): Record<string, unknown> {
    const o = ctx.target.options as LinkedinOptions;
    const body: Record<string, unknown> = {
      author,
      commentary,
      visibility: o.visibility ?? 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    };
    if (ctx.target.type === 'document') body.content = { media: { id: urns[0], title: o.document_title } };
    else if (urns.length === 1) body.content = { media: { id: urns[0] } };
    else if (urns.length > 1) body.content = { multiImage: { images: urns.map((id) => ({ id })) } };
    return body;
  }

  const outcome = (urn: string): PublishOutcome => ({ postId: urn, postUrl: postUrl(urn) });

  const followUps: ReplyPoster = {
    async comment(ctx, post, text) {
      const s = await session(ctx);
      const actor = await authorOf(ctx, s);
      const res = await s.call('first comment', true, (c) =>
        c.request<{ id?: string; $URN?: string }>(`/rest/socialActions/${encodeUrn(post.postId)}/comments`, { method: 'POST', json: { actor, object: post.postId, message: { text } } }),
      );
      const id = header(res.headers, 'x-restli-id') ?? res.body.$URN ?? res.body.id;
      if (!id) throw new RetryableError('LinkedIn answered the comment without its id', { platformCode: 'bad-answer' });
      return { id, url: `${postUrl(post.postId)}?commentUrn=${encodeURIComponent(id)}` };
    },
  };

  const base = withReplies(
    {
      platform: 'linkedin',
      validate: validateLinkedin,

      async publish(ctx) {
        const cp = ctx.checkpoint.data as LinkedinCheckpoint;
        if (cp.postUrn) return outcome(cp.postUrn);
        const s = await session(ctx);
        if (cp.postRequestedAt && cp.author && cp.commentary !== undefined) {
          // An earlier attempt sent the post and never heard back: look before posting again.
          let found: string | null;
          try {
            found = await findPost(s, cp.author, cp.commentary, Math.min(cp.postRequestedAt, ctx.target.attemptStartedAt));
          } catch (err) {
            throw new OutcomeUnknownError(`An earlier attempt sent the post unanswered and LinkedIn's posts of ${cp.author} cannot be read: ${(err as Error).message}`, { platformCode: 'read-back', cause: err });
          }
          if (found) {
            await ctx.checkpoint.save({ postUrn: found });
            return outcome(found);
          }
        }
        const author = await authorOf(ctx, s);
        const urns = await uploadMedia(ctx, s, author, deps);
        const commentary = toCommentary(ctx.target.caption, (ctx.target.options as LinkedinOptions).mentions);
        const requestedAt = ctx.clock.now();
        await ctx.checkpoint.save({ commentary, postRequestedAt: requestedAt });
        let urn: string;
        try {
          const res = await s.call('post', true, (c) => c.request<{ id?: string }>('/rest/posts', { method: 'POST', json: postBody(ctx, author, commentary, urns) }));
          const id = header(res.headers, 'x-restli-id') ?? res.body.id;
          if (!id) throw new OutcomeUnknownError('LinkedIn answered 201 without the post id (x-restli-id)', { platformCode: 'bad-answer' });
          urn = id;
        } catch (err) {
          if (!(err instanceof OutcomeUnknownError)) throw err;
          // No idempotency key on LinkedIn: read the author's posts before anyone is asked to review it.
          const found = await lookAfterUnknown(ctx, s, { author, commentary, postRequestedAt: requestedAt });
          if (!found) throw err;
          urn = found;
        }
        await ctx.checkpoint.save({ postUrn: urn });
        return outcome(urn);
      },

      async reconcile(ctx): Promise<ReconcileResult> {
        const cp = ctx.checkpoint.data as LinkedinCheckpoint;
        if (cp.postUrn) return { state: 'published', outcome: outcome(cp.postUrn) };
        if (!cp.postRequestedAt || !cp.author || cp.commentary === undefined) return { state: 'not_published', reason: 'The post request was never sent (only media uploads happened)' };
        try {
          const s = await session(ctx);
          const since = Math.min(cp.postRequestedAt, ctx.target.attemptStartedAt);
          let found = await findPost(s, cp.author, cp.commentary, since);
          const settleAt = cp.postRequestedAt + settleMs;
          if (!found && ctx.clock.now() < settleAt) {
            await ctx.clock.sleep(settleAt - ctx.clock.now(), ctx.signal);
            found = await findPost(s, cp.author, cp.commentary, since);
          }
          if (found) {
            await ctx.checkpoint.save({ postUrn: found });
            return { state: 'published', outcome: outcome(found) };
          }
          return { state: 'not_published', reason: `No post with this commentary by ${cp.author} since ${new Date(since).toISOString()}` };
        } catch (err) {
          const reason = err instanceof PublishError || err instanceof Error ? err.message : String(err);
          return { state: 'unknown', reason: `Could not read ${cp.author}'s posts on LinkedIn to tell whether the post exists: ${reason}` };
        }
      },
    },
    followUps,
  );

  return {
    ...base,
    /** An organization option must be one the member administers (organizationAcls). */
    async checkAccount(input: AccountCheckInput): Promise<AccountCheckResult> {
      const o = input.options as LinkedinOptions;
      if (!o.organization) return { issues: [] };
      const want = organizationUrn(o.organization);
      let orgs: Array<{ urn: string }>;
      try {
        orgs = await administeredOrganizations(input.account, await session(input.account));
      } catch (err) {
        return { unavailable: `LinkedIn could not list the organizations this member administers: ${(err as Error).message}` };
      }
      if (orgs.some((x) => x.urn === want)) return { issues: [] };
      return {
        issues: [
          {
            path: 'platform_options.linkedin.organization',
            message: `the connected LinkedIn member does not administer organization ${o.organization}${orgs.length ? ` (administers: ${orgs.map((x) => x.urn.replace('urn:li:organization:', '')).join(', ')})` : ' (administers none)'}`,
          },
        ],
      };
    },
  };
}
