import type { NewInboxItem } from '../../src/store/inbox';

/** Comment `n` of user `u1` under Mastodon post 100 of job_1 (its connection con_1), written at 1,000 + n unless `over` says otherwise. */
export const inboxComment = (n: number, over: Partial<NewInboxItem> = {}): NewInboxItem => ({
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
