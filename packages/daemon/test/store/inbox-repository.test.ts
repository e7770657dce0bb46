import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database';
import type { NewInboxItem } from '../../src/store/inbox';
import { createStore } from '../../src/store/store';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 11, 25, 9, 0, 0));
  const db = openDatabase(':memory:');
  // The repository's own rows: the user and post they point to are other repositories' (the inbox's end-to-end tests make real ones).
  db.pragma('foreign_keys = OFF');
  const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock });
  return { clock, db, store };
}

const comment = (n: number, over: Partial<NewInboxItem> = {}): NewInboxItem => ({
  id: `inb_${String(n).padStart(4, '0')}`,
  userId: 'u1',
  jobId: 'job_1',
  targetId: 'tgt_1',
  connectionId: 'con_1',
  platform: 'mastodon',
  postId: '100',
  commentId: String(200 + n),
  inReplyTo: '100',
  thread: ['100'],
  authorName: null,
  authorHandle: `reader${n}`,
  authorUrl: null,
  text: `comment ${n}`,
  url: null,
  createdAt: 1_000 + n,
  ...over,
});

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
    const next = store.inbox.list('u1', { limit: 2, before: { receivedAt: first[1]!.receivedAt, id: first[1]!.id } });
    expect(next.map((i) => i.id)).toEqual(['inb_0003', 'inb_0002']);
    expect(store.inbox.list('u1', { limit: 10, platform: 'bluesky' }).map((i) => i.id)).toEqual(['inb_0004', 'inb_0002']);
    expect(store.inbox.list('u1', { limit: 10, jobId: 'job_1' }).map((i) => i.id)).toEqual(['inb_0005', 'inb_0003', 'inb_0001']);
    store.inbox.setStatus('u1', 'inb_0003', 'read', clock.now());
    expect(store.inbox.list('u1', { limit: 10, status: 'read' }).map((i) => i.id)).toEqual(['inb_0003']);
    expect(store.inbox.list('someone-else', { limit: 10 })).toEqual([]);
    expect(store.inbox.get('someone-else', 'inb_0003')).toBeNull();
  });

  it("moves a reply only from the state the caller expects; sent marks the item replied with one comment.replied", () => {
    const { store, db, clock } = setup();
    const now = clock.now();
    store.inbox.addItems([comment(1)], now);
    store.inbox.addReply({ id: 'rpl_1', itemId: 'inb_0001', userId: 'u1', text: 'thanks', state: 'pending_approval', source: 'mcp' }, now);
    expect(store.inbox.moveReply('rpl_1', 'queued', 'sending', now)).toBeNull();
    expect(store.inbox.moveReply('rpl_1', 'pending_approval', 'queued', now)?.state).toBe('queued');
    expect(store.inbox.repliesToSend().map((r) => r.id)).toEqual(['rpl_1']);
    // Not sending yet: sent is refused.
    expect(store.inbox.markReplySent('rpl_1', '300', null, now)).toBeNull();
    store.inbox.moveReply('rpl_1', 'queued', 'sending', now);
    store.inbox.saveReplyCheckpoint('rpl_1', { sentAt: now }, now);
    expect(store.inbox.reply('rpl_1')?.checkpoint).toEqual({ sentAt: now });
    expect(store.inbox.markReplySent('rpl_1', '300', 'https://mastodon.social/@me/300', now + 5)).toMatchObject({ state: 'sent', remoteId: '300', sentAt: now + 5 });
    expect(store.inbox.markReplySent('rpl_1', '301', null, now + 6)).toBeNull();
    expect(store.inbox.get('u1', 'inb_0001')?.status).toBe('replied');
    expect(db.prepare("SELECT json_extract(data, '$.post_id') FROM events WHERE type = 'comment.replied'").pluck().all()).toEqual(['300']);
    expect(store.inbox.repliesToSend()).toEqual([]);
  });
});
