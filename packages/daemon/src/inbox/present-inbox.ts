import { formatInstant, type InboxItem } from '@socialpub/core';
import type { InboxItemRecord, InboxReplyRecord } from '../store/inbox';

type InboxReply = InboxItem['replies'][number];

export const presentReply = (r: InboxReplyRecord): InboxReply => ({
  id: r.id,
  text: r.text,
  state: r.state,
  source: r.source,
  post_id: r.remoteId,
  post_url: r.remoteUrl,
  error: r.error,
  created_at: formatInstant(r.createdAt),
  sent_at: r.sentAt === null ? null : formatInstant(r.sentAt),
  deleted_at: r.deletedAt === null ? null : formatInstant(r.deletedAt),
});

/** An inbox item as the API shows it (docs/api.md "Inbox"). */
export const presentItem = (it: InboxItemRecord, replies: readonly InboxReplyRecord[]): InboxItem => ({
  id: it.id,
  platform: it.platform,
  job_id: it.jobId,
  target_id: it.targetId,
  post_id: it.postId,
  comment_id: it.commentId,
  in_reply_to: it.inReplyTo,
  thread: it.thread,
  author: { name: it.authorName, handle: it.authorHandle, url: it.authorUrl },
  text: it.text,
  url: it.url,
  created_at: formatInstant(it.createdAt),
  received_at: formatInstant(it.receivedAt),
  status: it.status,
  replies: replies.map(presentReply),
});

/**
 * The list's cursor: the last item's position in the list's order (created_at, id), opaque to
 * callers. `w` marks that order; a cursor without it was given while the list ran in received
 * order (before migration 320) and names only its item, whose written time the list looks up,
 * so a page asked for across the upgrade still goes on from that item.
 */
export const encodeCursor = (it: Pick<InboxItemRecord, 'createdAt' | 'id'>) => Buffer.from(`w${it.createdAt}:${it.id}`).toString('base64url');

export function decodeCursor(cursor: string): { createdAt: number | null; id: string } | null {
  const m = /^(w?)(\d{1,16}):(inb_[0-9a-z]+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) return null;
  return { createdAt: m[1] === 'w' ? Number(m[2]) : null, id: m[3]! };
}
