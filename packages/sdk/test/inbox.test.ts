import { openAdmin } from '@socialpub/daemon';
import { ConflictError, NotFoundError, PermissionDeniedError, SocialPub, type InboxItem } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL, startRealDaemon, type RealDaemon } from './helpers/real-daemon';

// client.inbox against a real daemon with a sandbox X connection: comments by another X
// account (the simulator's test tokens are its own @sandbox_x), walked with all(), marked,
// hidden, and replies approved and declined.
describe('client.inbox', () => {
  let d: RealDaemon;
  let client: SocialPub;
  let agent: SocialPub;
  let tweet: string;

  beforeAll(async () => {
    d = await startRealDaemon({ connect: ['twitter'] });
    client = new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, maxRetries: 0 });
    const admin = openAdmin(d.dataDir);
    agent = new SocialPub({ baseUrl: d.url, apiKey: admin.createKey({ email: EMAIL, scope: 'agent' }).api_key, maxRetries: 0 });
    admin.close();
    const job = await client.content.publish({ caption: 'SDK inbox', platforms: ['twitter'], publish_now: true });
    const done = await client.scheduled.waitUntilDone(job.job_id);
    tweet = done.targets[0]!.post_id!;
    for (let i = 0; i < 3; i++) {
      await fetch(`${d.url}/sandbox/api.x.com/2/tweets`, { method: 'POST', headers: { authorization: 'Bearer sandbox-sdk-reader', 'content-type': 'application/json' }, body: JSON.stringify({ text: `Question ${i}`, reply: { in_reply_to_tweet_id: tweet } }) });
    }
  });
  afterAll(async () => {
    await d?.close();
  });

  it('refreshes, pages with all(), marks read and hides', async () => {
    expect(await client.inbox.refresh()).toMatchObject({ new_items: 3, posts_checked: 1 });
    const items: InboxItem[] = [];
    for await (const it of client.inbox.all({ limit: 2 })) items.push(it);
    expect(items.map((i) => i.text).sort()).toEqual(['Question 0', 'Question 1', 'Question 2']);
    expect((await client.inbox.markRead(items[0]!.id)).item.status).toBe('read');
    expect((await client.inbox.hide(items[1]!.id)).item.status).toBe('hidden');
    expect((await client.inbox.list({ status: 'unread' })).items.map((i) => i.id)).toEqual([items[2]!.id]);
    await expect(client.inbox.markRead('inb_nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it("holds an agent key's reply; the owner approves one (sent once) and declines another", async () => {
    const [a, b] = (await client.inbox.list({ status: 'unread' })).items.concat((await client.inbox.list({ status: 'read' })).items);
    const first = await agent.inbox.reply(a!.id, 'From the agent, approved');
    const second = await agent.inbox.reply(b!.id, 'From the agent, declined');
    expect([first.reply.state, second.reply.state]).toEqual(['pending_approval', 'pending_approval']);
    expect((await client.inbox.list({ reply_state: 'pending_approval' })).items.map((i) => i.id).sort()).toEqual([a!.id, b!.id].sort());
    await expect(agent.inbox.approveReply(first.reply.id)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect((await client.inbox.approveReply(first.reply.id)).reply.state).toBe('queued');
    expect((await client.inbox.rejectReply(second.reply.id)).reply.state).toBe('rejected');
    await expect(client.inbox.rejectReply(second.reply.id)).rejects.toBeInstanceOf(ConflictError);
    await expect.poll(async () => (await client.inbox.list({ reply_state: 'sent' })).items.map((i) => i.id), { timeout: 10_000, interval: 100 }).toEqual([a!.id]);
  });
});
