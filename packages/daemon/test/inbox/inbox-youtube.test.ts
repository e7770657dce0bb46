import type { InboxItem, InboxReplyResponse } from '@socialpub/core';
import { google } from 'googleapis';
import { describe, expect, it } from 'vitest';
import { createInboxService } from '../../src/inbox/inbox-service';
import type { CommentsClient } from '../../src/platforms/conversations';
import { createCommentClients } from '../../src/platforms/registry';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { startSandboxOrigins } from '../../src/platforms/sandbox-origins';
import { simReaderReply } from '../../src/platforms/shared/sim/sim-conversation';
import { YOUTUBE_HOST } from '../../src/platforms/youtube/sim/simulator';
import { silentLogger } from '../../src/util/logger';
import { useCleanups } from '../support/cleanups';
import { prepareMedia, serveSamples, startSandboxDaemon } from '../support/sandbox-daemon';
import { deleteOurReplies, eventsOf, publishNow } from './inbox-fixtures';

// The inbox on YouTube (issue 37): another channel comments on our video through googleapis,
// socialpub lists it, replies once for one Idempotency-Key and once across a process that
// died after YouTube made the reply (read back with googleapis' comments.list), and hides it
// (setModerationStatus rejected: gone from everyone else's commentThreads.list).
const defer = useCleanups();

describe('the inbox over the YouTube simulator', () => {
  it('reads a viewer comment made with googleapis, replies under it once per key and once across a crash, and hides it', { timeout: 60_000 }, async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['youtube'] });
    const video = await prepareMedia(w, `${await serveSamples(defer)}/clip.mp4`);
    const { jobId, posts } = await publishNow(w, 'Our launch video', ['youtube'], [video]);
    const videoId = posts.youtube!;
    const o = await startSandboxOrigins(w.sandbox, [YOUTUBE_HOST]);
    defer(() => o.close());
    const as = (token: string) => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: token });
      return google.youtube({ version: 'v3', auth, rootUrl: `${o.endpoints[YOUTUBE_HOST]}/` });
    };
    const viewer = as('sandbox_at_viewer.secret');
    const thread = await viewer.commentThreads.insert({ part: ['snippet'], requestBody: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: 'Great video! Is there a part 2?' } } } } });
    const commentId = thread.data.id!;

    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 1, skipped: [] });
    const [item] = (await w.call('GET', '/inbox')).body.items as InboxItem[];
    expect(item).toMatchObject({ platform: 'youtube', job_id: jobId, post_id: videoId, comment_id: commentId, in_reply_to: videoId, text: 'Great video! Is there a part 2?', url: `https://www.youtube.com/watch?v=${videoId}&lc=${commentId}` });

    for (let i = 0; i < 2; i++) expect((await w.call('POST', `/inbox/${item!.id}/reply`, { text: 'Part 2 is next week.' }, { 'idempotency-key': 'yt-reply' })).status).toBe(202);
    await w.inbox.runOnce();
    const replies = async () => (await viewer.comments.list({ part: ['snippet'], parentId: commentId, textFormat: 'plainText' })).data.items!.map((c) => [c.snippet!.parentId, c.snippet!.textOriginal]);
    expect(await replies()).toEqual([[commentId, 'Part 2 is next week.']]);
    expect(eventsOf(w, 'comment.replied').map((e) => e.platform)).toEqual(['youtube']);
    // Our reply is ours: never an inbox item.
    expect((await w.call('POST', '/inbox/refresh')).body).toMatchObject({ new_items: 0 });

    // A process that dies after YouTube made the reply, before `sent` was written: the next one finds it.
    const real = createCommentClients();
    const yt = real.get('youtube') as CommentsClient;
    const dying = new Map(real).set('youtube', { list: yt.list, deleteReply: yt.deleteReply, reply: async (ctx, to, text) => (await yt.reply(ctx, to, text), Promise.reject(new Error('SIGKILL'))) } satisfies CommentsClient);
    const calls = { credentials: w.store.credentials, clock: w.clock, logger: silentLogger, sandboxBaseUrl: (_p: string, host: string) => sandboxBaseUrl(w.url, host) };
    const res = await w.call('POST', `/inbox/${item!.id}/reply`, { text: 'And thanks for watching.' });
    const replyId = (res.body as unknown as InboxReplyResponse).reply.id;
    expect((await createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: dying, calls }).send(replyId))?.state).toBe('sending');
    await createInboxService({ store: w.store, clock: w.clock, logger: silentLogger, clients: real, calls }).runOnce();
    expect(w.db.prepare('SELECT state FROM inbox_replies WHERE id = ?').pluck().get(replyId)).toBe('sent');
    expect(await replies()).toEqual([
      [commentId, 'Part 2 is next week.'],
      [commentId, 'And thanks for watching.'],
    ]);

    // Our replies deleted (comments.delete): gone from comments.list.
    expect(await deleteOurReplies(w, item!.id)).toHaveLength(2);
    expect(await replies()).toEqual([]);

    // Hidden on YouTube: rejected, so another channel no longer sees it.
    const hid = await w.call('POST', `/inbox/${item!.id}/hide`);
    expect(hid.body).toMatchObject({ message: `Hid ${item!.id} on YouTube and in the inbox`, item: { status: 'hidden' } });
    const someone = as('sandbox_at_someone.secret');
    expect((await someone.commentThreads.list({ part: ['snippet'], videoId })).data.items).toEqual([]);

    // A sandbox reader answers one video in two (by its id), two minutes after it went out.
    await w.clock.advance(3 * 60_000);
    const readers = (await w.call('POST', '/inbox/refresh')).body.new_items;
    expect(readers).toBe(simReaderReply(videoId, 0) ? 1 : 0);
  });
});
