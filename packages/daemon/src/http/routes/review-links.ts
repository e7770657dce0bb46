import { formatInstant, type ReviewLink as ReviewLinkBody, type Routes } from '@socialpub/core';
import type { Context } from 'hono';
import type { RateLimitConfig } from '../../config';
import type { ReviewLink, ReviewLinkLookup } from '../../store/review-links';
import type { RouteDeps } from '../deps';
import { ApiError, invalid } from '../errors';
import { readJsonObject } from '../json-body';
import { countFailure, refuseWhenSpent, tokenGuessBuckets } from '../middleware/auth-failures';
import type { RouteHandlers } from '../route-table/mount-route';
import { ownBaseUrl } from './connections';

export const DEFAULT_REVIEW_LINK_HOURS = 72;
export const MAX_REVIEW_LINK_HOURS = 30 * 24;
export const MAX_REVIEW_LINK_JOBS = 100;
export const MAX_REVIEW_COMMENT = 2000;
const JOB_ID = /^job_[0-9a-z]{1,64}$/;

/** The path of a review link's page: the token is the link's only secret, shown once. */
export const reviewLinkUrl = (base: string, token: string) => `${base}/r/${token}`;

const presentLink = (l: ReviewLink, now: number): ReviewLinkBody => ({
  id: l.id,
  job_ids: l.jobIds,
  created_at: formatInstant(l.createdAt),
  expires_at: formatInstant(l.expiresAt),
  revoked_at: l.revokedAt === null ? null : formatInstant(l.revokedAt),
  status: l.revokedAt !== null ? 'revoked' : now >= l.expiresAt ? 'expired' : 'active',
});

/**
 * Review links (extension): a link for one post or several that a person without an
 * account opens to approve or reject each with a comment. The owner creates, lists and
 * revokes them here (Bearer or dashboard session); the token is in the create answer's
 * url only, and stored as its sha256. Declared in core's route table; POST reads its body
 * itself (its own messages, as always).
 */
export function reviewLinksHandlers({ store, clock, config }: Pick<RouteDeps, 'store' | 'clock' | 'config'>): RouteHandlers<Routes, 'reviewLinks.create' | 'reviewLinks.list' | 'reviewLinks.revoke'> {
  return {
    'reviewLinks.create': { raw: true, handle: async (c) => {
      const user = c.get('user');
      const body = await readJsonObject(c);
      const details = Object.keys(body)
        .filter((k) => k !== 'job_ids' && k !== 'expires_in_hours')
        .map((k) => ({ path: k, message: 'unknown field' }));
      const ids = body.job_ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_REVIEW_LINK_JOBS) {
        details.push({ path: 'job_ids', message: `a list of 1 to ${MAX_REVIEW_LINK_JOBS} job ids` });
      } else {
        ids.forEach((id, i) => {
          if (typeof id !== 'string' || !JOB_ID.test(id)) details.push({ path: `job_ids.${i}`, message: 'not a job id (job_…)' });
        });
      }
      const hours = body.expires_in_hours ?? DEFAULT_REVIEW_LINK_HOURS;
      if (typeof hours !== 'number' || !Number.isFinite(hours) || hours <= 0 || hours > MAX_REVIEW_LINK_HOURS) {
        details.push({ path: 'expires_in_hours', message: `a number of hours above 0, at most ${MAX_REVIEW_LINK_HOURS} (30 days)` });
      }
      if (details.length > 0) throw invalid(details);
      const jobIds = [...new Set(ids as string[])];
      for (const id of jobIds) {
        const job = store.jobs.get(id);
        if (!job) throw new ApiError('not_found', `no job ${id}`);
        if (job.userId !== user.id) throw new ApiError('forbidden', `job ${id} belongs to another user`);
      }
      const now = clock.now();
      const { token, link } = await store.commits.durable(() => store.reviewLinks.create(user.id, jobIds, now, now + Math.round((hours as number) * 3_600_000)));
      return { ...presentLink(link, now), url: reviewLinkUrl(ownBaseUrl(c, config), token) };
    } },
    'reviewLinks.list': ({ query }, c) => {
      const now = clock.now();
      // One more than the page, to know whether another follows; the cursor is the page's last link id.
      const links = store.reviewLinks.list(c.get('user').id, query.limit + 1, query.cursor);
      if (!links) throw new ApiError('invalid_request', 'cursor is not one this list gave (a next_cursor of GET /review-links)', [{ path: 'cursor', message: 'unknown cursor' }]);
      const page = links.slice(0, query.limit);
      return { data: page.map((l) => presentLink(l, now)), next_cursor: links.length > query.limit ? (page.at(-1)?.id ?? null) : null };
    },
    'reviewLinks.revoke': async ({ params: { id } }, c) => {
      const link = store.reviewLinks.get(id);
      if (!link || link.userId !== c.get('user').id) throw new ApiError('not_found', `no review link ${id}`);
      if (link.revokedAt === null) await store.commits.durable(() => store.reviewLinks.revoke(link.id, clock.now()));
      return undefined;
    },
  };
}

export interface PublicReviewDeps extends Pick<RouteDeps, 'store' | 'clock' | 'jobs'> {
  limits: RateLimitConfig;
  /** The client address, for the failed-attempt limit (shared with bad API keys). */
  address: (c: Context) => string;
}

const REFUSED: Record<Exclude<ReviewLinkLookup, { ok: true }>['reason'], { code: 'not_found' | 'gone'; message: string }> = {
  unknown: { code: 'not_found', message: 'no such review link' },
  expired: { code: 'gone', message: 'this review link has expired' },
  revoked: { code: 'gone', message: 'this review link was revoked' },
};

/**
 * The public side of a review link (token in the path, no key, no cookie): read the
 * link's posts and decisions, and approve, reject or request changes to one of those posts with a comment.
 * Nothing else: every other job, endpoint and field stays out of reach. Unknown tokens
 * count against the address's failed-authentication limit, as bad keys do (the routes' own
 * limiter: they need no key, so no rate class). Declared in core's route table (auth public,
 * the decision's 16 KB body limit); the decision reads its body itself, after the token.
 */
export function publicReviewHandlers({ store, clock, jobs, limits, address }: PublicReviewDeps): RouteHandlers<Routes, 'reviewLinks.read' | 'reviewLinks.decide'> {
  const open = (c: Context): ReviewLink => {
    const now = clock.now();
    const addr = address(c);
    const buckets = tokenGuessBuckets(c, addr);
    refuseWhenSpent({ store, limits }, buckets, now);
    const found = store.reviewLinks.open(c.req.param('token') ?? '', now);
    if (found.ok) return found.link;
    if (found.reason === 'unknown') countFailure({ store, limits }, buckets, now);
    const refusal = REFUSED[found.reason];
    throw new ApiError(refusal.code, refusal.message);
  };
  const ownerOf = (link: ReviewLink) => {
    const owner = store.users.get(link.userId);
    if (!owner) throw new ApiError('not_found', 'no such review link');
    return owner;
  };
  return {
    'reviewLinks.read': (_input, c) => {
      c.header('Cache-Control', 'no-store');
      c.header('X-Robots-Tag', 'noindex, nofollow');
      // The token is in the URL: no request this answer leads to may carry it on in a Referer.
      c.header('Referrer-Policy', 'no-referrer');
      const link = open(c);
      const owner = ownerOf(link);
      const posts = link.jobIds.flatMap((id) => {
        const job = store.jobs.get(id);
        return job && job.userId === owner.id ? [jobs.get(owner, id)] : [];
      });
      const decisions = store.reviewLinks.decisions(link.id).map((d) => ({ job_id: d.jobId, decision: d.decision, comment: d.comment, decided_at: formatInstant(d.decidedAt) }));
      return { expires_at: formatInstant(link.expiresAt), posts, decisions };
    },
    'reviewLinks.decide': { raw: true, handle: async (c) => {
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      const link = open(c);
      const body = await readJsonObject(c);
      const details = Object.keys(body)
        .filter((k) => k !== 'job_id' && k !== 'decision' && k !== 'comment' && k !== 'version')
        .map((k) => ({ path: k, message: 'unknown field' }));
      if (typeof body.job_id !== 'string') details.push({ path: 'job_id', message: 'required: one of the link’s job ids' });
      if (body.decision !== 'approve' && body.decision !== 'reject' && body.decision !== 'request_changes') details.push({ path: 'decision', message: 'approve, reject or request_changes' });
      if (body.decision === 'request_changes' && (typeof body.comment !== 'string' || body.comment.trim() === '')) {
        details.push({ path: 'comment', message: 'required with request_changes: say what should change' });
      }
      if (body.comment !== undefined && body.comment !== null && (typeof body.comment !== 'string' || body.comment.length > MAX_REVIEW_COMMENT)) {
        details.push({ path: 'comment', message: `a string of at most ${MAX_REVIEW_COMMENT} characters` });
      }
      // The decision is on what the reviewer saw: the post's version from the link's GET.
      if (typeof body.version !== 'number' || !Number.isInteger(body.version) || body.version < 1) {
        details.push({ path: 'version', message: 'required: the post’s version you decided on (a whole number, from this link’s posts)' });
      }
      if (details.length > 0) throw invalid(details);
      const jobId = body.job_id as string;
      // Only the link's own posts: any other id is as unknown here as it is to a stranger.
      if (!link.jobIds.includes(jobId)) throw new ApiError('not_found', `${jobId} is not one of this review link's posts`);
      const comment = typeof body.comment === 'string' && body.comment.trim() !== '' ? body.comment.trim() : null;
      const owner = ownerOf(link);
      const opts = { reviewLink: { id: link.id, comment }, version: body.version as number };
      const change =
        body.decision === 'approve'
          ? await jobs.approve(owner, jobId, opts)
          : body.decision === 'reject'
            ? await jobs.reject(owner, jobId, opts)
            : await jobs.requestChanges(owner, jobId, { ...opts, comment: comment as string });
      return { success: true as const, ...change };
    } },
  };
}
