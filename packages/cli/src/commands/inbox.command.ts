import { examples, parseCount, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub inbox [list]|refresh|read|hide|reply|approve|reject|delete-reply`: comments under your published posts, and replies to them. */
export function defineInbox(program: Program, kit: Kit): void {
  const inbox = examples(program.command('inbox').description('comments under your published posts, and your replies to them'), [
    'socialpub inbox',
    'socialpub inbox --status unread -p mastodon',
    'socialpub inbox reply inb_abc123 "Thanks, glad it helped!"',
  ]);
  const list = (c: typeof inbox) =>
    c
      .option('-p, --platform <platform>', 'only comments on this network')
      .option('--status <status>', 'unread, read, replied or hidden')
      .option('--job <job_id>', "only this post's comments")
      .option('--limit <n>', 'items per page (default 50, at most 200)', parseCount)
      .option('--cursor <cursor>', "the previous page's next cursor");
  list(inbox).action(async (o) => (await import('./inbox/inbox')).inboxList(kit.ctx(), o));
  examples(
    // commander gives `inbox`'s own options (the same flags) the flags written after `list`: both are read.
    list(inbox.command('list').description('comments, newest first (the default)')).action(async (o) => (await import('./inbox/inbox')).inboxList(kit.ctx(), { ...inbox.opts(), ...o })),
    ['socialpub inbox list --status unread', 'socialpub inbox list --job job_8d1k2m --json'],
  );
  examples(
    inbox
      .command('refresh')
      .description('read every published post of the last 30 days now (besides the schedule)')
      .action(async () => (await import('./inbox/inbox')).inboxRefresh(kit.ctx())),
    ['socialpub inbox refresh'],
  );
  examples(
    inbox
      .command('read')
      .description('mark a comment read')
      .argument('<id>', 'the inbox item (inb_…)')
      .action(async (id: string) => (await import('./inbox/inbox')).inboxMark(kit.ctx(), id, 'read')),
    ['socialpub inbox read inb_abc123'],
  );
  examples(
    inbox
      .command('hide')
      .description('hide a comment: on the network where it can be hidden there, and in the inbox')
      .argument('<id>', 'the inbox item (inb_…)')
      .action(async (id: string) => (await import('./inbox/inbox')).inboxMark(kit.ctx(), id, 'hide')),
    ['socialpub inbox hide inb_abc123'],
  );
  examples(
    inbox
      .command('reply')
      .description('reply to a comment as the account that published the post, exactly once')
      .argument('<id>', 'the inbox item (inb_…)')
      .argument('<text>', 'the reply')
      .option('--idempotency-key <key>', 'send again with the same key: never a second reply (default: one made of the comment and the text)')
      .action(async (id: string, text: string, o) => (await import('./inbox/inbox')).inboxReply(kit.ctx(), id, text, o)),
    ['socialpub inbox reply inb_abc123 "Thanks!"', 'socialpub inbox reply inb_abc123 "Thanks!" --idempotency-key thanks-1'],
  );
  examples(
    inbox
      .command('approve')
      .description('approve a reply held for approval: it is sent once')
      .argument('<reply_id>', 'the reply (rpl_…)')
      .action(async (id: string) => (await import('./inbox/inbox')).inboxDecide(kit.ctx(), id, 'approve')),
    ['socialpub inbox approve rpl_abc123'],
  );
  examples(
    inbox
      .command('reject')
      .description('decline a reply held for approval: nothing is sent')
      .argument('<reply_id>', 'the reply (rpl_…)')
      .action(async (id: string) => (await import('./inbox/inbox')).inboxDecide(kit.ctx(), id, 'reject')),
    ['socialpub inbox reject rpl_abc123'],
  );
  examples(
    inbox
      .command('delete-reply')
      .description('delete a sent reply of yours from the network (it stays listed, marked deleted)')
      .argument('<reply_id>', 'the reply (rpl_…)')
      .action(async (id: string) => (await import('./inbox/inbox')).inboxDecide(kit.ctx(), id, 'delete')),
    ['socialpub inbox delete-reply rpl_abc123'],
  );
}
