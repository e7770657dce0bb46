import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Clock } from '../../../util/clock';
import { dropConnection } from '../../shared/drop-connection';
import { hostPath, recorder, recordOf, selfBase, SimulatorLog } from '../../shared/sim/simulator-recorder';
import { isSandboxToken } from '../../shared/is-sandbox-token';
import { sandboxAccounts } from '../../shared/sim/sandbox-accounts';
import { simState, type SimState } from '../../shared/sim/sim-state';
import { simFigures } from '../../shared/sim/sim-figures';
import { readBody } from '../../shared/read-body';
import type { SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { planProblem, TIKTOK_CHUNK_RULES, type ChunkRules } from '../chunk-plan';

/**
 * A strict simulator of open.tiktokapis.com (Content Posting API, Direct Post) and its
 * upload host (docs/reference/platforms.md §5, §9): every answer wrapped in `{data, error{code, message,
 * log_id}}`; privacy_level checked against creator_info; the chunk arithmetic enforced
 * at init and on every PUT (206/201/416 with a Content-Range progress header); upload URLs
 * that expire after 1 h; status progressing PROCESSING_UPLOAD/DOWNLOAD -> PUBLISH_COMPLETE
 * with the public post id after moderation; per-token rate limits; unaudited-app rules;
 * OAuth with rotating refresh tokens. Upload URLs point back at this simulator. Each
 * sandbox connection is a creator of its own; tokens, publishes, uploads in progress, rate
 * windows and id counters live in `state` (SQLite in the daemon), so a restart continues.
 */

export const TIKTOK_HOST = 'open.tiktokapis.com';

type Privacy = 'PUBLIC_TO_EVERYONE' | 'MUTUAL_FOLLOW_FRIENDS' | 'FOLLOWER_OF_CREATOR' | 'SELF_ONLY';

export interface TiktokSimulatorOptions {
  clock: Clock;
  onPost?: (post: SimulatedPost) => void;
  /** Chunk rules (tests scale them down; the adapter must use the same). */
  chunkRules?: ChunkRules;
  /** Processing after the last byte / the pull started. Default 3 s. */
  processingMs?: number;
  /** Moderation delay before a public post's id appears. Default 0. */
  moderationMs?: number;
  /** Whether the app passed TikTok's audit. Default false: only SELF_ONLY posts. */
  audited?: boolean;
  /** Where creators, tokens, publishes, uploads in progress and rate windows live (default: memory only). */
  state?: SimState;
}

interface Publish {
  id: string;
  createdAt: number;
  openId: string;
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  title: string;
  privacy: Privacy;
  postInfo: Record<string, unknown>;
  /** What the post allows once the creator's own settings are applied. */
  interactions: Record<string, 'on' | 'off'>;
  videoSize: number;
  chunkSize: number;
  totalChunks: number;
  received: number;
  uploadId: string;
  uploadToken: string;
  uploadExpiresAt: number;
  completeAt: number | null;
  failReason: string | null;
  postId: string | null;
  recorded: boolean;
  /** Recorded as a post (the log, sandbox_posts): once, across restarts too. */
  logged?: boolean;
  sha256: string | null;
  /** A photo post (content/init) or a video (video/init, the default). */
  kind?: 'video' | 'photo';
}

interface Creator {
  openId: string;
  username: string;
  nickname: string;
  privateAccount: boolean;
  /** The creator's own settings creator info reports (tests change them; absent on a sandbox connection's creator: the defaults). */
  commentDisabled?: boolean;
  duetDisabled?: boolean;
  stitchDisabled?: boolean;
  maxVideoPostDurationSec?: number;
}

const DAY_MS = 24 * 3600_000;

export function createTiktokSimulator(options: TiktokSimulatorOptions) {
  const { clock } = options;
  const log = new SimulatorLog(options.onPost);
  const settings = {
    rules: options.chunkRules ?? TIKTOK_CHUNK_RULES,
    processingMs: options.processingMs ?? 3_000,
    moderationMs: options.moderationMs ?? 0,
    audited: options.audited ?? false,
    /** Set to make the next publishes end FAILED with this fail_reason. */
    failReason: null as string | null,
    postsPerDay: 15,
    verifiedUrlPrefixes: [] as string[],
  };
  // A private account: what an unaudited app may post to (SELF_ONLY). Tests flip it with `audited`.
  const creator: Creator = {
    openId: '-000sandboxOpenId',
    username: 'sandbox_tiktok',
    nickname: 'Sandbox TikTok',
    privateAccount: !(options.audited ?? false),
    commentDisabled: false,
    duetDisabled: false,
    stitchDisabled: true,
    maxVideoPostDurationSec: 600,
  };
  const state = options.state ?? simState(null, 'tiktok');
  /** One creator per sandbox connection (open id -> creator), besides the default one above. */
  const creators = state.map<Creator>('creators');
  const tokens = state.map<{ openId: string; expiresAt: number; scope: string }>('tokens');
  const refreshTokens = state.map<{ openId: string; used: boolean; expiresAt: number; scope: string; clientKey: string }>('refresh-tokens');
  const usedSandboxRefresh = state.map<true>('spent-sandbox-refresh');
  // In the store, not this process's memory: the consent on one daemon, the exchange on another (sim-codes.ts).
  const codes = state.codes<{ clientKey: string; redirectUri: string; challenge: string | null; expiresAt: number; scope: string }>('codes');
  const publishes = state.map<Publish>('publishes');
  /** upload_id -> publish id. */
  const byUpload = state.map<string>('uploads');
  /** The running SHA-256 of each upload in progress (memory only: after a restart an upload still completes, without its digest). */
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  // Counted in the database when several daemons' simulators share it: together they never pass a limit (sim-windows.ts).
  const windows = state.windows('windows');
  const nextSeq = state.counter('publish', 1n);
  const nextPostId = state.counter('post', 7_400_000_000_000_000_000n);
  const save = (p: Publish) => void publishes.set(p.id, p);

  /** The creator an open id names: a sandbox connection's own, else the default one. */
  const creatorOf = (openId: string): Creator => creators.get(openId) ?? creator;

  /** The sandbox connection's own creator (made on its first call), or the default one for the simulator's test tokens. */
  const sandboxCreator = sandboxAccounts(state, 'creator', 1n, creator.openId, {
    id: (n) => `-000sandbox${randomBytes(8).toString('hex')}${n}`,
    make: (openId, n) => void creators.set(openId, { openId, username: `sandbox_tiktok_${n}`, nickname: `Sandbox TikTok ${n}`, privateAccount: creator.privateAccount }),
  });

  const logId = () => `2026${String(clock.now()).slice(-10)}${randomBytes(4).toString('hex').toUpperCase()}`;
  const ok = (c: Context, data: unknown, status = 200) => c.json({ data, error: { code: 'ok', message: '', log_id: logId() } }, status as 200);
  const fail = (c: Context, status: number, code: string, message: string) => c.json({ data: {}, error: { code, message, log_id: logId() } }, status as 400);

  function authenticate(c: Context): string | null {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) return null;
    if (isSandboxToken(token)) return sandboxCreator(token);
    const t = tokens.get(token);
    return t && t.expiresAt > clock.now() ? t.openId : null;
  }
  const invalidToken = (c: Context) => fail(c, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');

  function limited(key: string, perMinute: number): boolean {
    const now = clock.now();
    return !windows.take(key, { now, start: now, end: now + 60_000, limit: perMinute }).allowed;
  }

  function privacyOptions(openId: string): Privacy[] {
    return creatorOf(openId).privateAccount ? ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'] : ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
  }

  /** Moves a publish along by the clock: processing ends, the post appears, moderation gives it a public id. */
  function advance(p: Publish): void {
    // What the publish became and its sandbox_posts row land together (one transaction).
    state.atomically(() => advanceNow(p));
  }

  function advanceNow(p: Publish): void {
    if (p.completeAt === null || p.failReason) return;
    const now = clock.now();
    if (now < p.completeAt) return;
    if (!p.recorded) {
      p.recorded = true;
      if (settings.failReason) p.failReason = settings.failReason;
      save(p);
      if (p.failReason) return;
    }
    const isPublic = p.privacy !== 'SELF_ONLY';
    if (isPublic && p.postId === null && now >= p.completeAt + settings.moderationMs) {
      p.postId = String(nextPostId());
      save(p);
    }
    const { username } = creatorOf(p.openId);
    const visibleId = isPublic ? p.postId : null;
    if (!p.logged && (!isPublic || visibleId)) {
      p.logged = true;
      save(p);
      log.addPost({
        platform: 'tiktok',
        accountId: p.openId,
        postId: visibleId ?? p.id,
        postUrl: visibleId ? `https://www.tiktok.com/@${username}/${p.kind ?? 'video'}/${visibleId}` : `https://www.tiktok.com/@${username}`,
        kind: p.kind ?? 'video',
        body: { publish_id: p.id, title: p.title, privacy_level: p.privacy, source: p.source, video_size: p.videoSize, sha256: p.sha256, post_info: p.postInfo, interactions: p.interactions },
        createdAt: p.completeAt,
      });
    }
  }

  function statusOf(p: Publish): Record<string, unknown> {
    advance(p);
    if (p.failReason) return { status: 'FAILED', fail_reason: p.failReason, publicaly_available_post_id: [], uploaded_bytes: p.received };
    const done = p.completeAt !== null && clock.now() >= p.completeAt;
    if (done) return { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: p.postId && p.privacy !== 'SELF_ONLY' ? [Number(p.postId)] : [], ...(p.source === 'FILE_UPLOAD' ? { uploaded_bytes: p.received } : { downloaded_bytes: p.videoSize }) };
    if (p.source === 'PULL_FROM_URL') return { status: 'PROCESSING_DOWNLOAD', publicaly_available_post_id: [], downloaded_bytes: 0 };
    return { status: 'PROCESSING_UPLOAD', publicaly_available_post_id: [], uploaded_bytes: p.received };
  }

  /** The rules every direct post meets (privacy against creator info, branded content, audit, the daily cap); a refusal or null. */
  function refusePost(c: Context, openId: string, post: Record<string, unknown>): Response | null {
    const privacy = post.privacy_level as Privacy;
    if (!privacyOptions(openId).includes(privacy)) return fail(c, 403, 'privacy_level_option_mismatch', `privacy_level ${String(privacy)} is not one of the creator's privacy_level_options`);
    if (post.brand_content_toggle === true && privacy === 'SELF_ONLY') return fail(c, 400, 'invalid_param', 'Branded content visibility cannot be set to private.');
    if (!settings.audited && (privacy !== 'SELF_ONLY' || !creatorOf(openId).privateAccount)) {
      return fail(c, 403, 'unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post to a private account with SELF_ONLY visibility.');
    }
    const today = [...publishes.values()].filter((p) => p.openId === openId && p.failReason === null && clock.now() - p.createdAt < DAY_MS).length;
    if (today >= settings.postsPerDay) return fail(c, 403, 'spam_risk_too_many_posts', 'The user has reached the daily post cap for API posts.');
    return null;
  }

  const app = new Hono();
  app.use('*', recorder(TIKTOK_HOST, log, clock));

  // The consent page (www.tiktok.com/v2/auth/authorize/): the simulated user approves.
  app.get('/v2/auth/authorize/', (c) => {
    const q = c.req.query();
    if (!q.client_key || q.response_type !== 'code' || !q.redirect_uri || !q.state || !q.scope) return c.text('invalid authorize request', 400);
    const code = `ttcode-${randomBytes(12).toString('base64url')}`;
    codes.issue(code, { clientKey: q.client_key, redirectUri: q.redirect_uri, challenge: q.code_challenge ?? null, expiresAt: clock.now() + 10 * 60_000, scope: q.scope }, clock.now());
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    target.searchParams.set('scopes', q.scope);
    target.searchParams.set('state', q.state);
    return c.redirect(target.toString(), 302);
  });

  const oauthError = (c: Context, error: string, description: string) => c.json({ error, error_description: description, log_id: logId() }, 400);

  function issue(openId: string, scope: string, clientKey: string) {
    const access = `act.${randomBytes(18).toString('base64url')}`;
    const refresh = `rft.${randomBytes(18).toString('base64url')}`;
    tokens.set(access, { openId, expiresAt: clock.now() + 7200_000, scope });
    refreshTokens.set(refresh, { openId, used: false, expiresAt: clock.now() + 180 * DAY_MS, scope, clientKey });
    return { access_token: access, expires_in: 7200, open_id: openId, refresh_expires_in: 180 * 86_400, refresh_token: refresh, scope, token_type: 'Bearer' };
  }

  app.post('/v2/oauth/token/', async (c) => {
    if (!(c.req.header('content-type') ?? '').includes('application/x-www-form-urlencoded')) return oauthError(c, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    const form = (await c.req.parseBody()) as Record<string, string>;
    if (!form.client_key || !form.client_secret) return oauthError(c, 'invalid_client', 'Client key or secret is missing');
    const clientKey = form.client_key;
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt <= clock.now() || code.clientKey !== form.client_key) return oauthError(c, 'invalid_grant', 'Authorization code is expired or invalid.');
      if (code.redirectUri !== form.redirect_uri) return oauthError(c, 'invalid_grant', 'redirect_uri does not match');
      if (code.challenge !== null && createHash('sha256').update(form.code_verifier ?? '').digest('hex') !== code.challenge && createHash('sha256').update(form.code_verifier ?? '').digest('base64url') !== code.challenge) {
        return oauthError(c, 'invalid_grant', 'code_verifier does not match the code challenge');
      }
      // Exchanged once, even when another daemon's simulator exchanges it at the same moment.
      if (!codes.take(form.code ?? '', clock.now())) return oauthError(c, 'invalid_grant', 'Authorization code is expired or invalid.');
      return c.json(issue(creator.openId, code.scope, form.client_key));
    }
    if (form.grant_type === 'refresh_token') {
      const token = form.refresh_token ?? '';
      if (isSandboxToken(token)) {
        if (usedSandboxRefresh.has(token)) return oauthError(c, 'invalid_grant', 'Refresh token is invalid or expired.');
        // The spent token and the new pair in one transaction (rotation survives a kill whole).
        return c.json(
          state.atomically(() => {
            usedSandboxRefresh.set(token, true);
            return issue(sandboxCreator(token), 'user.info.basic,video.publish', clientKey);
          }),
        );
      }
      const rt = refreshTokens.get(token);
      // Rotation: "the previous refresh token stops working once a new one is issued".
      if (!rt || rt.used || rt.expiresAt <= clock.now() || rt.clientKey !== form.client_key) return oauthError(c, 'invalid_grant', 'Refresh token is invalid or expired.');
      return c.json(
        state.atomically(() => {
          refreshTokens.set(token, { ...rt, used: true });
          return issue(rt.openId, rt.scope, clientKey);
        }),
      );
    }
    return oauthError(c, 'unsupported_grant_type', `grant_type ${form.grant_type ?? '(none)'} is not supported`);
  });

  app.get('/v2/user/info/', (c) => {
    const openId = authenticate(c);
    if (!openId) return invalidToken(c);
    const who = creatorOf(openId);
    return ok(c, { user: { open_id: openId, union_id: `u${openId}`, display_name: who.nickname, username: who.username, avatar_url: 'https://p16.tiktokcdn.com/sandbox.jpeg' } });
  });

  app.post('/v2/post/publish/creator_info/query/', (c) => {
    const openId = authenticate(c);
    if (!openId) return invalidToken(c);
    if (limited(`${openId}:creator`, 20)) return fail(c, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
    return ok(c, {
      creator_avatar_url: 'https://p16.tiktokcdn.com/sandbox.jpeg',
      creator_username: creatorOf(openId).username,
      creator_nickname: creatorOf(openId).nickname,
      privacy_level_options: privacyOptions(openId),
      comment_disabled: creatorOf(openId).commentDisabled ?? false,
      duet_disabled: creatorOf(openId).duetDisabled ?? false,
      stitch_disabled: creatorOf(openId).stitchDisabled ?? true,
      max_video_post_duration_sec: creatorOf(openId).maxVideoPostDurationSec ?? 600,
    });
  });

  app.post('/v2/post/publish/video/init/', async (c) => {
    const openId = authenticate(c);
    if (!openId) return invalidToken(c);
    if (limited(`${openId}:init`, 6)) return fail(c, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
    const body = (await c.req.json().catch(() => null)) as { post_info?: Record<string, unknown>; source_info?: Record<string, unknown> } | null;
    if (!body || typeof body.post_info !== 'object' || typeof body.source_info !== 'object' || !body.post_info || !body.source_info) {
      return fail(c, 400, 'invalid_param', 'post_info and source_info are required');
    }
    const post = body.post_info;
    const src = body.source_info;
    const title = typeof post.title === 'string' ? post.title : '';
    if (title.length > 2200) return fail(c, 400, 'invalid_param', 'The title is longer than 2200 UTF-16 runes');
    const privacy = post.privacy_level as Privacy;
    const refused = refusePost(c, openId, post);
    if (refused) return refused;

    const base: Publish = {
      id: `v_pub_file~v2-1.${clock.now()}${String(nextSeq()).padStart(4, '0')}`,
      createdAt: clock.now(),
      openId,
      source: 'FILE_UPLOAD',
      title,
      privacy,
      postInfo: post,
      // The creator's "No one" settings win over the request, as TikTok applies them (docs/reference/platforms.md §12.5.2).
      interactions: {
        comment: creatorOf(openId).commentDisabled === true || post.disable_comment === true ? 'off' : 'on',
        duet: creatorOf(openId).duetDisabled === true || post.disable_duet === true ? 'off' : 'on',
        stitch: (creatorOf(openId).stitchDisabled ?? true) || post.disable_stitch === true ? 'off' : 'on',
      },
      videoSize: 0,
      chunkSize: 0,
      totalChunks: 0,
      received: 0,
      uploadId: randomBytes(12).toString('hex'),
      uploadToken: randomBytes(16).toString('hex'),
      uploadExpiresAt: clock.now() + 3600_000,
      completeAt: null,
      failReason: null,
      postId: null,
      recorded: false,
      sha256: null,
    };
    if (src.source === 'PULL_FROM_URL') {
      const url = typeof src.video_url === 'string' ? src.video_url : '';
      if (!url.startsWith('https://')) return fail(c, 400, 'invalid_param', 'video_url must be an https URL');
      if (!settings.verifiedUrlPrefixes.some((p) => url.startsWith(p))) return fail(c, 403, 'url_ownership_unverified', 'The domain or URL prefix of video_url is not verified for this app.');
      base.source = 'PULL_FROM_URL';
      base.videoSize = 0;
      base.completeAt = clock.now() + settings.processingMs;
      save(base);
      return ok(c, { publish_id: base.id });
    }
    if (src.source !== 'FILE_UPLOAD') return fail(c, 400, 'invalid_param', 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL');
    const plan = { videoSize: Number(src.video_size), chunkSize: Number(src.chunk_size), totalChunkCount: Number(src.total_chunk_count) };
    const problem = planProblem(plan, settings.rules);
    if (problem) return fail(c, 400, 'invalid_param', problem);
    Object.assign(base, { videoSize: plan.videoSize, chunkSize: plan.chunkSize, totalChunks: plan.totalChunkCount });
    // The publish and its upload URL's index together: a kill cannot leave an upload URL that names nothing.
    state.atomically(() => {
      save(base);
      byUpload.set(base.uploadId, base.id);
    });
    hashes.set(base.id, createHash('sha256'));
    const uploadUrl = `${selfBase(c, TIKTOK_HOST)}/upload/video/?upload_id=${base.uploadId}&upload_token=${base.uploadToken}`;
    return ok(c, { publish_id: base.id, upload_url: uploadUrl });
  });

  // Photo posts (content/init, docs/reference/platforms.md §12.5.3): PULL_FROM_URL only, 1-35 images on a verified prefix.
  app.post('/v2/post/publish/content/init/', async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const rec = recordOf(c);
    if (rec) rec.body = body;
    const openId = authenticate(c);
    if (!openId) return invalidToken(c);
    if (limited(`${openId}:init`, 6)) return fail(c, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
    if (!body || body.media_type !== 'PHOTO') return fail(c, 400, 'invalid_param', 'media_type must be PHOTO');
    if (body.post_mode !== 'DIRECT_POST' && body.post_mode !== 'MEDIA_UPLOAD') return fail(c, 400, 'invalid_param', 'post_mode must be DIRECT_POST or MEDIA_UPLOAD');
    const post = body.post_info as Record<string, unknown> | undefined;
    const src = body.source_info as Record<string, unknown> | undefined;
    if (!post || typeof post !== 'object' || !src || typeof src !== 'object') return fail(c, 400, 'invalid_param', 'post_info and source_info are required');
    const unknownPost = Object.keys(post).filter((k) => !['title', 'description', 'privacy_level', 'disable_comment', 'auto_add_music', 'brand_content_toggle', 'brand_organic_toggle'].includes(k));
    if (unknownPost.length) return fail(c, 400, 'invalid_param', `post_info does not take ${unknownPost.join(', ')} for photo posts`);
    const title = post.title ?? '';
    const description = post.description ?? '';
    if (typeof title !== 'string' || title.length > 90) return fail(c, 400, 'invalid_param', 'The title is longer than 90 UTF-16 runes');
    if (typeof description !== 'string' || description.length > 4000) return fail(c, 400, 'invalid_param', 'The description is longer than 4000 UTF-16 runes');
    if (body.is_aigc !== undefined && typeof body.is_aigc !== 'boolean') return fail(c, 400, 'invalid_param', 'is_aigc must be a boolean');
    if (src.source !== 'PULL_FROM_URL') return fail(c, 400, 'invalid_param', 'source_info.source must be PULL_FROM_URL for photo posts');
    const images = src.photo_images;
    if (!Array.isArray(images) || images.length < 1 || images.length > 35 || images.some((u) => typeof u !== 'string' || !u.startsWith('https://'))) {
      return fail(c, 400, 'invalid_param', 'photo_images must list 1 to 35 https URLs');
    }
    const cover = src.photo_cover_index;
    if (typeof cover !== 'number' || !Number.isInteger(cover) || cover < 0 || cover >= images.length) return fail(c, 400, 'invalid_param', 'photo_cover_index must be the 0-based index of one of photo_images');
    if (!(images as string[]).every((u) => settings.verifiedUrlPrefixes.some((p) => u.startsWith(p)))) {
      return fail(c, 403, 'url_ownership_unverified', 'The domain or URL prefix of photo_images is not verified for this app.');
    }
    const refused = body.post_mode === 'DIRECT_POST' ? refusePost(c, openId, post) : null;
    if (refused) return refused;
    const p: Publish = {
      id: `p_pub_url~v2.${clock.now()}${String(nextSeq()).padStart(4, '0')}`,
      createdAt: clock.now(),
      openId,
      source: 'PULL_FROM_URL',
      title: description,
      privacy: post.privacy_level as Privacy,
      postInfo: { ...post, photo_images: images, photo_cover_index: cover, is_aigc: body.is_aigc ?? false },
      interactions: { comment: creatorOf(openId).commentDisabled === true || post.disable_comment === true ? 'off' : 'on' },
      videoSize: 0,
      chunkSize: 0,
      totalChunks: 0,
      received: 0,
      uploadId: randomBytes(12).toString('hex'),
      uploadToken: randomBytes(16).toString('hex'),
      uploadExpiresAt: clock.now(),
      completeAt: clock.now() + settings.processingMs,
      failReason: null,
      postId: null,
      recorded: false,
      sha256: null,
      kind: 'photo',
    };
    save(p);
    return ok(c, { publish_id: p.id });
  });

  // The upload host (open-upload.tiktokapis.com in production): one PUT per chunk, in order.
  app.put('/upload/video/', async (c) => {
    const p = publishes.get(byUpload.get(c.req.query('upload_id') ?? '') ?? '');
    if (!p || p.uploadToken !== c.req.query('upload_token')) return c.json({ error: { code: 'not_found', message: 'No upload task' } }, 404);
    if (clock.now() >= p.uploadExpiresAt) return c.json({ error: { code: 'upload_url_expired', message: 'The upload URL expired' } }, 403);
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(c.req.header('content-range') ?? '');
    const length = Number(c.req.header('content-length'));
    const progress = () => ({ 'content-range': p.received > 0 ? `bytes 0-${p.received - 1}/${p.videoSize}` : `bytes */${p.videoSize}` });
    if (!range) return c.json({ error: { code: 'invalid_header', message: 'Content-Range must be bytes first-last/total' } }, 400);
    const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (total !== p.videoSize || last < first || last >= total) return c.json({ error: { code: 'invalid_header', message: 'Content-Range does not match video_size' } }, 400);
    if (!Number.isInteger(length) || length !== last - first + 1) return c.json({ error: { code: 'invalid_header', message: 'Content-Length does not match Content-Range' } }, 400);
    if (first !== p.received) return c.body(null, 416, progress());
    const index = first / p.chunkSize;
    const final = index === p.totalChunks - 1;
    if (!Number.isInteger(index) || index >= p.totalChunks) return c.body(null, 416, progress());
    const expected = final ? p.videoSize - first : p.chunkSize;
    if (length !== expected) return c.json({ error: { code: 'invalid_chunk', message: `Chunk ${index + 1} must be ${expected} bytes` } }, 400);

    const cut = log.takeFault('PUT', '/upload/video/', ['cut']);
    const limit = cut && (cut.cutAtBytes ?? 0) - first < length ? Math.max(0, (cut.cutAtBytes ?? 0) - first) : undefined;
    const { bytes, complete } = await readBody(c, limit);
    if (!complete) {
      // A partial chunk is discarded (chunks are all-or-nothing here) and the connection drops.
      dropConnection(c);
      return c.body(null, 500);
    }
    if (bytes.length !== length) return c.json({ error: { code: 'invalid_chunk', message: 'Body length does not match Content-Length' } }, 400);
    // A chunk arriving after a restart continues the upload; its digest is then unknown (sha256 null).
    hashes.get(p.id)?.update(bytes);
    p.received += bytes.length;
    const rec = recordOf(c);
    if (rec) rec.body = `<${bytes.length} bytes>`;
    if (p.received === p.videoSize) {
      p.sha256 = hashes.get(p.id)?.digest('hex') ?? null;
      hashes.delete(p.id);
      p.completeAt = clock.now() + settings.processingMs;
      save(p);
      return c.body(null, 201, progress());
    }
    save(p);
    return c.body(null, 206, progress());
  });

  app.post('/v2/post/publish/status/fetch/', async (c) => {
    const openId = authenticate(c);
    if (!openId) return invalidToken(c);
    if (limited(`${openId}:status`, 30)) return fail(c, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
    const body = (await c.req.json().catch(() => null)) as { publish_id?: string } | null;
    const p = publishes.get(body?.publish_id ?? '');
    if (!p) return fail(c, 400, 'invalid_publish_id', 'The publish_id does not exist.');
    if (p.openId !== openId) return fail(c, 400, 'token_not_authorized_for_specified_publish_id', 'The token is not authorized for this publish_id.');
    return ok(c, statusOf(p));
  });

  // Video figures (Display API): the caller's own public videos by id, up to 20; `fields` names the figures; `video.list` scope.
  const VIDEO_FIELDS = new Set(['id', 'create_time', 'title', 'video_description', 'duration', 'share_url', 'like_count', 'comment_count', 'share_count', 'view_count']);
  app.post('/v2/video/query/', async (c) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    const openId = authenticate(c);
    if (!openId) return invalidToken(c);
    if (!isSandboxToken(token) && !(tokens.get(token)?.scope ?? '').split(',').includes('video.list')) {
      return fail(c, 401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.');
    }
    if (limited(`${openId}:video-query`, 600)) return fail(c, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
    const fields = (c.req.query('fields') ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '');
    const unknown = fields.find((f) => !VIDEO_FIELDS.has(f));
    if (fields.length === 0 || unknown !== undefined) return fail(c, 400, 'invalid_params', unknown ? `Invalid field: ${unknown}` : 'The fields parameter is required.');
    const body = (await c.req.json().catch(() => null)) as { filters?: { video_ids?: unknown } } | null;
    const ids = body?.filters?.video_ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string')) return fail(c, 400, 'invalid_params', 'filters.video_ids must be a list of video ids.');
    if (ids.length > 20) return fail(c, 400, 'invalid_params', 'filters.video_ids can hold at most 20 ids.');
    const mine = [...publishes.values()].filter((p) => p.openId === openId && p.postId !== null && (ids as string[]).includes(p.postId));
    const videos = mine.map((p) => {
      const f = simFigures(`tiktok:${p.postId}`, clock.now() - (p.completeAt ?? p.createdAt));
      const all: Record<string, unknown> = {
        id: p.postId,
        create_time: Math.floor((p.completeAt ?? p.createdAt) / 1000),
        title: p.title,
        video_description: p.title,
        duration: 0,
        share_url: `https://www.tiktok.com/@${creatorOf(openId).username}/video/${p.postId}`,
        like_count: f.likes,
        comment_count: f.replies,
        share_count: f.shares,
        view_count: f.views,
      };
      return Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || fields.includes(k)));
    });
    return ok(c, { videos, cursor: 0, has_more: false });
  });

  // Anything else: TikTok's own envelope (docs/platforms/tiktok.md): 405 on a known path, else 404.
  const PATHS = ['/v2/auth/authorize/', '/v2/oauth/token/', '/v2/user/info/', '/v2/video/query/', '/v2/post/publish/creator_info/query/', '/v2/post/publish/video/init/', '/upload/video/', '/v2/post/publish/status/fetch/'];
  app.all('*', (c) => {
    const path = hostPath(c, TIKTOK_HOST);
    if (PATHS.includes(path)) return fail(c, 405, 'method_not_allowed', `Method ${c.req.method} is not allowed for ${path}.`);
    return fail(c, 404, 'not_found', `No API at ${c.req.method} ${path}.`);
  });

  return {
    host: TIKTOK_HOST,
    app,
    log,
    settings,
    creator,
    publishes: () => [...publishes.values()].map((p) => ({ id: p.id, received: p.received, videoSize: p.videoSize, sha256: p.sha256, privacy: p.privacy, source: p.source })),
    issueTokens: (clientKey = 'ck-sandbox', scope = 'user.info.basic,video.publish') => issue(creator.openId, scope, clientKey),
    refreshTokenUsed: (token: string) => refreshTokens.get(token)?.used ?? usedSandboxRefresh.has(token),
    /** Moves every publish along (posts appear in the log as time passes). */
    tick: () => {
      for (const p of publishes.values()) advance(p);
    },
  };
}

export type TiktokSimulator = ReturnType<typeof createTiktokSimulator>;
