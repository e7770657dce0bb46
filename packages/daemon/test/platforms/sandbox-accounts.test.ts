import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/admin';
import { createAdapters } from '../../src/platforms/registry';
import { createSandboxApp, sandboxBaseUrl } from '../../src/platforms/sandbox';
import { openDatabase, type DB } from '../../src/store/database';
import { ManualClock } from '../../src/util/clock';
import { PermanentError, RateLimitedError } from '../../src/platforms/errors';
import { useTempDirs } from '../support/temp-dirs';
import { context, drive, type Sim } from './meta/harness';
import { sandboxStore } from '../support/sandbox-records';

/**
 * Issue 15's "done when", on the daemon's own layout: sandbox connections recorded by the
 * local admin, the real adapters, the sandbox app over the data dir's database.
 */

const tempDir = useTempDirs();
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function daemonLike(db: DB, clock: ManualClock): Promise<{ sim: Sim; stop(): Promise<void> }> {
  const app = new Hono();
  app.route('/sandbox', createSandboxApp({ store: sandboxStore(db), clock }));
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = () => new Promise<void>((r) => server.close(() => r()));
  closers.push(stop);
  return { sim: { clock, baseUrl: (host: string) => sandboxBaseUrl(url, host) } as unknown as Sim, stop };
}

function twoUsers(dir: string) {
  const admin = openAdmin(dir);
  admin.createKey({ email: 'ann@example.com' });
  admin.createKey({ email: 'bob@example.com' });
  const ann = admin.addSandboxConnection('twitter', { email: 'ann@example.com' });
  const bob = admin.addSandboxConnection('twitter', { email: 'bob@example.com' });
  const creds = [ann, bob].map((c) => admin.store.credentials.credentialsFor(c.user_id, 'twitter')!);
  admin.close();
  return creds;
}

describe('sandbox connections are separate simulated accounts that survive a restart', () => {
  it("lets two users post the same caption within a minute, and one user's 100 tweets do not limit the other", async () => {
    const dir = tempDir('sp-sandbox-accounts-');
    const [ann, bob] = twoUsers(dir);
    const db = openDatabase(join(dir, 'socialpub.db'));
    closers.push(() => void db.close());
    const clock = new ManualClock();
    const { sim } = await daemonLike(db, clock);
    const x = createAdapters().get('twitter')!;
    const tweet = (credentials: typeof ann, caption: string) => drive(clock, x.publish(context(sim, { platform: 'twitter', type: 'tweet', caption, credentials })));

    const a = await tweet(ann!, 'Same caption for everyone');
    clock.advance(20_000);
    const b = await tweet(bob!, 'Same caption for everyone');
    expect(a.postId).not.toBe(b.postId);
    expect(a.postUrl!.split('/')[3]).not.toBe(b.postUrl!.split('/')[3]);
    await expect(tweet(ann!, 'Same caption for everyone')).rejects.toBeInstanceOf(PermanentError);

    // Ann's window holds 100 requests; the refused duplicate counted in it as X counts it.
    for (let i = 2; i < 100; i++) await tweet(ann!, `Ann's post number ${i}`);
    await expect(tweet(ann!, 'one too many')).rejects.toBeInstanceOf(RateLimitedError);
    expect((await tweet(bob!, 'Bob is not limited')).postId).toMatch(/^[0-9]+$/);
  }, 120_000);

  it('keeps posts, ids and duplicate memory across down and up', async () => {
    const dir = tempDir('sp-sandbox-restart-');
    const [ann] = twoUsers(dir);
    const path = join(dir, 'socialpub.db');
    const clock = new ManualClock();
    const x = createAdapters().get('twitter')!;

    const db1 = openDatabase(path);
    const first = await daemonLike(db1, clock);
    const before = await drive(clock, x.publish(context(first.sim, { platform: 'twitter', type: 'tweet', caption: 'Posted before the restart', credentials: ann })));
    await first.stop();
    db1.close();

    const db2 = openDatabase(path);
    closers.push(() => void db2.close());
    const second = await daemonLike(db2, clock);
    const tweet = (caption: string) => drive(clock, x.publish(context(second.sim, { platform: 'twitter', type: 'tweet', caption, credentials: ann })));
    await expect(tweet('Posted before the restart')).rejects.toThrow(/duplicate/);
    const after = await tweet('Posted after the restart');
    expect(BigInt(after.postId)).toBeGreaterThan(BigInt(before.postId));
    expect(after.postUrl!.split('/')[3]).toBe(before.postUrl!.split('/')[3]);
  });
});
