import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { InboxItem, InboxList, InboxReplyResponse } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../support/cleanups';
import { startSandboxDaemon } from '../support/sandbox-daemon';
import { eventsOf, mastodonReaderReplies, mastodonRepliesUnder, publishNow } from './inbox-fixtures';

// Replies written by agents wait for a person (docs/api.md "Inbox", Approval): through MCP
// while agent-approval is on (the default for a new user), and always with an agent-scoped
// key; approved, they go out once.
const defer = useCleanups();

describe('replies held for approval', () => {
  it("holds an MCP agent's reply_to_comment while agent-approval is on, and sends it once after a person approves", { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const { posts } = await publishNow(w, 'Thoughts welcome', ['mastodon']);
    const reader = await mastodonReaderReplies(w, posts.mastodon!, 'Can agents answer this?');

    const client = new Client({ name: 'inbox-agent', version: '1.0.0' });
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${w.url}/mcp`), { requestInit: { headers: { 'X-API-Key': w.key } } }));
    defer(() => client.close());
    // The agent hears of new comments: comment.received updates the unread count's resource.
    await client.subscribeResource({ uri: 'socialpub://inbox/unread' });
    await w.call('POST', '/inbox/refresh');
    await expect.poll(() => updated, { timeout: 5_000, interval: 20 }).toContain('socialpub://inbox/unread');
    const listed = (await client.callTool({ name: 'list_inbox', arguments: { status: 'unread' } })) as CallToolResult;
    expect(listed.isError ?? false).toBe(false);
    const items = (listed.structuredContent as InboxList).items;
    expect(items.map((i) => [i.platform, i.comment_id, i.text])).toEqual([['mastodon', reader.id, 'Can agents answer this?']]);
    expect((listed.content[0] as { text: string }).text).toContain('"Can agents answer this?"');
    const unread = await client.readResource({ uri: 'socialpub://inbox/unread' });
    expect(JSON.parse((unread.contents[0] as { text: string }).text)).toEqual({ unread: 1 });

    const replied = (await client.callTool({ name: 'reply_to_comment', arguments: { id: items[0]!.id, text: 'Yes, with approval.' } })) as CallToolResult;
    expect(replied.isError ?? false).toBe(false);
    const reply = (replied.structuredContent as InboxReplyResponse).reply;
    expect(reply).toMatchObject({ state: 'pending_approval', source: 'mcp' });
    // Held: a round of the sender sends nothing.
    await w.inbox.runOnce();
    expect(await mastodonRepliesUnder(reader.origin, reader.token, reader.id)).toEqual([]);

    const approved = await w.call('POST', `/inbox/replies/${reply.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(202);
    expect((approved.body as unknown as InboxReplyResponse).reply.state).toBe('queued');
    await w.inbox.runOnce();
    await w.inbox.runOnce();
    expect(await mastodonRepliesUnder(reader.origin, reader.token, reader.id)).toEqual([[reader.id, '<p>Yes, with approval.</p>']]);
    expect(eventsOf(w, 'comment.replied').map((e) => e.reply_id)).toEqual([reply.id]);
    // Approving again is refused: it is no longer waiting.
    expect((await w.call('POST', `/inbox/replies/${reply.id}/approve`)).status).toBe(409);
  });

  it("holds an agent-scoped key's reply, which that key cannot approve; rejected, nothing is sent", { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const { posts } = await publishNow(w, 'Agents here', ['mastodon']);
    const reader = await mastodonReaderReplies(w, posts.mastodon!, 'Hello agent');
    await w.call('POST', '/inbox/refresh');
    const item = ((await w.call('GET', '/inbox')).body.items as InboxItem[])[0]!;
    const agentKey = w.admin.createKey({ email: 'me@example.com', scope: 'agent' }).api_key;
    const asAgent = (method: string, path: string, body?: unknown) =>
      fetch(`${w.url}/api/agents/v1${path}`, { method, headers: { 'x-api-key': agentKey, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

    const r = await asAgent('POST', `/inbox/${item.id}/reply`, { text: 'Drafted by an agent' });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const reply = (r.body as unknown as InboxReplyResponse).reply;
    expect(reply.state).toBe('pending_approval');
    expect((await asAgent('POST', `/inbox/replies/${reply.id}/approve`)).body).toMatchObject({ error: { code: 'insufficient_scope' } });
    expect((await asAgent('POST', `/inbox/${item.id}/hide`)).status).toBe(403);

    const rejected = await w.call('POST', `/inbox/replies/${reply.id}/reject`);
    expect((rejected.body as unknown as InboxReplyResponse).reply.state).toBe('rejected');
    await w.inbox.runOnce();
    expect(await mastodonRepliesUnder(reader.origin, reader.token, reader.id)).toEqual([]);
    expect(eventsOf(w, 'comment.replied')).toEqual([]);
  });
});

describe('reply text', () => {
  it("refuses a reply over the network's own limit with a 400 naming text, before anything is queued", { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const { posts } = await publishNow(w, 'Long answers?', ['mastodon']);
    await mastodonReaderReplies(w, posts.mastodon!, 'Tell me everything');
    await w.call('POST', '/inbox/refresh');
    const item = ((await w.call('GET', '/inbox')).body.items as InboxItem[])[0]!;
    const r = await w.call('POST', `/inbox/${item.id}/reply`, { text: 'x'.repeat(501) });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_request', details: [{ path: 'text', message: 'Mastodon takes replies of at most 500 characters; this one counts 501' }] } });
    expect(w.db.prepare('SELECT count(*) FROM inbox_replies').pluck().get()).toBe(0);
    expect((await w.call('POST', `/inbox/${item.id}/reply`, { text: '   ' })).body).toMatchObject({ error: { code: 'invalid_request', details: [{ path: 'text', message: 'text must not be empty' }] } });
  });
});

