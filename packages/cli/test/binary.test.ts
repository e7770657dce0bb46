import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../src/local/daemon-files';
import { endDaemon, tempHome } from './helpers';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const home = tempHome();
/** The executable alone in an empty directory, which is also the whole PATH: no node anywhere. */
const dir = join(home.root, 'bin');
const exe = join(dir, 'socialpub');
const env = { ...home.env, PATH: dir, SOCIALPUB_CACHE_DIR: join(home.root, 'cache') };
const sp = (...args: string[]) => execa(exe, args, { env, extendEnv: false, reject: false, cwd: dir });

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  // .ci/run builds the executable once (SOCIALPUB_BINARY); run alone, this test builds its own.
  let built = process.env.SOCIALPUB_BINARY;
  if (!built) {
    built = join(home.root, 'build', 'socialpub');
    await run(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-binary.ts'), '--out', built], { cwd: root });
  }
  copyFileSync(built, exe);
}, 240_000);

afterAll(async () => {
  await endDaemon(home.dataDir, () => sp('down'));
  home.cleanup();
});

describe('the single executable, alone in a directory, no node on PATH', () => {
  it('runs up, connect, publish --now --wait and down, the daemon being itself re-executed', async () => {
    expect(readdirSync(dir)).toEqual(['socialpub']);
    await expect(execa('node', ['-e', '0'], { env, extendEnv: false, reject: false })).resolves.toMatchObject({ failed: true, code: 'ENOENT' });

    const version = await sp('--version');
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toBe(JSON.parse(readFileSync(join(root, 'packages', 'cli', 'package.json'), 'utf8')).version);

    const up = await sp('up', '--port', '0', '--json');
    expect(up.exitCode, up.stderr).toBe(0);
    const state = JSON.parse(up.stdout) as { pid: number; key_created: boolean };
    expect(state.key_created).toBe(true);
    // The daemon is this executable again, not a node.
    expect(readFileSync(`/proc/${state.pid}/cmdline`, 'utf8').split('\0').slice(0, 1)).toEqual([exe]);

    const connect = await sp('connect', 'twitter', '--sandbox');
    expect(connect.exitCode, connect.stderr).toBe(0);
    expect(connect.stderr).toBe('');

    const now = await sp('publish', 'hello from the single executable', '-p', 'twitter', '--now', '--wait', '--json');
    expect(now.exitCode, now.stderr).toBe(0);
    const job = JSON.parse(now.stdout) as { status: string; targets: { status: string; post_url: string }[] };
    expect(job.status).toBe('published');
    expect(job.targets[0]?.post_url).toMatch(/^https:\/\/x\.com\/\S+\/status\/\d+$/);

    // The addon was written once, under a directory named by its checksum, and loaded from there.
    const nativeDir = join(home.root, 'cache', 'native');
    const [sum] = readdirSync(nativeDir);
    const addon = readFileSync(join(nativeDir, sum as string, 'better_sqlite3.node'));
    expect(createHash('sha256').update(addon).digest('hex').slice(0, 16)).toBe(sum);
    // The checkpoint thread started from the unpacked module (it logs a warning when it cannot).
    expect(readFileSync(join(home.dataDir, 'daemon.log'), 'utf8')).not.toContain('checkpoint thread stopped');

    // The dashboard the build carried (packages/dashboard/dist, embedded as assets), behind a one-time sign-in link.
    const link = await sp('dashboard', '--json');
    expect(link.exitCode, link.stderr).toBe(0);
    const { url } = JSON.parse(link.stdout) as { url: string };
    const signedIn = await fetch(url, { redirect: 'manual' });
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.getSetCookie()[0] as string).split(';')[0] as string;
    const base = url.slice(0, url.indexOf('/auth/link/'));
    const app = await fetch(`${base}/`, { headers: { cookie } });
    const built = join(root, 'packages', 'dashboard', 'dist', 'index.html');
    if (existsSync(built)) {
      expect(app.status).toBe(200);
      expect(await app.text()).toBe(readFileSync(built, 'utf8'));
    } else {
      expect(app.status).toBe(503);
      expect(await app.text()).toContain('carries no dashboard');
    }
    expect(app.headers.get('content-security-policy')).toContain("script-src 'self'");

    const down = await sp('down');
    expect(down.exitCode).toBe(0);
    expect(isAlive(state.pid)).toBe(false);
  });

  it('writes the addon again when the cached copy no longer matches its checksum', async () => {
    const nativeDir = join(home.root, 'cache', 'native');
    const [sum] = readdirSync(nativeDir);
    const addonPath = join(nativeDir, sum as string, 'better_sqlite3.node');
    const good = readFileSync(addonPath);
    writeFileSync(addonPath, 'not an addon');
    const keys = await sp('keys', 'list', '--json');
    expect(keys.exitCode, keys.stderr).toBe(0);
    expect(readFileSync(addonPath).equals(good)).toBe(true);
  });

  it('has the CLI whole: help, an unknown command, a usage error as JSON', async () => {
    const help = await sp('--help');
    expect(help.stdout).toContain('Usage: socialpub [options] [command]');
    const bad = await sp('publish', '--json');
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ success: false, error: { exit_code: 2 } });
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
  });
});
