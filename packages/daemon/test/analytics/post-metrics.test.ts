import { AtpAgent } from '@atproto/api';
import { createRestAPIClient } from 'masto';
import { TwitterApi, type ITwitterApiClientPlugin } from 'twitter-api-v2';
import { describe, expect, it } from 'vitest';
import type { Platform, PostMetricsResponse, PostMetricsTarget } from '@socialpub/core';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';
import { serveContractOrigins } from '../contracts/harness';

const defer = useCleanups();
const HOSTS = ['api.x.com', 'bsky.social', 'mastodon.social'];
const HOUR = 3_600_000;

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const jobId = String(res.body.job_id);
  const statuses = () => w.db.prepare('SELECT status FROM targets WHERE job_id = ?').all(jobId) as Array<{ status: string }>;
  await advanceUntil(w.clock, () => statuses().every((t) => ['published', 'failed', 'needs_review'].includes(t.status)), 600);
  expect(statuses().map((t) => t.status)).toEqual(statuses().map(() => 'published'));
  return jobId;
}

/** The sandbox connection's own token, as a user would give it to the network's client. */
function tokenOf(w: SandboxDaemon, platform: Platform): string {
  const user = w.db.prepare('SELECT id FROM users').get() as { id: string };
  return w.store.credentials.credentialsFor(user.id, platform)!.secrets.access_token!;
}

const byPlatform = (body: PostMetricsResponse) => Object.fromEntries(body.targets.map((t) => [t.platform, t])) as Record<string, PostMetricsTarget>;

/** Every figure of `mine` between the same figure read before and after. */
function expectBetween(before: Record<string, number>, mine: Record<string, number>, after: Record<string, number>, names: readonly string[]) {
  for (const n of names) {
    expect(mine[n], n).toBeGreaterThanOrEqual(before[n]!);
    expect(mine[n], n).toBeLessThanOrEqual(after[n]!);
  }
}

describe('figures per published post (issue 36)', () => {
  it("reads X, Bluesky and Mastodon figures on refresh that lie between two reads by each network's own client", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter', 'bluesky', 'mastodon'] });
    const jobId = await publishAndSettle(w, { caption: 'Figures, please', platforms: ['twitter', 'bluesky', 'mastodon'] });
    const origins = await serveContractOrigins([{ hosts: HOSTS, app: w.sandboxApp }]);
    defer(() => origins.close());
    const posts = Object.fromEntries((w.db.prepare('SELECT platform, post_id FROM targets WHERE job_id = ?').all(jobId) as Array<{ platform: string; post_id: string }>).map((r) => [r.platform, r.post_id]));

    // Each network's own client, unmodified, pointed at the simulators' origins.
    const toX: ITwitterApiClientPlugin = {
      onBeforeRequestConfig({ params }) {
        const url = new URL(params.url.startsWith('http') ? params.url : `https://${params.url}`);
        if (url.hostname === 'api.x.com') params.url = `${origins.https['api.x.com']}${url.pathname}${url.search}`;
      },
    };
    const x = new TwitterApi(tokenOf(w, 'twitter'), { plugins: [toX], httpAgent: origins.agent }).v2;
    const bsky = new AtpAgent({ service: origins.http['bsky.social']! });
    const masto = createRestAPIClient({ url: origins.http['mastodon.social']!, accessToken: tokenOf(w, 'mastodon') });
    const readAll = async () => {
      const tweets = await x.tweets([posts.twitter!], { 'tweet.fields': ['public_metrics'] });
      const bskyPosts = await bsky.getPosts({ uris: [posts.bluesky!] });
      const status = await masto.v1.statuses.$select(posts.mastodon!).fetch();
      const b = bskyPosts.data.posts[0]!;
      return {
        twitter: tweets.data[0]!.public_metrics as unknown as Record<string, number>,
        bluesky: { likeCount: b.likeCount!, repostCount: b.repostCount!, replyCount: b.replyCount!, quoteCount: b.quoteCount! },
        mastodon: { favourites_count: status.favouritesCount, reblogs_count: status.reblogsCount, replies_count: status.repliesCount },
      };
    };

    await w.clock.advance(40_000);
    const before = await readAll();
    await w.clock.advance(20_000);
    const refreshed = await w.call('POST', '/analytics/refresh', { job_id: jobId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    await w.clock.advance(20_000);
    const after = await readAll();

    const mine = byPlatform(refreshed.body as unknown as PostMetricsResponse);
    expect(Object.keys(mine).sort()).toEqual(['bluesky', 'mastodon', 'twitter']);
    for (const t of Object.values(mine)) expect(t.problem, JSON.stringify(t.problem)).toBeNull();
    expectBetween(before.twitter, mine.twitter!.platform_metrics, after.twitter, ['impression_count', 'like_count', 'retweet_count', 'reply_count', 'quote_count', 'bookmark_count']);
    expectBetween(before.bluesky, mine.bluesky!.platform_metrics, after.bluesky, ['likeCount', 'repostCount', 'replyCount', 'quoteCount']);
    expectBetween(before.mastodon, mine.mastodon!.platform_metrics, after.mastodon, ['favourites_count', 'reblogs_count', 'replies_count']);
    // The figures move within the minute between the two reads.
    expect(after.twitter.impression_count).toBeGreaterThan(before.twitter.impression_count!);

    // Normalized names add up from the network's own.
    const xm = mine.twitter!.platform_metrics;
    expect(mine.twitter!.metrics).toMatchObject({ impressions: xm.impression_count, likes: xm.like_count, comments: xm.reply_count, shares: xm.retweet_count! + xm.quote_count!, saves: xm.bookmark_count });
    // Non-public figures too: the account's own post, under 30 days, with a user-context token.
    expect(mine.twitter!.metrics.clicks).toBe(xm.url_link_clicks! + xm.user_profile_clicks!);
    const bm = mine.bluesky!.platform_metrics;
    expect(mine.bluesky!.metrics).toEqual({ likes: bm.likeCount, comments: bm.replyCount, shares: bm.repostCount! + bm.quoteCount!, saves: bm.bookmarkCount });
    expect(mine.bluesky!.metrics.impressions).toBeUndefined();
    const mm = mine.mastodon!.platform_metrics;
    expect(mine.mastodon!.metrics).toEqual({ likes: mm.favourites_count, comments: mm.replies_count, shares: mm.reblogs_count! + mm.quotes_count! });

    // GET answers the same, and reads nothing from the networks.
    const got = await w.call('GET', `/analytics/posts?job_id=${jobId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(refreshed.body);
    const t = mine.twitter!;
    expect(t.history).toEqual([{ collected_at: t.collected_at, metrics: t.metrics, platform_metrics: t.platform_metrics }]);
    expect(t.next_collection_at).toBe(new Date(Date.parse(t.published_at!) + HOUR).toISOString());
  });

  it('collects at 1 h, 24 h, 72 h, 7 d and 30 d after publishing, each reading kept as history, then stops', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter', 'bluesky'] });
    const jobId = await publishAndSettle(w, { caption: 'On a schedule', platforms: ['twitter', 'bluesky'] });
    const publishedAt = (w.db.prepare('SELECT MIN(published_at) AS t FROM targets WHERE job_id = ?').get(jobId) as { t: number }).t;
    const collector = w.services.collector;

    // Before the first hour: enrolled, nothing due.
    expect(await collector.collectDue()).toBe(0);
    // The clock set, not advanced: nothing but the collector (called here) is to run meanwhile.
    const at = async (ms: number) => {
      w.clock.set(publishedAt + ms);
      return collector.collectDue();
    };
    expect(await at(HOUR - 1_000)).toBe(0);
    expect(await at(HOUR)).toBe(2);
    expect(await at(2 * HOUR)).toBe(0);
    expect(await at(24 * HOUR)).toBe(2);
    expect(await at(72 * HOUR)).toBe(2);
    expect(await at(7 * 24 * HOUR)).toBe(2);
    expect(await at(30 * 24 * HOUR)).toBe(2);
    expect(await at(60 * 24 * HOUR)).toBe(0);

    const body = (await w.call('GET', `/analytics/posts?job_id=${jobId}`)).body as unknown as PostMetricsResponse;
    for (const t of body.targets) {
      const ages = t.history.map((h) => (Date.parse(h.collected_at) - publishedAt) / HOUR);
      expect(ages, t.platform).toEqual([1, 24, 72, 168, 720]);
      expect(t.next_collection_at).toBeNull();
      // Figures only grow with the post's age.
      const likes = t.history.map((h) => h.metrics.likes!);
      expect([...likes].sort((a, b) => a - b)).toEqual(likes);
      expect(likes[4]!).toBeGreaterThan(likes[0]!);
    }
  });

  it('reads once for every age missed while the daemon was down, and batches X ids 100 to a call', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const jobs: string[] = [];
    for (let i = 0; i < 3; i++) jobs.push(await publishAndSettle(w, { caption: `Missed ${i}`, platforms: ['twitter'] }));
    w.clock.set(w.clock.now() + 80 * HOUR);
    // Enrolled now, their first reading (1 h) long passed: read once, not once per missed age.
    expect(await w.services.collector.collectDue()).toBe(3);
    expect(await w.services.collector.collectDue()).toBe(0);
    const body = (await w.call('GET', `/analytics/posts?job_id=${jobs[0]}`)).body as unknown as PostMetricsResponse;
    const t = body.targets[0]!;
    expect(t.history).toHaveLength(1);
    // 1 h, 24 h and 72 h have passed: the next reading is at 7 d.
    expect(Date.parse(t.next_collection_at!) - Date.parse(t.published_at!)).toBe(7 * 24 * HOUR);
    const lookups = w.db.prepare("SELECT SUM(count) AS n FROM rate_windows WHERE class = 'analytics:twitter'").get() as { n: number };
    expect(lookups.n).toBe(1);
  });
});
