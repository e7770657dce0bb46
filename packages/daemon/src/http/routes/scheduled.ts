import { JobIdQuerySchema, ListQuerySchema, RejectRequestSchema, UpdateRequestSchema, type CancelResponse, type GetResponse, type ListResponse, type UnpublishResponse, type UpdateResponse } from '@socialpub/core';
import { Hono, type Context } from 'hono';
import type { ListPosition } from '../../store/jobs';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { invalid, issuesToDetails } from '../errors';
import { jobSourceOf } from '../job-source';
import { readJsonObject } from '../json-body';
import { rateClass } from '../middleware/rate-limit';

/** The opaque list cursor: base64url of `<sort_at>.<job id>`. */
export function encodeCursor(p: ListPosition): string {
  return Buffer.from(`${p.sortAt}.${p.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(-?\d{1,16})\.(job_[0-9a-z]{1,64})$/.exec(text);
  return m ? { sortAt: Number(m[1]), id: m[2] as string } : null;
}

function requireJobId(c: Context): string {
  const parsed = JobIdQuerySchema.safeParse({ job_id: c.req.query('job_id') });
  if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
  return parsed.data.job_id;
}

/** GET, PATCH, DELETE /content/scheduled and POST /content/scheduled/approve|reject|unpublish. */
export function scheduledRoutes(deps: RouteDeps) {
  const { jobs } = deps;

  return new Hono<AppEnv>()
    .get('/', rateClass('scheduled'), (c) => {
      const user = c.get('user');
      if (c.req.query('job_id') !== undefined) {
        const one: GetResponse = { success: true, post: jobs.get(user, requireJobId(c)) };
        return c.json(one, 200);
      }
      const parsed = ListQuerySchema.safeParse(c.req.query());
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const q = parsed.data;
      let after: ListPosition | null = null;
      if (q.cursor !== undefined) {
        after = decodeCursor(q.cursor);
        if (!after) throw invalid([{ path: 'cursor', message: 'is not a cursor this list returned' }]);
      }
      const page = jobs.list(user, { status: q.status, limit: q.limit, after });
      const body: ListResponse = { success: true, posts: page.posts, next_cursor: page.next ? encodeCursor(page.next) : null };
      return c.json(body, 200);
    })
    .patch('/', rateClass('scheduled'), async (c) => {
      const jobId = requireJobId(c);
      const parsed = UpdateRequestSchema.safeParse(await readJsonObject(c));
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const body: UpdateResponse = { success: true, ...(await jobs.update(c.get('user'), jobId, parsed.data)) };
      return c.json(body, 200);
    })
    .delete('/', rateClass('scheduled'), async (c) => {
      const answer: CancelResponse = await jobs.cancel(c.get('user'), requireJobId(c));
      return c.json(answer, 200);
    })
    .post('/approve', rateClass('review'), async (c) => {
      const body: UpdateResponse = { success: true, ...(await jobs.approve(c.get('user'), requireJobId(c), { source: jobSourceOf(c) })) };
      return c.json(body, 200);
    })
    .post('/reject', rateClass('review'), async (c) => {
      const jobId = requireJobId(c);
      // An optional body {"reason"}: kept on the post (rejection.reason) and in the post.rejected event.
      const parsed = RejectRequestSchema.safeParse(await readJsonObject(c, { allowEmpty: true }));
      if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
      const reason = parsed.data.reason?.trim() || null;
      const body: UpdateResponse = { success: true, ...(await jobs.reject(c.get('user'), jobId, { source: jobSourceOf(c), reason })) };
      return c.json(body, 200);
    })
    .post('/unpublish', rateClass('unpublish'), async (c) => {
      const body: UnpublishResponse = await deps.takedowns.unpublish(c.get('user'), requireJobId(c));
      return c.json(body, 200);
    });
}
