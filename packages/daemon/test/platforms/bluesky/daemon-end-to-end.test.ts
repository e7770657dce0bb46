import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, JPEG, prepareMedia, serveSamples, startSandboxDaemon, type SandboxDaemon } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

/** Bluesky through the daemon: the API, the scheduler, the publisher, the adapter and the sandbox simulator. */

const defer = useCleanups();
const world = () => startSandboxDaemon(defer, { platforms: ['bluesky'] });

interface TargetView {
  status: string;
  post_id: string | null;
  post_url: string | null;
  thread_posts?: { part: number; post_id: string; post_url: string | null }[];
  comment?: { id: string; url: string | null };
}

const open = (w: SandboxDaemon) => (w.db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck().get() as number) > 0;
async function job(w: SandboxDaemon, id: string): Promise<{ status: string; targets: TargetView[] }> {
  const got = await w.call('GET', `/content/scheduled?job_id=${id}`);
  return got.body.post as { status: string; targets: TargetView[] };
}

describe('bluesky through the daemon and its sandbox', () => {
  it('publishes now with a thread and a first comment, facets at byte offsets, and takes every record down', async () => {
    const w = await world();
    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    const caption = 'Lancement 🚀 de la crème: https://example.com/été #launch';
    const pub = await w.call('POST', '/content/publish', {
      caption,
      platforms: ['bluesky'],
      publish_now: true,
      media_urls: [image],
      platform_options: { bluesky: { langs: ['fr'], alt_texts: ['Le pot de crème'], labels: ['nudity'], link_card: false } },
      thread: [{ caption: 'Part 2 🧵' }, { caption: 'Part 3' }],
      first_comment: 'Questions?',
    });
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    const jobId = String(pub.body.job_id);
    await advanceUntil(w.clock, () => !open(w), 300);
    const t = (await job(w, jobId)).targets[0]!;
    expect(t.status).toBe('published');
    expect(t.post_id).toMatch(/^at:\/\/did:plc:[a-z2-7]{24}\/app\.bsky\.feed\.post\/[2-7a-j][2-7a-z]{12}$/);
    expect(t.post_url).toMatch(/^https:\/\/bsky\.app\/profile\/sandbox-\d+\.bsky\.social\/post\/[2-7a-z]{13}$/);
    expect(t.thread_posts!.map((p) => p.part)).toEqual([1, 2, 3]);

    const posts = listSandboxPosts(w.db).filter((p) => p.platform === 'bluesky');
    expect(posts.map((p) => p.body.text)).toEqual([caption, 'Part 2 🧵', 'Part 3', 'Questions?']);
    expect(posts.map((p) => p.body.in_reply_to ?? null)).toEqual([null, t.post_id, t.thread_posts![1]!.post_id, t.post_id]);
    const main = posts[0]!.body as { facets: Array<{ index: { byteStart: number; byteEnd: number } }>; langs: string[]; embed: { images: Array<{ alt: string }> }; labels: unknown };
    const bytes = Buffer.from(caption, 'utf8');
    expect(main.facets.map((f) => bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8'))).toEqual(['https://example.com/été', '#launch']);
    // 'Lancement 🚀 de la crème: ' is 29 bytes (25 UTF-16 units).
    expect(main.facets[0]!.index).toEqual({ byteStart: 29, byteEnd: 54 });
    expect(main.langs).toEqual(['fr']);
    expect(main.embed.images.map((i) => i.alt)).toEqual(['Le pot de crème']);
    expect(main.labels).toEqual({ $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'nudity' }] });

    const down = await w.call('POST', `/content/scheduled/unpublish?job_id=${jobId}`);
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect((down.body.targets as Array<{ result: string; status: string }>).map((x) => [x.result, x.status])).toEqual([['removed', 'removed']]);
    // The post, both parts and the comment are gone from the PDS.
    expect(listSandboxPosts(w.db).filter((p) => p.platform === 'bluesky').map((p) => p.removedAt !== null && p.removedAt !== undefined)).toEqual([true, true, true, true]);
  });

  it('publishes a scheduled post when its time comes, a staggered one at its offset, and an approved one only after approval', async () => {
    const w = await world();
    const at = new Date(w.clock.now() + 3_600_000).toISOString();
    const scheduled = await w.call('POST', '/content/publish', { caption: 'Later', platforms: ['bluesky'], scheduled_for: at });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    await advanceUntil(w.clock, () => false, 30, 60_000);
    expect((await job(w, String(scheduled.body.job_id))).targets[0]!.status).toBe('scheduled');
    await advanceUntil(w.clock, () => !open(w), 120, 60_000);
    const done = (await job(w, String(scheduled.body.job_id))).targets[0]!;
    expect(done.status).toBe('published');
    expect(listSandboxPosts(w.db).map((p) => [p.body.text, p.createdAt >= Date.parse(at)])).toEqual([['Later', true]]);

    // Staggered: the bluesky target 30 minutes after the job's time (type_schedule).
    const staggered = await w.call('POST', '/content/publish', { caption: 'Staggered', platforms: ['bluesky'], scheduled_for: new Date(w.clock.now() + 60_000).toISOString(), type_schedule: { bluesky: '+30m' } });
    expect(staggered.status, JSON.stringify(staggered.body)).toBe(200);
    const due = w.db.prepare('SELECT due_at FROM targets WHERE job_id = ?').pluck().get(String(staggered.body.job_id)) as number;
    expect(due).toBe(w.clock.now() + 60_000 + 30 * 60_000);
    await advanceUntil(w.clock, () => !open(w), 120, 60_000);
    const posted = listSandboxPosts(w.db).find((p) => p.body.text === 'Staggered')!;
    expect(posted.createdAt).toBeGreaterThanOrEqual(due);

    const user = w.store.users.list()[0]!;
    w.store.users.setApprovalWorkflow(user.id, true);
    const held = await w.call('POST', '/content/publish', { caption: 'Needs a yes', platforms: ['bluesky'], publish_now: true });
    const heldId = String(held.body.job_id);
    await advanceUntil(w.clock, () => false, 10);
    expect((await job(w, heldId)).status).toBe('pending_approval');
    expect(listSandboxPosts(w.db)).toHaveLength(2);
    const approve = await w.call('POST', `/content/scheduled/approve?job_id=${heldId}`);
    expect(approve.status, JSON.stringify(approve.body)).toBe(200);
    await advanceUntil(w.clock, () => !open(w), 120);
    expect((await job(w, heldId)).targets[0]!.status).toBe('published');
    expect(listSandboxPosts(w.db).map((p) => p.body.text)).toEqual(['Later', 'Staggered', 'Needs a yes']);
  });

  it('refuses bad input with the field named and stores nothing: an image over 1,000,000 bytes, 301 graphemes, too many langs', async () => {
    const w = await world();
    const big = Buffer.concat([JPEG.subarray(0, JPEG.length - 2), Buffer.alloc(1_100_000, 7), Buffer.from([0xff, 0xd9])]);
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': big.length }).end(big));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const image = await prepareMedia(w, `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.jpg`);

    const tooBig = await w.call('POST', '/content/publish', { caption: 'big', platforms: ['bluesky'], publish_now: true, media_urls: [image] });
    expect(tooBig.status).toBe(400);
    expect(JSON.stringify(tooBig.body)).toContain('"path":"media_urls.0"');
    expect(JSON.stringify(tooBig.body)).toContain('Bluesky takes images up to 1,000,000 bytes (the uploadBlob image limit); this one is 1,100,');

    const long = await w.call('POST', '/content/publish', { caption: '🎉'.repeat(301), platforms: ['bluesky'], publish_now: true });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('"path":"caption","message":"bluesky captions are at most 300 graphemes (this one counts 301)"');
    const ok300 = await w.call('POST', '/content/validate', { caption: '👩‍👧'.repeat(300), platforms: ['bluesky'] });
    expect(JSON.stringify(ok300.body)).not.toContain('"path":"caption"');

    const langs = await w.call('POST', '/content/publish', { caption: 'x', platforms: ['bluesky'], publish_now: true, platform_options: { bluesky: { langs: ['en', 'fr', 'de', 'es'] } } });
    expect(langs.status).toBe(400);
    expect(JSON.stringify(langs.body)).toContain('"path":"platform_options.bluesky.langs"');
    expect(w.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(0);
    expect(listSandboxPosts(w.db)).toHaveLength(0);
  });

  it('describes Bluesky in GET /platforms and the OpenAPI document from its module: limits, counting, the options schema', async () => {
    const w = await world();
    const res = await w.call('GET', '/platforms');
    const bluesky = (res.body.platforms as Array<Record<string, unknown>>).find((p) => p.platform === 'bluesky')!;
    expect(bluesky).toMatchObject({ types: ['post'], default_type: 'post', connection: { status: 'active', mode: 'sandbox' } });
    expect(JSON.stringify(bluesky)).toContain('"graphemes"');
    const schema = bluesky.options as { title: string; properties: Record<string, unknown>; additionalProperties: boolean };
    expect(schema.title).toBe('BlueskyOptions');
    expect(Object.keys(schema.properties).sort()).toEqual(['alt_texts', 'labels', 'langs', 'link_card']);
    expect(schema.additionalProperties).toBe(false);
    const doc = (await w.call('GET', '/openapi.json')).body as unknown as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    expect(Object.keys(doc.components.schemas.BlueskyOptions!.properties!).sort()).toEqual(['alt_texts', 'labels', 'langs', 'link_card']);
    expect(Object.keys(doc.components.schemas.PlatformOptions!.properties!)).toContain('bluesky');
  });
});
