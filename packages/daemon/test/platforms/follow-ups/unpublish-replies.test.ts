import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Platform } from '@socialpub/core';
import { Hono } from 'hono';
import { createRestAPIClient, MastoHttpError } from 'masto';
import { describe, expect, it } from 'vitest';
import { createMastodonSimulator, MASTODON_HOST } from '../../../src/platforms/mastodon/sim/simulator';
import type { SandboxDeps, Simulator } from '../../../src/platforms/platform-module';
import { sandboxBaseUrl } from '../../../src/platforms/sandbox';
import { sandboxPostSink } from '../../../src/platforms/shared/sim/sandbox-post-sink';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, startSandboxDaemon, type SandboxDaemon } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

// Unpublish takes down every post a target made: on the platforms whose thread parts and
// first comment are posts of their own (X, Threads, Mastodon, Bluesky), the comment and each
// part, then the post. Checked in the simulators' records and read back through each
// platform's own API (Mastodon through masto, its JavaScript client, unmodified).
const defer = useCleanups();
/** Each daemon's Mastodon origin (mastodonOrigin). */
const origins = new WeakMap<SandboxDaemon, string>();
const PLATFORMS = ['twitter', 'threads', 'mastodon', 'bluesky'] as const;

interface TargetView {
  platform: Platform;
  status: string;
  post_id: string;
  error: { message: string } | null;
  thread_posts: { part: number; post_id: string }[];
  comment: { id: string } | { error: string };
}

async function publishThread(w: SandboxDaemon): Promise<{ jobId: string; targets: TargetView[] }> {
  const pub = await w.call('POST', '/content/publish', {
    publish_now: true,
    platforms: PLATFORMS,
    caption: 'How we ship: a thread',
    thread: [{ caption: '1. Small changes, merged daily' }, { caption: '2. Every change tested' }],
    first_comment: 'Questions welcome below',
  });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  const open = () => (w.db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck().get() as number) > 0;
  await advanceUntil(w.clock, () => !open(), 900);
  const jobId = String(pub.body.job_id);
  const got = await w.call('GET', `/content/scheduled?job_id=${jobId}`);
  const targets = (got.body.post as { targets: TargetView[] }).targets;
  for (const t of targets) expect(t.status, `${t.platform}: ${t.error?.message}`).toBe('published');
  return { jobId, targets };
}

/** Every post id a target made: the post (part 1), parts 2 and 3, and the comment. */
const madeBy = (t: TargetView) => [...t.thread_posts.map((p) => p.post_id), (t.comment as { id: string }).id];

/**
 * An origin of its own for the Mastodon simulator (masto calls /api/... on its `url`'s
 * origin), as `socialpub sandbox endpoints` lists one: forwards to the daemon's sandbox.
 */
async function mastodonOrigin(w: SandboxDaemon): Promise<string> {
  const fetchSim = async (req: Request) => {
    const u = new URL(req.url);
    return fetch(`${sandboxBaseUrl(w.url, MASTODON_HOST)}${u.pathname}${u.search}`, { method: req.method, headers: req.headers });
  };
  // masto tells its errors by `instanceof Response`: the server leaves the global Response as it is.
  const server = serve({ fetch: fetchSim, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false });
  await new Promise((r) => server.once('listening', r));
  defer(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The access token of the user's connection to `platform` (the simulators' accounts are per connection). */
function tokenOf(w: SandboxDaemon, platform: Platform): string {
  const userId = w.db.prepare('SELECT id FROM users').pluck().get() as string;
  return w.store.credentials.credentialsFor(userId, platform)!.secrets.access_token!;
}

/** Whether the platform's own API still shows the post, read with the connection's token. */
async function stillThere(w: SandboxDaemon, platform: Platform, id: string): Promise<boolean> {
  const base = (host: string) => sandboxBaseUrl(w.url, host);
  const token = tokenOf(w, platform);
  if (platform === 'mastodon') {
    const masto = createRestAPIClient({ url: (origins.get(w) as string), accessToken: token });
    try {
      await masto.v1.statuses.$select(id).fetch();
      return true;
    } catch (err) {
      // masto tells a 404 by `instanceof Response`, and the daemon's server (@hono/node-server)
      // has replaced the global Response in this process: masto then throws the Response itself.
      const status = err instanceof MastoHttpError ? err.statusCode : err instanceof globalThis.Response || (err as { type?: string }).type === 'basic' ? (err as Response).status : undefined;
      if (status === 404) return false;
      throw err;
    }
  }
  if (platform === 'twitter') {
    const body = (await (await fetch(`${base('api.x.com')}/2/tweets/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data?: unknown; errors?: { type: string }[] };
    if (body.data) return true;
    expect(body.errors?.[0]?.type).toBe('https://api.x.com/2/problems/resource-not-found');
    return false;
  }
  if (platform === 'threads') {
    const res = await fetch(`${base('graph.threads.net')}/v1.0/${id}?fields=id&access_token=${encodeURIComponent(token)}`);
    if (res.ok) return true;
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(100);
    return false;
  }
  // Bluesky: com.atproto.repo.getRecord on the PDS, by the post's at:// URI.
  const [, repo, collection, rkey] = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(id)!;
  const res = await fetch(`${base('bsky.social')}/xrpc/com.atproto.repo.getRecord?repo=${encodeURIComponent(repo!)}&collection=${collection}&rkey=${rkey}`);
  if (res.ok) return true;
  expect(((await res.json()) as { error: string }).error).toBe('RecordNotFound');
  return false;
}

/** The Mastodon simulator, answering 503 to the deletion of the statuses in `refused`. */
function refusingDeletes(refused: ReadonlySet<string>) {
  return (deps: SandboxDeps): Simulator => {
    const sim = createMastodonSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store) });
    const app = new Hono();
    app.use(`/${MASTODON_HOST}/api/v1/statuses/:id`, async (c, next) => {
      if (c.req.method === 'DELETE' && refused.has(c.req.param('id'))) return c.json({ error: 'Service Unavailable' }, 503);
      await next();
    });
    app.route(`/${MASTODON_HOST}`, sim.app);
    return { hosts: [MASTODON_HOST], app };
  };
}

describe('unpublish takes down a thread and its first comment', () => {
  it('deletes every part and the comment on X, Threads, Mastodon and Bluesky, as each platform reads back', async () => {
    const w = await startSandboxDaemon(defer, { platforms: PLATFORMS });
    origins.set(w, await mastodonOrigin(w));
    const { jobId, targets } = await publishThread(w);
    for (const t of targets) {
      expect(madeBy(t), t.platform).toHaveLength(4);
      for (const id of madeBy(t)) expect(await stillThere(w, t.platform, id), `${t.platform} ${id} before`).toBe(true);
    }

    const down = await w.call('POST', `/content/scheduled/unpublish?job_id=${jobId}`);
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect((down.body.targets as { platform: string; result: string }[]).map((t) => [t.platform, t.result]).sort()).toEqual(PLATFORMS.map((p) => [p, 'removed']).sort());

    const records = listSandboxPosts(w.db);
    for (const t of targets) {
      for (const id of madeBy(t)) {
        expect(records.find((r) => r.platform === t.platform && r.postId === id)?.removedAt, `${t.platform} ${id} recorded removed`).toBeTypeOf('number');
        expect(await stillThere(w, t.platform, id), `${t.platform} ${id} after`).toBe(false);
      }
    }
    // Nothing of the job is left published in the simulators.
    expect(records.filter((r) => r.removedAt === null).map((r) => `${r.platform} ${r.postId}`)).toEqual([]);
  });

  it('says which parts stayed up when a deletion fails half-way, and finishes them when called again', async () => {
    const refused = new Set<string>();
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'], simulators: [refusingDeletes(refused)] });
    origins.set(w, await mastodonOrigin(w));
    const pub = await w.call('POST', '/content/publish', { publish_now: true, platforms: ['mastodon'], caption: 'Part one', thread: [{ caption: 'Part two' }], first_comment: 'A comment' });
    const jobId = String(pub.body.job_id);
    await advanceUntil(w.clock, () => (w.db.prepare("SELECT count(*) FROM targets WHERE status = 'published'").pluck().get() as number) === 1, 900);
    const target = ((await w.call('GET', `/content/scheduled?job_id=${jobId}`)).body.post as { targets: TargetView[] }).targets[0]!;
    const [post, part2] = target.thread_posts.map((p) => p.post_id) as [string, string];
    const comment = (target.comment as { id: string }).id;

    // The server refuses to delete part 2 for now (a 503); the comment before it goes.
    refused.add(part2);
    const first = await w.call('POST', `/content/scheduled/unpublish?job_id=${jobId}`);
    const t1 = (first.body.targets as { result: string; message: string; status: string }[])[0]!;
    expect(t1.result).toBe('failed');
    expect(t1.status).toBe('published');
    expect(t1.message).toContain(`(deleted 1 of 3: still up ${part2}, ${post}, the post last)`);
    expect(await stillThere(w, 'mastodon', comment)).toBe(false);
    expect(await stillThere(w, 'mastodon', part2)).toBe(true);

    refused.clear();
    const second = await w.call('POST', `/content/scheduled/unpublish?job_id=${jobId}`);
    expect((second.body.targets as { result: string; message: string }[])[0]).toMatchObject({ result: 'removed', message: 'deleted (1 of 3 parts were already gone)' });
    for (const id of [comment, part2, post]) expect(await stillThere(w, 'mastodon', id)).toBe(false);
  });
});
