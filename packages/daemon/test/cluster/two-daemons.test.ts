import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/admin';
import { openDatabase, type DB } from '../../src/store/database';
import { testDatabaseConfig } from '../support/store-dialects';
import { checkInterfaceContract, type ContractTarget } from '../http/interface-contract';

/**
 * Issue 34's "done when": two daemons over one PostgreSQL database and one data dir. Each
 * passes the interface contract (test/http/interface-contract.ts) while the other runs and
 * publishes, and answers the interface for what the other stored; a post accepted by one for "now" is
 * published once, and its events reach the other's stream; posts accepted by one that is
 * then SIGKILLed before they fall due are published by the other exactly once.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./daemon-child.ts', import.meta.url));
const API = '/api/agents/v1';
const dir = mkdtempSync(join(tmpdir(), 'socialpub-two-daemons-'));
const dataDir = join(dir, 'data');
const databaseUrl = testDatabaseConfig(dataDir).databaseUrl;
let key = '';
let db: DB;
const children: ChildProcess[] = [];

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

function startDaemon(): Promise<Running> {
  const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', CHILD, dataDir, databaseUrl!], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, exited });
    });
    void exited.then((code) => reject(new Error(`daemon exited (${code}) before ready: ${stderr}`)));
  });
}

async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${API}${path}`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The interface contract's view of one daemon (test/http/interface-contract.ts). */
const contractTarget = (base: string): ContractTarget => ({
  call: (method, path, body) =>
    fetch(`${base}${API}${path}`, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  health: () => fetch(`${base}/healthz`),
});

/** How many times the simulators received each caption (sandbox_posts, shared by both daemons' simulators). */
function postedCaptions(): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of db.prepare('SELECT body FROM sandbox_posts').pluck().all() as string[]) {
    const b = JSON.parse(r) as { text?: string; status?: string };
    const text = b.text ?? b.status ?? '';
    out.set(text, (out.get(text) ?? 0) + 1);
  }
  return out;
}

let a: Running;
let b: Running;

beforeAll(async () => {
  expect(databaseUrl, 'this suite runs in the postgres project').toMatch(/^postgres:/);
  const admin = openAdmin(dataDir, { databaseUrl: databaseUrl! });
  key = admin.createKey({ email: 'two@example.com', name: 'cluster' }).api_key;
  admin.addSandboxConnection('twitter', { email: 'two@example.com' });
  admin.addSandboxConnection('mastodon', { email: 'two@example.com' });
  admin.addSandboxConnection('instagram', { email: 'two@example.com' });
  admin.close();
  db = openDatabase(databaseUrl!);
  [a, b] = await Promise.all([startDaemon(), startDaemon()]);
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two daemons over one PostgreSQL database', () => {
  it('both report the database and each other on /healthz, one of them leading', async () => {
    const health = await until('both heartbeats', async () => {
      const h = (await (await fetch(`${b.url}/healthz`)).json()) as { database: { kind: string; ok: boolean }; daemons: { leader: boolean; url: string }[] };
      return h.daemons.length === 2 ? h : undefined;
    });
    expect(health.database).toEqual({ kind: 'postgres', ok: true });
    expect(health.daemons.map((d) => d.url).sort()).toEqual([a.url, b.url].sort());
    expect(health.daemons.filter((d) => d.leader)).toHaveLength(1);
  });

  it('answers on either daemon for what the other stored: publish, read, edit, cancel', async () => {
    // Far ahead: it stays scheduled whatever the day.
    const at = '2099-06-01T09:00:00.000Z';
    const made = await call<{ job_id: string; status: string }>(a.url, 'POST', '/content/publish', { caption: 'made on A', platforms: ['twitter', 'mastodon'], scheduled_for: at });
    expect(made.status).toBe(200);
    const seen = await call<{ post: { caption: string; status: string; targets: unknown[] } }>(b.url, 'GET', `/content/scheduled?job_id=${made.body.job_id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.post).toMatchObject({ caption: 'made on A', status: 'scheduled' });
    expect(seen.body.post.targets).toHaveLength(2);
    const edited = await call<{ post: { caption: string } }>(b.url, 'PATCH', `/content/scheduled?job_id=${made.body.job_id}`, { caption: 'edited on B' });
    expect(edited.status).toBe(200);
    expect((await call<{ post: { caption: string } }>(a.url, 'GET', `/content/scheduled?job_id=${made.body.job_id}`)).body.post.caption).toBe('edited on B');
    expect((await call(a.url, 'DELETE', `/content/scheduled?job_id=${made.body.job_id}`)).status).toBe(200);
    expect((await call<{ post: { status: string } }>(b.url, 'GET', `/content/scheduled?job_id=${made.body.job_id}`)).body.post.status).toBe('cancelled');
  });

  it('passes the interface contract against either daemon while the other runs and publishes', async () => {
    for (const [front, other] of [
      [a, b],
      [b, a],
    ] as const) {
      // Posts for "now" accepted by the other daemon go out (through either) while the contract runs.
      const captions = Array.from({ length: 4 }, (_, i) => `beside the contract ${i} ${Math.random().toString(36).slice(2)}`);
      const posting = Promise.all(captions.map((caption) => call<{ job_id: string }>(other.url, 'POST', '/content/publish', { caption, platforms: ['mastodon'], publish_now: true })));
      // Far ahead: the contract's post stays scheduled whatever the day.
      await checkInterfaceContract(contractTarget(front.url), { scheduledFor: '2099-06-01T09:00:00Z', movedTo: '2099-06-01T11:00:00Z' });
      const made = await posting;
      expect(made.map((m) => m.status)).toEqual(captions.map(() => 200));
      for (const m of made) {
        await until(`${m.body.job_id} published`, async () =>
          (await call<{ post: { status: string } }>(front.url, 'GET', `/content/scheduled?job_id=${m.body.job_id}`)).body.post.status === 'published' ? true : undefined,
        );
      }
      const posted = postedCaptions();
      expect(captions.map((c) => posted.get(c))).toEqual(captions.map(() => 1));
    }
  });

  it('publishes a post accepted by one for "now" once, and the other daemon streams its events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${b.url}${API}/events`, { headers: { 'X-API-Key': key, Accept: 'text/event-stream' }, signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let streamed = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        streamed += new TextDecoder().decode(value);
      }
    })().catch(() => undefined);
    const caption = `now through A ${Math.random().toString(36).slice(2)}`;
    const made = await call<{ job_id: string }>(a.url, 'POST', '/content/publish', { caption, platforms: ['twitter'], publish_now: true });
    expect(made.status).toBe(200);
    await until('published', async () => ((await call<{ post: { status: string } }>(b.url, 'GET', `/content/scheduled?job_id=${made.body.job_id}`)).body.post.status === 'published' ? true : undefined));
    await until('B streams the publish', () => (streamed.includes('target.published') && streamed.includes(made.body.job_id) ? true : undefined));
    controller.abort();
    await reading;
    expect(postedCaptions().get(caption)).toBe(1);
  });

  it('posts accepted by a daemon that is SIGKILLed before they fall due are published by the other, each once', { timeout: 60_000 }, async () => {
    // Real time, not a date: the daemons are processes of their own on the system clock (no
    // injected clock reaches them), so the posts fall due 3 s from now, whatever the day.
    const due = new Date(Date.now() + 3_000).toISOString();
    const captions = Array.from({ length: 12 }, (_, i) => `failover ${i} ${Math.random().toString(36).slice(2)}`);
    const jobs: string[] = [];
    for (const [i, caption] of captions.entries()) {
      const made = await call<{ job_id: string }>(a.url, 'POST', '/content/publish', { caption, platforms: i % 2 ? ['twitter', 'mastodon'] : ['mastodon'], scheduled_for: due });
      expect(made.status).toBe(200);
      jobs.push(made.body.job_id);
    }
    a.child.kill('SIGKILL');
    await a.exited;
    for (const job of jobs) {
      await until(`job ${job} published by B`, async () => ((await call<{ post: { status: string } }>(b.url, 'GET', `/content/scheduled?job_id=${job}`)).body.post.status === 'published' ? true : undefined), 30_000);
    }
    const posted = postedCaptions();
    // Every target once: the twitter+mastodon jobs twice (one per network), the others once.
    expect(captions.map((c) => posted.get(c))).toEqual(captions.map((_, i) => (i % 2 ? 2 : 1)));
    const health = (await (await fetch(`${b.url}/healthz`)).json()) as { daemons: { url: string; leader: boolean }[] };
    expect(health.daemons.map((d) => d.url)).toContain(b.url);
  });
});
