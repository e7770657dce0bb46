import { describe, expect, it } from 'vitest';
import type { Platform, PostMetricsResponse, PostMetricsTarget } from '@socialpub/core';
import type { Credentials } from '../../src/platforms/adapter';
import { createFacebookAnalytics } from '../../src/platforms/facebook/analytics';
import { createInstagramAnalytics } from '../../src/platforms/instagram/analytics';
import { createThreadsAnalytics } from '../../src/platforms/threads/analytics';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';

const defer = useCleanups();

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const jobId = String(res.body.job_id);
  const statuses = () => (w.db.prepare('SELECT status FROM targets WHERE job_id = ?').all(jobId) as Array<{ status: string }>).map((t) => t.status);
  await advanceUntil(w.clock, () => statuses().every((s) => ['published', 'failed', 'needs_review'].includes(s)), 900);
  expect(statuses()).toEqual(statuses().map(() => 'published'));
  return jobId;
}

function tokenOf(w: SandboxDaemon, platform: Platform): string {
  const user = w.db.prepare('SELECT id FROM users').get() as { id: string };
  const c = w.store.credentials.credentialsFor(user.id, platform)!;
  return c.secrets.page_token ?? c.secrets.access_token!;
}

/** The insights call exactly as Meta documents it, with plain fetch: GET /{id}/insights?metric=…&access_token=… */
async function graphInsights(w: SandboxDaemon, host: string, version: string, id: string, metrics: string, token: string) {
  const res = await fetch(`${sandboxBaseUrl(w.url, host)}/${version}/${id}/insights?metric=${metrics}&access_token=${encodeURIComponent(token)}`);
  return { status: res.status, body: (await res.json()) as { data?: Array<{ name: string; period: string; values: Array<{ value: unknown }> }>; error?: { code: number; message: string } } };
}
const values = (body: { data?: Array<{ name: string; values: Array<{ value: unknown }> }> }) => Object.fromEntries((body.data ?? []).map((r) => [r.name, r.values[0]!.value]));

describe('Instagram, Facebook and Threads insights (issue 36)', () => {
  it('reads each through GET /{id}/insights with the current metric names, between two documented reads, and refuses the deprecated ones', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['instagram', 'facebook', 'threads'] });
    const src = await serveSamples(defer);
    const image = await prepareMedia(w, `${src}/photo.jpg`);
    const jobId = await publishAndSettle(w, { caption: 'Insights, please', platforms: ['instagram', 'facebook', 'threads'], media_urls: [image] });
    const posts = Object.fromEntries((w.db.prepare('SELECT platform, post_id FROM targets WHERE job_id = ?').all(jobId) as Array<{ platform: string; post_id: string }>).map((r) => [r.platform, r.post_id]));
    const calls = {
      instagram: () => graphInsights(w, 'graph.instagram.com', 'v25.0', posts.instagram!, 'views,reach,likes,comments,shares,saved,total_interactions', tokenOf(w, 'instagram')),
      facebook: () => graphInsights(w, 'graph.facebook.com', 'v25.0', posts.facebook!, 'post_total_media_view_unique,post_reactions_by_type_total,post_clicks', tokenOf(w, 'facebook')),
      threads: () => graphInsights(w, 'graph.threads.net', 'v1.0', posts.threads!, 'views,likes,replies,reposts,quotes,shares', tokenOf(w, 'threads')),
    };

    await w.clock.advance(120_000);
    const before = { instagram: values((await calls.instagram()).body), facebook: values((await calls.facebook()).body), threads: values((await calls.threads()).body) };
    await w.clock.advance(30_000);
    const refreshed = await w.call('POST', '/analytics/refresh', { job_id: jobId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    await w.clock.advance(30_000);
    const after = { instagram: values((await calls.instagram()).body), facebook: values((await calls.facebook()).body), threads: values((await calls.threads()).body) };

    const mine = Object.fromEntries((refreshed.body as unknown as PostMetricsResponse).targets.map((t) => [t.platform, t])) as Record<string, PostMetricsTarget>;
    for (const t of Object.values(mine)) expect(t.problem, `${t.platform}: ${JSON.stringify(t.problem)}`).toBeNull();
    for (const name of ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions']) {
      expect(mine.instagram!.platform_metrics[name], name).toBeGreaterThanOrEqual(before.instagram[name] as number);
      expect(mine.instagram!.platform_metrics[name], name).toBeLessThanOrEqual(after.instagram[name] as number);
    }
    for (const name of ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares']) {
      expect(mine.threads!.platform_metrics[name], name).toBeGreaterThanOrEqual(before.threads[name] as number);
      expect(mine.threads!.platform_metrics[name], name).toBeLessThanOrEqual(after.threads[name] as number);
    }
    const fb = mine.facebook!.platform_metrics;
    expect(fb.post_clicks).toBeGreaterThanOrEqual(before.facebook.post_clicks as number);
    expect(fb.post_clicks).toBeLessThanOrEqual(after.facebook.post_clicks as number);
    const reactions = after.facebook.post_reactions_by_type_total as Record<string, number>;
    expect(Object.keys(reactions).sort()).toEqual(['like', 'love']);
    expect(fb['post_reactions_by_type_total.like']).toBeLessThanOrEqual(reactions.like!);

    // Normalized names from the network's own.
    const ig = mine.instagram!.platform_metrics;
    expect(mine.instagram!.metrics).toEqual({ views: ig.views, likes: ig.likes, comments: ig.comments, shares: ig.shares, saves: ig.saved });
    const th = mine.threads!.platform_metrics;
    expect(mine.threads!.metrics).toEqual({ views: th.views, likes: th.likes, comments: th.replies, shares: th.reposts! + th.quotes! + th.shares! });
    expect(mine.facebook!.metrics).toEqual({ views: fb.post_total_media_view_unique, likes: fb['post_reactions_by_type_total.like']! + fb['post_reactions_by_type_total.love']!, clicks: fb.post_clicks });

    // Deprecated names are refused as Graph refuses them.
    const oldIg = await graphInsights(w, 'graph.instagram.com', 'v25.0', posts.instagram!, 'impressions', tokenOf(w, 'instagram'));
    expect(oldIg.status).toBe(400);
    expect(oldIg.body.error).toMatchObject({ code: 100, message: expect.stringMatching(/^\(#100\) metric\[0\] must be one of the following values: views, reach/) });
    const oldFb = await graphInsights(w, 'graph.facebook.com', 'v25.0', posts.facebook!, 'post_impressions_unique', tokenOf(w, 'facebook'));
    expect(oldFb.body.error).toMatchObject({ code: 100, message: '(#100) The value must be a valid insights metric' });
    // Another account's token reads nothing.
    const stranger = await graphInsights(w, 'graph.threads.net', 'v1.0', posts.threads!, 'views', 'sandbox_at_stranger.secret');
    expect(stranger.status).toBeGreaterThanOrEqual(400);
  });

  it('says a connection made without the insights permission lacks it, and how to reconnect', () => {
    const creds = (meta: Record<string, unknown>) => ({ connectionId: 'c1', mode: 'live', secrets: {}, meta }) as unknown as Credentials;
    expect(createInstagramAnalytics().refusal(creds({ login: 'instagram', scopes: ['instagram_business_basic', 'instagram_business_content_publish'] }))).toBe(
      'this Instagram connection was made without the instagram_business_manage_insights permission figures need: reconnect it (socialpub connect instagram) to read them',
    );
    expect(createInstagramAnalytics().refusal(creds({ login: 'facebook', scopes: ['instagram_basic'] }))).toMatch(/instagram_manage_insights .*socialpub connect instagram --login facebook/);
    expect(createInstagramAnalytics().refusal(creds({ login: 'instagram', scopes: ['instagram_business_basic', 'instagram_business_manage_insights'] }))).toBeNull();
    expect(createFacebookAnalytics().refusal(creds({ login: 'facebook', scopes: ['pages_show_list'] }))).toMatch(/read_insights/);
    expect(createThreadsAnalytics().refusal(creds({ login: 'threads', scopes: ['threads_basic', 'threads_content_publish'] }))).toMatch(/threads_manage_insights .*socialpub connect threads/);
    // Sandbox connections record no grant: nothing to refuse.
    expect(createThreadsAnalytics().refusal(creds({ sandbox: true }))).toBeNull();
  });
});
