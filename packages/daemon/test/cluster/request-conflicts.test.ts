import { describe, expect, it } from 'vitest';
import { API, errorOf, harness } from '../http/harness';
import { conflictOnWrites, conflictWritesSeen } from '../support/store-dialects';

/**
 * Several daemons over one PostgreSQL database: a request's transaction (an edit of a post)
 * and another daemon's publisher batch (ending or claiming the post's targets) update the
 * same job and targets rows, and PostgreSQL breaks one off with a deadlock (40P01) or a
 * serialization failure (40001). The request's transaction is run again; the client sees
 * its answer, or, when every try fails, 503 with Retry-After — never 500.
 */
const SCHEDULED = `${API}/content/scheduled`;

async function scheduledPost(h: ReturnType<typeof harness>): Promise<string> {
  h.connect(['twitter', 'mastodon']);
  const res = await h.call('POST', `${API}/content/publish`, { body: { caption: 'before', platforms: ['twitter', 'mastodon'], scheduled_for: '2026-12-25T12:00:00Z' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { job_id: string }).job_id;
}

describe("a request's transaction broken off by PostgreSQL for a conflict with another daemon", () => {
  it('is run again, and the client gets its answer, applied once', async () => {
    const h = harness();
    const jobId = await scheduledPost(h);
    // The next two writes of the job row are broken off as deadlocks, the third goes through.
    conflictOnWrites(h.db, 'jobs', 2);
    const res = await h.call('PATCH', `${SCHEDULED}?job_id=${jobId}`, { body: { caption: 'after', scheduled_for: '2026-12-25T14:00:00Z' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { post: { caption: string; version: number; targets: { scheduled_for: string }[] } };
    expect(body.post.caption).toBe('after');
    expect(body.post.targets.map((t) => t.scheduled_for)).toEqual(['2026-12-25T14:00:00.000Z', '2026-12-25T14:00:00.000Z']);
    // Two tries broken off, then the one that went through (its writes of the job row counted too).
    expect(conflictWritesSeen(h.db, 'jobs')).toBeGreaterThanOrEqual(3);
    // Applied once: one new version, one post.retimed event.
    expect(body.post.version).toBe(2);
    expect(h.db.prepare("SELECT count(*) FROM events WHERE type = 'post.retimed'").pluck().get()).toBe(1);
  });

  it('answers 503 with Retry-After in the one error body when every try fails, and writes nothing', async () => {
    const h = harness();
    const jobId = await scheduledPost(h);
    conflictOnWrites(h.db, 'jobs', 1_000, '40001');
    const res = await h.call('DELETE', `${SCHEDULED}?job_id=${jobId}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'unavailable', retry_after: 1 });
    expect(error.message).toMatch(/concurrent change.*retry/);
    // Five tries, each rolled back.
    expect(conflictWritesSeen(h.db, 'jobs')).toBe(5);
    const post = (await (await h.call('GET', `${SCHEDULED}?job_id=${jobId}`)).json()) as { post: { status: string } };
    expect(post.post.status).toBe('scheduled');
  });
});
