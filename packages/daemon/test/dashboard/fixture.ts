import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirDashboardFiles, type DashboardFiles } from '../../src/http/dashboard/dashboard-files';
import { API, harness, type Harness, type HarnessOptions } from '../http/harness';

/**
 * A stand-in for packages/dashboard/dist (the front end is built by its own package):
 * the three pages, a hashed script, an unhashed image, a directory, a symlink out of the
 * build and a secret file beside the build that must never be served.
 */
export function dashboardFixture(): { dir: string; files: DashboardFiles; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'socialpub-dashboard-'));
  const dir = join(root, 'dist');
  mkdirSync(join(dir, 'assets', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/assets/app-Ab12Cd34.js"></script>');
  writeFileSync(join(dir, 'signin.html'), '<!doctype html><title>sign in</title>');
  writeFileSync(join(dir, 'review-link.html'), '<!doctype html><title>review link</title>');
  writeFileSync(join(dir, 'assets', 'app-Ab12Cd34.js'), 'console.log("app");');
  writeFileSync(join(dir, 'assets', 'style-Zx98Yw76.css'), 'body{}');
  writeFileSync(join(dir, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'assets', 'styles-nzP1PD-m.css'), 'main{}');
  writeFileSync(join(dir, 'assets', 'my-filename.css'), 'p{}');
  writeFileSync(join(dir, 'assets', 'sub', 'deep-Qq11Ww22.js'), 'export {};');
  writeFileSync(join(dir, 'assets', '.hidden'), 'hidden');
  writeFileSync(join(root, 'secret.txt'), 'SECRET');
  symlinkSync(join(root, 'secret.txt'), join(dir, 'assets', 'link-Aa11Bb22.js'));
  const files = dirDashboardFiles(dir);
  if (!files) throw new Error('fixture has no index.html');
  return { dir, files, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface DashboardHarness extends Harness {
  /** The test daemon's own origin, as app.request sees it. */
  origin: string;
  /** A session cookie value for the harness user, opened through a one-time link like the CLI makes. */
  signIn(userId?: string): Promise<{ cookie: string; csrf: string }>;
  /** A request with the session cookie as a same-origin page of the dashboard sends it (override anything with `headers`). */
  page(method: string, path: string, session: { cookie: string; csrf?: string }, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

export const cookieOf = (res: Response): string | null => {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('sp_session='));
  return set ? (set.split(';')[0] as string).slice('sp_session='.length) : null;
};

export function dashboardHarness(opts: HarnessOptions = {}): DashboardHarness & { remove: () => void; dir: string } {
  const fixture = dashboardFixture();
  const h = harness({ ...opts, deps: { dashboardFiles: () => fixture.files, ...opts.deps } });
  const origin = 'http://localhost';
  async function signIn(userId = h.user.id) {
    const { token } = h.store.dashboardSessions.createSigninLink(userId, h.clock.now());
    const res = await h.app.request(`/auth/link/${token}`);
    const cookie = cookieOf(res);
    if (res.status !== 303 || !cookie) throw new Error(`sign-in failed: ${res.status}`);
    const session = await h.app.request('/auth/session', { headers: { Cookie: `sp_session=${cookie}` } });
    const { csrf_token } = (await session.json()) as { csrf_token: string };
    return { cookie, csrf: csrf_token };
  }
  function page(method: string, path: string, session: { cookie: string; csrf?: string }, { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {}) {
    const h2: Record<string, string> = {
      Cookie: `sp_session=${session.cookie}`,
      Origin: origin,
      'Sec-Fetch-Site': 'same-origin',
      ...(session.csrf ? { 'X-CSRF-Token': session.csrf } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    };
    for (const [k, v] of Object.entries(h2)) if (v === '') delete h2[k];
    return Promise.resolve(h.app.request(path, { method, headers: h2, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) }));
  }
  return { ...h, origin, signIn, page, remove: fixture.remove, dir: fixture.dir };
}

export { API };
