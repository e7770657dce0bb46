import { AtpAgent } from '@atproto/api';
import type { InboxItem, InboxReplyResponse } from '@socialpub/core';
import { createRestAPIClient } from 'masto';
import { TwitterApi } from 'twitter-api-v2';
import { describe, expect, it } from 'vitest';
import { createInboxService } from '../../src/inbox/inbox-service';
import { SANDBOX_APP_PASSWORD } from '../../src/platforms/bluesky/sim/simulator';
import type { CommentsClient } from '../../src/platforms/conversations';
import { MASTODON_HOST } from '../../src/platforms/mastodon/sim/simulator';
import { X_HOST } from '../../src/platforms/twitter/sim/simulator';
import { createCommentClients } from '../../src/platforms/registry';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { startSandboxOrigins } from '../../src/platforms/sandbox-origins';
import { silentLogger } from '../../src/util/logger';
import { serveContractOrigins } from '../contracts/harness';
import { useCleanups } from '../support/cleanups';
import { startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';
import { deleteOurReplies, eventsOf, outsideMastodonToken, publishNow } from './inbox-fixtures';

// The inbox end to end (issue 37): outside accounts answer our sandbox posts through the
// networks' own clients (masto with a token the Mastodon simulator's OAuth grants; @atproto/api
// signed in as another handle with the sandbox app password), socialpub lists both with their
// post and comment.received, and a reply sent twice with one Idempotency-Key is on the network
// once, as a reply to that comment, read back with the same clients.
const defer = useCleanups();

/**
 * The simulators at loopback origins of their own, as the daemon serves them (`socialpub
 * sandbox endpoints`): masto and @atproto/api drop a path prefix from their base URL.
 */
async function origins(w: SandboxDaemon): Promise<{ mastodon: string; bluesky: string }> {
  const o = await startSandboxOrigins(w.sandbox, [MASTODON_HOST, 'bsky.social']);
  defer(() => o.close());
  return { mastodon: o.endpoints[MASTODON_HOST]!, bluesky: o.endpoints['bsky.social']! };
}

describe('the inbox over the Mastodon and Bluesky simulators', () => {
  it('lists outside replies with their post, emits comment.received, and sends a reply once for one Idempotency-Key, read back through masto and @atproto/api', { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon', 'bluesky'] });
    const { mastodon: origin, bluesky: pds } = await origins(w);
    const { jobId, posts } = await publishNow(w, 'What should we build next?', ['mastodon', 'bluesky']);
    const post = { jobId, mastodon: posts.mastodon!, bluesky: posts.bluesky! };

    // A reader answers on Mastodon, through masto with a token the simulator's OAuth granted (another account).
    const reader = createRestAPIClient({ url: origin, accessToken: await outsideMastodonToken(origin) });
    const answer = await reader.v1.statuses.create({ status: 'An <b>inbox</b> & replies, please', inReplyToId: post.mastodon });
    // And on Bluesky, signed in as another handle with the sandbox app password.
    const fan = new AtpAgent({ service: pds });
    await fan.login({ identifier: 'fan.bsky.social', password: SANDBOX_APP_PASSWORD });
    const [, repo, , rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(post.bluesky)!;
    const ours = await fan.getPost({ repo: repo!, rkey: rkey! });
    const skeet = await fan.post({ text: 'Scheduling threads!', reply: { root: { uri: ours.uri, cid: ours.cid }, parent: { uri: ours.uri, cid: ours.cid } } });

    const refresh = await w.call('POST', '/inbox/refresh');
    expect(refresh.status, JSON.stringify(refresh.body)).toBe(200);
    expect(refresh.body).toMatchObject({ new_items: 2, posts_checked: 2, skipped: [] });

    const list = await w.call('GET', '/inbox');
    const items = list.body.items as InboxItem[];
    expect(list.body.unread).toBe(2);
    const byPlatform = Object.fromEntries(items.map((i) => [i.platform, i]));
    expect(byPlatform.mastodon).toMatchObject({ job_id: post.jobId, post_id: post.mastodon, comment_id: answer.id, in_reply_to: post.mastodon, thread: [post.mastodon], status: 'unread', text: 'An <b>inbox</b> & replies, please', author: { handle: 'sandbox' }, replies: [] });
    expect(byPlatform.bluesky).toMatchObject({ job_id: post.jobId, post_id: post.bluesky, comment_id: skeet.uri, in_reply_to: post.bluesky, thread: [post.bluesky], text: 'Scheduling threads!', author: { handle: 'fan.bsky.social' } });
    expect(eventsOf(w, 'comment.received').map((e) => [e.platform, e.comment_id, e.job_id])).toEqual(
      expect.arrayContaining([
        ['mastodon', answer.id, post.jobId],
        ['bluesky', skeet.uri, post.jobId],
      ]),
    );
    expect(eventsOf(w, 'comment.received')).toHaveLength(2);

    // The same reply twice with one key: one reply row, the first answer replayed.
    for (const it of items) {
      const key = { 'idempotency-key': `reply-${it.platform}` };
      const first = await w.call('POST', `/inbox/${it.id}/reply`, { text: `Thanks, noted (${it.platform})` }, key);
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      const again = await w.call('POST', `/inbox/${it.id}/reply`, { text: `Thanks, noted (${it.platform})` }, key);
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((again.body as unknown as InboxReplyResponse).reply.id).toBe((first.body as unknown as InboxReplyResponse).reply.id);
    }
    await w.inbox.runOnce();
    expect(w.db.prepare("SELECT state, count(*) AS n FROM inbox_replies GROUP BY state").all()).toEqual([{ state: 'sent', n: 2 }]);

    // Read back with the networks' own clients: exactly one reply of ours under each comment.
    const mine = (await reader.v1.statuses.$select(answer.id).context.fetch()).descendants;
    expect(mine.map((s) => [s.inReplyToId, s.content])).toEqual([[answer.id, '<p>Thanks, noted (mastodon)</p>']]);
    const thread = (await fan.getPostThread({ uri: skeet.uri })).data.thread as { replies?: { post: { record: { text: string; reply: { parent: { uri: string } } } } }[] };
    expect(thread.replies?.map((r) => [r.post.record.reply.parent.uri, r.post.record.text])).toEqual([[skeet.uri, 'Thanks, noted (bluesky)']]);

    expect(eventsOf(w, 'comment.replied').map((e) => e.platform).sort()).toEqual(['bluesky', 'mastodon']);
    const after = (await w.call('GET', '/inbox')).body.items as InboxItem[];
    expect(after.map((i) => [i.platform, i.status, i.replies.map((r) => r.state)]).sort()).toEqual([
      ['bluesky', 'replied', ['sent']],
      ['mastodon', 'replied', ['sent']],
    ]);
    // Our own replies are never inbox items.
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 0 });

    // And they can be deleted from the network (a status deleted; a post record deleted): gone for the readers too.
    for (const it of items) expect(await deleteOurReplies(w, it.id)).toHaveLength(1);
    expect((await reader.v1.statuses.$select(answer.id).context.fetch()).descendants).toEqual([]);
    expect(((await fan.getPostThread({ uri: skeet.uri })).data.thread as { replies?: unknown[] }).replies).toEqual([]);
  });

  it("hides a Bluesky reply in the post's threadgate (hiddenReplies), keeping what the gate had, as @atproto/api reads it back", { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['bluesky'] });
    const { bluesky: pds } = await origins(w);
    const { posts } = await publishNow(w, 'Gate me', ['bluesky']);
    const [, repo, , rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(posts.bluesky!)!;
    const trolls = await Promise.all(['troll1.bsky.social', 'troll2.bsky.social'].map(async (identifier) => {
      const agent = new AtpAgent({ service: pds });
      await agent.login({ identifier, password: SANDBOX_APP_PASSWORD });
      const ours = await agent.getPost({ repo: repo!, rkey: rkey! });
      return (await agent.post({ text: `spam from ${identifier}`, reply: { root: ours, parent: ours } })).uri;
    }));
    await w.call('POST', '/inbox/refresh');
    const items = (await w.call('GET', '/inbox')).body.items as InboxItem[];
    for (const uri of trolls) {
      const it = items.find((i) => i.comment_id === uri)!;
      const hid = await w.call('POST', `/inbox/${it.id}/hide`);
      expect(hid.body).toMatchObject({ message: `Hid ${it.id} on Bluesky and in the inbox`, item: { status: 'hidden' } });
    }
    const reader = new AtpAgent({ service: pds });
    await reader.login({ identifier: 'troll1.bsky.social', password: SANDBOX_APP_PASSWORD });
    const gate = await reader.app.bsky.feed.threadgate.get({ repo: repo!, rkey: rkey! });
    expect(gate.value).toMatchObject({ post: posts.bluesky, hiddenReplies: trolls });
    expect(gate.value.allow).toBeUndefined();
    // The AppView shows the gate on the post.
    const thread = (await reader.getPostThread({ uri: posts.bluesky! })).data.thread as { post: { threadgate?: { record: { hiddenReplies: string[] } } } };
    expect(thread.post.threadgate?.record.hiddenReplies).toEqual(trolls);
  });

  it('reads a reply whose answer was lost back after a restart, and never sends it twice', { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon', 'bluesky'] });
    const { mastodon: origin, bluesky: pds } = await origins(w);
    const { posts } = await publishNow(w, 'Crash me', ['mastodon', 'bluesky']);
    const post = { mastodon: posts.mastodon!, bluesky: posts.bluesky! };
    const reader = createRestAPIClient({ url: origin, accessToken: await outsideMastodonToken(origin) });
    await reader.v1.statuses.create({ status: 'first!', inReplyToId: post.mastodon });
    const fan = new AtpAgent({ service: pds });
    await fan.login({ identifier: 'fan2.bsky.social', password: SANDBOX_APP_PASSWORD });
    const [, repo, , rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(post.bluesky)!;
    const ours = await fan.getPost({ repo: repo!, rkey: rkey! });
    await fan.post({ text: 'first on bsky', reply: { root: ours, parent: ours } });
    await w.call('POST', '/inbox/refresh');
    const items = (await w.call('GET', '/inbox')).body.items as InboxItem[];
    expect(items).toHaveLength(2);

    // A process that dies after the network made the reply and before it wrote `sent` down.
    const real = createCommentClients();
    const dying = new Map(
      [...real].map(([p, c]) => [
        p,
        'unsupported' in c
          ? c
          : ({
              list: c.list,
              deleteReply: c.deleteReply,
              reply: async (ctx, to, text) => {
                await c.reply(ctx, to, text);
                throw new Error('SIGKILL');
              },
            } satisfies CommentsClient),
      ]),
    );
    const calls = { credentials: w.store.credentials, clock: w.clock, logger: silentLogger, sandboxBaseUrl: (_p: string, host: string) => sandboxBaseUrl(w.url, host) };
    const first = createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: dying, calls });
    for (const it of items) {
      const res = await w.call('POST', `/inbox/${it.id}/reply`, { text: `once only (${it.platform})` });
      const id = (res.body as unknown as InboxReplyResponse).reply.id;
      expect((await first.send(id))?.state).toBe('sending');
    }
    // The restarted daemon's sender finds both left `sending` and reads them back.
    const restarted = createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: real, calls });
    await restarted.runOnce();
    expect(w.db.prepare('SELECT state FROM inbox_replies').pluck().all()).toEqual(['sent', 'sent']);
    const madeOnMastodon = (await reader.v1.statuses.$select(items.find((i) => i.platform === 'mastodon')!.comment_id).context.fetch()).descendants;
    expect(madeOnMastodon.map((s) => s.content)).toEqual(['<p>once only (mastodon)</p>']);
    const bsky = items.find((i) => i.platform === 'bluesky')!;
    const thread = (await fan.getPostThread({ uri: bsky.comment_id })).data.thread as { replies?: { post: { record: { text: string } } }[] };
    expect(thread.replies?.map((r) => r.post.record.text)).toEqual(['once only (bluesky)']);
    expect(eventsOf(w, 'comment.replied')).toHaveLength(2);
  });

  it('reads an X conversation (recent search), and replies under the comment once, as twitter-api-v2 reads back', { timeout: 30_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    // twitter-api-v2 speaks https only: the simulator at an https origin, as the contract tests serve it.
    const o = await serveContractOrigins([{ hosts: [X_HOST], app: w.sandbox }]);
    defer(() => o.close());
    const toSimulator = {
      onBeforeRequestConfig({ params }: { params: { url: string } }) {
        const url = new URL(params.url.startsWith('http') ? params.url : `https://${params.url}`);
        if (url.hostname === X_HOST) params.url = `${o.https[X_HOST]}${url.pathname}${url.search}`;
      },
    };
    const { jobId, posts } = await publishNow(w, 'Shipping the inbox today', ['twitter']);
    // Another account: the simulator's test tokens act as its own @sandbox_x, not a connection's.
    const reader = new TwitterApi('sandbox-x-reader', { plugins: [toSimulator], httpAgent: o.agent }).v2;
    const answer = await reader.reply('Congrats! Does it read X too?', posts.twitter!);

    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 1, skipped: [] });
    const items = (await w.call('GET', '/inbox')).body.items as InboxItem[];
    expect(items.map((i) => [i.platform, i.job_id, i.comment_id, i.in_reply_to, i.text, i.author.handle])).toEqual([['twitter', jobId, answer.data.id, posts.twitter, 'Congrats! Does it read X too?', 'sandbox_x']]);

    for (let i = 0; i < 2; i++) expect((await w.call('POST', `/inbox/${items[0]!.id}/reply`, { text: 'It does, since today.' }, { 'idempotency-key': 'x-reply' })).status).toBe(202);
    await w.inbox.runOnce();
    const convo = await reader.search(`conversation_id:${posts.twitter}`, { 'tweet.fields': ['referenced_tweets', 'author_id'], expansions: ['author_id'], 'user.fields': ['username'], max_results: 10 });
    const ours = convo.tweets.filter((t) => t.text === 'It does, since today.');
    expect(ours.map((t) => t.referenced_tweets?.find((r) => r.type === 'replied_to')?.id)).toEqual([answer.data.id]);
    // The comment and our reply link as the published post does: x.com/<handle>/status/<id>.
    const published = w.db.prepare("SELECT post_url FROM targets WHERE job_id = ? AND platform = 'twitter'").pluck().get(jobId) as string;
    // Our handle as X shows it to anyone: the username of our reply's author.
    const ourHandle = convo.includes.users.find((u) => u.id === ours[0]!.author_id)?.username;
    expect(published).toBe(`https://x.com/${ourHandle}/status/${posts.twitter}`);
    const listed = ((await w.call('GET', '/inbox')).body.items as InboxItem[])[0]!;
    expect(listed.url).toBe(`https://x.com/sandbox_x/status/${answer.data.id}`);
    expect(listed.replies.map((r) => r.post_url)).toEqual([`https://x.com/${ourHandle}/status/${ours[0]!.id}`]);
    expect(eventsOf(w, 'comment.replied').map((e) => e.platform)).toEqual(['twitter']);

    // Hidden on X too (the author of a conversation may hide replies in it), as the simulator keeps it.
    const hid = await w.call('POST', `/inbox/${items[0]!.id}/hide`);
    expect(hid.body).toMatchObject({ message: `Hid ${items[0]!.id} on X and in the inbox`, item: { status: 'hidden' } });
    const kept = JSON.parse(w.db.prepare("SELECT value FROM sandbox_state WHERE simulator = 'x' AND kind = 'posts' AND key = ?").pluck().get(answer.data.id) as string) as { hidden?: boolean };
    expect(kept.hidden).toBe(true);
    // Our reply deleted from X (DELETE /2/tweets/:id): the conversation no longer has it.
    expect(await deleteOurReplies(w, items[0]!.id)).toHaveLength(1);
    const after = await reader.search(`conversation_id:${posts.twitter}`, { 'tweet.fields': ['referenced_tweets', 'author_id'], max_results: 10 });
    expect(after.tweets.map((t) => t.text)).toEqual(['Congrats! Does it read X too?']);
    // The reader cannot hide replies in a conversation it did not start.
    await expect(reader.hideReply(posts.twitter!, true)).rejects.toMatchObject({ code: 403 });
  });
});

