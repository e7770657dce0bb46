import { describe, expect, it } from 'vitest';
import type { Platform, PostMetricsResponse, PostMetricsTarget } from '@socialpub/core';
import type { Credentials } from '../../src/platforms/adapter';
import { createLinkedinAnalytics } from '../../src/platforms/linkedin/analytics';
import { defaultVersion, linkedinVersions } from '../../src/platforms/linkedin/api-version';
import { createPinterestAnalytics } from '../../src/platforms/pinterest/analytics';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';

const defer = useCleanups();
// The sandbox connection's member administers the simulator's third and fourth organizations (platforms/linkedin/end-to-end.test.ts).
const ORG = '90000003';

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
  return w.store.credentials.credentialsFor(user.id, platform)!.secrets.access_token!;
}
const postIdOf = (w: SandboxDaemon, jobId: string, platform: string) => (w.db.prepare('SELECT post_id FROM targets WHERE job_id = ? AND platform = ?').get(jobId, platform) as { post_id: string }).post_id;
const refresh = async (w: SandboxDaemon, jobId: string) => {
  const r = await w.call('POST', '/analytics/refresh', { job_id: jobId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return Object.fromEntries((r.body as unknown as PostMetricsResponse).targets.map((t) => [t.platform, t])) as Record<string, PostMetricsTarget>;
};

describe('LinkedIn and Pinterest figures (issue 36)', () => {
  it("reads an organization's post and the member's own post with LinkedIn's documented calls, between two reads", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['linkedin'] });
    const orgJob = await publishAndSettle(w, { caption: 'From the company page', platforms: ['linkedin'], platform_options: { linkedin: { organization: ORG } } });
    const memberJob = await publishAndSettle(w, { caption: 'From me', platforms: ['linkedin'] });
    const api = sandboxBaseUrl(w.url, 'api.linkedin.com');
    const headers = () => ({ authorization: `Bearer ${tokenOf(w, 'linkedin')}`, 'LinkedIn-Version': defaultVersion(w.clock.now()), 'X-Restli-Protocol-Version': '2.0.0' });
    const orgPost = postIdOf(w, orgJob, 'linkedin');
    const memberPost = postIdOf(w, memberJob, 'linkedin');
    const readOrg = async () => {
      const r = await fetch(`${api}/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeURIComponent(`urn:li:organization:${ORG}`)}&shares=List(${encodeURIComponent(orgPost)})`, { headers: headers() });
      expect(r.status).toBe(200);
      return ((await r.json()) as { elements: Array<{ share: string; totalShareStatistics: Record<string, number> }> }).elements[0]!.totalShareStatistics;
    };
    const readMember = async () => {
      const out: Record<string, number> = {};
      for (const type of ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE']) {
        const r = await fetch(`${api}/rest/memberCreatorPostAnalytics?q=entity&entity=(share:${encodeURIComponent(memberPost)})&queryType=${type}&aggregation=TOTAL`, { headers: headers() });
        expect(r.status).toBe(200);
        out[type] = ((await r.json()) as { elements: Array<{ count: number }> }).elements[0]!.count;
      }
      return out;
    };

    await w.clock.advance(60_000);
    const before = { org: await readOrg(), member: await readMember() };
    await w.clock.advance(30_000);
    const org = (await refresh(w, orgJob)).linkedin!;
    const member = (await refresh(w, memberJob)).linkedin!;
    await w.clock.advance(30_000);
    const after = { org: await readOrg(), member: await readMember() };

    expect([org.problem, member.problem]).toEqual([null, null]);
    for (const name of ['impressionCount', 'uniqueImpressionsCount', 'clickCount', 'likeCount', 'commentCount', 'shareCount']) {
      expect(org.platform_metrics[name], name).toBeGreaterThanOrEqual(before.org[name]!);
      expect(org.platform_metrics[name], name).toBeLessThanOrEqual(after.org[name]!);
    }
    for (const name of ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE']) {
      expect(member.platform_metrics[name], name).toBeGreaterThanOrEqual(before.member[name]!);
      expect(member.platform_metrics[name], name).toBeLessThanOrEqual(after.member[name]!);
    }
    const o = org.platform_metrics;
    expect(org.metrics).toEqual({ impressions: o.impressionCount, likes: o.likeCount, comments: o.commentCount, shares: o.shareCount, clicks: o.clickCount });
    const m = member.platform_metrics;
    expect(member.metrics).toEqual({ impressions: m.IMPRESSION, likes: m.REACTION, comments: m.COMMENT, shares: m.RESHARE });
  });

  it("reads a pin's figures from /v5/pins/{id}/analytics, between two reads, and refuses a window over 90 days", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['pinterest'] });
    const src = await serveSamples(defer);
    const image = await prepareMedia(w, `${src}/photo.jpg`);
    const jobId = await publishAndSettle(w, { caption: 'A pin with figures', platforms: ['pinterest'], media_urls: [image], platform_options: { pinterest: { title: 'Figures' } } });
    const pin = postIdOf(w, jobId, 'pinterest');
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const read = async (startMs = w.clock.now() - 89 * 86_400_000) => {
      const r = await fetch(`${sandboxBaseUrl(w.url, 'api.pinterest.com')}/v5/pins/${pin}/analytics?start_date=${day(startMs)}&end_date=${day(w.clock.now())}&metric_types=IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK`, {
        headers: { authorization: `Bearer ${tokenOf(w, 'pinterest')}` },
      });
      return { status: r.status, body: (await r.json()) as { ALL?: { summary_metrics: Record<string, number>; daily_metrics: unknown[] }; code?: number; message?: string } };
    };
    await w.clock.advance(60_000);
    const before = (await read()).body.ALL!.summary_metrics;
    await w.clock.advance(30_000);
    const mine = (await refresh(w, jobId)).pinterest!;
    await w.clock.advance(30_000);
    const after = (await read()).body.ALL!.summary_metrics;
    expect(mine.problem).toBeNull();
    for (const name of ['IMPRESSION', 'SAVE', 'PIN_CLICK', 'OUTBOUND_CLICK']) {
      expect(mine.platform_metrics[name], name).toBeGreaterThanOrEqual(before[name]!);
      expect(mine.platform_metrics[name], name).toBeLessThanOrEqual(after[name]!);
    }
    const p = mine.platform_metrics;
    expect(mine.metrics).toMatchObject({ impressions: p.IMPRESSION, saves: p.SAVE, clicks: p.PIN_CLICK! + p.OUTBOUND_CLICK! });
    const tooFar = await read(w.clock.now() - 91 * 86_400_000);
    expect([tooFar.status, tooFar.body.code]).toEqual([400, 1]);
  });

  it('says a connection made without the figures permission lacks it', () => {
    const creds = (meta: Record<string, unknown>, pageId: string | null = null) => ({ connectionId: 'c1', mode: 'live', secrets: {}, meta, pageId }) as unknown as Credentials;
    const linkedin = createLinkedinAnalytics({ versions: linkedinVersions({}) });
    expect(linkedin.refusal(creds({ scopes: ['openid', 'w_member_social'] }))).toMatch(/r_member_postAnalytics .*socialpub connect linkedin/);
    expect(linkedin.refusal(creds({ scopes: ['w_organization_social'] }, 'urn:li:organization:1'))).toMatch(/rw_organization_admin/);
    expect(linkedin.refusal(creds({ scopes: ['r_member_postAnalytics'] }))).toBeNull();
    expect(createPinterestAnalytics().refusal(creds({ scopes: ['pins:write'] }))).toMatch(/pins:read/);
  });
});
