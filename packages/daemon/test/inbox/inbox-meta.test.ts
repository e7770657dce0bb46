import type { InboxItem, InboxReplyResponse, Platform } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { createInboxService } from '../../src/inbox/inbox-service';
import type { CommentsClient } from '../../src/platforms/conversations';
import { createCommentClients } from '../../src/platforms/registry';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { simReaderReply } from '../../src/platforms/shared/sim/sim-conversation';
import { silentLogger } from '../../src/util/logger';
import { useCleanups } from '../support/cleanups';
import { prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';
import { deleteOurReplies, eventsOf, publishNow } from './inbox-fixtures';

// The inbox on Instagram, Facebook and Threads (issue 37): the sandbox readers comment on a
// share of posts (decided by the post id), an outside Threads account replies through the
// Graph API, socialpub lists them with their post, sends each reply once for one
// Idempotency-Key (and once across a process that died after the network made it), read back
// with Graph calls as Meta documents them (facebook-nodejs-business-sdk cannot be pointed at
// another origin: meta-graph.test.ts), and hides on each network.
const defer = useCleanups();
const META: Platform[] = ['instagram', 'facebook', 'threads'];
const HOST: Record<string, string> = { instagram: 'graph.instagram.com', facebook: 'graph.facebook.com', threads: 'graph.threads.net' };

/** A Graph call to the Meta simulator as the daemon serves it, with `token` (Threads: as access_token, as Meta documents). */
async function graph<T = Record<string, unknown>>(w: SandboxDaemon, platform: string, method: string, path: string, params: Record<string, string>, token: string): Promise<T> {
  const url = new URL(`${sandboxBaseUrl(w.url, HOST[platform]!)}/${platform === 'threads' ? 'v1.0' : 'v25.0'}${path}`);
  for (const [k, v] of Object.entries({ ...params, access_token: token })) url.searchParams.set(k, v);
  const res = await fetch(url, { method });
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The sandbox connection's own token on `platform` (the page token on Facebook). */
function tokenOf(w: SandboxDaemon, platform: Platform): string {
  const row = w.db.prepare('SELECT user_id, id FROM connections WHERE platform = ?').get(platform) as { user_id: string; id: string };
  const c = w.store.credentials.credentialsFor(row.user_id, platform, row.id)!;
  return c.secrets.page_token ?? c.secrets.access_token!;
}

describe('the inbox over the Meta simulator', () => {
  it('lists reader comments and an outside Threads reply, replies once per key and once across a crash (read back with Graph calls), and hides on each network', { timeout: 60_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: META });
    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);

    // Publish until a reader answers a post on each network (one in two posts, by its id).
    const answered = new Map<string, { postId: string; plan: NonNullable<ReturnType<typeof simReaderReply>> }>();
    for (let i = 0; i < 16 && answered.size < META.length; i++) {
      const { posts } = await publishNow(w, `Post ${i}`, META.filter((p) => !answered.has(p)), [image]);
      for (const [platform, postId] of Object.entries(posts)) {
        const plan = simReaderReply(postId, 0);
        if (plan) answered.set(platform, { postId, plan });
      }
    }
    expect([...answered.keys()].sort()).toEqual([...META].sort());
    const post = (p: string) => answered.get(p)!.postId;

    // Someone else answers on Threads through the API: their own container with reply_to_id, published.
    const outsider = 'sandbox_at_outsider.secret';
    const container = await graph<{ id: string }>(w, 'threads', 'POST', '/me/threads', { media_type: 'TEXT', text: 'Which API did you use?', reply_to_id: post('threads') }, outsider);
    await w.clock.advance(5_000);
    const outside = await graph<{ id: string }>(w, 'threads', 'POST', '/me/threads_publish', { creation_id: container.id }, outsider);

    // Nothing from the readers before their time; then one each.
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 1, skipped: [] });
    await w.clock.advance(3 * 60_000);
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 3, skipped: [] });
    const items = (await w.call('GET', '/inbox?limit=50')).body.items as InboxItem[];
    const row = (i: InboxItem) => [i.platform, i.post_id, i.in_reply_to, i.text, i.author.handle];
    const reader = (p: string) => answered.get(p)!.plan;
    expect(items.map(row).sort()).toEqual(
      [
        ['instagram', post('instagram'), post('instagram'), reader('instagram').text, reader('instagram').reader.username],
        ['facebook', post('facebook'), post('facebook'), reader('facebook').text, reader('facebook').reader.name],
        ['threads', post('threads'), post('threads'), reader('threads').text, reader('threads').reader.username],
        ['threads', post('threads'), post('threads'), 'Which API did you use?', expect.stringMatching(/^sandbox_/)],
      ].sort(),
    );
    expect(items.find((i) => i.platform === 'threads' && i.text === 'Which API did you use?')!.comment_id).toBe(outside.id);
    expect(eventsOf(w, 'comment.received')).toHaveLength(4);

    // One reply each, sent twice with one Idempotency-Key: one reply row, one reply on the network.
    const toAnswer = items.filter((i) => i.platform !== 'threads' || i.comment_id === outside.id);
    for (const it of toAnswer) {
      for (let n = 0; n < 2; n++) {
        const res = await w.call('POST', `/inbox/${it.id}/reply`, { text: `Thanks! (${it.platform})` }, { 'idempotency-key': `meta-${it.platform}` });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
      }
    }
    // A Threads reply's container may still be processing: it stays sending and goes when ready.
    const states = () => Object.fromEntries((w.db.prepare('SELECT i.platform, r.state FROM inbox_replies r JOIN inbox_items i ON i.id = r.item_id').all() as { platform: string; state: string }[]).map((r) => [r.platform, r.state]));
    for (let round = 0; round < 3 && Object.values(states()).some((s) => s !== 'sent'); round++) {
      await w.inbox.runOnce();
      await w.clock.advance(31_000);
    }
    expect(states()).toEqual({ instagram: 'sent', facebook: 'sent', threads: 'sent' });

    const byPlatform = Object.fromEntries(toAnswer.map((i) => [i.platform, i]));
    const readBack = async () => ({
      instagram: (await graph<{ data: { text: string }[] }>(w, 'instagram', 'GET', `/${byPlatform.instagram!.comment_id}/replies`, { fields: 'id,text' }, tokenOf(w, 'instagram'))).data.map((c) => c.text),
      facebook: (await graph<{ data: { message: string }[] }>(w, 'facebook', 'GET', `/${byPlatform.facebook!.comment_id}/comments`, { fields: 'id,message' }, tokenOf(w, 'facebook'))).data.map((c) => c.message),
      threads: (await graph<{ data: { text: string; replied_to: { id: string } }[] }>(w, 'threads', 'GET', `/${post('threads')}/conversation`, { fields: 'id,text,replied_to' }, tokenOf(w, 'threads'))).data.filter((r) => r.replied_to.id === outside.id).map((r) => r.text),
    });
    expect(await readBack()).toEqual({ instagram: ['Thanks! (instagram)'], facebook: ['Thanks! (facebook)'], threads: ['Thanks! (threads)'] });
    expect(eventsOf(w, 'comment.replied').map((e) => e.platform).sort()).toEqual(['facebook', 'instagram', 'threads']);
    // Our own replies never come back as inbox items.
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 0 });

    // A process that dies after the network made the reply and before it wrote `sent` down: the next one reads it back.
    const real = createCommentClients();
    const dying = new Map(
      [...real].map(([p, c]) => [p, 'unsupported' in c ? c : ({ list: c.list, deleteReply: c.deleteReply, reply: async (ctx, to, text) => (await c.reply(ctx, to, text), Promise.reject(new Error('SIGKILL'))) } satisfies CommentsClient)]),
    );
    const calls = { credentials: w.store.credentials, clock: w.clock, logger: silentLogger, sandboxBaseUrl: (_p: string, host: string) => sandboxBaseUrl(w.url, host) };
    const first = createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: dying, calls });
    await w.clock.advance(60_000);
    for (const it of toAnswer) {
      const res = await w.call('POST', `/inbox/${it.id}/reply`, { text: `Once only (${it.platform})` });
      const id = (res.body as unknown as InboxReplyResponse).reply.id;
      // Made on the network (Threads: once its container is ready), the answer lost.
      const made = async () => (await readBack())[it.platform as 'instagram'].includes(`Once only (${it.platform})`);
      for (let n = 0; n < 3 && !(await made()); n++) {
        expect((await first.send(id))?.state).toBe('sending');
        await w.clock.advance(5_000);
      }
      expect(await made()).toBe(true);
    }
    const restarted = createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: real, calls });
    await restarted.runOnce();
    expect(w.db.prepare("SELECT count(*) FROM inbox_replies WHERE state = 'sent'").pluck().get()).toBe(6);
    expect(await readBack()).toEqual({
      instagram: ['Thanks! (instagram)', 'Once only (instagram)'],
      facebook: ['Thanks! (facebook)', 'Once only (facebook)'],
      threads: ['Thanks! (threads)', 'Once only (threads)'],
    });

    // Hidden on each network (Instagram `hide`, Facebook `is_hidden`, Threads manage_reply), as the simulator keeps it.
    for (const it of toAnswer) {
      const hid = await w.call('POST', `/inbox/${it.id}/hide`);
      expect(hid.body, JSON.stringify(hid.body)).toMatchObject({ item: { status: 'hidden' } });
      expect(String(hid.body.message)).toMatch(/ on (Instagram|Facebook|Threads) and in the inbox$/);
    }
    expect((await graph<{ hidden: boolean }>(w, 'instagram', 'GET', `/${byPlatform.instagram!.comment_id}`, { fields: 'hidden' }, tokenOf(w, 'instagram'))).hidden).toBe(true);
    expect((await graph<{ is_hidden: boolean }>(w, 'facebook', 'GET', `/${byPlatform.facebook!.comment_id}`, { fields: 'is_hidden' }, tokenOf(w, 'facebook'))).is_hidden).toBe(true);
    const convo = await graph<{ data: { id: string; hide_status: string }[] }>(w, 'threads', 'GET', `/${post('threads')}/conversation`, { fields: 'id,hide_status' }, tokenOf(w, 'threads'));
    expect(convo.data.find((r) => r.id === outside.id)?.hide_status).toBe('HIDDEN');

    // Our replies deleted from each network (DELETE /{id}): gone from the edges that listed them.
    for (const it of toAnswer) expect(await deleteOurReplies(w, it.id)).toHaveLength(2);
    expect(await readBack()).toEqual({ instagram: [], facebook: [], threads: [] });
  });
});
