import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon();

const signIn = (url: string) => fetch(url, { redirect: 'manual' });

describe('socialpub dashboard', () => {
  it('--json prints a one-time sign-in link to the daemon that works once, then 410', async () => {
    const r = await t.run('dashboard --json');
    expect(r.code).toBe(0);
    const link = r.json<{ url: string; expires_at: string }>();
    expect(Object.keys(link).sort()).toEqual(['expires_at', 'url']);
    expect(link.url).toMatch(new RegExp(`^${t.daemon.url}/auth/link/spl_[0-9a-z]{50}$`));
    const minutes = (Date.parse(link.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);

    const first = await signIn(link.url);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.getSetCookie().find((c) => c.startsWith('sp_session=')) as string;
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    const session = await fetch(`${t.daemon.url}/auth/session`, { headers: { Cookie: cookie.split(';')[0] as string } });
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe('tester@example.com');

    const second = await signIn(link.url);
    expect(second.status).toBe(410);
    expect(second.headers.getSetCookie()).toEqual([]);
  });

  it('--no-open prints the link on stdout; --user signs in that user', async () => {
    await t.run('keys create --user ana@example.com --json');
    const r = await t.run('dashboard --no-open --user ana@example.com');
    expect(r.code).toBe(0);
    const url = r.stdout.split('\n')[0] as string;
    expect(url).toMatch(/\/auth\/link\/spl_[0-9a-z]{50}$/);
    expect(r.stdout).toContain('Signs in ana@example.com once');
    const cookie = ((await signIn(url)).headers.getSetCookie()[0] as string).split(';')[0] as string;
    const session = await fetch(`${t.daemon.url}/auth/session`, { headers: { Cookie: cookie } });
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe('ana@example.com');
  });

  it('refuses an address that is not an email', async () => {
    const r = await t.run('dashboard --no-open --user nobody');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('not an email address');
  });
});

describe('socialpub schedule share', () => {
  it('prints a review link that approves the job once, which the SDK lists and revokes', async () => {
    const { SocialPub } = await import('@socialpub/sdk');
    t.connect('twitter');
    expect((await t.run('settings set approval-workflow on --user tester@example.com')).code).toBe(0);
    const client = new SocialPub({ baseUrl: t.daemon.url, apiKey: t.key.api_key });
    const job = await client.content.publish({ caption: 'for the client', platforms: ['twitter'], scheduled_for: new Date(Date.now() + 3_600_000).toISOString() });
    expect(job.status).toBe('pending_approval');

    const r = await t.run(`schedule share ${job.job_id} --expires-in 24 --json`);
    expect(r.code).toBe(0);
    const link = r.json<{ id: string; url: string; expires_at: string; job_ids: string[] }>();
    expect(link.job_ids).toEqual([job.job_id]);
    expect(link.url).toMatch(new RegExp(`^${t.daemon.url}/r/[0-9a-z]{43}$`));
    expect(Math.round((Date.parse(link.expires_at) - Date.now()) / 3_600_000)).toBe(24);
    const token = link.url.split('/r/')[1] as string;
    const publicApi = `${t.daemon.url}/api/agents/v1/review-links/public/${token}`;

    const read = (await (await fetch(publicApi)).json()) as { posts: { job_id: string; caption: string; version: number }[] };
    expect(read.posts.map((p) => [p.job_id, p.caption, p.version])).toEqual([[job.job_id, 'for the client', 1]]);
    // A decision names the version the reviewer saw (docs/api.md, review links).
    const decided = await fetch(`${publicApi}/decisions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ job_id: job.job_id, decision: 'approve', comment: 'ok', version: read.posts[0]!.version }) });
    expect(decided.status).toBe(200);
    expect((await client.scheduled.get(job.job_id)).post.status).toBe('scheduled');

    expect((await client.reviewLinks.list()).map((l) => [l.id, l.status])).toContainEqual([link.id, 'active']);
    await client.reviewLinks.revoke(link.id);
    expect((await client.reviewLinks.list()).find((l) => l.id === link.id)?.status).toBe('revoked');
    expect((await fetch(publicApi)).status).toBe(410);

    const human = await t.run(`schedule share ${job.job_id}`);
    expect(human.stdout).toMatch(/review link rvl_[0-9a-z]{20} for job_/);
    expect(human.stdout).toMatch(/\/r\/[0-9a-z]{43}/);
    const unknown = await t.run('schedule share job_doesnotexist');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no job job_doesnotexist');
  });
});
