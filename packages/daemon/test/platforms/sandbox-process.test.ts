import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/index';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { createSandbox, readSandboxEndpoints } from '../../src/platforms/sandbox';
import { systemClock } from '../../src/util/clock';
import { createLogger } from '../../src/util/logger';
import { useTempDirs } from '../support/temp-dirs';
import { listSandboxPosts } from '../support/sandbox-records';

/**
 * The simulators in their own process (`socialpub sandbox serve`, what `daemon run` uses):
 * served under the daemon's /sandbox/<host>/ and at their own origins, publishing through
 * the real adapters, restarted when killed while the daemon goes on, and — measured — no
 * longer holding the daemon's event loop when busy.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** `socialpub` from the sources, as the CLI's selfCommand() gives it in a checkout. */
const SELF = { file: process.execPath, args: ['--conditions=@socialpub/source', '--import', 'tsx', 'packages/cli/src/cli.ts'], cwd: ROOT };

const tempDir = useTempDirs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const quiet = { logger: createLogger({ write: () => undefined }) };

async function start(mode: 'process' | 'in-process'): Promise<{ daemon: DaemonHandle; dir: string }> {
  const dir = tempDir(`sp-sandbox-${mode}-`);
  const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0, rateLimitsEnabled: false }, {}), { ...quiet, ...(mode === 'process' ? { sandboxProcess: SELF } : {}) });
  closers.push(() => daemon.close());
  return { daemon, dir };
}

const tweet = (base: string, text: string) =>
  fetch(`${base}/2/tweets`, { method: 'POST', headers: { authorization: 'Bearer sandbox_at_proc.secret', 'content-type': 'application/json' }, body: JSON.stringify({ text }) });

async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the simulators in their own process', () => {
  it('serve /sandbox/<host>/ through the daemon and their own origins, publish through the real adapters, and come back when killed', async () => {
    const { daemon, dir } = await start('process');
    expect(daemon.sandbox.mode).toBe('process');
    expect(daemon.sandbox.pid).not.toBe(process.pid);
    const origins = readSandboxEndpoints(daemon.store.settings);
    // Every simulator of the platform registry, none listed by hand (platforms added elsewhere come along).
    expect(Object.keys(origins).sort()).toEqual(createSandbox({ store: null, clock: systemClock }).hosts.sort());
    expect(Object.keys(origins)).toEqual(expect.arrayContaining(['api.x.com', 'graph.facebook.com', 'graph.threads.net', 'open.tiktokapis.com', 'www.googleapis.com']));

    expect((await tweet(`${daemon.url}/sandbox/api.x.com`, 'through the daemon')).status).toBe(201);
    expect((await tweet(origins['api.x.com']!, 'at its origin')).status).toBe(201);
    // The daemon's connection reads what the simulators' process wrote.
    expect(listSandboxPosts(daemon.store).map((p) => p.body.text)).toEqual(['through the daemon', 'at its origin']);

    const admin = openAdmin(dir);
    const key = admin.createKey({ email: 'proc@example.com' }).api_key;
    admin.addSandboxConnection('threads', { email: 'proc@example.com' });
    admin.close();
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${daemon.url}/api/agents/v1${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const published = async (caption: string) => {
      const res = await api('POST', '/content/publish', { caption, platforms: ['threads'], scheduled_for: new Date().toISOString() });
      expect(res.status).toBeLessThan(300);
      await until(() => listSandboxPosts(daemon.store, { platform: 'threads' }).some((p) => p.body.text === caption), 20_000);
    };
    await published('before the crash');

    // A crash of the simulators never stops the daemon: it answers meanwhile and starts them again.
    const first = daemon.sandbox.pid!;
    const url = daemon.sandbox.url;
    process.kill(first, 'SIGKILL');
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
    await until(() => daemon.sandbox.restarts === 1 && daemon.sandbox.pid !== null && daemon.sandbox.pid !== first, 20_000);
    await until(async () => (await tweet(`${daemon.url}/sandbox/api.x.com`, 'after the restart').catch(() => null))?.status === 201, 20_000);
    expect(daemon.sandbox.url).toBe(url);
    await published('after the crash');
    expect(listSandboxPosts(daemon.store, { platform: 'threads' })).toHaveLength(2);

    // Stopping the daemon stops its simulators.
    const pid = daemon.sandbox.pid!;
    await daemon.close();
    expect(() => process.kill(pid, 0)).toThrow();
  }, 90_000);
});

describe('socialpub sandbox serve', () => {
  it('runs only the simulators, prints where they are like `sandbox endpoints --json` plus their url, and stops on SIGTERM', async () => {
    const dir = tempDir('sp-sandbox-serve-');
    const child = spawn(SELF.file, [...SELF.args, 'sandbox', 'serve', '--port', '0', '--json', '--data-dir', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    closers.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const parsed = () => {
      try {
        return JSON.parse(out) as { url: string; endpoints: Record<string, string>; https_endpoints: Record<string, string>; ca_file: string };
      } catch {
        return null;
      }
    };
    await until(() => parsed() !== null, 30_000);
    const doc = parsed()!;
    expect(doc.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(doc.ca_file).toMatch(/sandbox-tls\/cert\.pem$/);
    expect(Object.keys(doc.https_endpoints)).toEqual(Object.keys(doc.endpoints));
    expect((await tweet(`${doc.url}/sandbox/api.x.com`, 'served alone')).status).toBe(201);
    expect((await tweet(doc.endpoints['api.x.com']!, 'served alone, at the origin')).status).toBe(201);
    // Kept in the data dir's sandbox.db, which `sandbox posts` and `sandbox endpoints` read (no daemon database made).
    const cli = (...args: string[]) => JSON.parse(spawnSync(SELF.file, [...SELF.args, ...args, '--json', '--data-dir', dir], { cwd: ROOT, encoding: 'utf8' }).stdout) as Record<string, unknown>;
    expect((cli('sandbox', 'posts').posts as { body: { text: string } }[]).map((p) => p.body.text)).toEqual(['served alone', 'served alone, at the origin']);
    expect(cli('sandbox', 'endpoints').endpoints).toEqual(doc.endpoints);
    expect(existsSync(join(dir, 'sandbox.db'))).toBe(true);
    expect(existsSync(join(dir, 'socialpub.db'))).toBe(false);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});

/**
 * A burst of simulated uploads from another process (200 YouTube multipart uploads of
 * 512 KB, 16 at a time) while this process — the daemon — measures its event-loop delay.
 */
async function burst(base: string): Promise<void> {
  const script = `
const body = (i) => { const b = 'burst'; const video = Buffer.alloc(512 * 1024, i % 251);
  return [b, Buffer.concat([Buffer.from('--' + b + '\\r\\nContent-Type: application/json\\r\\n\\r\\n' + JSON.stringify({ snippet: { title: 'Burst ' + i }, status: { privacyStatus: 'private' } }) + '\\r\\n--' + b + '\\r\\nContent-Type: video/mp4\\r\\n\\r\\n'), video, Buffer.from('\\r\\n--' + b + '--\\r\\n')])]; };
let next = 0; let failed = 0;
const worker = async () => { while (next < 200) { const i = next++; const [b, data] = body(i);
  const r = await fetch(process.argv[1] + '/upload/youtube/v3/videos?uploadType=multipart&part=snippet,status', { method: 'POST', headers: { authorization: 'Bearer sandbox_at_burst' + (i % 40) + '.secret', 'content-type': 'multipart/related; boundary=' + b }, body: data });
  if (r.status !== 200) failed++; await r.arrayBuffer(); } };
await Promise.all(Array.from({ length: 16 }, worker));
if (failed) { console.error(failed + ' uploads failed'); process.exit(1); }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, base], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`burst failed: ${stderr}`);
}

async function loopDelayDuringBurst(mode: 'process' | 'in-process'): Promise<{ p99: number; max: number; ms: number }> {
  const { daemon } = await start(mode);
  const origin = readSandboxEndpoints(daemon.store.settings)['www.googleapis.com']!;
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const began = performance.now();
  await burst(origin);
  const ms = performance.now() - began;
  h.disable();
  expect(listSandboxPosts(daemon.store, { platform: 'youtube', limit: 1000 })).toHaveLength(200);
  return { p99: h.percentile(99) / 1e6, max: h.max / 1e6, ms };
}

describe('a busy sandbox and the daemon\'s event loop', () => {
  it('holds the loop while the simulators share it, and not once they run in their own process', async () => {
    const before = await loopDelayDuringBurst('in-process');
    const after = await loopDelayDuringBurst('process');
    const fmt = (r: { p99: number; max: number; ms: number }) => `p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (burst ${Math.round(r.ms)} ms)`;
    console.log(`event-loop delay of the daemon during 200 simulated 512 KB uploads: simulators in-process ${fmt(before)}; in their own process ${fmt(after)}`);
    expect(after.p99).toBeLessThan(before.p99);
    expect(after.p99).toBeLessThan(100);
  }, 180_000);
});
