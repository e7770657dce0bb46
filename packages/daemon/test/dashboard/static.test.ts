import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assetDashboardFiles, safeRelativePath } from '../../src/http/dashboard/dashboard-files';
import { DASHBOARD_CSP } from '../../src/http/dashboard/security-headers';
import { harness } from '../http/harness';
import { dashboardHarness } from './fixture';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});
function setup() {
  const h = dashboardHarness();
  cleanup.push(h.remove);
  return h;
}

function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get('content-security-policy');
  expect(csp).toBe(DASHBOARD_CSP);
  const scriptSrc = csp?.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
  expect(scriptSrc).toBe("script-src 'self'");
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

describe('the dashboard build on the daemon origin', () => {
  it('serves the sign-in page to anyone, with the security headers and no caching', async () => {
    const h = setup();
    const res = await h.app.request('/signin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('<title>sign in</title>');
    expectSecurityHeaders(res);
  });

  it.each(['/', '/review', '/calendar', '/compose', '/posts', '/connections', '/settings', '/posts/job_abc'])('sends %s without a session to /signin (303), showing nothing of the app', async (path) => {
    const h = setup();
    const res = await h.app.request(path);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/signin');
    expect(await res.text()).not.toContain('app');
    expectSecurityHeaders(res);
  });

  it('serves hashed assets with their type and a year of immutable caching; unhashed ones revalidate', async () => {
    const h = setup();
    const js = await h.app.request('/assets/app-Ab12Cd34.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log("app");');
    expectSecurityHeaders(js);
    const css = await h.app.request('/assets/style-Zx98Yw76.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const deep = await h.app.request('/assets/sub/deep-Qq11Ww22.js');
    expect(await deep.text()).toBe('export {};');
    const vite = await h.app.request('/assets/styles-nzP1PD-m.css');
    expect(vite.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const plain = await h.app.request('/assets/my-filename.css');
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    const svg = await h.app.request('/assets/logo.svg');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('no-cache');
  });

  it.each([
    '/assets/..%2Fsecret.txt',
    '/assets/..%2F..%2Fsecret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/assets/sub/..%5C..%5Csecret.txt',
    '/assets/.hidden',
    '/assets/sub',
    '/assets/sub/',
    '/assets/',
    '/assets/link-Aa11Bb22.js',
    '/assets/index.html%00.js',
    '/assets/nope-Ab12Cd34.js',
  ])('refuses %s (no traversal, no hidden file, no listing, no symlink out): 404 without content', async (path) => {
    const h = setup();
    const res = await h.app.request(path);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('hidden');
    expect(text).not.toContain('deep-');
  });

  it('answers HEAD like GET without a body', async () => {
    const h = setup();
    const res = await h.app.request('/assets/app-Ab12Cd34.js', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('answers a daemon built without the dashboard with a page that says so (503), the API unaffected', async () => {
    const h = harness({ deps: { dashboardFiles: () => null } });
    const res = await h.app.request('/signin');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('carries no dashboard');
    expectSecurityHeaders(res);
    expect((await h.call('GET', '/api/agents/v1/settings')).status).toBe(200);
  });

  it('keeps the API free of the dashboard headers and the dashboard free of API routes', async () => {
    const h = setup();
    const api = await h.call('GET', '/api/agents/v1/settings');
    expect(api.status).toBe(200);
    expect(api.headers.get('content-security-policy')).toBeNull();
    expect((await h.app.request('/nowhere')).status).toBe(404);
  });
});

describe('a dashboard directory on disk', () => {
  it('serves a rebuilt file at once, and never a file swapped for a symlink out of the build', async () => {
    const h = setup();
    expect(await (await h.app.request('/assets/style-Zx98Yw76.css')).text()).toBe('body{}');
    const file = join(h.dir, 'assets', 'style-Zx98Yw76.css');
    writeFileSync(file, 'body{color:red}');
    expect(await (await h.app.request('/assets/style-Zx98Yw76.css')).text()).toBe('body{color:red}');
    rmSync(file);
    symlinkSync(join(h.dir, '..', 'secret.txt'), file);
    const res = await h.app.request('/assets/style-Zx98Yw76.css');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('SECRET');
  });
});

describe('safeRelativePath', () => {
  it('accepts plain paths and refuses dots, empties, separators and encodings', () => {
    expect(safeRelativePath('app-1.js')).toBe('app-1.js');
    expect(safeRelativePath('a/b.css')).toBe('a/b.css');
    for (const bad of ['', '..', '../x', 'a/../b', './a', 'a//b', 'a/', '.env', 'a\\b', '%2e%2e', 'a\0b', 'x'.repeat(600)]) expect(safeRelativePath(bad)).toBeNull();
  });
});

describe('the dashboard embedded in the single executable', () => {
  it('reads only the files its manifest lists', () => {
    const assets: Record<string, string> = { 'dashboard-manifest.json': JSON.stringify(['index.html', 'assets/a-12345678.js']), 'dashboard/index.html': 'INDEX', 'dashboard/assets/a-12345678.js': 'JS', 'dashboard/other.txt': 'NOT LISTED' };
    const files = assetDashboardFiles((name) => (name in assets ? (new TextEncoder().encode(assets[name]).buffer as ArrayBuffer) : undefined));
    expect(new TextDecoder().decode(files?.read('index.html') ?? undefined)).toBe('INDEX');
    expect(new TextDecoder().decode(files?.read('assets/a-12345678.js') ?? undefined)).toBe('JS');
    expect(files?.read('other.txt')).toBeNull();
    expect(assetDashboardFiles(() => undefined)).toBeNull();
  });
});
