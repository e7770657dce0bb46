import { google } from 'googleapis';
import { describe, expect, it } from 'vitest';
import type { Platform, PostMetricsResponse, PostMetricsTarget } from '@socialpub/core';
import type { Credentials } from '../../src/platforms/adapter';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { createTiktokAnalytics } from '../../src/platforms/tiktok/analytics';
import { createYoutubeAnalytics } from '../../src/platforms/youtube/analytics';
import { Hono } from 'hono';
import type { SandboxDeps, Simulator } from '../../src/platforms/platform-module';
import { simulators } from '../../src/platforms/registry';
import { sandboxPostSink } from '../../src/platforms/shared/sim/sandbox-post-sink';
import { simState } from '../../src/platforms/shared/sim/sim-state';
import { tiktokSandbox } from '../../src/platforms/tiktok/sim/sandbox';
import { createTiktokSimulator, TIKTOK_HOST } from '../../src/platforms/tiktok/sim/simulator';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';
import { serveContractOrigins } from '../contracts/harness';

const defer = useCleanups();

/** The TikTok sandbox with an audited app (public posts with their video ids). */
function auditedTiktok(deps: SandboxDeps): Simulator {
  const sim = createTiktokSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store), processingMs: 0, audited: true, state: simState(deps.store, 'tiktok') });
  return { hosts: [TIKTOK_HOST], app: new Hono().route(`/${TIKTOK_HOST}`, sim.app) };
}

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const jobId = String(res.body.job_id);
  const statuses = () => (w.db.prepare('SELECT status FROM targets WHERE job_id = ?').all(jobId) as Array<{ status: string }>).map((t) => t.status);
  await advanceUntil(w.clock, () => statuses().every((s) => ['published', 'failed', 'needs_review'].includes(s)), 1_200);
  expect(statuses()).toEqual(statuses().map(() => 'published'));
  return jobId;
}

function tokenOf(w: SandboxDaemon, platform: Platform): string {
  const user = w.db.prepare('SELECT id FROM users').get() as { id: string };
  return w.store.credentials.credentialsFor(user.id, platform)!.secrets.access_token!;
}

async function tiktokQuery(w: SandboxDaemon, ids: string[], fields = 'id,like_count,comment_count,share_count,view_count', token = tokenOf(w, 'tiktok')) {
  const res = await fetch(`${sandboxBaseUrl(w.url, 'open.tiktokapis.com')}/v2/video/query/?fields=${fields}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({ filters: { video_ids: ids } }),
  });
  return { status: res.status, body: (await res.json()) as { data: { videos?: Array<Record<string, number | string>> }; error: { code: string; message: string } } };
}

describe('YouTube and TikTok figures (issue 36)', () => {
  it("reads YouTube statistics and TikTok video counts on refresh, between two reads by googleapis and TikTok's documented call", async () => {
    // An audited TikTok app: its posts are public and get their video id (an unaudited one posts SELF_ONLY, below).
    const w = await startSandboxDaemon(defer, { platforms: ['youtube', 'tiktok'], simulators: [...simulators().filter((f) => f !== tiktokSandbox), auditedTiktok] });
    const src = await serveSamples(defer);
    const video = await prepareMedia(w, `${src}/clip.mp4`);
    const jobId = await publishAndSettle(w, { caption: 'Figures for a video', platforms: ['youtube', 'tiktok'], media_urls: [video], platform_options: { tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE' } } });
    const posts = Object.fromEntries((w.db.prepare('SELECT platform, post_id FROM targets WHERE job_id = ?').all(jobId) as Array<{ platform: string; post_id: string }>).map((r) => [r.platform, r.post_id]));
    expect(posts.tiktok).toMatch(/^\d+$/);
    const origins = await serveContractOrigins([{ hosts: ['www.googleapis.com'], app: w.sandboxApp }]);
    defer(() => origins.close());
    const auth = new google.auth.OAuth2();
    auth.setCredentials({ access_token: tokenOf(w, 'youtube') });
    const youtube = google.youtube({ version: 'v3', auth, rootUrl: `${origins.http['www.googleapis.com']}/` });
    const readAll = async () => {
      const yt = await youtube.videos.list({ part: ['statistics'], id: [posts.youtube!] });
      const tk = await tiktokQuery(w, [posts.tiktok!]);
      const s = yt.data.items![0]!.statistics!;
      return { youtube: { viewCount: Number(s.viewCount), likeCount: Number(s.likeCount), commentCount: Number(s.commentCount) }, tiktok: tk.body.data.videos![0]! as Record<string, number> };
    };

    await w.clock.advance(60_000);
    const before = await readAll();
    await w.clock.advance(30_000);
    const refreshed = await w.call('POST', '/analytics/refresh', { job_id: jobId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    await w.clock.advance(30_000);
    const after = await readAll();

    const mine = Object.fromEntries((refreshed.body as unknown as PostMetricsResponse).targets.map((t) => [t.platform, t])) as Record<string, PostMetricsTarget>;
    for (const t of Object.values(mine)) expect(t.problem, `${t.platform}: ${JSON.stringify(t.problem)}`).toBeNull();
    for (const name of ['viewCount', 'likeCount', 'commentCount'] as const) {
      expect(mine.youtube!.platform_metrics[name], name).toBeGreaterThanOrEqual(before.youtube[name]);
      expect(mine.youtube!.platform_metrics[name], name).toBeLessThanOrEqual(after.youtube[name]);
    }
    for (const name of ['like_count', 'comment_count', 'share_count', 'view_count']) {
      expect(mine.tiktok!.platform_metrics[name], name).toBeGreaterThanOrEqual(before.tiktok[name]!);
      expect(mine.tiktok!.platform_metrics[name], name).toBeLessThanOrEqual(after.tiktok[name]!);
    }
    expect(after.youtube.viewCount).toBeGreaterThan(before.youtube.viewCount);
    const yt = mine.youtube!.platform_metrics;
    expect(mine.youtube!.metrics).toEqual({ views: yt.viewCount, likes: yt.likeCount, comments: yt.commentCount });
    const tk = mine.tiktok!.platform_metrics;
    expect(mine.tiktok!.metrics).toEqual({ views: tk.view_count, likes: tk.like_count, comments: tk.comment_count, shares: tk.share_count });

    // TikTok's own refusals: more than 20 ids, an unknown field.
    const many = await tiktokQuery(w, Array.from({ length: 21 }, (_, i) => String(i + 1)));
    expect([many.status, many.body.error.code]).toEqual([400, 'invalid_params']);
    const unknown = await tiktokQuery(w, [posts.tiktok!], 'id,impression_count');
    expect(unknown.body.error).toMatchObject({ code: 'invalid_params', message: 'Invalid field: impression_count' });
  });

  it('says a private TikTok post (kept under its publish id) cannot be read, and stops asking', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['tiktok'] });
    const src = await serveSamples(defer);
    const video = await prepareMedia(w, `${src}/clip.mp4`);
    const jobId = await publishAndSettle(w, { caption: 'Only me', platforms: ['tiktok'], media_urls: [video] });
    const t = ((await w.call('POST', '/analytics/refresh', { job_id: jobId })).body as unknown as PostMetricsResponse).targets[0]!;
    expect(t.post_id).toMatch(/^v_pub_/);
    expect(t.problem?.code).toBe('not_readable');
    expect(t.next_collection_at).toBeNull();
    expect(t.history).toEqual([]);
  });

  it('says a connection made without video.list or youtube.readonly lacks it', () => {
    const creds = (meta: Record<string, unknown>) => ({ connectionId: 'c1', mode: 'live', secrets: {}, meta }) as unknown as Credentials;
    expect(createTiktokAnalytics().refusal(creds({ scopes: ['user.info.basic', 'video.publish'] }))).toBe(
      'this TikTok connection was made without the video.list scope figures need: reconnect it (socialpub connect tiktok) to read them',
    );
    expect(createTiktokAnalytics().refusal(creds({ scopes: ['user.info.basic', 'video.publish', 'video.list'] }))).toBeNull();
    expect(createYoutubeAnalytics().refusal(creds({ scopes: ['https://www.googleapis.com/auth/youtube.upload'] }))).toMatch(/youtube\.readonly .*socialpub connect youtube/);
    expect(createYoutubeAnalytics().refusal(creds({ scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'] }))).toBeNull();
  });
});
