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
