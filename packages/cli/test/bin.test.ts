import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../src/local/daemon-files';
import { endDaemon, tempHome } from './helpers';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'socialpub');
const bundle = join(root, 'packages', 'cli', 'dist', 'cli.js');
const home = tempHome();
const sp = (...args: string[]) => execa(bin, args, { env: { ...process.env, ...home.env }, extendEnv: false, reject: false });

beforeAll(() => {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`scripts/pnpm build\` before the tests (CI does)`);
});
afterAll(async () => {
  await endDaemon(home.dataDir, () => sp('down'));
  home.cleanup();
});

describe('bin/socialpub (the built executable)', () => {
  it('prints its version and help', async () => {
    const v = await sp('--version');
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toBe('0.1.0');
    const h = await sp('--help');
    expect(h.exitCode).toBe(0);
    expect(h.stdout).toContain('Usage: socialpub [options] [command]');
    expect(h.stderr).toBe('');
  });

  it('ends quietly with exit 0 when the reader of its output has gone (socialpub --help | head)', async () => {
    // The read end is closed before the CLI writes a byte, so its first write fails with EPIPE.
    const child = spawn(bin, ['--help'], { env: { ...process.env, ...home.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('goes from nothing to a published post URL and a scheduled post, and back down', async () => {
    const up = await sp('up', '--port', '0', '--json');
    expect(up.exitCode, up.stderr).toBe(0);
    const state = JSON.parse(up.stdout) as { url: string; pid: number; key_created: boolean };
    expect(state.key_created).toBe(true);
    expect(isAlive(state.pid)).toBe(true);

    const connect = await sp('connect', 'twitter', '--sandbox');
    expect(connect.exitCode).toBe(0);
    expect(connect.stderr).toBe(''); // no warnings (e.g. deprecations) leak into a normal run

    // The README's promise: a sandbox connection, then a published post URL.
    const now = await sp('publish', 'hello', '-p', 'twitter', '--now', '--wait');
    expect(now.exitCode, now.stderr).toBe(0);
    expect(now.stdout).toMatch(/^https:\/\/x\.com\/\S+\/status\/\d+$/);

    const pub = await sp('publish', 'hello from the bin', '-p', 'twitter', '--at', '+2h', '--json');
    expect(pub.exitCode, pub.stderr).toBe(0);
    const job = JSON.parse(pub.stdout) as { job_id: string; status: string };
    expect(job.status).toBe('scheduled');

    const list = await sp('schedule', 'list', '--status', 'scheduled', '--json');
    expect((JSON.parse(list.stdout) as { posts: { job_id: string }[] }).posts.map((p) => p.job_id)).toEqual([job.job_id]);

    const missing = await sp('schedule', 'show', 'job_nope', '--json');
    expect(missing.exitCode).toBe(4);
    expect(JSON.parse(missing.stdout)).toMatchObject({ success: false, error: { code: 'not_found', exit_code: 4 } });

    const down = await sp('down');
    expect(down.exitCode).toBe(0);
    expect(down.stdout).toContain('daemon stopped');
    expect(isAlive(state.pid)).toBe(false);
    const gone = await sp('schedule', 'list');
    expect(gone.exitCode).toBe(7);
  });
});
