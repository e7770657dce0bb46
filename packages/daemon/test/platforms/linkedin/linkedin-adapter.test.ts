import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepliesContext, MediaItem } from '../../../src/platforms/adapter';
import { AuthExpiredError, OutcomeUnknownError, PermanentError } from '../../../src/platforms/errors';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { createLinkedinAdapter } from '../../../src/platforms/linkedin/adapter';
import { LinkedinVersions, defaultVersion, monthVersion } from '../../../src/platforms/linkedin/api-version';
import { createLinkedinRemover } from '../../../src/platforms/linkedin/remove';
import { createLinkedinSimulator, LINKEDIN_API_HOST, LINKEDIN_WWW_HOST, type LinkedinSimulator } from '../../../src/platforms/linkedin/sim/simulator';
import { driveClock, fakeBytes, makeContext, mediaFile, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';

let clock: RecordingClock;
let sim: LinkedinSimulator;
let server: SimServer;
/** The Linkedin-Version and X-Restli-Protocol-Version of every call to api.linkedin.com, in order. */
let sent: Array<{ path: string; version: string | undefined; restli: string | undefined }>;

beforeEach(async () => {
  clock = new RecordingClock();
  sim = createLinkedinSimulator({ clock, processingMs: 3_000 });
  sent = [];
  const api = new Hono();
  api.use('*', async (c, next) => {
    sent.push({ path: new URL(c.req.url).pathname.replace(`/${LINKEDIN_API_HOST}`, ''), version: c.req.header('linkedin-version'), restli: c.req.header('x-restli-protocol-version') });
    await next();
  });
  api.route('/', sim.api);
  server = await serveSimulators([
    { host: LINKEDIN_API_HOST, app: api },
    { host: LINKEDIN_WWW_HOST, app: sim.www },
  ]);
  forgetRefreshes();
});
afterEach(() => server.close());

const TOKEN = 'sandbox-linkedin-token';
const calls = () => sim.log.requests.map((r) => `${r.method} ${r.path.replace(/dms-uploads\/.*/, 'dms-uploads/…')}`);

function ctxFor(caption: string, media: MediaItem[] = [], extra: Partial<Parameters<typeof makeContext>[0]> = {}) {
  return makeContext({ platform: 'linkedin', type: 'post', caption, media, secrets: { access_token: TOKEN }, clock, server, ...extra });
}
const member = () => `urn:li:person:${sim.defaultMember.sub}`;
const orgUrn = (i: number) => `urn:li:organization:${sim.defaultMember.organizations[i]}`;
const mediaOf = (i: number) => sim.log.posts[i]!.body.media as Array<{ id: string; bytes: number }>;
const pdf = (size: number) => {
  const b = Buffer.alloc(size, 0x20);
  Buffer.from('%PDF-1.7\n', 'latin1').copy(b, 0);
  return b;
};

describe('linkedin adapter against the LinkedIn simulator', () => {
  it('posts text full of reserved characters that reads exactly as written, with the version and Rest.li headers', async () => {
    const versions = new LinkedinVersions(null);
    const adapter = createLinkedinAdapter({ versions });
    const caption = 'Launch (beta) [v2] {json} <tag> @everyone | a~b _under_ *star* #launch \\path # 100% done!';
    const ctx = ctxFor(caption);
    const outcome = await adapter.publish(ctx);

    expect(calls()).toEqual(['GET /v2/userinfo', 'POST /rest/posts']);
    const post = sim.log.requests[1]!;
    expect(post.status).toBe(201);
    expect(post.body).toEqual({
      author: member(),
      commentary: 'Launch \\(beta\\) \\[v2\\] \\{json\\} \\<tag\\> \\@everyone \\| a\\~b \\_under\\_ \\*star\\* {hashtag|\\#|launch} \\\\path \\# 100% done!',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    });
    const [made] = sim.log.posts;
    expect(made!.body.text).toBe(caption);
    expect(made!.body.hashtags).toEqual(['launch']);
    expect(outcome).toEqual({ postId: post.responseHeaders['x-restli-id'], postUrl: `https://www.linkedin.com/feed/update/${made!.postId}/` });
    expect(outcome.postId).toMatch(/^urn:li:share:\d+$/);
    expect(sent.filter((s) => s.path.startsWith('/rest/')).map((s) => [s.version, s.restli])).toEqual([[defaultVersion(clock.now()), '2.0.0']]);
    expect(defaultVersion(clock.now())).toBe(monthVersion(clock.now(), 2));
    // The author, then the commentary and the request time, before the post is sent; the id after.
    expect(ctx.checkpointHistory.map((p) => Object.keys(p).sort().join(','))).toEqual(['author', 'commentary,postRequestedAt', 'postUrn']);
  });

  it('a caption sent unescaped (as a naive client would) loses its reserved characters: the simulator reads little text as LinkedIn does', async () => {
    const res = await fetch(`${server.baseUrl(LINKEDIN_API_HOST)}/rest/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'linkedin-version': defaultVersion(clock.now()), 'x-restli-protocol-version': '2.0.0' },
      body: JSON.stringify({ author: member(), commentary: 'Launch (beta) #1 @all', visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED' }, lifecycleState: 'PUBLISHED' }),
    });
    expect(res.status).toBe(201);
    expect(sim.log.posts[0]!.body.text).toBe('Launch beta 1 all');
  });

  it('posts an image: initializeUpload, the PUT to the upload URL, AVAILABLE, then content.media', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null), pollMs: 1_000 });
    const img = mediaFile('a.png', fakeBytes('png', 40_000), 'image', 'image/png');
    await adapter.publish(ctxFor('one picture', [img]));
    expect(calls()).toEqual(['GET /v2/userinfo', 'POST /rest/images', 'PUT /dms-uploads/…', 'GET /rest/images/' + encodeURIComponent(mediaOf(0)[0]!.id), 'POST /rest/posts']);
    expect(sim.log.requests[1]!.query).toEqual({ action: 'initializeUpload' });
    expect(sim.log.requests[1]!.body).toEqual({ initializeUploadRequest: { owner: member() } });
    // The upload URL is the simulator's own (LinkedIn's are on www.linkedin.com), sent with the token.
    expect(sim.log.requests[2]!.host).toBe(LINKEDIN_API_HOST);
    expect(sim.log.requests[2]!.headers.authorization).toBe('Bearer …');
    const urn = (sim.log.requests[1]!.responseBody as { value: { image: string } }).value.image;
    expect((sim.log.requests[4]!.body as { content: unknown }).content).toEqual({ media: { id: urn } });
    expect(sim.log.posts[0]!.body.media).toEqual([{ id: urn, kind: 'image', type: 'image/png', bytes: 40_000 }]);
  });

  it('posts three images as a multiImage post', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null) });
    const items = [0, 1, 2].map((i) => mediaFile(`${i}.jpg`, fakeBytes('jpeg', 10_000 + i), 'image', 'image/jpeg'));
    await adapter.publish(ctxFor('three', items));
    const body = sim.log.to('POST', '/rest/posts')[0]!.body as { content: { multiImage: { images: Array<{ id: string }> } } };
    expect(body.content.multiImage.images).toHaveLength(3);
    expect(sim.log.posts[0]!.kind).toBe('multi_image');
    expect(mediaOf(0).map((m) => m.bytes)).toEqual([10_000, 10_001, 10_002]);
  });

  it('posts a video in 4 MiB parts with their ETags, finalizeUpload, and waits for processing', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null), pollMs: 1_000 });
    const video = mediaFile('v.mp4', fakeBytes('mp4', 4 * 1024 * 1024 + 500_000), 'video', 'video/mp4');
    const ctx = ctxFor('a video', [video]);
    await driveClock(clock, adapter.publish(ctx));
    const init = sim.log.to('POST', '/rest/videos')[0]!;
    expect(init.body).toEqual({ initializeUploadRequest: { owner: member(), fileSizeBytes: 4 * 1024 * 1024 + 500_000, uploadCaptions: false, uploadThumbnail: false } });
    const v = (init.responseBody as { value: { video: string; uploadInstructions: unknown[] } }).value;
    expect(v.uploadInstructions).toHaveLength(2);
    const puts = sim.log.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toEqual([`<${4 * 1024 * 1024} bytes>`, '<500000 bytes>']);
    const fin = sim.log.to('POST', '/rest/videos')[1]!;
    expect(fin.query).toEqual({ action: 'finalizeUpload' });
    expect(fin.body).toEqual({ finalizeUploadRequest: { video: v.video, uploadToken: '', uploadedPartIds: puts.map((p) => p.responseHeaders.etag) } });
    expect(sim.log.posts[0]!.kind).toBe('video');
    expect(ctx.checkpoint.data.uploads).toEqual({ '0': expect.objectContaining({ urn: v.video, state: 'ready' }) });
  });

  it('posts a PDF document with its title', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null) });
    const doc = { ...mediaFile('deck.pdf', pdf(30_000), 'image', 'application/pdf'), kind: 'document' } as MediaItem;
    await adapter.publish(ctxFor('our deck', [doc], { type: 'document', options: { document_title: 'Q3 deck' } }));
    const init = sim.log.to('POST', '/rest/documents')[0]!;
    const urn = (init.responseBody as { value: { document: string } }).value.document;
    expect((sim.log.to('POST', '/rest/posts')[0]!.body as { content: unknown }).content).toEqual({ media: { id: urn, title: 'Q3 deck' } });
    expect(sim.log.posts[0]!.body).toMatchObject({ title: 'Q3 deck', media: [{ id: urn, kind: 'document', type: 'application/pdf' }] });
  });

  it('posts as an organization the member administers, mentioning another organization', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null) });
    const other = sim.organization(sim.defaultMember.organizations[1]!)!;
    const caption = `Hello from the studio with @${other.name}!`;
    const ctx = ctxFor(caption, [], { options: { organization: sim.defaultMember.organizations[0], mentions: [{ name: other.name, organization: other.id }] } });
    await adapter.publish(ctx);
    const body = sim.log.to('POST', '/rest/posts')[0]!.body as { author: string; commentary: string };
    expect(body.author).toBe(orgUrn(0));
    expect(body.commentary).toBe(`Hello from the studio with @[${other.name}](urn:li:organization:${other.id})!`);
    expect(sim.log.posts[0]!.accountId).toBe(orgUrn(0));
    expect(sim.log.posts[0]!.body).toMatchObject({ text: caption, mentions: [`urn:li:organization:${other.id}`] });
    // No userinfo call: the author is the organization.
    expect(calls()).toEqual(['POST /rest/posts']);
  });

  it('refuses an organization the member does not administer, naming the field (checkAccount)', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null) });
    const ctx = ctxFor('x');
    const ok = await adapter.checkAccount!({ type: 'post', media: [], options: { organization: sim.defaultMember.organizations[1]! }, account: ctx });
    expect(ok).toEqual({ issues: [] });
    const bad = await adapter.checkAccount!({ type: 'post', media: [], options: { organization: '123' }, account: ctx });
    expect(bad).toEqual({ issues: [{ path: 'platform_options.linkedin.organization', message: expect.stringContaining('does not administer organization 123') }] });
    expect(sim.log.posts).toHaveLength(0);
  });

  it('posts the first comment under the post through socialActions', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null) });
    const ctx = ctxFor('with a comment');
    const done: Record<string, unknown> = {};
    const fu: RepliesContext = {
      thread: [],
      threadMedia: [],
      firstComment: 'Details (and links) in here',
      data: done,
      async save(patch, checkpoint = {}) {
        await ctx.checkpoint.save(checkpoint);
        Object.assign(done, patch);
      },
    };
    ctx.replies = fu;
    const out = await adapter.publish(ctx);
    const req = sim.log.requests.find((r) => r.path.startsWith('/rest/socialActions/'))!;
    expect(req.path).toBe(`/rest/socialActions/${encodeURIComponent(out.postId)}/comments`);
    expect(req.body).toEqual({ actor: member(), object: out.postId, message: { text: 'Details (and links) in here' } });
    const [comment] = sim.comments();
    expect(done.comment).toEqual({ id: comment!.urn, url: `${out.postUrl}?commentUrn=${encodeURIComponent(comment!.urn)}` });
  });
});

describe('linkedin API version', () => {
  it('steps forward to the newest active version when LinkedIn retires the default (426), posting once', async () => {
    const versions = new LinkedinVersions(null);
    const adapter = createLinkedinAdapter({ versions });
    const old = defaultVersion(clock.now());
    sim.retireThrough(old);
    const ctx = ctxFor('after the retirement', [], { options: { organization: sim.defaultMember.organizations[0] } });
    const warnings: Array<Record<string, unknown>> = [];
    ctx.log = { ...ctx.log, warn: (_m: string, f?: Record<string, unknown>) => void warnings.push(f ?? {}) };
    const out = await adapter.publish(ctx);
    // This month's version is not released yet (426 too); last month's is the newest active one.
    const newest = monthVersion(clock.now(), 1);
    expect(sent.map((s) => s.version)).toEqual([old, monthVersion(clock.now(), 0), newest]);
    expect(sim.log.requests.map((r) => r.status)).toEqual([426, 426, 201]);
    expect(sim.log.posts.map((p) => p.postId)).toEqual([out.postId]);
    expect(versions.info(clock.now())).toEqual({ version: newest, source: 'stepped_forward', setting: 'SOCIALPUB_LINKEDIN_VERSION', previous: old, changed_at: expect.any(String) });
    expect(warnings).toEqual([{ platform: 'linkedin', retired_version: old, version: newest }]);
    // Remembered: the next post goes straight to the active version.
    sent.length = 0;
    await adapter.publish(ctxFor('the next one', [], { options: { organization: sim.defaultMember.organizations[0] } }));
    expect(sent.map((s) => s.version)).toEqual([newest]);
  });

  it('a pinned version LinkedIn retired fails the post with the setting named, and posts nothing', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions('202401') });
    const err = await adapter.publish(ctxFor('pinned')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toContain('SOCIALPUB_LINKEDIN_VERSION');
    expect((err as Error).message).toContain('202401');
    expect(sim.log.posts).toHaveLength(0);
    expect(new LinkedinVersions('202401').info(clock.now()).source).toBe('pinned');
  });
});

describe('linkedin exactly once', () => {
  it('finds the post by reading the author\'s posts when the post request got no answer', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null), requestTimeoutMs: 1_000 });
    sim.log.inject({ method: 'POST', path: '/rest/posts', kind: 'reset-after' });
    const ctx = ctxFor('made but unanswered (really)');
    const out = await adapter.publish(ctx);
    expect(sim.log.posts).toHaveLength(1);
    expect(out.postId).toBe(sim.log.posts[0]!.postId);
    const find = sim.log.to('GET', '/rest/posts')[0]!;
    expect(find.query).toEqual({ q: 'author', author: member(), count: '50', sortBy: 'CREATED' });
  });

  it('reconcile: published when the post is found, not_published when the request never left, unknown when the posts cannot be read', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null), reconcileSettleMs: 5_000 });
    const first = ctxFor('crashed after the call');
    await adapter.publish(first);
    // A crash between the platform's answer and the record: the checkpoint has the request, not the id.
    const { postUrn: _made, ...left } = first.checkpoint.data as Record<string, unknown>;
    const again = ctxFor('crashed after the call', [], { checkpoint: left, attemptStartedAt: first.target.attemptStartedAt });
    expect(await adapter.reconcile(again)).toEqual({ state: 'published', outcome: { postId: sim.log.posts[0]!.postId, postUrl: sim.log.posts[0]!.postUrl } });

    expect(await adapter.reconcile(ctxFor('never sent', [], { checkpoint: { author: member() } }))).toEqual({ state: 'not_published', reason: expect.stringContaining('never sent') });

    const requested = { author: member(), commentary: 'lost', postRequestedAt: clock.now() };
    const none = await driveClock(clock, adapter.reconcile(ctxFor('lost', [], { checkpoint: requested })));
    expect(none).toEqual({ state: 'not_published', reason: expect.stringContaining('No post with this commentary') });

    // A member token without r_member_social cannot read the member's posts: LinkedIn cannot say, so needs review.
    const limited = sim.issueTokens('app', 'openid profile w_member_social');
    const blind = await adapter.reconcile(ctxFor('lost', [], { checkpoint: requested, secrets: { access_token: limited.access_token } }));
    expect(blind.state).toBe('unknown');
    expect(sim.log.posts).toHaveLength(1);
  });

  it('without a refresh token, an expired token marks the connection expired with the reconnect step', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null) });
    const ctx = ctxFor('late', [], { secrets: { access_token: 'AQVold' }, tokenExpiresAt: clock.now() - 1 });
    await expect(adapter.publish(ctx)).rejects.toBeInstanceOf(AuthExpiredError);
    expect(ctx.expired[0]).toContain('socialpub connect linkedin');
    expect(sim.log.requests).toHaveLength(0);
  });

  it('refreshes an expired token with the refresh token LinkedIn granted (it does not rotate)', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null) });
    const t = sim.issueTokens('my-app');
    const ctx = ctxFor('fresh', [], { secrets: { access_token: 'AQVold', refresh_token: t.refresh_token, client_id: 'my-app', client_secret: 's' }, tokenExpiresAt: clock.now() - 1 });
    await adapter.publish(ctx);
    expect(ctx.saved[0]!.secrets.refresh_token).toBe(t.refresh_token);
    expect(ctx.saved[0]!.secrets.access_token).not.toBe('AQVold');
    expect(sim.log.posts).toHaveLength(1);
  });
});

describe('linkedin take-downs', () => {
  it('deletes with DELETE /rest/posts/{urn}; a second delete is already_gone; then the post does not exist', async () => {
    const versions = new LinkedinVersions(null);
    const adapter = createLinkedinAdapter({ versions });
    const ctx = ctxFor('to be removed');
    const out = await adapter.publish(ctx);
    const remover = createLinkedinRemover({ versions });
    expect(await remover.deletePost(ctx, out.postId)).toBe('deleted');
    const del = sim.log.to('DELETE', `/rest/posts/${encodeURIComponent(out.postId)}`)[0]!;
    expect(del.status).toBe(204);
    expect(sim.log.posts[0]!.removedAt).toBe(clock.now());
    expect(await remover.deletePost(ctx, out.postId)).toBe('already_gone');
    expect(await remover.postExists(ctx, out.postId)).toBe(false);
  });

  it('an unanswered post whose read-back fails is an unknown outcome, never a second post', async () => {
    const adapter = createLinkedinAdapter({ versions: new LinkedinVersions(null), requestTimeoutMs: 1_000, reconcileSettleMs: 0 });
    const limited = sim.issueTokens('app', 'openid profile w_member_social');
    sim.log.inject({ method: 'POST', path: '/rest/posts', kind: 'reset-after' });
    const err = await adapter.publish(ctxFor('unreadable', [], { secrets: { access_token: limited.access_token } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(sim.log.posts).toHaveLength(1);
  });
});
