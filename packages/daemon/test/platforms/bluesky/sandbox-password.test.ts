import { AtpAgent } from '@atproto/api';
import { afterEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../../src/admin/index';
import { resolveConfig } from '../../../src/config';
import { startDaemon } from '../../../src/daemon';
import { readSandboxEndpoints } from '../../../src/platforms/sandbox';
import { SANDBOX_APP_PASSWORD } from '../../../src/platforms/bluesky/sim/simulator';
import { createLogger } from '../../../src/util/logger';
import { useTempDirs } from '../../support/temp-dirs';

/**
 * Issue 35 (item 11): a sandbox connection's simulated account is its owner's alone. Before,
 * the Bluesky simulator's createSession opened any account with the one shared password
 * `sandbox-app-password`, and connections' accounts have handles anyone can guess
 * (`sandbox-<n>.bsky.social`): user B, with their own key, signed into user A's sandbox
 * account and posted and deleted as A. Now each sandbox connection has its own password,
 * shown to its owner only, and only it opens that account.
 */

const tempDir = useTempDirs();
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const quiet = { logger: createLogger({ write: () => undefined }) };
const API = '/api/agents/v1';

interface ConnectionView {
  id: string;
  platform: string;
  sandbox: boolean;
  account_id: string;
  sandbox_password?: string | null;
}

async function world() {
  const dir = tempDir('sp-bsky-password-');
  const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
  closers.push(() => daemon.close());
  const admin = openAdmin(dir);
  closers.push(() => admin.close?.());
  const keyA = admin.createKey({ email: 'a@example.com' }).api_key;
  const keyB = admin.createKey({ email: 'b@example.com' }).api_key;
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${daemon.url}${API}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const pds = readSandboxEndpoints(daemon.store.settings)['bsky.social']!;
  const xrpc = async (method: string, nsid: string, body: unknown, token?: string) => {
    const res = await fetch(`${pds}/xrpc/${nsid}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const createSession = (identifier: string, password: string) => xrpc('POST', 'com.atproto.server.createSession', { identifier, password });
  return { daemon, call, keyA, keyB, pds, xrpc, createSession };
}

/** A's Bluesky sandbox connection with one post published through the daemon (its adapter talking to the simulator). */
async function aWithAPost(w: Awaited<ReturnType<typeof world>>) {
  const made = await w.call(w.keyA, 'POST', '/connections/sandbox', { platform: 'bluesky' });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const connection = made.body as unknown as ConnectionView;
  const job = await w.call(w.keyA, 'POST', '/content/publish', { caption: 'A’s own post', platforms: ['bluesky'], publish_now: true });
  expect(job.status, JSON.stringify(job.body)).toBe(200);
  let posts: Array<{ post_id: string; post_url: string; account_id: string }> = [];
  for (let i = 0; i < 200 && posts.length === 0; i++) {
    posts = (await w.call(w.keyA, 'GET', '/sandbox/posts?platform=bluesky')).body.posts as typeof posts;
    if (posts.length === 0) await new Promise((r) => setTimeout(r, 25));
  }
  expect(posts).toHaveLength(1);
  const handle = /profile\/([^/]+)\/post/.exec(posts[0]!.post_url)![1]!;
  return { connection, post: posts[0]!, handle };
}

describe('a Bluesky sandbox account opens with its own connection’s password only', () => {
  it('another user cannot sign into it (not by its guessable handle, its account id or DID, with the shared password or their own), nor claim a handle kept for connections', async () => {
    const w = await world();
    const a = await aWithAPost(w);
    expect(a.handle).toBe('sandbox-1.bsky.social');
    const did = a.post.post_id.split('/')[2]!;

    // B's own key, B's own sandbox connection (so B has a sandbox password of their own).
    const mine = (await w.call(w.keyB, 'POST', '/connections/sandbox', { platform: 'bluesky' })).body as unknown as ConnectionView;
    expect(mine.sandbox_password).toMatch(/^sbx-[0-9a-z]{7}-[0-9a-z]{7}-[0-9a-z]{7}-[0-9a-z]{7}$/);
    // B sees only B's connection, and nothing of A's password anywhere in it.
    const listedB = JSON.stringify((await w.call(w.keyB, 'GET', '/connections')).body);
    expect(listedB).not.toContain(a.connection.sandbox_password!);

    // What B tried before the fix: A's handle and the one shared password (200, a session as A: B then posted and deleted as A).
    for (const identifier of [a.handle, did, a.connection.account_id, 'sandbox-1@example.com']) {
      for (const password of [SANDBOX_APP_PASSWORD, mine.sandbox_password!]) {
        const attempt = await w.createSession(identifier, password);
        expect(attempt, `${identifier} / ${password}`).toEqual({ status: 401, body: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' } });
      }
    }
    // Nor can anyone take a handle connections are given before its connection does: sandbox-2 is the next one made...
    expect((await w.createSession('sandbox-2.bsky.social', SANDBOX_APP_PASSWORD)).status).toBe(401);
    // ...and it becomes B's connection's account, which B's own password opens.
    const own = await w.createSession(mine.account_id, mine.sandbox_password!);
    expect(own.status).toBe(200);
    expect(own.body.handle).toBe('sandbox-2.bsky.social');
    expect(own.body.did).not.toBe(did);

    // A's post is untouched: still there, still A's only.
    const got = await w.xrpc('GET', `com.atproto.repo.getRecord?repo=${did}&collection=app.bsky.feed.post&rkey=${a.post.post_id.split('/').pop()}`, undefined);
    expect((got.body.value as { text: string }).text).toBe('A’s own post');
    expect(((await w.call(w.keyA, 'GET', '/sandbox/posts?platform=bluesky')).body.posts as unknown[]).length).toBe(1);
    // Accounts nobody's connection owns still open with the shared password, as documented.
    expect((await w.createSession('alice.bsky.social', SANDBOX_APP_PASSWORD)).status).toBe(200);
  });

  it('its owner signs in with @atproto/api (account id or handle, and their password), reads and writes their posts, which `sandbox posts` lists as theirs', async () => {
    const w = await world();
    const a = await aWithAPost(w);
    expect(a.connection.sandbox_password).toMatch(/^sbx-/);
    // The owner's connection list shows it too.
    const listed = (await w.call(w.keyA, 'GET', '/connections')).body.data as ConnectionView[];
    expect(listed.map((c) => c.sandbox_password)).toEqual([a.connection.sandbox_password]);

    const agent = new AtpAgent({ service: w.pds });
    const session = await agent.login({ identifier: a.connection.account_id, password: a.connection.sandbox_password! });
    expect(session.data.handle).toBe(a.handle);
    const byHandle = await new AtpAgent({ service: w.pds }).login({ identifier: a.handle, password: a.connection.sandbox_password! });
    expect(byHandle.data.did).toBe(session.data.did);

    const rkey = a.post.post_id.split('/').pop()!;
    expect((await agent.getPost({ repo: session.data.did, rkey })).value.text).toBe('A’s own post');
    const written = await agent.post({ text: 'written by A with the network’s own client' });
    const posts = (await w.call(w.keyA, 'GET', '/sandbox/posts?platform=bluesky')).body.posts as Array<{ post_id: string; body: { text?: string } }>;
    expect(posts.map((p) => p.post_id).sort()).toEqual([a.post.post_id, written.uri].sort());
    await agent.deletePost(written.uri);
    expect((await w.call(w.keyB, 'GET', '/sandbox/posts?platform=bluesky')).body.posts).toEqual([]);

    // The daemon's own adapter keeps publishing on the connection (its token, no password).
    const again = await w.call(w.keyA, 'POST', '/content/publish', { caption: 'second through the daemon', platforms: ['bluesky'], publish_now: true });
    expect(again.status).toBe(200);
    let live: unknown[] = [];
    for (let i = 0; i < 200 && live.length < 2; i++) {
      live = ((await w.call(w.keyA, 'GET', '/sandbox/posts?platform=bluesky')).body.posts as Array<{ removed_at: string | null }>).filter((p) => p.removed_at === null);
      if (live.length < 2) await new Promise((r) => setTimeout(r, 25));
    }
    expect(live).toHaveLength(2);
  });
});
