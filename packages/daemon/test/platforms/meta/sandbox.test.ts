import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapters } from '../../../src/platforms/registry';
import { createSandboxApp, sandboxBaseUrl } from '../../../src/platforms/sandbox';
import { openDatabase, type DB } from '../../../src/store/database';
import { ManualClock } from '../../../src/util/clock';
import { context, drive, mediaFile, type Sim } from './harness';
import { listSandboxPosts, sandboxStore } from '../../support/sandbox-records';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** The daemon's layout: the sandbox app mounted at /sandbox of an outer app. */
async function daemonLike(db: DB, clock: ManualClock) {
  const app = new Hono();
  app.route('/sandbox', createSandboxApp({ store: sandboxStore(db), clock }));
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Only what the harness's context() reads.
  return { clock, baseUrl: (host: string) => sandboxBaseUrl(url, host) } as unknown as Sim;
}

describe('sandbox', () => {
  it('runs the real adapters against the simulators under /sandbox and keeps the posts across restarts', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sp-sandbox-')), 'socialpub.db');
    const db = openDatabase(path);
    const clock = new ManualClock();
    const sim = await daemonLike(db, clock);
    const adapters = createAdapters();
    // The ids and tokens `socialpub connect <platform> --sandbox` records.
    const creds = (platform: string) => ({
      accountId: `sandbox_${platform}_k3j`,
      pageId: platform === 'facebook' ? 'sandbox_page_k3j' : null,
      secrets: { access_token: `sandbox_at_${platform}`, refresh_token: 'sandbox_rt_x' },
    });
    const ig = await drive(clock, adapters.get('instagram')!.publish(context(sim, { platform: 'instagram', type: 'story', media: [mediaFile('image')], credentials: creds('instagram') })));
    const fb = await drive(clock, adapters.get('facebook')!.publish(context(sim, { platform: 'facebook', type: 'feed', caption: 'hi page', media: [mediaFile('image')], credentials: creds('facebook') })));
    const th = await drive(clock, adapters.get('threads')!.publish(context(sim, { platform: 'threads', type: 'post', caption: 'hi threads', credentials: creds('threads') })));
    db.close();

    const reopened = openDatabase(path);
    closers.push(() => void reopened.close());
    const posts = listSandboxPosts(reopened);
    expect(posts.map((p) => [p.platform, p.kind, p.postId, p.postUrl])).toEqual([
      ['instagram', 'story', ig.postId, ig.postUrl],
      ['facebook', 'photo', fb.postId, fb.postUrl],
      ['threads', 'text', th.postId, th.postUrl],
    ]);
    expect(posts[1]!.accountId).toBe('sandbox_page_k3j');
    expect(posts[2]!.body).toMatchObject({ text: 'hi threads' });
    expect(listSandboxPosts(reopened, { platform: 'threads' })).toHaveLength(1);
    expect(JSON.stringify(posts)).not.toContain('sandbox_at_');
  });
});
