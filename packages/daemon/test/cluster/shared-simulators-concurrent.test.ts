import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database';
import { openSandboxDatabase, sandboxDbPath, type OpenedSandboxDatabase } from '../../src/store/sandbox-database';
import { testDatabaseConfig } from '../support/store-dialects';
import { useTempDirs } from '../support/temp-dirs';

/**
 * Two daemons' simulators as two processes over one PostgreSQL database, sent the same
 * calls at the same moment (the other cluster tests interleave them in one thread; here
 * they truly overlap, so the database's statements are what keeps them one world):
 * a new connection's first calls make one account, a code is exchanged once, and a rate
 * window lets through its limit across both (docs/platforms/simulators.md "Several daemons,
 * one sandbox world").
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./simulators-child.ts', import.meta.url));
const tempDir = useTempDirs();
const children: ChildProcess[] = [];
let first: OpenedSandboxDatabase;
let daemonDb: ReturnType<typeof openDatabase>;
let urls: [string, string];

function startSimulators(dataDir: string, databaseUrl: string): Promise<string> {
  const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', CHILD, dataDir, databaseUrl], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`simulators exited (${code}) before ready: ${stderr}`)));
  });
}

beforeAll(async () => {
  const dataDir = tempDir('sp-shared-concurrent-');
  const databaseUrl = testDatabaseConfig(dataDir).databaseUrl!;
  // The daemon's schema and the sandbox schema migrated once, before the two processes start.
  daemonDb = openDatabase(databaseUrl);
  first = openSandboxDatabase({ path: sandboxDbPath(dataDir, databaseUrl), daemonDbPath: databaseUrl });
  const a = await startSimulators(dataDir, databaseUrl);
  const b = await startSimulators(dataDir, databaseUrl);
  urls = [a, b];
}, 60_000);
afterAll(async () => {
  await Promise.all(
    children.splice(0).map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.on('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
  first.close();
  daemonDb.close();
});

const both = <T>(fn: (url: string) => Promise<T>): Promise<[T, T]> => Promise.all([fn(urls[0]), fn(urls[1])]);
const CALLBACK = 'http://127.0.0.1:9/callback';

describe("several daemons' simulators as processes, the same calls at the same moment", () => {
  it("a new connection's first calls make one account; a code is exchanged once; a window's limit holds across both", async () => {
    // Accounts: each new connection's first call reaches both at once.
    for (let i = 0; i < 5; i++) {
      const [viaA, viaB] = await both(async (url) => {
        const res = await fetch(`${url}/api.x.com/2/users/me`, { headers: { authorization: `Bearer sandbox_at_concurrent${i}.secret` } });
        return ((await res.json()) as { data: { id: string; username: string } }).data;
      });
      expect(viaB).toEqual(viaA);
    }

    // Codes: handed out by A, each exchanged at A and B at once: one token each.
    for (let i = 0; i < 5; i++) {
      const consent = await fetch(`${urls[0]}/api.x.com/i/oauth2/authorize?response_type=code&client_id=cc&redirect_uri=${encodeURIComponent(CALLBACK)}&state=s&scope=tweet.read`, { redirect: 'manual' });
      const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
      const statuses = await both(async (url) => {
        const res = await fetch(`${url}/api.x.com/2/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: 'cc' }).toString(),
        });
        await res.arrayBuffer();
        return res.status;
      });
      expect([...statuses].sort()).toEqual([200, 400]);
    }

    // A window: X lets a user delete 50 times in 15 minutes; 40 calls to each at once.
    const statuses = (
      await both((url) =>
        Promise.all(
          Array.from({ length: 40 }, async () => {
            const res = await fetch(`${url}/api.x.com/2/tweets/1990000000000099999`, { method: 'DELETE', headers: { authorization: 'Bearer sandbox_at_concurrentw.secret' } });
            await res.arrayBuffer();
            return res.status;
          }),
        ),
      )
    ).flat();
    expect(statuses.filter((s) => s !== 429)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
});
