import { JobIdQuerySchema, ListQuerySchema, parseInstant, type ListQuery, type ListResponse, type Routes } from '@socialpub/core';
import type { Context } from 'hono';
import type { ListFilter, ListPosition } from '../../store/jobs';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { invalid, issuesToDetails } from '../errors';
import { jobSourceOf } from '../job-source';
import { reviewActorOf } from '../review-actor';
import type { RouteHandlers } from '../route-table/mount-route';

/** The opaque list cursor: base64url of `<sort_at>.<job id>`. */
export function encodeCursor(p: ListPosition): string {
  return Buffer.from(`${p.sortAt}.${p.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(-?\d{1,16})\.(job_[0-9a-z]{1,64})$/.exec(text);
  return m ? { sortAt: Number(m[1]), id: m[2] as string } : null;
}

function requireJobId(c: Context<AppEnv>): string {
  const parsed = JobIdQuerySchema.safeParse({ job_id: c.req.query('job_id') });
  if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
  return parsed.data.job_id;
}

type Names =
  | 'scheduled.list'
  | 'scheduled.update'
  | 'scheduled.cancel'
  | 'scheduled.approve'
  | 'scheduled.reject'
  | 'scheduled.request_changes'
  | 'scheduled.comments'
  | 'scheduled.comment'
  | 'scheduled.unpublish';

/** The list's narrowing filters from the query, or null when it names none (the plain page statements serve it). */
function listFilter(q: ListQuery): ListFilter | null {
  const f: ListFilter = {};
  if (q.platform !== undefined) f.platform = q.platform;
  if (q.target_status !== undefined) f.targetStatus = q.target_status;
  if (q.source !== undefined) f.source = q.source;
  if (q.q !== undefined) f.text = q.q;
  if (q.from !== undefined) f.fromAt = parseInstant(q.from)!;
  if (q.to !== undefined) f.toAt = parseInstant(q.to)!;
  return Object.keys(f).length ? f : null;
}

/** GET, PATCH, DELETE /content/scheduled, POST /content/scheduled/approve|reject|request-changes|unpublish and the comment thread. */
export function scheduledHandlers(deps: RouteDeps): RouteHandlers<Routes, Names> {
  const { jobs } = deps;
  return {
    // With job_id the one post, whatever the list's parameters say; so the query is read here.
    'scheduled.list': {
      raw: true,
      handle: (c) => {
        const user = c.get('user');
        if (c.req.query('job_id') !== undefined) return { success: true, post: jobs.get(user, requireJobId(c)) };
        const parsed = ListQuerySchema.safeParse(c.req.query());
        if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
        const q = parsed.data;
        let after: ListPosition | null = null;
        if (q.cursor !== undefined) {
          after = decodeCursor(q.cursor);
          if (!after) throw invalid([{ path: 'cursor', message: 'is not a cursor this list returned' }]);
        }
        const filter = listFilter(q);
        const page = jobs.list(user, { status: q.status, limit: q.limit, after, ...(filter ? { filter } : {}) });
        const body: ListResponse = { success: true, posts: page.posts, next_cursor: page.next ? encodeCursor(page.next) : null };
        return body;
      },
    },
    'scheduled.update': async ({ query, body }, c) => ({
      success: true,
      ...(await jobs.update(c.get('user'), query.job_id, body, { source: jobSourceOf(c), heldOnly: c.get('scope') === 'agent' })),
    }),
    'scheduled.cancel': ({ query }, c) => jobs.cancel(c.get('user'), query.job_id),
    'scheduled.approve': async ({ query }, c) => ({
      success: true,
      ...(await jobs.approve(c.get('user'), query.job_id, { source: jobSourceOf(c), actor: reviewActorOf(c, deps.store) })),
    }),
    // An optional body {"reason"}: kept on the post (rejection.reason) and in the post.rejected event.
    'scheduled.reject': async ({ query, body }, c) => {
      const reason = body?.reason?.trim() || null;
      return { success: true, ...(await jobs.reject(c.get('user'), query.job_id, { source: jobSourceOf(c), reason, actor: reviewActorOf(c, deps.store) })) };
    },
    'scheduled.request_changes': async ({ query, body }, c) => {
      const opts = { source: jobSourceOf(c), actor: reviewActorOf(c, deps.store), comment: body.comment, ...(body.version !== undefined ? { version: body.version } : {}) };
      return { success: true, ...(await jobs.requestChanges(c.get('user'), query.job_id, opts)) };
    },
    'scheduled.comments': ({ query }, c) => ({ success: true, comments: jobs.comments(c.get('user'), query.job_id) }),
    'scheduled.comment': async ({ query, body }, c) => ({
      success: true,
      comment: await jobs.addComment(c.get('user'), query.job_id, body.body, reviewActorOf(c, deps.store)),
    }),
    'scheduled.unpublish': ({ query }, c) => deps.takedowns.unpublish(c.get('user'), query.job_id),
  };
}
