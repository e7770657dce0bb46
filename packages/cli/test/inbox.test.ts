import type { InboxItem } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon({ connect: ['mastodon'] });

/** Another Mastodon account: an app on the simulator and the token its OAuth grants (what a reader's own client would hold). */
async function readerToken(origin: string): Promise<string> {
  const redirect = 'urn:ietf:wg:oauth:2.0:oob';
  const post = (path: string, body: unknown) => fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
  const app = await post('/api/v1/apps', { client_name: 'a reader', redirect_uris: redirect, scopes: 'read write' });
  const auth = await fetch(`${origin}/oauth/authorize?${new URLSearchParams({ client_id: app.client_id!, redirect_uri: redirect, response_type: 'code', scope: 'read write' })}`, { redirect: 'manual' });
  const code = new URL(auth.headers.get('location')!).searchParams.get('code')!;
  return (await post('/oauth/token', { grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: redirect })).access_token!;
}

describe('socialpub inbox', () => {
  it('lists a reader\'s reply to a published status, replies once for one idempotency key, and marks it read', { timeout: 30_000 }, async () => {
    const published = await t.run('publish "Ask me anything" -p mastodon --now --wait');
    expect(published.code, published.stderr).toBe(0);
    const statusId = published.stdout.trim().split('/').pop()!;
    const origin = (await t.run('sandbox endpoints --json')).json<{ endpoints: Record<string, string> }>().endpoints['mastodon.social']!;
    const token = await readerToken(origin);
    const made = await fetch(`${origin}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'Is there a CLI?', in_reply_to_id: statusId }) });
    const comment = (await made.json()) as { id: string };

    const refresh = await t.run('inbox refresh');
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(refresh.stdout).toContain('Read 1 post: 1 new comment');
    const listed = await t.run('inbox --json');
    const items = listed.json<{ items: InboxItem[]; unread: number }>();
    expect(items.unread).toBe(1);
    expect(items.items.map((i) => [i.platform, i.comment_id, i.text, i.status])).toEqual([['mastodon', comment.id, 'Is there a CLI?', 'unread']]);
    const table = await t.run('inbox --status unread');
    expect(table.stdout).toMatch(/inb_\w+ \[unread\] mastodon @sandbox on job_\w+/);
    expect(table.stdout).toContain('Is there a CLI?');

    // `inbox list` reads its flags as `inbox` does (commander once gave them to `inbox` and `list` ran unfiltered).
    const listUnread = await t.run('inbox list --status unread -p mastodon');
    expect(listUnread.code, listUnread.stderr).toBe(0);
    expect(listUnread.stdout).toContain('Is there a CLI?');
    const listRead = await t.run('inbox list --status read');
    expect(listRead.code, listRead.stderr).toBe(0);
    expect(listRead.stdout).not.toContain('Is there a CLI?');
    // The count is the whole inbox's, and says so under a filter.
    expect(listRead.stdout).toContain('1 unread in the whole inbox');
    expect((await t.run('inbox list --limit 1 --json')).json<{ items: InboxItem[] }>().items).toHaveLength(1);
    expect((await t.run(['inbox', 'list', '--job', 'job_none'])).stdout).not.toContain('Is there a CLI?');
    expect((await t.run('inbox')).stdout).toMatch(/\n1 unread\n/);

    const id = items.items[0]!.id;
    // No --idempotency-key: the key made of the comment and the text, so running the command again is one reply.
    for (let i = 0; i < 2; i++) {
      const r = await t.run(['inbox', 'reply', id, 'Yes: socialpub inbox']);
      expect(r.code, r.stderr).toBe(0);
    }
    await expect.poll(async () => (await t.run('inbox --json')).json<{ items: InboxItem[] }>().items[0]!.replies.map((r) => r.state), { timeout: 10_000, interval: 100 }).toEqual(['sent']);
    const context = (await (await fetch(`${origin}/api/v1/statuses/${comment.id}/context`, { headers: { authorization: `Bearer ${token}` } })).json()) as { descendants: { content: string; in_reply_to_id: string }[] };
    expect(context.descendants.map((s) => [s.in_reply_to_id, s.content])).toEqual([[comment.id, '<p>Yes: socialpub inbox</p>']]);

    const read = await t.run(['inbox', 'read', id]);
    expect(read.code, read.stderr).toBe(0);
    // Replied stays replied: reading never undoes it.
    expect(read.stdout).toContain(`${id} is already replied`);

    // Our reply deleted from the network: gone for the reader, listed with deleted_at.
    const replyId = (await t.run('inbox --json')).json<{ items: InboxItem[] }>().items[0]!.replies[0]!.id;
    const deleted = await t.run(['inbox', 'delete-reply', replyId]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted reply ${replyId} from Mastodon`);
    const after = (await (await fetch(`${origin}/api/v1/statuses/${comment.id}/context`, { headers: { authorization: `Bearer ${token}` } })).json()) as { descendants: unknown[] };
    expect(after.descendants).toEqual([]);
    expect((await t.run('inbox --json')).json<{ items: InboxItem[] }>().items[0]!.replies[0]!.deleted_at).not.toBeNull();
    // The human list says it is deleted, with the reply's id.
    const human = await t.run('inbox');
    expect(human.stdout).toMatch(new RegExp(`↳ deleted: Yes: socialpub inbox .*\\(${replyId}\\)`));
    expect(human.stdout).not.toContain('↳ sent:');

    // A key of the user's overrides the derived one: the same text again is a new reply.
    const again = await t.run(['inbox', 'reply', id, 'Yes: socialpub inbox', '--idempotency-key', 'cli-reply-again']);
    expect(again.code, again.stderr).toBe(0);
    await expect.poll(async () => (await t.run('inbox --json')).json<{ items: InboxItem[] }>().items[0]!.replies.map((r) => [r.state, r.deleted_at === null]), { timeout: 10_000, interval: 100 }).toEqual([['sent', false], ['sent', true]]);
  });

  it('refuses an unknown status filter with a usage error, after `list` too', async () => {
    for (const command of ['inbox --status everything', 'inbox list --status bogus']) {
      const r = await t.run(command);
      expect(r.code, command).toBe(2);
      expect(r.stderr).toContain('--status must be one of unread, read, replied, hidden');
    }
  });

  it('says a network without a comment API has none, rather than suggest a refresh', async () => {
    const r = await t.run('inbox -p tiktok');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('no comments: TikTok offers no comment API to apps like socialpub');
    expect(r.stdout).not.toContain('inbox refresh');
  });
});
