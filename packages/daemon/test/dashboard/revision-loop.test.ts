import { afterEach, describe, expect, it } from 'vitest';
import { createTargetQueue } from '../../src/store/target-queue';
import { errorOf } from '../http/harness';
import { API, dashboardHarness } from './fixture';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

interface Answer {
  message: string;
  post: {
    job_id: string;
    status: string;
    version: number;
    targets: { status: string }[];
    approvals: { action: string; by: string | null; source: string; at: string; version: number; comment: string | null; review_link_id?: string }[];
    comments: { id: string; body: string; by: string | null; source: string; at: string; version: number }[];
  };
}

async function setup() {
  const h = dashboardHarness();
  cleanup.push(h.remove);
  h.connect(['twitter', 'mastodon']);
  h.store.users.setApprovalWorkflow(h.user.id, true);
  h.user.approvalWorkflow = true;
  const publish = async () =>
    ((await (await h.call('POST', `${API}/content/publish`, { body: { caption: 'first draft', platforms: ['twitter', 'mastodon'], scheduled_for: '2026-12-25T09:30:00Z' } })).json()) as { job_id: string }).job_id;
  const post = async (id: string) => ((await (await h.call('GET', `${API}/content/scheduled?job_id=${id}`)).json()) as Answer).post;
  const events = (type: string) => (h.db.prepare('SELECT data FROM events WHERE type = ? ORDER BY id').all(type) as { data: string }[]).map((r) => JSON.parse(r.data) as Record<string, unknown>);
  return { h, publish, post, events };
}

describe('request changes', () => {
  it('moves a pending post to changes_requested with the comment in its thread, history and a post.changes_requested event', async () => {
    const { h, publish, post, events } = await setup();
    const id = await publish();
    h.scheduler.changed = [];
    const res = await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body: { comment: '  Say 25% off, not 20%  ', version: 1 }, headers: { 'X-SocialPub-Source': 'cli' } });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Answer;
    expect(answer.message).toBe(`Asked for changes to ${id}; it waits in changes_requested until it is edited`);
    expect(answer.post.status).toBe('changes_requested');
    expect(answer.post.targets.map((t) => t.status)).toEqual(['changes_requested', 'changes_requested']);
    const entry = { by: 'test', source: 'cli', at: '2026-12-25T09:00:00.000Z', version: 1 };
    expect(answer.post.approvals).toEqual([{ action: 'changes_requested', comment: 'Say 25% off, not 20%', ...entry }]);
    expect(answer.post.comments).toEqual([{ id: expect.stringMatching(/^cmt_/), body: 'Say 25% off, not 20%', ...entry }]);
    expect(h.scheduler.changed.flat()).toHaveLength(2);
    expect(events('post.changes_requested')).toEqual([expect.objectContaining({ job_id: id, comment: 'Say 25% off, not 20%', version: 1, by: 'test', source: 'cli' })]);
    // The job-status column (the list's status filter) agrees.
    const listed = (await (await h.call('GET', `${API}/content/scheduled?status=changes_requested`)).json()) as { posts: { job_id: string }[] };
    expect(listed.posts.map((p) => p.job_id)).toEqual([id]);
    expect((await post(id)).status).toBe('changes_requested');
  });

  it('is never due: the scheduler\'s queue holds no changes_requested target, even past its time, and takes it once approved', async () => {
    const { h, publish } = await setup();
    const id = await publish();
    const queue = createTargetQueue(h.db);
    const dayAfter = Date.UTC(2026, 11, 26);
    await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body: { comment: 'fix it' } });
    h.clock.set(dayAfter);
    expect(queue.scan(null, '', dayAfter, 10)).toEqual([]);
    const healthz = (await (await h.app.request('/healthz')).json()) as { targets: Record<string, number> };
    expect(healthz.targets.changes_requested).toBe(2);
    await h.call('POST', `${API}/content/scheduled/approve?job_id=${id}`);
    expect(queue.scan(null, '', dayAfter, 10)).toHaveLength(2);
  });

  it('an edit of the caption sends it back to pending_approval (post.pending_approval, reason edited); a re-time alone does not', async () => {
    const { h, publish, events } = await setup();
    const id = await publish();
    await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body: { comment: 'fix it' } });
    const retimed = (await (await h.call('PATCH', `${API}/content/scheduled?job_id=${id}`, { body: { scheduled_for: '2026-12-25T11:00:00Z' } })).json()) as Answer;
    expect(retimed.post.status).toBe('changes_requested');
    const edited = (await (await h.call('PATCH', `${API}/content/scheduled?job_id=${id}`, { body: { caption: 'second draft' } })).json()) as Answer;
    expect(edited.post).toMatchObject({ status: 'pending_approval', version: 2 });
    expect(events('post.pending_approval').at(-1)).toMatchObject({ job_id: id, reason: 'edited', version: 2 });
    const approved = (await (await h.call('POST', `${API}/content/scheduled/approve?job_id=${id}`)).json()) as Answer;
    expect(approved.post.status).toBe('scheduled');
    expect(approved.post.approvals.map((a) => [a.action, a.version, a.source])).toEqual([
      ['changes_requested', 1, 'api'],
      ['approved', 2, 'api'],
    ]);
  });

  it('lets an agent key revise a post waiting for changes and answer in the thread, but not ask for changes', async () => {
    const { h, publish } = await setup();
    const id = await publish();
    await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body: { comment: 'shorter' } });
    const agent = h.store.apiKeys.create(h.user.id, 'writer-bot', h.clock.now(), 'agent').apiKey;
    const as = (method: string, path: string, body: unknown) =>
      h.app.request(path, { method, headers: { 'X-API-Key': agent, 'Content-Type': 'application/json', 'X-SocialPub-Source': 'mcp' }, body: JSON.stringify(body) });
    const edit = await as('PATCH', `${API}/content/scheduled?job_id=${id}`, { caption: 'short' });
    expect(edit.status).toBe(200);
    expect(((await edit.json()) as Answer).post.status).toBe('pending_approval');
    const said = await as('POST', `${API}/content/scheduled/comments?job_id=${id}`, { body: 'Shortened it.' });
    expect(said.status).toBe(201);
    expect(((await said.json()) as { comment: unknown }).comment).toMatchObject({ body: 'Shortened it.', by: 'writer-bot', source: 'mcp', version: 2 });
    const ask = await as('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { comment: 'more' });
    expect(ask.status).toBe(403);
    expect((await errorOf(ask)).code).toBe('insufficient_scope');
    const thread = (await (await h.call('GET', `${API}/content/scheduled/comments?job_id=${id}`)).json()) as { comments: { body: string; version: number }[] };
    expect(thread.comments.map((c) => [c.body, c.version])).toEqual([
      ['shorter', 1],
      ['Shortened it.', 2],
    ]);
  });

  it('refuses a missing comment, a stale version and a post not waiting for approval, changing nothing', async () => {
    const { h, publish, post } = await setup();
    const id = await publish();
    for (const body of [{}, { comment: '   ' }, { comment: 'x'.repeat(2001) }, { comment: 'ok', extra: 1 }]) {
      const res = await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body });
      expect(res.status, JSON.stringify(body).slice(0, 30)).toBe(400);
    }
    const stale = await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body: { comment: 'ok', version: 7 } });
    expect(stale.status).toBe(409);
    expect((await post(id)).status).toBe('pending_approval');
    await h.call('POST', `${API}/content/scheduled/approve?job_id=${id}`);
    const late = await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body: { comment: 'too late' } });
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toContain('is not waiting for approval (status: scheduled)');
    expect((await post(id)).comments).toEqual([]);
  });

  it('records who approved from the dashboard (the account email), and a review link’s request for changes with its comment', async () => {
    const { h, publish, post } = await setup();
    const first = await publish();
    const session = await h.signIn();
    const res = await h.page('POST', `${API}/content/scheduled/approve?job_id=${first}`, session);
    expect(res.status).toBe(200);
    expect((await post(first)).approvals).toEqual([{ action: 'approved', by: 'owner@example.com', source: 'dashboard', at: '2026-12-25T09:00:00.000Z', version: 1, comment: null }]);

    const second = await publish();
    const link = (await (await h.call('POST', `${API}/review-links`, { body: { job_ids: [second] } })).json()) as { id: string; url: string };
    const token = link.url.split('/r/')[1] as string;
    const decide = (body: unknown) => h.app.request(`${API}/review-links/public/${token}/decisions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const bare = await decide({ job_id: second, decision: 'request_changes', version: 1 });
    expect(bare.status).toBe(400);
    const asked = await decide({ job_id: second, decision: 'request_changes', comment: 'Use the new logo', version: 1 });
    expect(asked.status).toBe(200);
    const p = await post(second);
    expect(p.status).toBe('changes_requested');
    expect(p.approvals).toEqual([{ action: 'changes_requested', by: null, source: 'review_link', review_link_id: link.id, at: '2026-12-25T09:00:00.000Z', version: 1, comment: 'Use the new logo' }]);
    expect(p.comments.map((c) => [c.body, c.source])).toEqual([['Use the new logo', 'review_link']]);
    const page = (await (await h.app.request(`${API}/review-links/public/${token}`)).json()) as { decisions: { decision: string; comment: string }[] };
    expect(page.decisions).toEqual([expect.objectContaining({ decision: 'request_changes', comment: 'Use the new logo' })]);
  });

  it('rejects a post waiting for changes for good, with the reason in its history', async () => {
    const { h, publish } = await setup();
    const id = await publish();
    await h.call('POST', `${API}/content/scheduled/request-changes?job_id=${id}`, { body: { comment: 'fix it' } });
    const rejected = (await (await h.call('POST', `${API}/content/scheduled/reject?job_id=${id}`, { body: { reason: 'never mind' } })).json()) as Answer;
    expect(rejected.post.status).toBe('cancelled');
    expect(rejected.post.approvals.map((a) => [a.action, a.comment])).toEqual([
      ['changes_requested', 'fix it'],
      ['rejected', 'never mind'],
    ]);
  });
});
