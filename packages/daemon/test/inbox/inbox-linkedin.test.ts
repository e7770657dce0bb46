import type { InboxItem, InboxReplyResponse } from '@socialpub/core';
import { RestliClient } from 'linkedin-api-client';
import { describe, expect, it } from 'vitest';
import { createInboxService } from '../../src/inbox/inbox-service';
import type { CommentsClient } from '../../src/platforms/conversations';
import { defaultVersion } from '../../src/platforms/linkedin/api-version';
import { createCommentClients } from '../../src/platforms/registry';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { startSandboxOrigins } from '../../src/platforms/sandbox-origins';
import { simReaderReply } from '../../src/platforms/shared/sim/sim-conversation';
import { silentLogger } from '../../src/util/logger';
import { useCleanups } from '../support/cleanups';
import { startSandboxDaemon } from '../support/sandbox-daemon';
import { deleteOurReplies, eventsOf, publishNow } from './inbox-fixtures';

// The inbox on LinkedIn (issue 37): a colleague comments on our post through LinkedIn's own
// client (linkedin-api-client, its hosts swapped for the simulator's by an axios interceptor),
// socialpub lists it, and replies under it once for one Idempotency-Key and once across a
// process that died after LinkedIn made the reply, read back with the same client.
const defer = useCleanups();

describe('the inbox over the LinkedIn simulator', () => {
  it('reads a comment made with linkedin-api-client and replies under it once per key and once across a crash', { timeout: 60_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['linkedin'] });
    const { jobId, posts } = await publishNow(w, 'We are hiring engineers', ['linkedin']);
    const postUrn = posts.linkedin!;
    const o = await startSandboxOrigins(w.sandbox, ['api.linkedin.com']);
    defer(() => o.close());
    const client = new RestliClient();
    client.axiosInstance.interceptors.request.use((config) => ({ ...config, url: (config.url ?? '').replace('https://api.linkedin.com', o.endpoints['api.linkedin.com']!) }));
    const versionString = defaultVersion(w.clock.now());
    const accessToken = 'sandbox_at_colleague.secret';
    const me = `urn:li:person:${((await client.get({ resourcePath: '/userinfo', accessToken })).data as { sub: string }).sub}`;
    const made = await client.create({ resourcePath: '/socialActions/{id}/comments', pathKeys: { id: postUrn }, entity: { actor: me, object: postUrn, message: { text: 'Is the role remote?' } }, accessToken, versionString });
    const commentUrn = made.createdEntityId as string;

    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 1, skipped: [] });
    const [item] = (await w.call('GET', '/inbox')).body.items as InboxItem[];
    expect(item).toMatchObject({ platform: 'linkedin', job_id: jobId, post_id: postUrn, comment_id: commentUrn, in_reply_to: postUrn, text: 'Is the role remote?', author: { handle: me } });

    // A comment holds at most 1,250 characters (a post 3,000): refused before anything is queued.
    const long = await w.call('POST', `/inbox/${item!.id}/reply`, { text: 'x'.repeat(1251) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: { details: [{ path: 'text', message: 'LinkedIn takes comments of at most 1250 characters; this one has 1251' }] } });
    expect(w.db.prepare('SELECT count(*) FROM inbox_replies').pluck().get()).toBe(0);
    for (let i = 0; i < 2; i++) expect((await w.call('POST', `/inbox/${item!.id}/reply`, { text: 'Yes, fully remote.' }, { 'idempotency-key': 'li-reply' })).status).toBe(202);
    await w.inbox.runOnce();
    const replies = async () =>
      ((await client.getAll({ resourcePath: '/socialActions/{id}/comments', pathKeys: { id: commentUrn }, accessToken, versionString })).data.elements as { parentComment: string; message: { text: string } }[]).map((c) => [c.parentComment, c.message.text]);
    expect(await replies()).toEqual([[commentUrn, 'Yes, fully remote.']]);
    expect(eventsOf(w, 'comment.replied').map((e) => e.platform)).toEqual(['linkedin']);
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 0 });

    // A process that dies after LinkedIn made the reply, before `sent` was written: the next one finds it.
    const real = createCommentClients();
    const li = real.get('linkedin') as CommentsClient;
    const dying = new Map(real).set('linkedin', { list: li.list, deleteReply: li.deleteReply, reply: async (ctx, to, text) => (await li.reply(ctx, to, text), Promise.reject(new Error('SIGKILL'))) } satisfies CommentsClient);
    const calls = { credentials: w.store.credentials, clock: w.clock, logger: silentLogger, sandboxBaseUrl: (_p: string, host: string) => sandboxBaseUrl(w.url, host) };
    const res = await w.call('POST', `/inbox/${item!.id}/reply`, { text: 'Apply on our site.' });
    const replyId = (res.body as unknown as InboxReplyResponse).reply.id;
    expect((await createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: dying, calls }).send(replyId))?.state).toBe('sending');
    await createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: real, calls }).runOnce();
    expect(w.db.prepare('SELECT state FROM inbox_replies WHERE id = ?').pluck().get(replyId)).toBe('sent');
    expect(await replies()).toEqual([
      [commentUrn, 'Yes, fully remote.'],
      [commentUrn, 'Apply on our site.'],
    ]);

    // Our replies deleted (DELETE …/comments/{id}?actor=): gone from the comment's replies.
    expect(await deleteOurReplies(w, item!.id)).toHaveLength(2);
    expect(await replies()).toEqual([]);

    // No hiding on LinkedIn: the inbox hides it alone, and says so.
    const hid = await w.call('POST', `/inbox/${item!.id}/hide`);
    expect(hid.body).toMatchObject({ message: `Hid ${item!.id} in the inbox only (socialpub does not hide replies on LinkedIn)` });

    // A sandbox reader answers one post in two (by its id), two minutes after it went out.
    await w.clock.advance(3 * 60_000);
    expect((await w.call('POST', '/inbox/refresh')).body.new_items).toBe(simReaderReply(postUrn, 0) ? 1 : 0);
  });
});
