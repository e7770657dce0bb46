import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/index';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { openSandboxDatabase, sandboxDbPath } from '../../src/store/sandbox-database';
import { createLogger } from '../../src/util/logger';
import { useTempDirs } from '../support/temp-dirs';

/**
 * The simulators in their own process keep their data in a file of their own (sandbox.db
 * beside the daemon's database), so the daemon's writes never wait on their write lock; they
 * read the daemon's file read-only for whose connection calls and that user's faults, and the
 * daemon reads theirs read-only for GET /sandbox/posts.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SELF = { file: process.execPath, args: ['--conditions=@socialpub/source', '--import', 'tsx', 'packages/cli/src/cli.ts'], cwd: ROOT };

const tempDir = useTempDirs();
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const quiet = { logger: createLogger({ write: () => undefined }) };

async function start(dir: string, mode: 'process' | 'in-process'): Promise<DaemonHandle> {
  const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0, rateLimitsEnabled: false }, {}), { ...quiet, ...(mode === 'process' ? { sandboxProcess: SELF } : {}) });
  closers.push(() => daemon.close());
  return daemon;
}

/** Rows of a table, read straight from a file (read-only). */
function count(path: string, table: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function userWithTwitter(dir: string, email: string): { key: string; userId: string } {
  const admin = openAdmin(dir);
  try {
    const key = admin.createKey({ email }).api_key;
    const userId = admin.addSandboxConnection('twitter', { email }).user_id;
    return { key, userId };
  } finally {
    admin.close();
  }
}

const tweet = (base: string, token: string, text: string) =>
  fetch(`${base}/sandbox/api.x.com/2/tweets`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text }) });

describe('the simulators\' own database', () => {
  it('keeps their posts in sandbox.db (0600), not in the daemon\'s file; user faults and GET /sandbox/posts work across the two files', async () => {
    const dir = tempDir('sp-sandbox-db-');
    const daemon = await start(dir, 'process');
    const own = sandboxDbPath(dir);
    expect(statSync(own).mode & 0o777).toBe(0o600);
    const a = userWithTwitter(dir, 'a@example.com');
    const b = userWithTwitter(dir, 'b@example.com');
    const tokenOf = (userId: string) => {
      const token = daemon.store.credentials.credentialsFor(userId, 'twitter')?.secrets.access_token;
      if (!token) throw new Error(`no sandbox token for ${userId}`);
      return token;
    };
    const api = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${daemon.url}/api/agents/v1${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });

    expect((await tweet(daemon.url, tokenOf(a.userId), 'from a')).status).toBe(201);
    expect((await tweet(daemon.url, tokenOf(b.userId), 'from b')).status).toBe(201);
    // Written by the simulators' process into its own file; the daemon's file holds none.
    expect(count(own, 'sandbox_posts')).toBe(2);
    expect(count(join(dir, 'socialpub.db'), 'sandbox_posts')).toBe(0);
    // Each user sees only their own (the owner of a post: the daemon's connections, its posts: sandbox.db).
    const listed = async (key: string) => ((await (await api(key, 'GET', '/sandbox/posts')).json()) as { posts: { body: { text: string } }[] }).posts.map((p) => p.body.text);
    expect(await listed(a.key)).toEqual(['from a']);
    expect(await listed(b.key)).toEqual(['from b']);

    // A's faults, set through the API in the daemon's file, reach the simulators' process at its next call; B's calls meet none.
    expect((await api(a.key, 'PUT', '/sandbox/faults', { faults: { twitter: { server_error: 1 } } })).status).toBe(200);
    expect((await tweet(daemon.url, tokenOf(a.userId), 'a, failing')).status).toBeGreaterThanOrEqual(500);
    expect((await tweet(daemon.url, tokenOf(b.userId), 'b, fine')).status).toBe(201);
    expect((await api(a.key, 'DELETE', '/sandbox/faults')).status).toBe(200);
    expect((await tweet(daemon.url, tokenOf(a.userId), 'a, again')).status).toBe(201);
    expect(await listed(a.key)).toEqual(['from a', 'a, again']);

    // The posts survive a restart of the daemon and its simulators.
    await daemon.close();
    const again = await start(dir, 'process');
    expect(((await (await fetch(`${again.url}/api/agents/v1/sandbox/posts`, { headers: { 'x-api-key': b.key } })).json()) as { posts: { body: { text: string } }[] }).posts.map((p) => p.body.text)).toEqual(['from b', 'b, fine']);
  }, 90_000);

  it('takes over, once, what the simulators kept in the daemon\'s database before they had their own', async () => {
    const dir = tempDir('sp-sandbox-adopt-');
    const { key, userId } = userWithTwitter(dir, 'old@example.com');
    const before = await start(dir, 'in-process');
    const token = before.store.credentials.credentialsFor(userId, 'twitter')?.secrets.access_token ?? '';
    expect(token).toMatch(/^sandbox_at_/);
    expect((await tweet(before.url, token, 'kept in the daemon\'s file')).status).toBe(201);
    await before.close();
    expect(count(join(dir, 'socialpub.db'), 'sandbox_posts')).toBe(1);

    const after = await start(dir, 'process');
    const list = async () => ((await (await fetch(`${after.url}/api/agents/v1/sandbox/posts`, { headers: { 'x-api-key': key } })).json()) as { posts: { body: { text: string } }[] }).posts.map((p) => p.body.text);
    expect(await list()).toEqual(["kept in the daemon's file"]);
    expect((await tweet(after.url, token, 'kept in sandbox.db')).status).toBe(201);
    expect(await list()).toEqual(["kept in the daemon's file", 'kept in sandbox.db']);
    await after.close();

    // A second open copies nothing again.
    const reopened = openSandboxDatabase({ path: sandboxDbPath(dir), daemonDbPath: join(dir, 'socialpub.db') });
    closers.push(() => reopened.close());
    expect(reopened.store.posts.list().map((p) => p.body.text)).toEqual(["kept in the daemon's file", 'kept in sandbox.db']);
  }, 90_000);
});
