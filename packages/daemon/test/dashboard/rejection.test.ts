import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../http/harness';
import { API, dashboardHarness } from './fixture';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

async function setup() {
  const h = dashboardHarness();
  cleanup.push(h.remove);
  h.connect(['twitter']);
  h.store.users.setApprovalWorkflow(h.user.id, true);
  const publish = async () =>
    ((await (await h.call('POST', `${API}/content/publish`, { body: { caption: 'c', platforms: ['twitter'], scheduled_for: '2026-12-26T10:00:00Z' } })).json()) as { job_id: string }).job_id;
  const post = async (id: string) => ((await (await h.call('GET', `${API}/content/scheduled?job_id=${id}`)).json()) as { post: Record<string, unknown> }).post;
  const rejectedEvents = () => (h.db.prepare("SELECT data FROM events WHERE type = 'post.rejected' ORDER BY id").all() as { data: string }[]).map((r) => JSON.parse(r.data) as Record<string, unknown>);
  return { h, publish, post, rejectedEvents };
}

describe('reject with a reason', () => {
  it('keeps the reason on the post (rejection) and in the post.rejected event', async () => {
    const { h, publish, post, rejectedEvents } = await setup();
    const id = await publish();
    expect((await post(id)).rejection).toBeUndefined();
    const res = await h.call('POST', `${API}/content/scheduled/reject?job_id=${id}`, { body: { reason: '  Wrong product name  ' } });
    expect(res.status).toBe(200);
    const answered = ((await res.json()) as { post: { status: string; rejection: unknown } }).post;
    expect(answered.status).toBe('cancelled');
    expect(answered.rejection).toEqual({ reason: 'Wrong product name', at: '2026-12-25T09:00:00.000Z', source: 'api' });
    expect((await post(id)).rejection).toEqual(answered.rejection);
    const list = (await (await h.call('GET', `${API}/content/scheduled`)).json()) as { posts: { job_id: string; rejection?: unknown }[] };
    expect(list.posts.find((p) => p.job_id === id)?.rejection).toEqual(answered.rejection);
    expect(rejectedEvents()[0]).toMatchObject({ job_id: id, reason: 'Wrong product name' });
  });

  it('still takes no body at all, and then records no reason', async () => {
    const { h, publish, post, rejectedEvents } = await setup();
    const id = await publish();
    const res = await h.app.request(`${API}/content/scheduled/reject?job_id=${id}`, { method: 'POST', headers: { 'X-API-Key': h.key, 'X-SocialPub-Source': 'cli' } });
    expect(res.status).toBe(200);
    expect((await post(id)).rejection).toEqual({ reason: null, at: '2026-12-25T09:00:00.000Z', source: 'cli' });
    expect(rejectedEvents()[0]).not.toHaveProperty('reason');
  });

  it('refuses a reason that is not text or too long, and unknown fields, rejecting nothing', async () => {
    const { h, publish, post } = await setup();
    const id = await publish();
    for (const body of [{ reason: 5 }, { reason: 'x'.repeat(2001) }, { why: 'x' }]) {
      const res = await h.call('POST', `${API}/content/scheduled/reject?job_id=${id}`, { body });
      expect(res.status, JSON.stringify(body).slice(0, 30)).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
    expect((await post(id)).status).toBe('pending_approval');
  });

  it('a review link’s rejection carries its comment as the reason, with the link', async () => {
    const { h, publish, post } = await setup();
    const id = await publish();
    const link = (await (await h.call('POST', `${API}/review-links`, { body: { job_ids: [id] } })).json()) as { id: string; url: string };
    const token = link.url.split('/r/')[1] as string;
    const res = await h.app.request(`${API}/review-links/public/${token}/decisions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ job_id: id, decision: 'reject', comment: 'Not this week', version: 1 }) });
    expect(res.status).toBe(200);
    expect((await post(id)).rejection).toEqual({ reason: 'Not this week', at: '2026-12-25T09:00:00.000Z', source: 'review_link', review_link_id: link.id });
  });
});
