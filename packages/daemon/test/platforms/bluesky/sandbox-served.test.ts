import { AtpAgent } from '@atproto/api';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config';
import { startDaemon } from '../../../src/daemon';
import { readSandboxEndpoints } from '../../../src/platforms/sandbox';
import { createLogger } from '../../../src/util/logger';
import { useTempDirs } from '../../support/temp-dirs';

/** The simulator as the daemon serves it: its own loopback origins, any client, state in SQLite across a restart. */

const tempDir = useTempDirs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const quiet = { logger: createLogger({ write: () => undefined }) };

describe('the Bluesky sandbox served by the daemon', () => {
  it('lists bsky.social and video.bsky.app among its origins; @atproto/api posts there, and the account and post survive a restart', async () => {
    const dir = tempDir('sp-bsky-served-');
    let daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    let endpoints = readSandboxEndpoints(daemon.store.settings);
    expect(endpoints['bsky.social']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoints['video.bsky.app']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const agent = new AtpAgent({ service: endpoints['bsky.social']! });
    const login = await agent.login({ identifier: 'restart.bsky.social', password: 'sandbox-app-password' });
    const post = await agent.post({ text: 'before the restart' });
    const wrong = await fetch(`${endpoints['bsky.social']}/xrpc/com.atproto.server.createSession`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'restart.bsky.social', password: 'nope' }) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
    const limited = await fetch(`${endpoints['bsky.social']}/xrpc/com.atproto.repo.deleteRecord`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${login.data.accessJwt}` }, body: JSON.stringify({ repo: login.data.did, collection: 'app.bsky.feed.post', rkey: '3aaaaaaaaaaaa' }) });
    expect(limited.headers.get('ratelimit-limit')).toBe('5000');
    expect(limited.headers.get('ratelimit-policy')).toBe('5000;w=3600');
    await daemon.close();

    daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    closers.push(() => daemon.close());
    endpoints = readSandboxEndpoints(daemon.store.settings);
    const again = new AtpAgent({ service: endpoints['bsky.social']! });
    expect((await again.login({ identifier: 'restart.bsky.social', password: 'sandbox-app-password' })).data.did).toBe(login.data.did);
    const got = await again.getPost({ repo: login.data.did, rkey: post.uri.split('/').pop()! });
    expect(got.value.text).toBe('before the restart');
    // The old session's refresh token still works after the restart (the signing secret is kept).
    const refreshed = await fetch(`${endpoints['bsky.social']}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { authorization: `Bearer ${login.data.refreshJwt}` } });
    expect(refreshed.status).toBe(200);
    expect(daemon.store.sandbox.posts.list({ platform: 'bluesky' })).toHaveLength(1);
  });
});
