import type { InboxReplyState, InboxStatus, Platform, PostSource } from '@socialpub/core';
import type { DB } from './database';
import { createOutboxWriter } from './outbox';
import type { StoredData } from './outbox';

/** A comment the collector found, before it is an item. */
export interface NewInboxItem {
  id: string;
  userId: string;
  jobId: string;
  targetId: string;
  connectionId: string;
  platform: Platform;
  postId: string;
  commentId: string;
  inReplyTo: string | null;
  thread: string[];
  authorName: string | null;
  authorHandle: string;
  authorUrl: string | null;
  text: string;
  url: string | null;
  createdAt: number;
}

export interface InboxItemRecord extends NewInboxItem {
  receivedAt: number;
  status: InboxStatus;
  updatedAt: number;
}

/** A reply as written (addReply). */
export interface NewInboxReply {
  id: string;
  itemId: string;
  userId: string;
  text: string;
  state: 'pending_approval' | 'queued';
  source: PostSource;
}

export interface InboxReplyRecord {
  id: string;
  itemId: string;
  userId: string;
  text: string;
  state: InboxReplyState;
  source: PostSource;
  checkpoint: Record<string, unknown>;
  remoteId: string | null;
  remoteUrl: string | null;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
  /** When socialpub deleted it from the network (null while it is up). */
  deletedAt: number | null;
}

/** A published target the collector reads comments of. */
export interface WatchedTarget {
  targetId: string;
  jobId: string;
  userId: string;
  platform: Platform;
  connectionId: string | null;
  accountKey: string | null;
  postId: string;
  publishedAt: number;
  failures: number;
}

export interface InboxFilter {
  platform?: Platform;
  status?: InboxStatus;
  jobId?: string;
  /** Only items with a reply in this state. */
  replyState?: InboxReplyState;
  limit: number;
  /** Items after this position in the list's order (the previous page's last). */
  before?: { createdAt: number; id: string };
}

interface ItemRow {
  id: string;
  user_id: string;
  job_id: string;
  target_id: string;
  connection_id: string;
  platform: Platform;
  post_id: string;
  comment_id: string;
  in_reply_to: string | null;
  thread: string;
  author_name: string | null;
  author_handle: string;
  author_url: string | null;
  text: string;
  url: string | null;
  created_at: number;
  received_at: number;
  status: InboxStatus;
  updated_at: number;
}

interface ReplyRow {
  id: string;
  item_id: string;
  user_id: string;
  text: string;
  state: InboxReplyState;
  source: PostSource;
  checkpoint: string;
  remote_id: string | null;
  remote_url: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  deleted_at: number | null;
}

const item = (r: ItemRow): InboxItemRecord => ({
  id: r.id,
  userId: r.user_id,
  jobId: r.job_id,
  targetId: r.target_id,
  connectionId: r.connection_id,
  platform: r.platform,
  postId: r.post_id,
  commentId: r.comment_id,
  inReplyTo: r.in_reply_to,
  thread: JSON.parse(r.thread) as string[],
  authorName: r.author_name,
  authorHandle: r.author_handle,
  authorUrl: r.author_url,
  text: r.text,
  url: r.url,
  createdAt: Number(r.created_at),
  receivedAt: Number(r.received_at),
  status: r.status,
  updatedAt: Number(r.updated_at),
});

const reply = (r: ReplyRow): InboxReplyRecord => ({
  id: r.id,
  itemId: r.item_id,
  userId: r.user_id,
  text: r.text,
  state: r.state,
  source: r.source,
  checkpoint: JSON.parse(r.checkpoint) as Record<string, unknown>,
  remoteId: r.remote_id,
  remoteUrl: r.remote_url,
  error: r.error,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
  sentAt: r.sent_at === null ? null : Number(r.sent_at),
  deletedAt: r.deleted_at === null ? null : Number(r.deleted_at),
});

const ITEM_COLUMNS = 'id, user_id, job_id, target_id, connection_id, platform, post_id, comment_id, in_reply_to, thread, author_name, author_handle, author_url, text, url, created_at, received_at, status, updated_at';
const REPLY_COLUMNS = 'id, item_id, user_id, text, state, source, checkpoint, remote_id, remote_url, error, created_at, updated_at, sent_at, deleted_at';

export type InboxRepository = ReturnType<typeof createInboxRepository>;

/**
 * The inbox's rows (migration 220): items (comments found under published targets), our
 * replies and the collector's schedule. `comment.received` is written with the item it
 * reports and `comment.replied` with the reply's `sent` state, each in that write's
 * transaction. Every statement is in the SQL both databases run (issue 34).
 */
export function createInboxRepository(db: DB) {
  const outbox = createOutboxWriter(db);
  const insertItem = db.prepare<[Record<string, unknown>], ItemRow>(
    `INSERT INTO inbox_items (${ITEM_COLUMNS})
     VALUES (@id, @userId, @jobId, @targetId, @connectionId, @platform, @postId, @commentId, @inReplyTo, @thread, @authorName, @authorHandle, @authorUrl, @text, @url, @createdAt, @now, 'unread', @now)
     ON CONFLICT (connection_id, comment_id) DO NOTHING
     RETURNING ${ITEM_COLUMNS}`,
  );
  const byId = db.prepare<[string, string], ItemRow>(`SELECT ${ITEM_COLUMNS} FROM inbox_items WHERE id = ? AND user_id = ?`);
  const setStatus = db.prepare<[InboxStatus, number, string, string], ItemRow>(`UPDATE inbox_items SET status = ?, updated_at = ? WHERE id = ? AND user_id = ? RETURNING ${ITEM_COLUMNS}`);
  const unread = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM inbox_items WHERE user_id = ? AND status = 'unread'");
  const knownIds = db.prepare<[string], { comment_id: string }>('SELECT comment_id FROM inbox_items WHERE target_id = ?');

  const insertReply = db.prepare(
    `INSERT INTO inbox_replies (${REPLY_COLUMNS})
     VALUES (@id, @itemId, @userId, @text, @state, @source, '{}', NULL, NULL, NULL, @now, @now, NULL, NULL)`,
  );
  const replyById = db.prepare<[string], ReplyRow>(`SELECT ${REPLY_COLUMNS} FROM inbox_replies WHERE id = ?`);
  const moveReply = db.prepare<[InboxReplyState, number, string, InboxReplyState], ReplyRow>(
    `UPDATE inbox_replies SET state = ?, updated_at = ? WHERE id = ? AND state = ? RETURNING ${REPLY_COLUMNS}`,
  );
  const writeCheckpoint = db.prepare<[string, number, string]>('UPDATE inbox_replies SET checkpoint = ?, updated_at = ? WHERE id = ?');
  const sent = db.prepare<[string, string | null, number, number, string], ReplyRow>(
    `UPDATE inbox_replies SET state = 'sent', remote_id = ?, remote_url = ?, sent_at = ?, updated_at = ?, error = NULL WHERE id = ? AND state = 'sending' RETURNING ${REPLY_COLUMNS}`,
  );
  const replied = db.prepare<[number, string], ItemRow>(`UPDATE inbox_items SET status = 'replied', updated_at = ? WHERE id = ? RETURNING ${ITEM_COLUMNS}`);
  const deleted = db.prepare<[number, number, string], ReplyRow>(
    `UPDATE inbox_replies SET deleted_at = ?, updated_at = ? WHERE id = ? AND state = 'sent' AND deleted_at IS NULL RETURNING ${REPLY_COLUMNS}`,
  );
  const failed = db.prepare<[string, number, string]>("UPDATE inbox_replies SET state = 'failed', error = ?, updated_at = ? WHERE id = ? AND state = 'sending'");
  const toSend = db.prepare<[], ReplyRow>(`SELECT ${REPLY_COLUMNS} FROM inbox_replies WHERE state IN ('queued', 'sending') ORDER BY created_at, id`);
  const heldFor = db.prepare<[string], ReplyRow>(`SELECT ${REPLY_COLUMNS} FROM inbox_replies WHERE user_id = ? AND state = 'pending_approval' ORDER BY created_at, id`);

  const addPolls = db.prepare<[number]>(
    `INSERT INTO inbox_polls (target_id, user_id, next_at, last_at, failures)
     SELECT t.id, t.user_id, ?, NULL, 0 FROM targets t WHERE t.status = 'published' AND t.post_id IS NOT NULL
     ON CONFLICT (target_id) DO NOTHING`,
  );
  const watchedColumns = `t.id AS target_id, t.job_id, t.user_id, t.platform, t.connection_id, t.account_key, t.post_id, t.published_at, p.failures`;
  const due = db.prepare<[number, number], WatchedRow>(
    `SELECT ${watchedColumns} FROM inbox_polls p JOIN targets t ON t.id = p.target_id
     WHERE p.next_at <= ? AND t.status = 'published' AND t.post_id IS NOT NULL ORDER BY p.next_at, p.target_id LIMIT ?`,
  );
  const ofUser = db.prepare<[string, number], WatchedRow>(
    `SELECT ${watchedColumns} FROM inbox_polls p JOIN targets t ON t.id = p.target_id
     WHERE t.user_id = ? AND t.status = 'published' AND t.post_id IS NOT NULL AND t.published_at >= ? ORDER BY t.published_at DESC, t.id`,
  );
  const reschedule = db.prepare<[number, number, number, string]>('UPDATE inbox_polls SET next_at = ?, last_at = ?, failures = ? WHERE target_id = ?');
  const nextDue = db.prepare<[], { at: number | null }>(
    "SELECT MIN(p.next_at) AS at FROM inbox_polls p JOIN targets t ON t.id = p.target_id WHERE t.status = 'published'",
  );

  const busy = db.prepare<[number], { connection_id: string }>(
    "SELECT DISTINCT connection_id FROM targets WHERE connection_id IS NOT NULL AND (status = 'publishing' OR (status = 'scheduled' AND due_at <= ?))",
  );

  const listStatements = new Map<string, ReturnType<typeof db.prepare<[Record<string, unknown>], ItemRow>>>();
  function listStatement(f: InboxFilter) {
    const key = [f.platform ? 'p' : '', f.status ? 's' : '', f.jobId ? 'j' : '', f.replyState ? 'r' : '', f.before ? 'c' : ''].join('');
    let st = listStatements.get(key);
    if (!st) {
      const where = ['user_id = @userId'];
      if (f.platform) where.push('platform = @platform');
      if (f.status) where.push('status = @status');
      if (f.jobId) where.push('job_id = @jobId');
      if (f.replyState) where.push('id IN (SELECT item_id FROM inbox_replies WHERE state = @replyState)');
      if (f.before) where.push('(created_at < @beforeAt OR (created_at = @beforeAt AND id < @beforeId))');
      // By when the author wrote it, newest first: the time every surface shows (docs/api.md "Inbox").
      st = db.prepare<[Record<string, unknown>], ItemRow>(`SELECT ${ITEM_COLUMNS} FROM inbox_items WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @limit`);
      listStatements.set(key, st);
    }
    return st;
  }

  const addItems = db.transaction((rows: readonly NewInboxItem[], now: number): InboxItemRecord[] => {
    const added: InboxItemRecord[] = [];
    for (const r of rows) {
      const row = insertItem.get({ ...r, thread: JSON.stringify(r.thread), now });
      if (!row) continue;
      const it = item(row);
      added.push(it);
      const data: StoredData<'comment.received'> = {
        item_id: it.id,
        job_id: it.jobId,
        target_id: it.targetId,
        platform: it.platform,
        comment_id: it.commentId,
        author_handle: it.authorHandle,
        text: it.text,
        created_at: it.createdAt,
      };
      outbox.append({ userId: it.userId, type: 'comment.received', jobId: it.jobId, subject: it.id, data, at: now });
    }
    return added;
  });

  const markSent = db.transaction((replyId: string, remoteId: string, remoteUrl: string | null, now: number): InboxReplyRecord | null => {
    const row = sent.get(remoteId, remoteUrl, now, now, replyId);
    if (!row) return null;
    const r = reply(row);
    const it = replied.get(now, r.itemId);
    if (it) {
      const data: StoredData<'comment.replied'> = {
        item_id: it.id,
        reply_id: r.id,
        job_id: it.job_id,
        platform: it.platform,
        comment_id: it.comment_id,
        post_id: remoteId,
        post_url: remoteUrl,
        sent_at: now,
      };
      outbox.append({ userId: r.userId, type: 'comment.replied', jobId: it.job_id, subject: it.id, data, at: now });
    }
    return r;
  });

  const itemOf = db.prepare<[string], ItemRow>(`SELECT ${ITEM_COLUMNS} FROM inbox_items WHERE id = ?`);
  /** The event of a held reply's step (held, approved, declined), written in the step's transaction. */
  const heldEvent = (type: 'comment.reply_pending_approval' | 'comment.reply_approved' | 'comment.reply_rejected', r: InboxReplyRecord, now: number) => {
    const it = itemOf.get(r.itemId);
    if (!it) return;
    const data: StoredData<typeof type> = { item_id: it.id, reply_id: r.id, job_id: it.job_id, platform: it.platform, comment_id: it.comment_id, text: r.text, source: r.source, changed_at: now };
    outbox.append({ userId: r.userId, type, jobId: it.job_id, subject: it.id, data, at: now });
  };
  const HELD_MOVES: Partial<Record<InboxReplyState, 'comment.reply_approved' | 'comment.reply_rejected'>> = { queued: 'comment.reply_approved', rejected: 'comment.reply_rejected' };

  const addReply = db.transaction((r: NewInboxReply, now: number) => {
    insertReply.run({ ...r, now });
    if (r.state === 'pending_approval') heldEvent('comment.reply_pending_approval', reply(replyById.get(r.id)!), now);
  });
  const move = db.transaction((id: string, from: InboxReplyState, to: InboxReplyState, now: number): InboxReplyRecord | null => {
    const row = moveReply.get(to, now, id, from);
    if (!row) return null;
    const r = reply(row);
    const type = from === 'pending_approval' ? HELD_MOVES[to] : undefined;
    if (type) heldEvent(type, r, now);
    return r;
  });

  const repliesOf = (ids: readonly string[]): Map<string, InboxReplyRecord[]> => {
    const out = new Map<string, InboxReplyRecord[]>();
    if (ids.length === 0) return out;
    const rows = db.prepare<string[], ReplyRow>(`SELECT ${REPLY_COLUMNS} FROM inbox_replies WHERE item_id IN (${ids.map(() => '?').join(', ')}) ORDER BY created_at, id`).all(...ids);
    for (const r of rows) out.set(r.item_id, [...(out.get(r.item_id) ?? []), reply(r)]);
    return out;
  };

  return {
    /** Adds the comments not seen before (by connection and comment id), each with its comment.received; returns those added. */
    addItems: (rows: readonly NewInboxItem[], now: number) => addItems(rows, now),
    /** The comment ids already known under a target (the collector skips them). */
    knownCommentIds: (targetId: string) => new Set(knownIds.all(targetId).map((r) => r.comment_id)),
    get: (userId: string, id: string) => {
      const r = byId.get(id, userId);
      return r ? item(r) : null;
    },
    list: (userId: string, f: InboxFilter) =>
      listStatement(f)
        .all({ userId, platform: f.platform, status: f.status, jobId: f.jobId, replyState: f.replyState, beforeAt: f.before?.createdAt, beforeId: f.before?.id, limit: f.limit })
        .map(item),
    unreadCount: (userId: string) => Number(unread.get(userId)?.n ?? 0),
    setStatus: (userId: string, id: string, status: InboxStatus, now: number) => {
      const r = setStatus.get(status, now, id, userId);
      return r ? item(r) : null;
    },
    repliesOf,

    /** Adds a reply; one held for approval comes with its comment.reply_pending_approval. */
    addReply: (r: NewInboxReply, now: number) => addReply(r, now),
    reply: (id: string) => {
      const r = replyById.get(id);
      return r ? reply(r) : null;
    },
    /**
     * Compare-and-set of a reply's state; the reply after the move, or null when it was not in
     * `from`. A held reply approved (to queued) or declined (to rejected) comes with its event.
     */
    moveReply: (id: string, from: InboxReplyState, to: InboxReplyState, now: number) => move(id, from, to, now),
    saveReplyCheckpoint: (id: string, checkpoint: Record<string, unknown>, now: number) => writeCheckpoint.run(JSON.stringify(checkpoint), now, id),
    /** sending -> sent, the item replied and comment.replied, together; null when the reply was not being sent. */
    markReplySent: (id: string, remoteId: string, remoteUrl: string | null, now: number) => markSent(id, remoteId, remoteUrl, now),
    /** A sent reply deleted from the network (once); null when it was not sent or is already deleted. */
    markReplyDeleted: (id: string, now: number) => {
      const r = deleted.get(now, now, id);
      return r ? reply(r) : null;
    },
    markReplyFailed: (id: string, error: string, now: number) => failed.run(error, now, id).changes === 1,
    /** Replies the sender has to finish: queued, and those a stopped process left sending. */
    repliesToSend: () => toSend.all().map(reply),
    /** A user's replies waiting for approval. */
    heldReplies: (userId: string) => heldFor.all(userId).map(reply),

    /** Gives every published target without one a schedule entry, due at `now`. */
    watchNewTargets: (now: number) => addPolls.run(now).changes,
    /** Published targets whose comments are due. */
    dueTargets: (now: number, limit: number) => due.all(now, limit).map(watched),
    /** A user's published targets (published since `since`), for an on-demand refresh. */
    targetsOf: (userId: string, since: number) => ofUser.all(userId, since).map(watched),
    reschedule: (targetId: string, nextAt: number, lastAt: number, failures: number) => reschedule.run(nextAt, lastAt, failures, targetId),
    /** Connections publishing now, or with a post due by `until`: the collector leaves their rate budget to the publisher. */
    busyConnections: (until: number) => new Set(busy.all(until).map((r) => r.connection_id)),
    /** The earliest time a watched target is due (null: none watched). */
    nextDueAt: () => {
      const at = nextDue.get()?.at;
      return at === null || at === undefined ? null : Number(at);
    },
  };
}

interface WatchedRow {
  target_id: string;
  job_id: string;
  user_id: string;
  platform: Platform;
  connection_id: string | null;
  account_key: string | null;
  post_id: string;
  published_at: number | null;
  failures: number;
}

const watched = (r: WatchedRow): WatchedTarget => ({
  targetId: r.target_id,
  jobId: r.job_id,
  userId: r.user_id,
  platform: r.platform,
  connectionId: r.connection_id,
  accountKey: r.account_key,
  postId: r.post_id,
  publishedAt: Number(r.published_at ?? 0),
  failures: Number(r.failures),
});
