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

    const id = items.items[0]!.id;
    for (let i = 0; i < 2; i++) {
      const r = await t.run(['inbox', 'reply', id, 'Yes: socialpub inbox', '--idempotency-key', 'cli-reply-1']);
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
  });

  it('refuses an unknown status filter with a usage error', async () => {
    const r = await t.run('inbox --status everything');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--status must be one of unread, read, replied, hidden');
  });
});
