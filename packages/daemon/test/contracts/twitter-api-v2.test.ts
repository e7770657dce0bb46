import { Hono } from 'hono';
import { TwitterApi, type ITwitterApiClientPlugin } from 'twitter-api-v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simState } from '../../src/platforms/shared/sim/sim-state';
import { createTwitterSimulator, X_HOST, type TwitterSimulator } from '../../src/platforms/twitter/sim/simulator';
import { openDatabase, type DB } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { fakeBytes } from '../platforms/shared/harness';
import { checkTraffic } from '../platforms/twitter/openapi-check';
import { serveContractOrigins, type ContractOrigins } from './harness';
import { sandboxStore } from '../support/sandbox-records';

/**
 * Issue 15, deliverable 6: X's most used Node client, `twitter-api-v2`, unmodified, against
 * the X simulator's https origin. The client is pointed there as docs/platforms/twitter.md
 * shows: its documented plugin hook moves each request from https://api.x.com to the
 * origin, its `httpAgent` trusts the sandbox certificate. Every exchange is also checked
 * against X's own OpenAPI description.
 */

let db: DB;
let sim: TwitterSimulator;
let origins: ContractOrigins;

beforeEach(async () => {
  db = openDatabase(':memory:');
  // The real clock: the client waits out video processing with its own timers (check_after_secs).
  sim = createTwitterSimulator({ clock: systemClock, state: simState(sandboxStore(db), 'x'), processingMs: 1_500 });
  origins = await serveContractOrigins([{ hosts: [X_HOST], app: new Hono().route(`/${X_HOST}`, sim.app) }]);
});
afterEach(async () => {
  expect(checkTraffic(sim.log.requests)).toEqual([]);
  await origins.close();
  db.close();
});

/** The plugin docs/platforms/twitter.md shows: api.x.com's requests go to the simulator's origin, path and query unchanged. */
function toSimulator(origin: string): ITwitterApiClientPlugin {
  return {
    onBeforeRequestConfig({ params }) {
      const url = new URL(params.url.startsWith('http') ? params.url : `https://${params.url}`);
      if (url.hostname === 'api.x.com') params.url = `${origin}${url.pathname}${url.search}`;
    },
  };
}

const client = (token = 'sandbox_at_contract.secret') => new TwitterApi(token, { plugins: [toSimulator(origins.https[X_HOST]!)], httpAgent: origins.agent }).v2;

describe('twitter-api-v2 against the X simulator', () => {
  it('reads a conversation with recent search (conversation_id:), paged, with the authors expanded', async () => {
    const post = await client().tweet('What should we ship next?');
    const reader = client('sandbox-contract-reader');
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push((await reader.reply(`Idea number ${i}`, post.data.id)).data.id);
    const found = await reader.search(`conversation_id:${post.data.id}`, { max_results: 10, 'tweet.fields': ['author_id', 'created_at', 'conversation_id', 'referenced_tweets'], expansions: ['author_id'], 'user.fields': ['username', 'name'] });
    await found.fetchLast(10);
    expect(found.tweets.map((t) => t.id).sort()).toEqual([...answers].sort());
    expect(found.tweets.every((t) => t.conversation_id === post.data.id && t.referenced_tweets?.[0]?.id === post.data.id)).toBe(true);
    expect([...new Set(found.includes.users.map((u) => u.username))]).toEqual(['sandbox_x']);
    // The conversation's author hides a reply; the replier may not hide replies to a post it did not write.
    expect((await client().hideReply(answers[0]!, true)).data.hidden).toBe(true);
    await expect(reader.hideReply(answers[1]!, true)).rejects.toMatchObject({ code: 403 });
  });

  it('reads the account, uploads an image (chunked, binary multipart), posts with it, reads it back and deletes it', async () => {
    const x = client();
    const me = await x.me();
    expect(me.data.username).toMatch(/^sandbox_x_\d+$/);

    const png = fakeBytes('png', 2687);
    const mediaId = await x.uploadMedia(png, { media_type: 'image/png', media_category: 'tweet_image' });
    expect(mediaId).toMatch(/^\d+$/);
    expect(sim.log.requests.map((r) => `${r.method} ${r.path.replace(/\d{5,}/, '{id}')}`)).toEqual(
      expect.arrayContaining(['POST /2/media/upload/initialize', 'POST /2/media/upload/{id}/append', 'POST /2/media/upload/{id}/finalize']),
    );

    const created = await x.tweet({ text: 'Posted with twitter-api-v2', media: { media_ids: [mediaId] } });
    expect(created.data.text).toBe('Posted with twitter-api-v2');
    expect(created.data.id).toMatch(/^\d+$/);

    const read = await x.singleTweet(created.data.id, { 'tweet.fields': ['author_id', 'attachments'], expansions: ['attachments.media_keys'] });
    expect(read.data.text).toBe('Posted with twitter-api-v2');
    expect(read.data.author_id).toBe(me.data.id);
    expect(read.data.attachments?.media_keys).toEqual([expect.stringMatching(/^3_\d+$/)]);

    // Somebody else's client may not delete it.
    await expect(client('sandbox_at_other.secret').deleteTweet(created.data.id)).rejects.toMatchObject({ code: 403 });
    expect((await x.deleteTweet(created.data.id)).data.deleted).toBe(true);
    const gone = await x.singleTweet(created.data.id);
    expect(gone.data).toBeUndefined();
    expect(gone.errors?.[0]).toMatchObject({ resource_id: created.data.id, title: 'Not Found Error' });
  });

  it('uploads a video in several chunks, waits out its processing through STATUS, and posts it', async () => {
    const x = client();
    const mp4 = fakeBytes('mp4', 2_500_000);
    // 1 MB chunks: three appends; the client then asks STATUS until processing succeeds.
    const mediaId = await x.uploadMedia(mp4, { media_type: 'video/mp4', media_category: 'tweet_video' }, 1024 * 1024);
    const appends = sim.log.requests.filter((r) => r.path.endsWith('/append'));
    expect(appends).toHaveLength(3);
    expect(sim.log.requests.some((r) => r.method === 'GET' && r.path === '/2/media/upload')).toBe(true);
    const created = await x.tweet({ text: 'A video by twitter-api-v2', media: { media_ids: [mediaId] } });
    const read = await x.singleTweet(created.data.id, { 'tweet.fields': ['attachments'], expansions: ['attachments.media_keys'] });
    expect(read.data.attachments?.media_keys).toEqual([expect.stringMatching(/^7_\d+$/)]);
  });

  it('refuses a duplicate and an unknown path in X’s own shapes, as the client reports them', async () => {
    const x = client();
    await x.tweet('Said once');
    await expect(x.tweet('Said once')).rejects.toMatchObject({ code: 403, data: { detail: expect.stringMatching(/duplicate/i) } });
    const unknown = await x.get('no/such/endpoint').catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 404, data: { title: expect.any(String), type: "https://api.x.com/2/problems/resource-not-found" } });
    sim.log.requests.splice(-1); // the unknown path is, by design, none of X's operations
  });
});
