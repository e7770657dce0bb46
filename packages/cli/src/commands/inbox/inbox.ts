import type { InboxItem, InboxStatus, Platform } from '@socialpub/core';
import { INBOX_STATUSES, replyIdempotencyKey } from '@socialpub/core';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { parsePlatform } from '../../platform-name';

export interface InboxListOptions {
  platform?: string | undefined;
  status?: string | undefined;
  job?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** One line of a comment: the author's text shown as text (control characters dropped, one line). */
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

function itemLines(ctx: Ctx, it: InboxItem): string[] {
  return [
    `${ctx.log.bold(it.id)} [${it.status}] ${it.platform} @${it.author.handle} on ${it.job_id} (${it.created_at})`,
    `  ${oneLine(it.text)}`,
    // The reply's id, for delete-reply / approve / reject; a deleted reply says so whatever it was.
    ...it.replies.map((r) => `  ↳ ${r.deleted_at ? 'deleted' : r.state}: ${oneLine(r.text)}${r.post_url ? ` ${r.post_url}` : ''} (${r.id})`),
  ];
}

/** `socialpub inbox [list]`: comments under your published posts, newest first by when written (the time shown). */
export async function inboxList(ctx: Ctx, o: InboxListOptions): Promise<void> {
  if (o.status !== undefined && !(INBOX_STATUSES as readonly string[]).includes(o.status)) throw new UsageError(`--status must be one of ${INBOX_STATUSES.join(', ')}`);
  const platform: Platform | undefined = o.platform ? parsePlatform(o.platform, '--platform') : undefined;
  const client = await ctx.client();
  const page = await client.inbox.list({
    ...(platform ? { platform } : {}),
    ...(o.status ? { status: o.status as InboxStatus } : {}),
    ...(o.job ? { job_id: o.job } : {}),
    ...(o.limit ? { limit: o.limit } : {}),
    ...(o.cursor ? { cursor: o.cursor } : {}),
  });
  // Nothing on a network the inbox cannot read: say why, rather than suggest a refresh that reads nothing there.
  const unreadable = platform && page.items.length === 0 && !ctx.opts.json ? (await client.platforms.list()).platforms.find((p) => p.platform === platform)?.comments : undefined;
  const empty = unreadable && !unreadable.supported && unreadable.reason ? `no comments: ${unreadable.reason}` : 'no comments: `socialpub inbox refresh` reads your published posts now';
  // The API counts every unread item: under a filter, say the count is not the filter's.
  const filtered = platform !== undefined || o.status !== undefined || o.job !== undefined;
  ctx.log.result(page, () => [
    ...(page.items.length === 0 ? [empty] : page.items.flatMap((it) => itemLines(ctx, it))),
    '',
    `${page.unread} unread${filtered ? ' in the whole inbox' : ''}${page.next_cursor ? `; more: --cursor ${page.next_cursor}` : ''}`,
  ]);
}

/** `socialpub inbox refresh`: reads every published post's comments now. */
export async function inboxRefresh(ctx: Ctx): Promise<void> {
  const r = await (await ctx.client()).inbox.refresh();
  ctx.log.result(r, () => [r.message, ...r.skipped.map((s) => `  skipped ${s.platform}: ${s.reason}`)]);
}

/** `socialpub inbox read <id>` / `hide <id>`. */
export async function inboxMark(ctx: Ctx, id: string, how: 'read' | 'hide'): Promise<void> {
  const client = await ctx.client();
  const r = how === 'read' ? await client.inbox.markRead(id) : await client.inbox.hide(id);
  ctx.log.result(r, () => [`${ctx.log.green('✔')} ${r.message}`]);
}

/** `socialpub inbox reply <id> <text>`: sent once (held for approval where the workflow says so). */
export async function inboxReply(ctx: Ctx, id: string, text: string, o: { idempotencyKey?: string | undefined }): Promise<void> {
  if (text.trim() === '') throw new UsageError('the reply text is empty');
  // Without a key of the user's, one made of the comment and the text (as the dashboard's): the same command run again is one reply.
  const r = await (await ctx.client()).inbox.reply(id, text, { idempotencyKey: o.idempotencyKey ?? replyIdempotencyKey('cli', id, text) });
  ctx.log.result(r, () => [`${ctx.log.green('✔')} ${r.message}`, ...itemLines(ctx, r.item)]);
}

/** `socialpub inbox approve|reject|delete-reply <reply-id>`. */
export async function inboxDecide(ctx: Ctx, replyId: string, how: 'approve' | 'reject' | 'delete'): Promise<void> {
  const client = await ctx.client();
  const r = how === 'approve' ? await client.inbox.approveReply(replyId) : how === 'reject' ? await client.inbox.rejectReply(replyId) : await client.inbox.deleteReply(replyId);
  ctx.log.result(r, () => [`${ctx.log.green('✔')} ${r.message}`]);
}
