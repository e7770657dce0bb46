import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

const defer = useCleanups();

type Row = { status: string; checkpoint: string; post_id: string | null };
const target = (db: SandboxDaemon['db']) => db.prepare("SELECT status, checkpoint, post_id FROM targets WHERE platform = 'threads'").get() as Row;

describe('a scheduled Threads text post through the API, against the sandbox', () => {
  it('has its container made a minute ahead, then publishes that container at the due time, once', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['threads'] });
    const due = w.clock.now() + 90_000;
    const pub = await w.call('POST', '/content/publish', { caption: 'made ahead through the API', platforms: ['threads'], scheduled_for: new Date(due).toISOString() });
    expect(pub.status, JSON.stringify(pub.body)).toBeLessThan(300);

    // Not yet within the minute: nothing made.
    await advanceUntil(w.clock, () => false, 25);
    expect(JSON.parse(target(w.db).checkpoint)).toEqual({});
    // Within it: a container, and still no post.
    await advanceUntil(w.clock, () => JSON.parse(target(w.db).checkpoint).units !== undefined, 15);
    const made = JSON.parse(target(w.db).checkpoint).units.post as { containerId: string; prepared: { at: number } };
    expect(made.prepared.at).toBeLessThanOrEqual(due - 59_000);
    expect(target(w.db).status).toBe('scheduled');
    expect(listSandboxPosts(w.db)).toHaveLength(0);

    await advanceUntil(w.clock, () => target(w.db).status === 'published', 120);
    const posts = listSandboxPosts(w.db);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toMatchObject({ text: 'made ahead through the API', container_id: made.containerId });
    expect(target(w.db).post_id).toBe(posts[0]!.postId);
    expect(posts[0]!.createdAt - due).toBeLessThan(2_000);
  }, 60_000);

  it('publishes the edited text when the post was changed after its container was made', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['threads'] });
    const due = w.clock.now() + 30_000;
    const pub = await w.call('POST', '/content/publish', { caption: 'first words', platforms: ['threads'], scheduled_for: new Date(due).toISOString() });
    const jobId = String((pub.body.data as { job_id: string } | undefined)?.job_id ?? pub.body.job_id);
    await advanceUntil(w.clock, () => JSON.parse(target(w.db).checkpoint).units !== undefined, 5);
    const made = JSON.parse(target(w.db).checkpoint).units.post as { containerId: string };
    expect(made.containerId).toEqual(expect.any(String));

    const edit = await w.call('PATCH', `/content/scheduled?job_id=${jobId}`, { caption: 'second thoughts' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    await advanceUntil(w.clock, () => target(w.db).status === 'published', 120);
    const posts = listSandboxPosts(w.db);
    expect(posts.map((p) => (p.body as { text: string }).text)).toEqual(['second thoughts']);
    expect((posts[0]!.body as { container_id: string }).container_id).not.toBe(made.containerId);
  }, 60_000);
});
