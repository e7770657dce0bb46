import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createBlueskyAdapter } from '../../../src/platforms/bluesky/adapter';
import { createBlueskyRemover } from '../../../src/platforms/bluesky/remove';
import { recordKeyFor, TID } from '../../../src/platforms/bluesky/tid';
import { AuthExpiredError, PermanentError } from '../../../src/platforms/errors';
import { AddressGuard } from '../../../src/net/address-guard';
import { ManualClock } from '../../../src/util/clock';
import { useCleanups } from '../../support/cleanups';
import { context, drive, JPEG, mediaItem, sandboxCreds } from './harness';
import { useBlueskySimulator } from './use-bluesky-simulator';

const defer = useCleanups();
const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);

async function world() {
  const clock = new ManualClock(T0);
  const w = await useBlueskySimulator(defer, { clock, processingMs: 3_000 });
  // Link cards come from a loopback test server here: private addresses allowed for them.
  const adapter = createBlueskyAdapter({ guard: new AddressGuard({ allowPrivate: true }) });
  const ctx = (o: Parameters<typeof context>[2]) => context(clock, w.baseUrl, o);
  const calls = () => w.sim.log.requests.map((r) => `${r.method} ${r.host} ${r.path.replace(/^\/xrpc\//, '')}`);
  return { ...w, clock, adapter, ctx, calls };
}

const bytesOf = (text: string, from: number, to: number) => Buffer.from(text, 'utf8').subarray(from, to).toString('utf8');

describe('the Bluesky adapter against the simulator', () => {
  it('posts text with facets at the right UTF-8 byte offsets (emoji, accents), langs and self-labels, at the key derived from the target', async () => {
    const w = await world();
    // The mentioned account exists.
    await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.createSession`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'zoë-café.bsky.social'.normalize('NFD').replace(/\p{M}/gu, ''), password: 'sandbox-app-password' }) });
    const text = 'Crème brûlée 🍮👨‍👩‍👧 avec @zoe-cafe.bsky.social: https://exemple.fr/été #dessert ✨ @nobody.example.org';
    const ctx = w.ctx({ id: 'tgt_facets', caption: text, options: { langs: ['fr', 'en'], labels: ['graphic-media'], link_card: false } });
    const out = await w.adapter.publish(ctx);
    const rkey = recordKeyFor('tgt_facets', 1);
    expect(rkey).toMatch(TID);
    const rec = w.sim.record(out.postId)!;
    expect(out.postId).toBe(`at://${rec.did}/app.bsky.feed.post/${rkey}`);
    expect(out.postUrl).toMatch(new RegExp(`^https://bsky\\.app/profile/sandbox-\\d+\\.bsky\\.social/post/${rkey}$`));
    const facets = rec.value.facets as Array<{ index: { byteStart: number; byteEnd: number }; features: Array<Record<string, string>> }>;
    expect(facets.map((f) => [bytesOf(text, f.index.byteStart, f.index.byteEnd), f.features[0]!.$type])).toEqual([
      ['@zoe-cafe.bsky.social', 'app.bsky.richtext.facet#mention'],
      ['https://exemple.fr/été', 'app.bsky.richtext.facet#link'],
      ['#dessert', 'app.bsky.richtext.facet#tag'],
    ]);
    // Byte offsets, not UTF-16 units (29): "Crème brûlée 🍮👨‍👩‍👧 avec " is 44 bytes.
    expect(text.indexOf('@zoe')).toBe(29);
    expect(facets[0]!.index).toEqual({ byteStart: 44, byteEnd: 65 });
    expect(facets[0]!.features[0]!.did).toMatch(/^did:plc:/);
    expect(rec.value).toMatchObject({ text, langs: ['fr', 'en'], labels: { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'graphic-media' }] } });
    expect(rec.value.embed).toBeUndefined();
  });

  it('uploads up to four images with their alt texts (uploadBlob) and embeds them', async () => {
    const w = await world();
    const media = [mediaItem('image'), mediaItem('image'), mediaItem('image')];
    const out = await w.adapter.publish(w.ctx({ caption: 'three pictures', media, options: { alt_texts: ['A pier at dawn', 'Gulls'] } }));
    const embed = w.sim.record(out.postId)!.value.embed as { $type: string; images: Array<{ alt: string; image: { mimeType: string; size: number } }> };
    expect(embed.$type).toBe('app.bsky.embed.images');
    expect(embed.images.map((i) => i.alt)).toEqual(['A pier at dawn', 'Gulls', '']);
    expect(embed.images.map((i) => [i.image.mimeType, i.image.size])).toEqual([['image/jpeg', JPEG.length], ['image/jpeg', JPEG.length], ['image/jpeg', JPEG.length]]);
    expect(w.calls().filter((c) => c.includes('uploadBlob'))).toHaveLength(3);
  });

  it('fails an image over 1,000,000 bytes before uploading anything (a size not known when the request was accepted)', async () => {
    const w = await world();
    const big = mediaItem('image', Buffer.concat([JPEG, Buffer.alloc(1_000_001)]));
    const err = await w.adapter.publish(w.ctx({ caption: 'too big', media: [mediaItem('image'), big] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toBe(`media 2: Bluesky takes images up to 1,000,000 bytes; this one is ${(1_000_001 + JPEG.length).toLocaleString('en-US')} bytes`);
    expect(w.sim.log.posts).toHaveLength(0);
    expect(w.calls().filter((c) => c.includes('uploadBlob'))).toEqual([]);
  });

  it('sends a video through the video service: service auth, upload limits, uploadVideo, job status until the blob, then the post', async () => {
    const w = await world();
    const out = await drive(w.clock, w.adapter.publish(w.ctx({ caption: 'a clip', media: [mediaItem('video')], options: { alt_texts: ['A cat'] } })));
    const seq = w.calls();
    expect(seq.slice(0, 6)).toEqual([
      'GET bsky.social com.atproto.server.getSession',
      'GET bsky.social com.atproto.server.getServiceAuth',
      'GET video.bsky.app app.bsky.video.getUploadLimits',
      'GET bsky.social com.atproto.server.getServiceAuth',
      'POST video.bsky.app app.bsky.video.uploadVideo',
      'GET video.bsky.app app.bsky.video.getJobStatus',
    ]);
    expect(seq.at(-1)).toBe('POST bsky.social com.atproto.repo.createRecord');
    expect(w.sim.log.requests.find((r) => r.path.endsWith('getServiceAuth') && r.query.lxm === 'com.atproto.repo.uploadBlob')!.query.aud).toBe('did:web:bsky.social');
    const embed = w.sim.record(out.postId)!.value.embed as Record<string, unknown>;
    expect(embed).toMatchObject({ $type: 'app.bsky.embed.video', alt: 'A cat', video: { $type: 'blob', mimeType: 'video/mp4' } });
  });

  it('takes the earlier job when the video service already has the same video (409 already_exists with its jobId)', async () => {
    const w = await world();
    const clip = mediaItem('video');
    const first = await drive(w.clock, w.adapter.publish(w.ctx({ caption: 'first', media: [clip] })));
    const second = await drive(w.clock, w.adapter.publish(w.ctx({ caption: 'second', media: [clip] })));
    const uploads = w.sim.log.requests.filter((r) => r.path.endsWith('uploadVideo'));
    expect(uploads.map((r) => r.status)).toEqual([200, 409]);
    expect((uploads[1]!.responseBody as { jobId: string }).jobId).toBe((uploads[0]!.responseBody as { jobId: string }).jobId);
    const blobOf = (uri: string) => (w.sim.record(uri)!.value.embed as { video: unknown }).video;
    expect(blobOf(second.postId)).toEqual(blobOf(first.postId));
  });

  it('refuses a video when the service says the account cannot upload', async () => {
    const w = await world();
    w.sim.settings.canUpload = false;
    const err = await drive(w.clock, w.adapter.publish(w.ctx({ caption: 'a clip', media: [mediaItem('video')] }))).catch((e: unknown) => e);
    expect((err as Error).message).toBe("Bluesky's video service refuses uploads for this account: Please confirm your email address to upload videos");
    expect(w.sim.log.posts).toHaveLength(0);
  });

  it('attaches a link card (title, description, thumbnail) for the first link of a text post', async () => {
    const w = await world();
    const server = createServer((req, res) => {
      if (req.url === '/og.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><head><title>Fallback</title><meta property="og:title" content="Crème &amp; Co"><meta name="description" content="Desserts, daily."><meta property="og:image" content="/og.jpg"></head></html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    defer(() => new Promise<void>((r) => server.close(() => r())));
    const link = `http://127.0.0.1:${(server.address() as AddressInfo).port}/menu`;
    const out = await w.adapter.publish(w.ctx({ caption: `Menu: ${link} and ${link}/2` }));
    expect(w.sim.record(out.postId)!.value.embed).toMatchObject({
      $type: 'app.bsky.embed.external',
      external: { uri: link, title: 'Crème & Co', description: 'Desserts, daily.', thumb: { $type: 'blob', mimeType: 'image/jpeg', size: JPEG.length } },
    });
  });

  it('posts a thread as a reply chain (root and parent refs) and a first comment, each at its own derived key', async () => {
    const w = await world();
    const ctx = w.ctx({ id: 'tgt_thread', caption: 'Part 1', thread: [{ caption: 'Part 2' }, { caption: 'Part 3', media_urls: ['x'] }], threadMedia: [[], [mediaItem('image')]], firstComment: 'Comments welcome' });
    const out = await w.adapter.publish(ctx);
    const posts = w.sim.log.posts;
    expect(posts.map((p) => p.body.text)).toEqual(['Part 1', 'Part 2', 'Part 3', 'Comments welcome']);
    expect(posts.map((p) => p.postId.split('/').pop())).toEqual([1, 2, 3, 'comment'].map((k) => recordKeyFor('tgt_thread', k as number | 'comment')));
    const root = { uri: out.postId, cid: w.sim.record(out.postId)!.cid };
    const ref = (i: number) => ({ uri: posts[i]!.postId, cid: w.sim.record(posts[i]!.postId)!.cid });
    expect(posts.slice(1).map((p) => w.sim.record(p.postId)!.value.reply)).toEqual([
      { root, parent: root },
      { root, parent: ref(1) },
      { root, parent: root },
    ]);
    expect((w.sim.record(posts[2]!.postId)!.value.embed as { images: unknown[] }).images).toHaveLength(1);
    // Take-down deletes the comment and the parts, then the post.
    const remover = createBlueskyRemover();
    const ids = remover.remoteIds({ type: 'post', postId: out.postId, checkpoint: ctx.checkpoint.data, replies: {} });
    expect(ids).toEqual([posts[3]!.postId, posts[2]!.postId, posts[1]!.postId, out.postId]);
    for (const id of ids) expect(await remover.deletePost(ctx, id)).toBe('deleted');
    expect(await remover.deletePost(ctx, out.postId)).toBe('already_gone');
    expect(await remover.postExists(ctx, out.postId)).toBe(false);
    expect(w.sim.log.posts.every((p) => p.removedAt === T0)).toBe(true);
  });
});

describe('exactly once with the record key chosen before the call', () => {
  it('finds the post when createRecord made it but the answer was lost (getRecord at the key)', async () => {
    const w = await world();
    w.sim.log.inject({ method: 'POST', path: '/xrpc/com.atproto.repo.createRecord', kind: 'reset-after' });
    const out = await w.adapter.publish(w.ctx({ id: 'tgt_lost', caption: 'once' }));
    expect(w.sim.log.posts.map((p) => p.postId)).toEqual([out.postId]);
    expect(w.calls().slice(-2)).toEqual(['POST bsky.social com.atproto.repo.createRecord', 'GET bsky.social com.atproto.repo.getRecord']);
  });

  it('a retry that lost its whole checkpoint writes the same key, is refused, and adopts the record there', async () => {
    const w = await world();
    const first = await w.adapter.publish(w.ctx({ id: 'tgt_again', caption: 'once' }));
    const second = await w.adapter.publish(w.ctx({ id: 'tgt_again', caption: 'once' }));
    expect(second.postId).toBe(first.postId);
    expect(w.sim.log.posts).toHaveLength(1);
    expect(w.sim.log.requests.filter((r) => r.path.endsWith('createRecord')).map((r) => r.status)).toEqual([200, 400]);
  });

  it('reconcile says published or not_published from getRecord, and unknown only when the PDS cannot say', async () => {
    const w = await world();
    const made = w.ctx({ id: 'tgt_rec1', caption: 'x' });
    const out = await w.adapter.publish(made);
    expect(await w.adapter.reconcile(w.ctx({ id: 'tgt_rec1', caption: 'x' }))).toEqual({ state: 'published', outcome: out });
    expect(await w.adapter.reconcile(w.ctx({ id: 'tgt_rec2', caption: 'x' }))).toMatchObject({ state: 'not_published' });
    w.sim.log.inject({ method: 'GET', path: '/xrpc/com.atproto.repo.getRecord', kind: 'respond', status: 502, body: { error: 'UpstreamFailure', message: 'Upstream Failure' } });
    const unknown = await w.adapter.reconcile(w.ctx({ id: 'tgt_rec3', caption: 'x' }));
    expect(unknown).toMatchObject({ state: 'unknown' });
    expect((unknown as { reason: string }).reason).toContain('Upstream Failure');
  });
});

describe('sessions', () => {
  async function liveCreds(w: Awaited<ReturnType<typeof world>>, password = 'sandbox-app-password') {
    const res = await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.createSession`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'erin.bsky.social', password: 'sandbox-app-password' }) });
    const s = (await res.json()) as { accessJwt: string; refreshJwt: string; did: string; handle: string };
    const c = sandboxCreds('live');
    return { ...c, mode: 'live' as const, accountId: s.did, secrets: { access_token: s.accessJwt, refresh_token: s.refreshJwt, app_password: password }, tokenExpiresAt: T0 + 2 * 3_600_000, meta: { did: s.did, handle: s.handle, pds: 'https://pds.erin.example' } };
  }
  // The PDS's host name resolves to a public address (checked by the SSRF guard); the simulator stands in for it.
  const publicGuard = () => new AddressGuard({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] });

  it('refreshes an expired access token with refreshSession (rotating the pair) and stores it before use', async () => {
    const w = await world();
    const adapter = createBlueskyAdapter({ guard: publicGuard(), linkCards: null });
    const credentials = await liveCreds(w);
    const oldRefresh = credentials.secrets.refresh_token;
    await w.clock.advance(3 * 3_600_000);
    const ctx = w.ctx({ caption: 'after a while', credentials });
    await adapter.publish(ctx);
    expect(w.calls()).toContain('POST bsky.social com.atproto.server.refreshSession');
    expect(ctx.saved).toHaveLength(1);
    expect(ctx.saved[0]!.secrets.refresh_token).not.toBe(oldRefresh);
    expect(ctx.saved[0]!.tokenExpiresAt).toBe(Math.floor((T0 + 3 * 3_600_000) / 1000) * 1000 + 2 * 3_600_000);
    expect(w.sim.log.posts).toHaveLength(1);
  });

  it('re-creates the session from the app password when the refresh token is spent, and expires the connection when the app password is refused', async () => {
    const w = await world();
    const adapter = createBlueskyAdapter({ guard: publicGuard(), linkCards: null });
    const credentials = await liveCreds(w);
    // Spend the refresh token elsewhere.
    await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { authorization: `Bearer ${credentials.secrets.refresh_token}` } });
    await w.clock.advance(3 * 3_600_000);
    const ctx = w.ctx({ caption: 'new session', credentials });
    await adapter.publish(ctx);
    expect(w.calls().filter((c) => c.includes('Session'))).toEqual(['POST bsky.social com.atproto.server.createSession', 'POST bsky.social com.atproto.server.refreshSession', 'POST bsky.social com.atproto.server.refreshSession', 'POST bsky.social com.atproto.server.createSession']);

    const revoked = await liveCreds(w, 'wrong-password');
    await fetch(`${w.pdsUrl}/xrpc/com.atproto.server.refreshSession`, { method: 'POST', headers: { authorization: `Bearer ${revoked.secrets.refresh_token}` } });
    await w.clock.advance(3 * 3_600_000);
    const bad = w.ctx({ caption: 'no session', credentials: revoked });
    const err = await adapter.publish(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthExpiredError);
    expect((err as Error).message).toContain('Bluesky refused the app password (AuthenticationRequired): Invalid identifier or password');
    expect(bad.expired).toHaveLength(1);
  });

  it('refuses a PDS on a private address before any request', async () => {
    const w = await world();
    const adapter = createBlueskyAdapter({ linkCards: null });
    const credentials = { ...(await liveCreds(w)), meta: { did: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', handle: 'x.example', pds: 'https://10.1.2.3' } };
    const before = w.sim.log.requests.length;
    const err = await adapter.publish(w.ctx({ caption: 'x', credentials })).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^The Bluesky PDS is refused: refused to fetch from 10\.1\.2\.3/);
    expect(w.sim.log.requests.length).toBe(before);
  });
});
