import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { SandboxDeps, Simulator } from '../../src/platforms/platform-module';
import { simulators } from '../../src/platforms/registry';
import { sandboxPostRemoval, sandboxPostSink } from '../../src/platforms/shared/sim/sandbox-post-sink';
import { createTwitterSimulator, X_HOST } from '../../src/platforms/twitter/sim/simulator';
import { twitterSandbox } from '../../src/platforms/twitter/sim/sandbox';
import { useCleanups } from '../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';
import { listSandboxPosts } from '../support/sandbox-records';

const defer = useCleanups();
const ALL = ['instagram', 'facebook', 'threads', 'twitter', 'tiktok', 'youtube'] as const;

interface TargetRow {
  id: string;
  platform: string;
  type: string;
  status: string;
  post_id: string | null;
  removed_at: number | null;
  removal: string | null;
}
const targetsOf = (w: SandboxDaemon, jobId: string) =>
  w.db.prepare('SELECT id, platform, type, status, post_id, removed_at, removal FROM targets WHERE job_id = ? ORDER BY platform, type').all(jobId) as TargetRow[];

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const jobId = String(res.body.job_id);
  await advanceUntil(w.clock, () => targetsOf(w, jobId).every((t) => ['published', 'failed', 'needs_review'].includes(t.status)), 600);
  expect(targetsOf(w, jobId).map((t) => [t.platform, t.status])).toEqual(targetsOf(w, jobId).map((t) => [t.platform, 'published']));
  return jobId;
}

const unpublish = (w: SandboxDaemon, jobId: string) => w.call('POST', `/content/scheduled/unpublish?job_id=${jobId}`);
const byPlatform = (body: Record<string, unknown>) =>
  Object.fromEntries((body.targets as Array<Record<string, unknown>>).map((t) => [`${String(t.platform)}.${String(t.type)}`, [t.result, t.status]]));

/** The X simulator as the daemon serves it, kept at hand so a test can inject faults and read its requests. */
function reachableX() {
  let sim!: ReturnType<typeof createTwitterSimulator>;
  const factory = (deps: SandboxDeps): Simulator => {
    sim = createTwitterSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store), onRemove: sandboxPostRemoval(deps.store) });
    const app = new Hono();
    app.route(`/${X_HOST}`, sim.app);
    return { hosts: [X_HOST], app };
  };
  return { factories: [...simulators().filter((f) => f !== twitterSandbox), factory], sim: () => sim };
}

describe('POST /content/scheduled/unpublish (take-downs)', () => {
  it('removes what each platform allows, reports the rest per target, and records the removals', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ALL });
    const src = await serveSamples(defer);
    const image = await prepareMedia(w, `${src}/photo.jpg`);
    const video = await prepareMedia(w, `${src}/clip.mp4`);
    const social = await publishAndSettle(w, { caption: 'Launch day', platforms: ['twitter', 'facebook', 'threads', 'instagram'], media_urls: [image] });
    const videos = await publishAndSettle(w, { caption: 'Launch day\nthe video', platforms: ['youtube', 'tiktok'], media_urls: [video] });
    const postIds = new Map([...targetsOf(w, social), ...targetsOf(w, videos)].map((t) => [t.platform, t.post_id]));

    const first = await unpublish(w, social);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.changed).toBe(true);
    expect(byPlatform(first.body)).toEqual({
      'facebook.feed': ['removed', 'removed'],
      'instagram.feed': ['not_supported', 'published'],
      'threads.post': ['removed', 'removed'],
      'twitter.tweet': ['removed', 'removed'],
    });
    const ig = (first.body.targets as Array<Record<string, unknown>>).find((t) => t.platform === 'instagram')!;
    expect(ig.message).toMatch(/Facebook Login/);
    // Some of the job is still live: partially published, with the removed targets shown as such.
    const post = first.body.post as { status: string; targets: Array<{ platform: string; status: string; removed_at: string | null; post_id: string | null }> };
    expect(post.status).toBe('partially_published');
    expect(post.targets.find((t) => t.platform === 'twitter')).toMatchObject({ status: 'removed', removed_at: new Date(w.clock.now()).toISOString(), post_id: postIds.get('twitter') });
    expect(first.body.message).toBe(`Took down 3 posts of ${social}; still published: instagram feed: not supported`);

    // The simulators deleted them: sandbox posts shows them removed, the others not.
    const sandbox = await w.call('GET', '/sandbox/posts');
    const shown = Object.fromEntries((sandbox.body.posts as Array<{ platform: string; post_id: string; removed_at: string | null }>).map((p) => [p.platform, p.removed_at !== null]));
    expect(shown).toEqual({ twitter: true, facebook: true, threads: true, instagram: false, youtube: false, tiktok: false });
    expect(listSandboxPosts(w.db).find((p) => p.platform === 'twitter')!.postId).toBe(postIds.get('twitter'));

    // One target.removed event per removed target, with the post it was.
    const events = w.db.prepare("SELECT subject, json_extract(data, '$.platform') AS platform, json_extract(data, '$.post_id') AS post_id FROM events WHERE type = 'target.removed' ORDER BY platform").all();
    expect(events.map((e) => [(e as { platform: string }).platform, (e as { post_id: string }).post_id])).toEqual(
      ['facebook', 'threads', 'twitter'].map((p) => [p, postIds.get(p)]),
    );

    // YouTube deletes; TikTok has no deletion API and stays published.
    const second = await unpublish(w, videos);
    expect(byPlatform(second.body)).toEqual({ 'tiktok.video': ['not_supported', 'published'], 'youtube.video': ['removed', 'removed'] });
    expect((second.body.targets as Array<Record<string, unknown>>).find((t) => t.platform === 'tiktok')!.message).toMatch(/TikTok offers no API to delete/);

    // Listing by the new job status finds neither yet; after Instagram via Facebook Login, the social job is wholly removed.
    w.db.prepare("UPDATE connections SET meta = json_set(meta, '$.login', 'facebook') WHERE platform = 'instagram'").run();
    const third = await unpublish(w, social);
    expect(byPlatform(third.body)).toEqual({
      'facebook.feed': ['already_removed', 'removed'],
      'instagram.feed': ['removed', 'removed'],
      'threads.post': ['already_removed', 'removed'],
      'twitter.tweet': ['already_removed', 'removed'],
    });
    expect((third.body.post as { status: string }).status).toBe('removed');
    const listed = await w.call('GET', '/content/scheduled?status=removed');
    expect((listed.body.posts as Array<{ job_id: string }>).map((p) => p.job_id)).toEqual([social]);
    expect(listSandboxPosts(w.db).find((p) => p.platform === 'instagram')!.removedAt).toBe(w.clock.now());
    // The job finished once, when it was published; taking it down is not finishing again.
    expect(w.db.prepare("SELECT json_extract(data, '$.status') AS status FROM events WHERE type = 'post.finished' AND job_id = ?").all(social)).toEqual([{ status: 'published' }]);
  }, 120_000);

  it('is idempotent: a second call sends nothing, changes nothing and says so', async () => {
    const x = reachableX();
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'], simulators: x.factories });
    const job = await publishAndSettle(w, { caption: 'Once only', platforms: ['twitter'] });
    const first = await unpublish(w, job);
    expect(first.body.changed).toBe(true);
    const removedAt = targetsOf(w, job)[0]!.removed_at;
    w.clock.set(w.clock.now() + 60_000);

    const again = await unpublish(w, job);
    expect(again.status).toBe(200);
    expect(again.body.changed).toBe(false);
    expect(again.body.message).toBe(`Nothing changed: every published post of ${job} was already taken down`);
    expect(byPlatform(again.body)).toEqual({ 'twitter.tweet': ['already_removed', 'removed'] });
    expect(x.sim().log.to('DELETE', /^\/2\/tweets\//)).toHaveLength(1);
    expect(targetsOf(w, job)[0]!.removed_at).toBe(removedAt);
    expect(w.db.prepare("SELECT count(*) AS n FROM events WHERE type = 'target.removed'").get()).toEqual({ n: 1 });
  });

  it('does not repeat a deletion whose outcome is unknown: the next call looks first, and finds it gone', async () => {
    const x = reachableX();
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'], simulators: x.factories });
    const job = await publishAndSettle(w, { caption: 'Lost answer', platforms: ['twitter'] });
    const tweetId = targetsOf(w, job)[0]!.post_id!;
    // X deletes the post, then the connection drops before the answer.
    x.sim().log.inject({ method: 'DELETE', path: `/2/tweets/${tweetId}`, kind: 'reset-after' });

    const first = await unpublish(w, job);
    expect(byPlatform(first.body)).toEqual({ 'twitter.tweet': ['unknown', 'published'] });
    expect(first.body.changed).toBe(false);
    const row = targetsOf(w, job)[0]!;
    expect(row.status).toBe('published');
    expect(JSON.parse(row.removal!)).toMatchObject({ state: 'unknown' });
    expect((first.body.post as { targets: Array<{ removal: { state: string } | null }> }).targets[0]!.removal).toMatchObject({ state: 'unknown' });

    const second = await unpublish(w, job);
    expect(byPlatform(second.body)).toEqual({ 'twitter.tweet': ['removed', 'removed'] });
    expect((second.body.targets as Array<{ message: string }>)[0]!.message).toMatch(/already deleted/);
    // One DELETE in all: the second call asked (GET) instead of deleting again.
    expect(x.sim().log.to('DELETE', /^\/2\/tweets\//)).toHaveLength(1);
    expect(x.sim().log.to('GET', `/2/tweets/${tweetId}`)).toHaveLength(1);
    expect(targetsOf(w, job)[0]!.removal).toBeNull();
  });

  it('after an unknown outcome where the post survived, the next call deletes it', async () => {
    const x = reachableX();
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'], simulators: x.factories });
    const job = await publishAndSettle(w, { caption: 'Server trouble', platforms: ['twitter'] });
    x.sim().log.inject({ method: 'DELETE', path: /^\/2\/tweets\//, kind: 'respond', status: 503, body: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 } });
    expect(byPlatform((await unpublish(w, job)).body)).toEqual({ 'twitter.tweet': ['unknown', 'published'] });
    expect(byPlatform((await unpublish(w, job)).body)).toEqual({ 'twitter.tweet': ['removed', 'removed'] });
    expect(x.sim().log.to('DELETE', /^\/2\/tweets\//)).toHaveLength(2);
    expect(x.sim().posts()).toHaveLength(0);
  });

  it('counts a post the platform already deleted as removed', async () => {
    const x = reachableX();
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'], simulators: x.factories });
    const job = await publishAndSettle(w, { caption: 'Deleted by hand', platforms: ['twitter'] });
    const tweetId = targetsOf(w, job)[0]!.post_id!;
    const token = w.store.credentials.credentialsFor(String(w.db.prepare('SELECT user_id FROM jobs WHERE id = ?').pluck().get(job)), 'twitter')!.secrets.access_token;
    // The user deleted it in the X app.
    const byHand = await x.sim().app.request(`/2/tweets/${tweetId}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(byHand.status).toBe(200);

    const res = await unpublish(w, job);
    expect(byPlatform(res.body)).toEqual({ 'twitter.tweet': ['removed', 'removed'] });
    expect((res.body.targets as Array<{ message: string }>)[0]!.message).toBe('the platform no longer had it (already deleted)');
    expect(res.body.changed).toBe(true);
  });

  it('keeps a target published with the platform reason when the deletion is refused, and retries on the next call', async () => {
    const x = reachableX();
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'], simulators: x.factories });
    const job = await publishAndSettle(w, { caption: 'Refused once', platforms: ['twitter'] });
    x.sim().log.inject({ method: 'DELETE', path: /^\/2\/tweets\//, kind: 'respond', status: 403, body: { title: 'Forbidden', detail: 'You are not allowed to delete this Post.', type: 'https://api.x.com/2/problems/not-authorized-for-resource', status: 403 } });
    const refused = await unpublish(w, job);
    expect(byPlatform(refused.body)).toEqual({ 'twitter.tweet': ['failed', 'published'] });
    expect((refused.body.targets as Array<{ message: string }>)[0]!.message).toMatch(/You are not allowed to delete this Post\..*calling unpublish again retries/);
    expect(JSON.parse(targetsOf(w, job)[0]!.removal!)).toMatchObject({ state: 'failed', code: 'https://api.x.com/2/problems/not-authorized-for-resource' });
    expect(byPlatform((await unpublish(w, job)).body)).toEqual({ 'twitter.tweet': ['removed', 'removed'] });
  });

  it('answers 409 when nothing of the job is published, 404 for an unknown job, 400 without job_id', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const later = new Date(w.clock.now() + 3_600_000).toISOString();
    const res = await w.call('POST', '/content/publish', { caption: 'Not yet', platforms: ['twitter'], scheduled_for: later });
    const conflict = await unpublish(w, String(res.body.job_id));
    expect(conflict.status).toBe(409);
    expect((conflict.body.error as { message: string }).message).toBe(`nothing of ${String(res.body.job_id)} is published, so there is nothing to take down (status: scheduled)`);
    expect((await unpublish(w, 'job_unknown')).status).toBe(404);
    expect((await w.call('POST', '/content/scheduled/unpublish')).status).toBe(400);
  });
});
