import { ROUTES, type CancelResponse, type CommentCreated, type CommentList, type GetResponse, type JobStatus, type Post, type UnpublishResponse, type UpdateResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { PostListPromise, PostPage } from '../pagination';
import { applyJobEvent } from '../apply-job-event';
import { followEvents } from '../follow-events';
import { pollUntil, type WaitOptions } from '../poll';
import { Events } from './events';
import type { ListParams, UpdateParams } from '../types';
import { Resource } from './resource';

/** Job statuses that do not change by themselves any more. */
export const SETTLED_JOB_STATUSES: readonly JobStatus[] = Object.freeze(['published', 'partially_published', 'failed', 'cancelled', 'needs_review', 'removed']);

export class Scheduled extends Resource {
  /**
   * GET /content/scheduled?status=&limit=&cursor=: `await` it for one page
   * (`{ posts, next_cursor }`), or `for await (const post of client.scheduled.list())` for
   * every post of every page.
   */
  list(params: ListParams = {}, options?: RequestOptions): PostListPromise {
    const fetchPage = async (cursor: string | undefined): Promise<PostPage> => {
      const response = await this.transport.call(ROUTES['scheduled.list'], { query: { status: params.status, limit: params.limit, cursor } }, options, 'PostList');
      return new PostPage(response, fetchPage);
    };
    return new PostListPromise(() => fetchPage(params.cursor));
  }

  /** GET /content/scheduled?job_id=: one post with its targets. */
  get(jobId: string, options?: RequestOptions): Promise<GetResponse> {
    return this.transport.call(ROUTES['scheduled.list'], { query: { job_id: jobId } }, options, 'PostResponse');
  }

  /**
   * PATCH /content/scheduled?job_id=: re-times (`scheduled_for`; offsets follow, absolute
   * times stay) or edits captions and type_schedule of targets not yet started.
   * Nothing left to change: ConflictError (409).
   */
  update(jobId: string, body: UpdateParams, options?: RequestOptions): Promise<UpdateResponse> {
    return this.transport.call(ROUTES['scheduled.update'], { query: { job_id: jobId }, body }, options);
  }

  /**
   * DELETE /content/scheduled?job_id=: cancels every target not yet started. Cancelling again
   * answers the same; a job with nothing left to cancel: ConflictError (409).
   */
  cancel(jobId: string, options?: RequestOptions): Promise<CancelResponse> {
    return this.transport.call(ROUTES['scheduled.cancel'], { query: { job_id: jobId } }, options);
  }

  /** POST /content/scheduled/approve?job_id=: releases a job held for approval. Not pending: ConflictError (409). */
  approve(jobId: string, options?: RequestOptions): Promise<UpdateResponse> {
    return this.transport.call(ROUTES['scheduled.approve'], { query: { job_id: jobId } }, options);
  }

  /** POST /content/scheduled/reject?job_id=: cancels a job held for approval. Not pending: ConflictError (409). */
  reject(jobId: string, options?: RequestOptions): Promise<UpdateResponse> {
    return this.transport.call(ROUTES['scheduled.reject'], { query: { job_id: jobId } }, options);
  }

  /**
   * POST /content/scheduled/request-changes?job_id=: asks for changes to a job held for
   * approval; its held targets wait in `changes_requested` (never published there) until an
   * edit of its content sends it back to `pending_approval`. With `version`, refused when the
   * post changed since (ConflictError); not pending: ConflictError (409).
   */
  requestChanges(jobId: string, body: { comment: string; version?: number }, options?: RequestOptions): Promise<UpdateResponse> {
    return this.transport.call(ROUTES['scheduled.request_changes'], { query: { job_id: jobId }, body }, options);
  }

  /** GET /content/scheduled/comments?job_id=: the post's comment thread, oldest first. */
  comments(jobId: string, options?: RequestOptions): Promise<CommentList> {
    return this.transport.call(ROUTES['scheduled.comments'], { query: { job_id: jobId } }, options);
  }

  /** POST /content/scheduled/comments?job_id=: adds a comment to the post's thread (an agent key may). */
  comment(jobId: string, body: string, options?: RequestOptions): Promise<CommentCreated> {
    return this.transport.call(ROUTES['scheduled.comment'], { query: { job_id: jobId }, body: { body } }, options);
  }

  /**
   * POST /content/scheduled/unpublish?job_id= (take-down): deletes the job's published posts
   * on every platform that allows it; those targets become `removed`. `targets` says per
   * target what happened (`removed`, `already_removed`, `not_supported`, `not_published`,
   * `failed`, `unknown`); `changed` is false when the call took nothing down. Safe to call
   * again (a lost answer included). Nothing published: ConflictError (409).
   */
  unpublish(jobId: string, options?: RequestOptions): Promise<UnpublishResponse> {
    return this.transport.call(ROUTES['scheduled.unpublish'], { query: { job_id: jobId } }, options);
  }

  /**
   * Waits until the job is settled (published, partially_published, failed, cancelled,
   * needs_review or removed) and resolves with that post. It follows the job's events
   * (GET /events with `with_post`: the daemon sends the post on the stream when it opens
   * and after each batch of events), so a wait of any length costs one counted request, of
   * the events class, and none of the scheduled-content class (100 an hour); against a
   * daemon that does not carry the post, at most 3: the stream, one read of the post once it
   * is open and one when the events say it settled;
   * `onProgress` gets the post as each event leaves it (a held target shows
   * `next_attempt_at` and `hold`). Against a daemon without /events it polls get() with
   * backoff. A job still held for approval or scheduled far ahead keeps it waiting: pass
   * `maxWait` or a `signal`.
   */
  async waitUntilDone(jobId: string, options: WaitOptions<Post> = {}): Promise<Post> {
    const settled = (post: Post) => SETTLED_JOB_STATUSES.includes(post.status);
    const events = new Events(this.transport, this.clock);
    const followed = await followEvents(
      {
        read: async (signal) => (await this.get(jobId, { signal })).post,
        stream: ({ onState, ...params }) => events.stream({ ...params, jobId, onPost: onState }),
        apply: applyJobEvent,
      },
      `Job ${jobId}`,
      settled,
      options,
    );
    if (followed !== undefined) return followed;
    return pollUntil(
      async (signal) => (await this.get(jobId, { signal })).post,
      settled,
      `Job ${jobId}`,
      options,
      this.clock,
    );
  }
}
