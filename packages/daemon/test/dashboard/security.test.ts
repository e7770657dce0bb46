import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/admin';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { useDashboardFiles } from '../../src/http/dashboard/dashboard-files';
import { openApiDocument } from '../../src/http/openapi';
import { createLogger } from '../../src/util/logger';
import { dashboardFixture } from './fixture';

// The dashboard's security rules against a real daemon listening on 127.0.0.1 (port 0),
// with fetch as a browser's requests look on the wire: no page or data without a
// session, nothing changed by a cross-site request carrying the cookie, the one-time link,
// the headers, the cookie's flags over TLS.
const API = '/api/agents/v1';
const tlsFixture = (name: string) => fileURLToPath(new URL(`../http/fixtures/${name}`, import.meta.url));
const fixture = dashboardFixture();
const dirs: string[] = [];
let daemon: DaemonHandle;
let key: string;
let userEmail: string;
const jobIds: string[] = [];

async function start(tls: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialpub-dash-sec-'));
  dirs.push(dataDir);
  const config = resolveConfig({ dataDir, host: '127.0.0.1', port: 0, ...(tls ? { tlsCert: tlsFixture('tls-cert.pem'), tlsKey: tlsFixture('tls-key.pem') } : {}) }, { SOCIALPUB_RATE_LIMITS: 'off' });
  return startDaemon(config, { logger: createLogger({ level: 'silent' }) });
}

function signinLink(dataDir: string): string {
  const admin = openAdmin(dataDir);
  try {
    return admin.createSigninLink({ email: userEmail }).token;
  } finally {
    admin.close();
  }
}

const cookieOf = (res: Response) => (res.headers.getSetCookie().find((c) => c.startsWith('sp_session=')) ?? '').split(';')[0] as string;

beforeAll(async () => {
  useDashboardFiles(() => fixture.files);
  daemon = await start(false);
  const admin = openAdmin(dirs[0] as string);
  const created = admin.createKey({ email: 'owner@example.com' });
  admin.addSandboxConnection('twitter', { email: 'owner@example.com' });
  admin.setApprovalWorkflow('owner@example.com', true);
  admin.close();
  key = created.api_key;
  userEmail = created.email;
  for (const caption of ['secret plan one', 'secret plan two']) {
    const res = await fetch(`${daemon.url}${API}/content/publish`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ caption, platforms: ['twitter'], scheduled_for: new Date(Date.now() + 86_400_000).toISOString() }),
    });
    jobIds.push(((await res.json()) as { job_id: string }).job_id);
  }
});
afterAll(async () => {
  await daemon?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  fixture.remove();
});

describe('without a session', () => {
  it('every documented GET of the API answers 401 (public ones aside) and no page shows the app', async () => {
    const paths = (openApiDocument() as { paths: Record<string, Record<string, { security?: unknown[] }>> }).paths;
    const checked: string[] = [];
    for (const [path, ops] of Object.entries(paths)) {
      if (!ops.get || !path.startsWith(API)) continue;
      const url = path.replace(/\{[^}]+\}/g, 'x').replace('/*', '/x');
      const res = await fetch(`${daemon.url}${url}`, { redirect: 'manual' });
      const body = await res.text();
      for (const id of jobIds) expect(body, url).not.toContain(id);
      expect(body, url).not.toContain('secret plan');
      if (ops.get.security?.length === 0) continue;
      expect(res.status, url).toBe(401);
      checked.push(url);
    }
    expect(checked.length).toBeGreaterThan(15);
    for (const page of ['/', '/review', '/calendar', '/compose', '/posts', '/connections', '/settings', '/settings/keys']) {
      const res = await fetch(`${daemon.url}${page}`, { redirect: 'manual' });
      expect(res.status, page).toBe(303);
      expect(res.headers.get('location')).toBe('/signin');
      expect(await res.text()).toBe('');
    }
    expect((await fetch(`${daemon.url}/signin`)).status).toBe(200);
  });

  it('answers every dashboard response with the strict CSP (no unsafe-inline, no eval) and the other headers', async () => {
    for (const path of ['/signin', '/', '/assets/app-Ab12Cd34.js', '/r/unknown', '/auth/link/spl_unknown', '/connect/callback?state=x']) {
      const res = await fetch(`${daemon.url}${path}`, { redirect: 'manual' });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self';");
      expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval|strict-dynamic|\*/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});

describe('with a session', () => {
  let cookie: string;
  let csrf: string;
  beforeAll(async () => {
    const token = signinLink(dirs[0] as string);
    const first = await fetch(`${daemon.url}/auth/link/${token}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    cookie = cookieOf(first);
    const again = await fetch(`${daemon.url}/auth/link/${token}`, { redirect: 'manual' });
    expect(again.status).toBe(410);
    expect(cookieOf(again)).toBe('');
    csrf = ((await (await fetch(`${daemon.url}/auth/session`, { headers: { Cookie: cookie } })).json()) as { csrf_token: string }).csrf_token;
  });

  const evil = { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' };
  const jobsOf = async () => ((await (await fetch(`${daemon.url}${API}/content/scheduled`, { headers: { 'X-API-Key': key } })).json()) as { posts: { job_id: string; status: string; caption: string }[] }).posts;

  it('a cross-site form post or fetch carrying the cookie changes nothing', async () => {
    const before = await jobsOf();
    const attempts: [string, string, RequestInit][] = [
      ['form publish', `${API}/content/publish`, { method: 'POST', headers: { ...evil, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'caption=pwned&platforms=twitter&publish_now=true' }],
      ['fetch publish with a guessed token', `${API}/content/publish`, { method: 'POST', headers: { ...evil, 'Content-Type': 'application/json', 'X-CSRF-Token': 'guess' }, body: JSON.stringify({ caption: 'pwned', platforms: ['twitter'], publish_now: true }) }],
      ['fetch publish with the real token from another origin', `${API}/content/publish`, { method: 'POST', headers: { ...evil, 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify({ caption: 'pwned', platforms: ['twitter'], publish_now: true }) }],
      ['form approve', `${API}/content/scheduled/approve?job_id=${jobIds[0]}`, { method: 'POST', headers: { ...evil, 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' }],
      ['form reject', `${API}/content/scheduled/reject?job_id=${jobIds[1]}`, { method: 'POST', headers: { ...evil, 'Content-Type': 'text/plain' }, body: '' }],
      ['fetch new key', `${API}/keys`, { method: 'POST', headers: { ...evil, 'Content-Type': 'application/json' }, body: '{}' }],
      ['fetch review link', `${API}/review-links`, { method: 'POST', headers: { ...evil, 'Content-Type': 'application/json' }, body: JSON.stringify({ job_ids: jobIds }) }],
      ['fetch settings', `${API}/settings`, { method: 'PUT', headers: { ...evil, 'Content-Type': 'application/json' }, body: JSON.stringify({ approval_workflow: false }) }],
      ['no Origin, no Sec-Fetch-Site', `${API}/keys`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: '{}' }],
      ['sign-out', '/auth/signout', { method: 'POST', headers: evil }],
    ];
    for (const [what, path, init] of attempts) {
      const res = await fetch(`${daemon.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), Cookie: cookie } });
      expect(res.status, what).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code, what).toBe('csrf_failed');
    }
    expect(await jobsOf()).toEqual(before);
    const keys = (await (await fetch(`${daemon.url}${API}/keys`, { headers: { 'X-API-Key': key } })).json()) as { data: unknown[] };
    expect(keys.data).toHaveLength(1);
    const links = (await (await fetch(`${daemon.url}${API}/review-links`, { headers: { 'X-API-Key': key } })).json()) as { data: unknown[] };
    expect(links.data).toEqual([]);
    // The session itself survived the forged sign-out.
    expect((await fetch(`${daemon.url}${API}/settings`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('the same request from the dashboard itself works', async () => {
    const res = await fetch(`${daemon.url}${API}/content/scheduled/approve?job_id=${jobIds[0]}`, { method: 'POST', headers: { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: daemon.url, 'Sec-Fetch-Site': 'same-origin' } });
    expect(res.status).toBe(200);
    expect((await jobsOf()).find((j) => j.job_id === jobIds[0])?.status).toBe('scheduled');
  });

  it('sets HttpOnly and SameSite=Strict on the cookie, and Secure over TLS', async () => {
    const tls = await start(true);
    try {
      const dir = dirs[dirs.length - 1] as string;
      const admin = openAdmin(dir);
      admin.createKey({ email: userEmail });
      admin.close();
      const token = signinLink(dir);
      const setCookie = await new Promise<string>((resolve, reject) => {
        const req = httpsRequest(`${tls.url}/auth/link/${token}`, { ca: readFileSync(tlsFixture('tls-cert.pem')) }, (res) => {
          res.resume();
          resolve((res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sp_session=')) ?? '');
        });
        req.on('error', reject);
        req.end();
      });
      expect(setCookie).toMatch(/^sp_session=sps_[0-9a-z]{50}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    } finally {
      await tls.close();
    }
  });
});
