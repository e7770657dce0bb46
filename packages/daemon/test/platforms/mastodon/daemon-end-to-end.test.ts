import { describe, expect, it } from 'vitest';
import { createMastodonSimulator, MASTODON_HOST } from '../../../src/platforms/mastodon/sim/simulator';
import { DEFAULT_SERVER_LIMITS } from '../../../src/platforms/mastodon/server-limits';
import { sandboxPostSink } from '../../../src/platforms/shared/sim/sandbox-post-sink';
import type { SandboxDeps, Simulator } from '../../../src/platforms/platform-module';
import { Hono } from 'hono';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

const defer = useCleanups();

interface TargetView {
  platform: string;
  status: string;
  post_id: string | null;
  post_url: string | null;
  error: { message: string } | null;
  thread_posts?: { part: number; post_id: string; post_url: string | null }[];
  comment?: { id: string; url: string | null } | { error: string } | null;
}

const open = (w: SandboxDaemon) => (w.db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck().get() as number) > 0;

async function targetsOf(w: SandboxDaemon, jobId: string): Promise<TargetView[]> {
  const got = await w.call('GET', `/content/scheduled?job_id=${jobId}`);
  return (got.body.post as { targets: TargetView[] }).targets;
}

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<{ jobId: string; target: TargetView }> {
  const pub = await w.call('POST', '/content/publish', { publish_now: true, platforms: ['mastodon'], ...body });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  await advanceUntil(w.clock, () => !open(w), 600);
  const jobId = String(pub.body.job_id);
  return { jobId, target: (await targetsOf(w, jobId))[0]! };
}

/** A Mastodon server of 5,000 characters, served in place of mastodon.social's 500. */
function bigServer(deps: SandboxDeps): Simulator {
  const sim = createMastodonSimulator({ clock: deps.clock, limits: { characters: 5000 }, processingMs: 2_000, onPost: sandboxPostSink(deps.store) });
  const app = new Hono();
  app.route(`/${MASTODON_HOST}`, sim.app);
  return { hosts: [MASTODON_HOST], app };
}

describe('mastodon through the daemon and its sandbox', () => {
  it('publishes a status with an image and its alt text now, and GET /platforms shows the server and its limits', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    const { target } = await publishAndSettle(w, {
      caption: 'Hello fediverse 👋 #socialpub',
      media_urls: [image],
      platform_options: { mastodon: { visibility: 'unlisted', alt_text: 'A grey square', language: 'en' } },
    });
    expect(target.status, target.error?.message).toBe('published');
    const [post] = listSandboxPosts(w.db, { platform: 'mastodon' });
    expect(post).toMatchObject({ postId: target.post_id, postUrl: target.post_url, kind: 'status', body: { status: 'Hello fediverse 👋 #socialpub', visibility: 'unlisted', language: 'en', media_ids: [expect.any(String)] } });
    expect(target.post_url).toBe(`https://mastodon.social/@${String(post!.postUrl).split('/@')[1]!.split('/')[0]}/${target.post_id}`);

    const platforms = await w.call('GET', '/platforms');
    const entry = (platforms.body.platforms as Array<Record<string, unknown>>).find((p) => p.platform === 'mastodon')!;
    expect(entry).toMatchObject({ types: ['post'], default_type: 'post', caption: { max: 500, counting: 'mastodon', url_length: 23 }, media: { post: { min: 0, max: 4, kinds: ['image', 'video'] } } });
    expect(entry.connection).toMatchObject({ mode: 'sandbox', server: 'https://mastodon.social', server_limits: { characters: 500, max_media_attachments: 4, characters_reserved_per_url: 23 } });
    expect((entry.options as { properties: Record<string, unknown> }).properties).toHaveProperty('visibility');
    // The other platforms' connections say nothing of servers.
    expect((platforms.body.platforms as Array<Record<string, unknown>>).find((p) => p.platform === 'twitter')!.connection).toBeNull();
  });

  it('publishes a scheduled status at its time, a held one once approved, and takes one down', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const at = new Date(w.clock.now() + 3_600_000).toISOString();
    const scheduled = await w.call('POST', '/content/publish', { caption: 'Later today', platforms: ['mastodon'], scheduled_for: at });
    expect(scheduled.status).toBe(200);
    const held = await w.call('POST', '/content/publish', { caption: 'Needs a look', platforms: ['mastodon'], publish_now: true, require_approval: true });
    await advanceUntil(w.clock, () => false, 5);
    expect(listSandboxPosts(w.db)).toEqual([]);
    expect((await targetsOf(w, String(held.body.job_id)))[0]!.status).toBe('pending_approval');
    expect((await w.call('POST', `/content/scheduled/approve?job_id=${String(held.body.job_id)}`)).status).toBe(200);
    await advanceUntil(w.clock, () => listSandboxPosts(w.db).length === 1, 60);
    expect(listSandboxPosts(w.db).map((p) => p.body.status)).toEqual(['Needs a look']);
    await w.clock.advance(3_600_000);
    await advanceUntil(w.clock, () => !open(w), 60);
    const later = (await targetsOf(w, String(scheduled.body.job_id)))[0]!;
    expect(later.status).toBe('published');
    expect(listSandboxPosts(w.db).map((p) => p.body.status)).toEqual(['Needs a look', 'Later today']);

    const down = await w.call('POST', `/content/scheduled/unpublish?job_id=${String(scheduled.body.job_id)}`);
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect((await targetsOf(w, String(scheduled.body.job_id)))[0]!.status).toBe('removed');
    expect(listSandboxPosts(w.db).find((p) => p.postId === later.post_id)!.removedAt).toBeTypeOf('number');
  });

  it('publishes a thread as a reply chain and a first comment as a self-reply', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const { target } = await publishAndSettle(w, { caption: 'A thread 🧵', thread: [{ caption: 'Second' }, { caption: 'Third' }], first_comment: 'Replies welcome' });
    expect(target.status, target.error?.message).toBe('published');
    const chain = target.thread_posts!;
    expect(chain.map((c) => c.part)).toEqual([1, 2, 3]);
    const posts = listSandboxPosts(w.db);
    const byId = (id: string) => posts.find((p) => p.postId === id)!;
    expect(chain.map((c) => byId(c.post_id).body.in_reply_to_id ?? null)).toEqual([null, chain[0]!.post_id, chain[1]!.post_id]);
    const comment = target.comment as { id: string };
    expect(byId(comment.id).body).toMatchObject({ status: 'Replies welcome', in_reply_to_id: target.post_id });
    expect(posts).toHaveLength(4);
  });

  it("refuses what the server would refuse, naming the field, and stores nothing", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const check = async (body: Record<string, unknown>) => {
      const res = await w.call('POST', '/content/publish', { publish_now: true, platforms: ['mastodon'], ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return (res.body.error as { details: { path: string; message: string }[] }).details.map((d) => [d.path, d.message]);
    };
    expect(await check({ caption: 'x'.repeat(501) })).toEqual([['caption', 'the Mastodon server takes statuses of at most 500 characters; this one counts 501']]);
    expect(await check({ caption: 'ok', thread: [{ caption: 'y'.repeat(501) }] })).toEqual([['thread.0.caption', 'the Mastodon server takes statuses of at most 500 characters; this one counts 501']]);
    expect(await check({ caption: 'vote', platform_options: { mastodon: { poll: { options: ['a', 'b', 'c', 'd', 'e'], expires_in: 600 } } } })).toEqual([
      ['platform_options.mastodon.poll.options', 'the Mastodon server takes polls of at most 4 options; this one has 5'],
    ]);
    expect(await check({ caption: 'who sees', platform_options: { mastodon: { visibility: 'friends' } } })).toEqual([
      ['platform_options.mastodon.visibility', expect.stringMatching(/public.*unlisted.*private.*direct/)],
    ]);
    // A server whose images may be 50 bytes: the prepared JPEG is over it.
    w.db.prepare("UPDATE connections SET meta = json_set(meta, '$.limits.image_size_limit', 50) WHERE platform = 'mastodon'").run();
    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    expect(await check({ caption: 'pic', media_urls: [image] })).toEqual([['media_urls.0', expect.stringMatching(/^the Mastodon server takes images up to 50 bytes; this one is \d+ bytes$/)]]);
    expect(w.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(0);
    expect(listSandboxPosts(w.db)).toEqual([]);
  });

  it("judges an edited caption by the server's limit, and keeps the job as it was when refused", async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'] });
    const at = new Date(w.clock.now() + 3_600_000).toISOString();
    const pub = await w.call('POST', '/content/publish', { caption: 'Short and fine', platforms: ['mastodon'], scheduled_for: at });
    const jobId = String(pub.body.job_id);
    const patched = await w.call('PATCH', `/content/scheduled?job_id=${jobId}`, { caption: 'z'.repeat(501) });
    expect(patched.status).toBe(400);
    expect((patched.body.error as { details: { path: string; message: string }[] }).details.map((d) => [d.path, d.message])).toEqual([
      ['caption', 'the Mastodon server takes statuses of at most 500 characters; this one counts 501'],
    ]);
    expect(((await w.call('GET', `/content/scheduled?job_id=${jobId}`)).body.post as { caption: string }).caption).toBe('Short and fine');
  });

  it('a 5,000-character server takes what a 500-character one refuses', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['mastodon'], simulators: [bigServer] });
    const caption = 'long '.repeat(600).trim();
    expect((await w.call('POST', '/content/validate', { caption, platforms: ['mastodon'], publish_now: true })).body.valid).toBe(false);
    w.db.prepare("UPDATE connections SET meta = json_set(meta, '$.limits', json(?)) WHERE platform = 'mastodon'").run(JSON.stringify({ ...DEFAULT_SERVER_LIMITS, characters: 5000 }));
    const { target } = await publishAndSettle(w, { caption });
    expect(target.status, target.error?.message).toBe('published');
    expect(listSandboxPosts(w.db)[0]!.body.status).toBe(caption);
    const platforms = await w.call('GET', '/platforms');
    expect((platforms.body.platforms as Array<{ platform: string; caption: { max: number } }>).find((p) => p.platform === 'mastodon')!.caption.max).toBe(5000);
  });
});
