import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/store';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { inboxComment } from '../support/inbox-items';
import { openTestDatabase } from '../support/store-dialects';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 11, 25, 9, 0, 0));
  // SQLite in the unit project, PostgreSQL in the postgres one (vitest.config.ts).
  const db = openTestDatabase();
  const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock });
  // The user and the posts the items point to (their own repositories make them in the daemon).
  db.prepare("INSERT INTO users (id, email, created_at) VALUES ('u1', 'u1@example.com', 0)").run();
  for (const job of ['job_1', 'job_2']) db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES (?, 'u1', 'c', '[]', 0, 0, 0)").run(job);
  return { clock, db, store };
}

const comment = inboxComment;

describe('the inbox repository', () => {
  it('adds a comment once per connection and comment id, each with one comment.received', () => {
    const { store, db, clock } = setup();
    const now = clock.now();
    expect(store.inbox.addItems([comment(1), comment(2)], now).map((i) => i.id)).toEqual(['inb_0001', 'inb_0002']);
    // Seen again (under a new id): nothing added, no second event.
    expect(store.inbox.addItems([comment(1, { id: 'inb_9999' })], now + 1)).toEqual([]);
    // The same comment id on another connection is another comment.
    expect(store.inbox.addItems([comment(1, { id: 'inb_0003', connectionId: 'con_2' })], now + 2)).toHaveLength(1);
    expect(db.prepare("SELECT subject FROM events WHERE type = 'comment.received' ORDER BY id").pluck().all()).toEqual(['inb_0001', 'inb_0002', 'inb_0003']);
    expect(store.inbox.knownCommentIds('tgt_1')).toEqual(new Set(['201', '202']));
    expect(store.inbox.unreadCount('u1')).toBe(3);
  });

  it('lists newest first in pages, filtered by platform, status and post', () => {
    const { store, clock } = setup();
    for (let n = 1; n <= 5; n++) store.inbox.addItems([comment(n, n % 2 ? {} : { platform: 'bluesky', jobId: 'job_2' })], clock.now() + n);
    const first = store.inbox.list('u1', { limit: 2 });
    expect(first.map((i) => i.id)).toEqual(['inb_0005', 'inb_0004']);
    const next = store.inbox.list('u1', { limit: 2, before: { createdAt: first[1]!.createdAt, id: first[1]!.id } });
    expect(next.map((i) => i.id)).toEqual(['inb_0003', 'inb_0002']);
    expect(store.inbox.list('u1', { limit: 10, platform: 'bluesky' }).map((i) => i.id)).toEqual(['inb_0004', 'inb_0002']);
    expect(store.inbox.list('u1', { limit: 10, jobId: 'job_1' }).map((i) => i.id)).toEqual(['inb_0005', 'inb_0003', 'inb_0001']);
    store.inbox.setStatus('u1', 'inb_0003', 'read', clock.now());
    expect(store.inbox.list('u1', { limit: 10, status: 'read' }).map((i) => i.id)).toEqual(['inb_0003']);
    expect(store.inbox.list('someone-else', { limit: 10 })).toEqual([]);
    expect(store.inbox.get('someone-else', 'inb_0003')).toBeNull();
  });

  it('lists by when the author wrote a comment, not when socialpub found it, ties by id, in pages that neither skip nor repeat', () => {
    const { store, clock } = setup();
    const now = clock.now();
    // One round finds a day-old comment after three written this morning (received in that order).
    store.inbox.addItems([comment(1, { createdAt: now - 3_600_000 }), comment(2, { createdAt: now - 60_000 })], now);
    store.inbox.addItems([comment(3, { createdAt: now - 86_400_000 }), comment(4, { createdAt: now - 60_000 })], now + 1_000);
    const all = store.inbox.list('u1', { limit: 10 });
    expect(all.map((i) => i.id)).toEqual(['inb_0004', 'inb_0002', 'inb_0001', 'inb_0003']);
    const pages: string[] = [];
    let before: { createdAt: number; id: string } | undefined;
    for (;;) {
      const page = store.inbox.list('u1', { limit: 1, ...(before ? { before } : {}) });
      if (page.length === 0) break;
      pages.push(page[0]!.id);
      before = { createdAt: page[0]!.createdAt, id: page[0]!.id };
    }
    expect(pages).toEqual(all.map((i) => i.id));
  });

  it("moves a reply only from the state the caller expects; sent marks the item replied with one comment.replied", () => {
    const { store, db, clock } = setup();
    const now = clock.now();
    store.inbox.addItems([comment(1)], now);
    store.inbox.addReply({ id: 'rpl_1', itemId: 'inb_0001', userId: 'u1', text: 'thanks', state: 'pending_approval', source: 'mcp' }, now);
    expect(store.inbox.moveReply('rpl_1', 'queued', 'sending', now)).toBeNull();
    expect(store.inbox.moveReply('rpl_1', 'pending_approval', 'queued', now)?.state).toBe('queued');
    expect(store.inbox.repliesToSend().map((r) => r.id)).toEqual(['rpl_1']);
    expect(store.inbox.list('u1', { limit: 10, replyState: 'queued' }).map((i) => i.id)).toEqual(['inb_0001']);
    expect(store.inbox.list('u1', { limit: 10, replyState: 'pending_approval' })).toEqual([]);
    // Not sending yet: sent is refused.
    expect(store.inbox.markReplySent('rpl_1', '300', null, now)).toBeNull();
    store.inbox.moveReply('rpl_1', 'queued', 'sending', now);
    store.inbox.saveReplyCheckpoint('rpl_1', { sentAt: now }, now);
    expect(store.inbox.reply('rpl_1')?.checkpoint).toEqual({ sentAt: now });
    expect(store.inbox.markReplySent('rpl_1', '300', 'https://mastodon.social/@me/300', now + 5)).toMatchObject({ state: 'sent', remoteId: '300', sentAt: now + 5 });
    expect(store.inbox.markReplySent('rpl_1', '301', null, now + 6)).toBeNull();
    expect(store.inbox.get('u1', 'inb_0001')?.status).toBe('replied');
    expect((db.prepare("SELECT data FROM events WHERE type = 'comment.replied'").pluck().all() as string[]).map((d) => (JSON.parse(d) as { post_id: string }).post_id)).toEqual(['300']);
    expect(store.inbox.repliesToSend()).toEqual([]);
    // Deleted from the network once: a sent reply only, kept with deleted_at.
    expect(store.inbox.markReplyDeleted('rpl_1', now + 7)).toMatchObject({ state: 'sent', deletedAt: now + 7 });
    expect(store.inbox.markReplyDeleted('rpl_1', now + 8)).toBeNull();
    expect(store.inbox.reply('rpl_1')?.deletedAt).toBe(now + 7);
  });

  it('writes a held reply, its approval and its refusal as events, each with the step that made it', () => {
    const { store, db, clock } = setup();
    const now = clock.now();
    store.inbox.addItems([comment(1)], now);
    store.inbox.addReply({ id: 'rpl_1', itemId: 'inb_0001', userId: 'u1', text: 'held one', state: 'pending_approval', source: 'mcp' }, now);
    store.inbox.addReply({ id: 'rpl_2', itemId: 'inb_0001', userId: 'u1', text: 'held two', state: 'pending_approval', source: 'api' }, now + 1);
    store.inbox.addReply({ id: 'rpl_3', itemId: 'inb_0001', userId: 'u1', text: 'straight out', state: 'queued', source: 'api' }, now + 2);
    expect(store.inbox.moveReply('rpl_1', 'pending_approval', 'queued', now + 3)?.state).toBe('queued');
    expect(store.inbox.moveReply('rpl_2', 'pending_approval', 'rejected', now + 4)?.state).toBe('rejected');
    // A move from elsewhere, or one refused, writes nothing.
    expect(store.inbox.moveReply('rpl_2', 'pending_approval', 'queued', now + 5)).toBeNull();
    store.inbox.moveReply('rpl_3', 'queued', 'sending', now + 6);
    const events = (db.prepare("SELECT type, data FROM events WHERE type LIKE 'comment.reply_%' ORDER BY id").all() as { type: string; data: string }[]).map((e) => {
      const d = JSON.parse(e.data) as { reply_id: string; item_id: string; text: string; source: string; platform: string };
      return [e.type, d.reply_id, d.item_id, d.text, d.source, d.platform];
    });
    expect(events).toEqual([
      ['comment.reply_pending_approval', 'rpl_1', 'inb_0001', 'held one', 'mcp', 'mastodon'],
      ['comment.reply_pending_approval', 'rpl_2', 'inb_0001', 'held two', 'api', 'mastodon'],
      ['comment.reply_approved', 'rpl_1', 'inb_0001', 'held one', 'mcp', 'mastodon'],
      ['comment.reply_rejected', 'rpl_2', 'inb_0001', 'held two', 'api', 'mastodon'],
    ]);
  });

  it('schedules published targets: due ones in time order, a user\'s recent ones, and the connections busy publishing', () => {
    const { store, db, clock } = setup();
    const now = clock.now();
    const target = db.prepare('INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, post_id, published_at, connection_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    target.run('tgt_a', 'job_1', 'u1', 'mastodon', 'post', now - 1000, 'published', '100', now - 1000, 'con_1', now);
    target.run('tgt_b', 'job_2', 'u1', 'bluesky', 'post', now - 500, 'published', 'at://x/app.bsky.feed.post/1', now - 500, 'con_2', now);
    target.run('tgt_c', 'job_2', 'u1', 'mastodon', 'post', now + 60_000, 'scheduled', null, null, 'con_1', now);
    expect(store.inbox.watchNewTargets(now)).toBe(2);
    expect(store.inbox.watchNewTargets(now)).toBe(0);
    expect(store.inbox.dueTargets(now, 10).map((t) => t.targetId).sort()).toEqual(['tgt_a', 'tgt_b']);
    store.inbox.reschedule('tgt_a', now + 120_000, now, 0);
    expect(store.inbox.dueTargets(now, 10).map((t) => t.targetId)).toEqual(['tgt_b']);
    expect(store.inbox.nextDueAt()).toBe(now);
    expect(store.inbox.targetsOf('u1', now - 600).map((t) => t.targetId)).toEqual(['tgt_b']);
    expect(store.inbox.busyConnections(now + 120_000)).toEqual(new Set(['con_1']));
    expect(store.inbox.busyConnections(now)).toEqual(new Set());
  });
});
