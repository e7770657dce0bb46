import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

const defer = useCleanups();
const world = () => startSandboxDaemon(defer, { platforms: ['twitter', 'threads', 'instagram', 'facebook', 'youtube', 'tiktok'] });

interface TargetView {
  platform: string;
  type: string;
  status: string;
  post_id: string | null;
  error: { message: string } | null;
  thread_posts?: { part: number; post_id: string; post_url: string | null }[];
  comment?: { id: string; url: string | null } | { error: string } | null;
}

async function publishAndSettle(w: SandboxDaemon, body: Record<string, unknown>): Promise<{ job: Record<string, unknown>; targets: TargetView[] }> {
  const pub = await w.call('POST', '/content/publish', { publish_now: true, ...body });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  const open = () => (w.db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck().get() as number) > 0;
  await advanceUntil(w.clock, () => !open(), 900);
  const got = await w.call('GET', `/content/scheduled?job_id=${String(pub.body.job_id)}`);
  const post = got.body.post as Record<string, unknown>;
  return { job: post, targets: post.targets as TargetView[] };
}

describe('threads and first comments through the daemon and the sandbox', () => {
  it('publishes a reply chain on X and Threads and a first comment on each platform, shown on the targets', async () => {
    const w = await world();
    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    const { job, targets } = await publishAndSettle(w, {
      caption: 'How we ship: a thread',
      platforms: ['twitter', 'threads', 'facebook', 'instagram'],
      media_urls: [image],
      thread: [{ caption: '1. Small changes, merged daily' }, { caption: '2. Every change tested', media_urls: [image] }],
      first_comment: { twitter: 'Questions welcome below', threads: 'Ask away', facebook: 'Full write-up on the blog', instagram: 'Link in bio' },
    });
    expect(job.thread).toEqual([{ caption: '1. Small changes, merged daily' }, { caption: '2. Every change tested', media_urls: [image] }]);
    const by = Object.fromEntries(targets.map((t) => [t.platform, t]));
    for (const p of ['twitter', 'threads', 'facebook', 'instagram']) expect(by[p]!.status, `${p}: ${by[p]!.error?.message}`).toBe('published');

    const posts = listSandboxPosts(w.db);
    for (const p of ['twitter', 'threads'] as const) {
      const chain = by[p]!.thread_posts!;
      expect(chain.map((c) => c.part)).toEqual([1, 2, 3]);
      expect(chain[0]!.post_id).toBe(by[p]!.post_id);
      // Each part is a reply to the one before, as the simulator recorded it.
      const recorded = chain.map((c) => posts.find((x) => x.platform === p && x.postId === c.post_id)!);
      expect(recorded.map((r) => r.body.in_reply_to ?? null)).toEqual([null, chain[0]!.post_id, chain[1]!.post_id]);
      expect(recorded.map((r) => r.body.text)).toEqual(['How we ship: a thread', '1. Small changes, merged daily', '2. Every change tested']);
      expect(recorded.map((r) => r.postUrl)).toEqual(chain.map((c) => c.post_url));
    }
    // The part with media carries it: X an uploaded image, Threads the public URL.
    expect((posts.find((x) => x.postId === by.twitter!.thread_posts![2]!.post_id)!.body.media as unknown[]).length).toBe(1);
    expect(posts.find((x) => x.postId === by.threads!.thread_posts![2]!.post_id)!.body.media).toEqual([image]);

    // First comments: a self-reply on X and Threads (under the post itself), a comment on Meta's two.
    const comment = (p: string) => by[p]!.comment as { id: string; url: string | null };
    const rec = (p: string) => posts.find((x) => x.platform === p && x.postId === comment(p).id)!;
    expect(rec('twitter').body).toMatchObject({ text: 'Questions welcome below', in_reply_to: by.twitter!.post_id });
    expect(comment('twitter').url).toBe(rec('twitter').postUrl);
    expect(rec('threads').body).toMatchObject({ text: 'Ask away', in_reply_to: by.threads!.post_id });
    expect(rec('facebook')).toMatchObject({ kind: 'comment', body: { on: by.facebook!.post_id, message: 'Full write-up on the blog' } });
    expect(rec('instagram')).toMatchObject({ kind: 'comment', body: { on: by.instagram!.post_id, message: 'Link in bio' } });
    // Facebook and Instagram have no thread: their targets show no thread_posts.
    expect(by.facebook!.thread_posts).toBeUndefined();
    expect(by.instagram!.thread_posts).toBeUndefined();
    // Four posts; two replies per chain, two self-replies, two comments: nothing else, nothing twice.
    expect(posts.filter((x) => x.kind === 'comment' || x.body.in_reply_to !== undefined)).toHaveLength(8);
    expect(posts).toHaveLength(12);
    // The target.published events carry the same follow-ups; a target without them reports as before.
    const events = w.db.prepare("SELECT data FROM events WHERE type = 'target.published'").pluck().all().map((d) => JSON.parse(d as string) as Record<string, unknown>);
    const twitterEvent = events.find((e) => e.platform === 'twitter')!;
    expect(twitterEvent.thread_posts).toEqual(by.twitter!.thread_posts);
    expect(twitterEvent.comment).toEqual(by.twitter!.comment);
    expect(events.find((e) => e.platform === 'facebook')).not.toHaveProperty('thread_posts');
  });

  it('a first comment YouTube refuses (a private video) leaves the video published with the comment error shown', async () => {
    const w = await world();
    const video = await prepareMedia(w, `${await serveSamples(defer)}/clip.mp4`);
    const { targets } = await publishAndSettle(w, {
      caption: 'Behind the scenes',
      platforms: ['youtube', 'tiktok'],
      media_urls: [video],
      platform_options: { youtube: { privacy_status: 'private' } },
      first_comment: 'Chapters in the description',
    });
    const yt = targets.find((t) => t.platform === 'youtube')!;
    expect(yt.status).toBe('published');
    expect(yt.post_id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(yt.comment).toEqual({ error: expect.stringMatching(/first comment failed \(forbidden\)/) });
    // TikTok takes no comments: its target has none.
    expect(targets.find((t) => t.platform === 'tiktok')!.comment).toBeUndefined();
    expect(listSandboxPosts(w.db).filter((p) => p.kind === 'comment')).toEqual([]);
  });

  it('a public YouTube video gets its comment by commentThreads.insert, with a link to it', async () => {
    const w = await world();
    const video = await prepareMedia(w, `${await serveSamples(defer)}/clip.mp4`);
    const { targets } = await publishAndSettle(w, { caption: 'Public launch', platforms: ['youtube'], media_urls: [video], first_comment: 'Thanks for watching' });
    const yt = targets[0]!;
    const c = yt.comment as { id: string; url: string };
    expect(c.url).toBe(`https://www.youtube.com/watch?v=${yt.post_id}&lc=${c.id}`);
    const rec = listSandboxPosts(w.db).find((p) => p.kind === 'comment')!;
    expect(rec).toMatchObject({ platform: 'youtube', postId: c.id, body: { on: yt.post_id, text: 'Thanks for watching' } });
  });

  it('refuses threads and comments it cannot publish, naming the field', async () => {
    const w = await world();
    const check = async (body: Record<string, unknown>) => {
      const res = await w.call('POST', '/content/publish', { publish_now: true, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return (res.body.error as { details: { path: string; message: string }[] }).details.map((d) => [d.path, d.message]);
    };
    expect(await check({ caption: 'x', platforms: ['facebook'], thread: [{ caption: 'more' }] })).toEqual([
      ['thread', 'none of the platforms publishes reply chains (thread applies to twitter, threads, bluesky, mastodon)'],
    ]);
    expect(await check({ caption: 'x', platforms: ['tiktok'], media_urls: ['https://cdn.example.com/a.mp4'], first_comment: 'hi' })).toEqual([
      ['first_comment', 'none of the platforms takes a first comment (first_comment applies to instagram, facebook, twitter, threads, youtube, bluesky, mastodon, linkedin)'],
    ]);
    expect(await check({ caption: 'x', platforms: ['twitter'], thread: { threads: [{ caption: 'more' }] } })).toEqual([['thread.threads', 'threads is not among platforms']]);
    expect(await check({ caption: 'x', platforms: ['twitter'], thread: [{ caption: 'fine' }, {}] })).toEqual([['thread.1.caption', 'a thread part needs a caption or media_urls']]);
    const long = 'a'.repeat(281);
    expect(await check({ caption: 'x', platforms: ['twitter', 'threads'], thread: [{ caption: 'ok' }, { caption: long }] })).toEqual([
      ['thread.1.caption', 'twitter captions are at most 280 characters (this one counts 281)'],
    ]);
    expect(await check({ caption: 'same', platforms: ['twitter'], thread: [{ caption: 'other' }, { caption: 'same' }] })).toEqual([
      ['thread.1.caption', 'X refuses a post with the same text as another of the account; this part repeats the post or an earlier part'],
    ]);
    expect(await check({ caption: 'x', platforms: ['threads'], first_comment: { threads: 'b'.repeat(501) } })).toEqual([
      ['first_comment.threads', expect.stringMatching(/^Threads posts may have at most 500 characters/)],
    ]);
    expect(await check({ caption: 'x', platforms: ['twitter'], thread: [{ caption: 'y', media_urls: ['https://cdn.example.com/1.jpg', 'https://cdn.example.com/2.jpg', 'https://cdn.example.com/3.jpg', 'https://cdn.example.com/4.jpg', 'https://cdn.example.com/5.jpg'] }] })).toEqual([
      ['thread.0.media_urls', 'twitter takes at most 4 media items'],
    ]);
    expect(listSandboxPosts(w.db)).toEqual([]);
  });
});
