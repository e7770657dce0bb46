import type { InboxItem, PlatformsResponse } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { nextPollAt, NEVER } from '../../src/inbox/poll-schedule';
import { SIM_READERS, SIM_REPLY_AFTER_MS, simReaderReply } from '../../src/platforms/shared/sim/sim-conversation';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';
import { eventsOf, mastodonReaderReplies, publishNow } from './inbox-fixtures';

const defer = useCleanups();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pollOf = (w: SandboxDaemon, targetId: string) => w.db.prepare('SELECT next_at, last_at, failures FROM inbox_polls WHERE target_id = ?').get(targetId) as { next_at: number; last_at: number | null; failures: number } | undefined;
const targetOf = (w: SandboxDaemon, jobId: string) => w.db.prepare('SELECT id FROM targets WHERE job_id = ?').pluck().get(jobId) as string;

describe('the collecting schedule', () => {
  it('reads a post more often while it is new, and not after 30 days; failures double the wait up to a day', () => {
    const t0 = Date.UTC(2026, 0, 1);
    expect(nextPollAt(t0, t0 + 5 * MINUTE) - (t0 + 5 * MINUTE)).toBe(2 * MINUTE);
    expect(nextPollAt(t0, t0 + 2 * HOUR) - (t0 + 2 * HOUR)).toBe(10 * MINUTE);
    expect(nextPollAt(t0, t0 + 12 * HOUR) - (t0 + 12 * HOUR)).toBe(30 * MINUTE);
    expect(nextPollAt(t0, t0 + 2 * DAY) - (t0 + 2 * DAY)).toBe(2 * HOUR);
    expect(nextPollAt(t0, t0 + 5 * DAY) - (t0 + 5 * DAY)).toBe(6 * HOUR);
    expect(nextPollAt(t0, t0 + 20 * DAY) - (t0 + 20 * DAY)).toBe(DAY);
    expect(nextPollAt(t0, t0 + 31 * DAY)).toBe(NEVER);
    expect(nextPollAt(t0, t0 + 5 * MINUTE, 3) - (t0 + 5 * MINUTE)).toBe(16 * MINUTE);
    expect(nextPollAt(t0, t0 + 20 * DAY, 4) - (t0 + 20 * DAY)).toBe(DAY);
  });

  it('collects a new comment on the round after its post is due again, once, with one comment.received', { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const { jobId, posts } = await publishNow(w, 'On the schedule', ['mastodon']);
    const target = targetOf(w, jobId);
    await w.inbox.runOnce();
    const first = pollOf(w, target)!;
    expect(first.next_at - first.last_at!).toBe(2 * MINUTE);

    const reader = await mastodonReaderReplies(w, posts.mastodon!, 'New here');
    await w.inbox.runOnce(); // not due yet: nothing read
    expect(w.db.prepare('SELECT count(*) FROM inbox_items').pluck().get()).toBe(0);
    await w.clock.advance(2 * MINUTE);
    await w.inbox.runOnce();
    await w.inbox.runOnce();
    await w.clock.advance(2 * MINUTE);
    await w.inbox.runOnce();
    const items = (await w.call('GET', '/inbox')).body.items as InboxItem[];
    // The reader's reply, and (this post being one the simulator's own readers answer) theirs, each once.
    expect(items.filter((i) => i.comment_id === reader.id)).toHaveLength(1);
    expect(items.filter((i) => i.comment_id !== reader.id).map((i) => i.text)).toEqual([simReaderReply(posts.mastodon!, 0)?.text].filter(Boolean));
    expect(eventsOf(w, 'comment.received').map((e) => e.comment_id).sort()).toEqual(items.map((i) => i.comment_id).sort());
  });

  it('leaves an account alone while one of its posts is due, and reads it once the publish is out', { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const { jobId, posts } = await publishNow(w, 'Published first', ['mastodon']);
    await mastodonReaderReplies(w, posts.mastodon!, 'Waiting my turn');
    // Another post of the same account, due in a minute: the publish has the account's budget.
    const due = new Date(w.clock.now() + MINUTE).toISOString();
    expect((await w.call('POST', '/content/publish', { platforms: ['mastodon'], caption: 'Due soon', scheduled_for: due })).status).toBe(200);
    const refresh = await w.call('POST', '/inbox/refresh');
    expect(refresh.body).toMatchObject({ new_items: 0, posts_checked: 0, skipped: [{ platform: 'mastodon', reason: 'its account is publishing (comments wait for publishes)' }] });
    await w.inbox.runOnce();
    expect(w.db.prepare('SELECT count(*) FROM inbox_items').pluck().get()).toBe(0);
    expect(pollOf(w, targetOf(w, jobId))!.failures).toBe(0);

    const open = () => (w.db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck().get() as number) > 0;
    await advanceUntil(w.clock, () => !open(), 300);
    expect(open()).toBe(false);
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 1, skipped: [] });
  });
});

describe("the simulators' own readers", () => {
  it('answer the share of posts sim-conversation picks, after two minutes, once, and socialpub lists them', { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon', 'bluesky'] });
    const published: { platform: string; postId: string; at: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const at = w.clock.now();
      const { posts } = await publishNow(w, `Demo post ${i}`, ['mastodon', 'bluesky']);
      for (const [platform, postId] of Object.entries(posts)) published.push({ platform, postId, at: (w.db.prepare('SELECT created_at FROM sandbox_posts WHERE post_id = ?').pluck().get(postId) as number | undefined) ?? at });
    }
    // Mastodon's ids follow one sequence, so which of these posts a reader answers is fixed.
    expect(published.filter((p) => p.platform === 'mastodon' && simReaderReply(p.postId, p.at) !== null).length).toBeGreaterThan(0);
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 0 });

    await w.clock.advance(SIM_REPLY_AFTER_MS);
    await w.call('POST', '/inbox/refresh');
    await w.call('POST', '/inbox/refresh');
    const items = (await w.call('GET', '/inbox?limit=200')).body.items as InboxItem[];
    const readers = new Set(SIM_READERS.flatMap((r) => [r.username, `${r.username.replace(/_/g, '-')}.bsky.social`]));
    for (const p of published) {
      const plan = simReaderReply(p.postId, p.at);
      const got = items.filter((i) => i.post_id === p.postId);
      expect(got.map((i) => i.text), `${p.platform} ${p.postId}`).toEqual(plan ? [plan.text] : []);
      for (const i of got) expect(readers.has(i.author.handle)).toBe(true);
    }
  });
});

describe('GET /platforms', () => {
  it('says where the inbox reads comments, and why not elsewhere', { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const body = (await w.call('GET', '/platforms')).body as unknown as PlatformsResponse;
    const comments = Object.fromEntries(body.platforms.map((p) => [p.platform, p.comments]));
    for (const p of ['bluesky', 'twitter', 'instagram', 'facebook', 'threads', 'youtube']) expect(comments[p], p).toEqual({ supported: true, reason: null, hide_on_network: true });
    // Mastodon and LinkedIn offer no hiding of others' replies: the inbox hides them alone.
    for (const p of ['mastodon', 'linkedin']) expect(comments[p], p).toEqual({ supported: true, reason: null, hide_on_network: false });
    expect(comments.tiktok).toEqual({ supported: false, reason: expect.stringContaining('TikTok offers no comment API'), hide_on_network: false });
    expect(comments.pinterest).toEqual({ supported: false, reason: expect.stringContaining('Pinterest API v5 has no comment endpoints'), hide_on_network: false });
  });
});
