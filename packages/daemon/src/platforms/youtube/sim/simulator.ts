import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Clock } from '../../../util/clock';
import { dropConnection } from '../../shared/drop-connection';
import { hostPath, recorder, recordOf, selfBase, SimulatorLog } from '../../shared/sim/simulator-recorder';
import { isSandboxToken } from '../../shared/is-sandbox-token';
import { parseMultipart } from '../../shared/sim/multipart';
import { simFigures } from '../../shared/sim/sim-figures';
import { simState, type SimState } from '../../shared/sim/sim-state';
import { sandboxAccounts } from '../../shared/sim/sandbox-accounts';
import { readBody } from '../../shared/read-body';
import type { PostRemovalSink, SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { nextPacificMidnight } from '../pacific-midnight';
import { commentRoutes, sandboxOrScope } from './comments';
import { thumbnailAndPlaylistRoutes, type YouTubeRouteDeps } from './thumbnails-playlists';

/**
 * A strict simulator of YouTube's videos.insert resumable upload on www.googleapis.com and
 * of Google's token endpoint on oauth2.googleapis.com (docs/reference/platforms.md §6, §9): a real
 * resumable session (Location header; 308 + Range; 201 + the video resource on the last
 * byte; `bytes *\/N` probes; 404 once the session expired), 256 KiB multiples for every
 * chunk but the last, Google JSON errors with `errors[].reason`, the videos.insert quota
 * bucket (100 a day, reset at midnight Pacific), metadata checks (title, description,
 * tags, privacy), and refresh without rotation.
 */

export const YOUTUBE_HOST = 'www.googleapis.com';
export const GOOGLE_OAUTH_HOST = 'oauth2.googleapis.com';

const QUANTUM = 256 * 1024;
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export interface YoutubeSimulatorOptions {
  clock: Clock;
  onPost?: (post: SimulatedPost) => void;
  /** Called for every post deleted (sandbox_posts.removed_at). */
  onRemove?: PostRemovalSink;
  /** videos.insert calls per Pacific day. Default 100. */
  insertsPerDay?: number;
  /** How long an upload session lives. Default 7 days. */
  sessionTtlMs?: number;
  /** Where channels, tokens, videos, upload sessions and quotas live (default: memory only). */
  state?: SimState;
}

interface Session {
  id: string;
  channelId: string;
  resource: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  size: number;
  contentType: string;
  received: number;
  expiresAt: number;
  video: Record<string, unknown> | null;
  notifySubscribers: boolean;
}

const encoder = new TextEncoder();

export function createYoutubeSimulator(options: YoutubeSimulatorOptions) {
  const { clock } = options;
  const log = new SimulatorLog(options.onPost, options.onRemove);
  const settings = { insertsPerDay: options.insertsPerDay ?? 100, sessionTtlMs: options.sessionTtlMs ?? 7 * 24 * 3600_000 };
  const state = options.state ?? simState(null, 'youtube');
  const channel = { id: 'UCsandboxChannel0000000a', title: 'Sandbox YouTube' };
  /** Channels by id; one per sandbox connection besides the default one. */
  const channels = state.map<{ id: string; title: string }>('channels');
  if (!channels.has(channel.id)) channels.set(channel.id, channel);
  const tokens = state.map<{ expiresAt: number; scope: string; channelId?: string }>('tokens');
  const refreshTokens = state.map<{ clientId: string; scope: string; revoked: boolean; channelId?: string }>('refresh-tokens');
  // In the store, not this process's memory: the consent on one daemon, the exchange on another (sim-codes.ts).
  const codes = state.codes<{ clientId: string; redirectUri: string; challenge: string | null; expiresAt: number; scope: string }>('codes');
  const sessions = state.map<Session>('upload-sessions');
  /** Running sha256 of each session's bytes (memory only: a session resumed after a restart records no digest). */
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  /** Videos by id, with the channel that owns them. */
  const videos = state.map<{ channelId: string; video: Record<string, unknown> }>('videos');
  // Counted in the database when several daemons' simulators share it: together they never pass the quota (sim-windows.ts).
  const quotas = state.windows('quotas');

  /** The channel a sandbox token acts as: its connection's own, created on first use. */
  const sandboxChannel = sandboxAccounts(state, 'channel', 1n, channel.id, {
    id: (n) => `UCsandbox${String(n).padStart(15, '0')}`,
    make: (id, n) => void channels.set(id, { id, title: `Sandbox YouTube ${n}` }),
  });

  const gError = (c: Context, status: number, reason: string, message: string, domain = 'youtube.video', extra: Record<string, unknown> = {}) =>
    c.json({ error: { code: status, message, errors: [{ message, domain, reason, ...extra }] } }, status as 400);

  /** The channel the request acts for, or null when it is not authenticated. */
  function authenticate(c: Context): string | null {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) return null;
    if (isSandboxToken(token)) return sandboxChannel(token);
    const t = tokens.get(token);
    return t && t.expiresAt > clock.now() ? (t.channelId ?? channel.id) : null;
  }
  const unauthenticated = (c: Context) =>
    c.json(
      {
        error: {
          code: 401,
          message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
          status: 'UNAUTHENTICATED',
        },
      },
      401,
    );

  /** One videos.insert from the channel's daily bucket (reset at midnight Pacific). */
  function takeQuota(channelId: string): boolean {
    const now = clock.now();
    return quotas.take(channelId, { now, start: now, end: nextPacificMidnight(now), limit: settings.insertsPerDay }).allowed;
  }

  function videoId(): string {
    const b = randomBytes(11);
    return [...b].map((x) => ID_CHARS[x % 64]).join('');
  }

  function checkResource(body: unknown): { reason: string; message: string } | null {
    const r = body as { snippet?: Record<string, unknown>; status?: Record<string, unknown> } | null;
    if (!r || typeof r !== 'object' || !r.snippet) return { reason: 'invalidVideoMetadata', message: 'The request metadata is invalid: snippet is required.' };
    const title = r.snippet.title;
    if (typeof title !== 'string' || title.trim() === '') return { reason: 'invalidTitle', message: 'The request metadata specifies an invalid or empty video title.' };
    if ([...title].length > 100 || /[<>]/.test(title)) return { reason: 'invalidTitle', message: 'The request metadata specifies an invalid video title.' };
    const description = r.snippet.description ?? '';
    if (typeof description !== 'string' || encoder.encode(description).length > 5000 || /[<>]/.test(description)) {
      return { reason: 'invalidDescription', message: 'The request metadata specifies an invalid video description.' };
    }
    const tags = r.snippet.tags ?? [];
    if (!Array.isArray(tags) || tags.reduce((n: number, t) => n + String(t).length, 0) + Math.max(0, tags.length - 1) > 500) {
      return { reason: 'invalidTags', message: 'The request metadata specifies invalid video keywords.' };
    }
    if (r.snippet.categoryId !== undefined && !/^\d+$/.test(String(r.snippet.categoryId))) return { reason: 'invalidCategoryId', message: 'The snippet.categoryId property specifies an invalid category ID.' };
    const privacy = r.status?.privacyStatus ?? 'public';
    if (!['public', 'unlisted', 'private'].includes(String(privacy))) return { reason: 'invalidVideoMetadata', message: `Invalid privacyStatus: ${String(privacy)}` };
    if (r.status?.publishAt !== undefined && privacy !== 'private') return { reason: 'invalidPublishAt', message: 'publishAt requires privacyStatus private.' };
    return null;
  }

  function makeVideo(s: Session, sha256: string | null): Record<string, unknown> {
    const id = videoId();
    const snippet = s.resource.snippet;
    const video = {
      kind: 'youtube#video',
      etag: randomBytes(12).toString('base64url'),
      id,
      snippet: {
        publishedAt: new Date(clock.now()).toISOString(),
        channelId: s.channelId,
        title: snippet.title,
        description: snippet.description ?? '',
        thumbnails: {},
        channelTitle: channels.get(s.channelId)?.title ?? channel.title,
        tags: snippet.tags,
        categoryId: snippet.categoryId ?? '22',
        liveBroadcastContent: 'none',
        localized: { title: snippet.title, description: snippet.description ?? '' },
      },
      status: {
        uploadStatus: 'uploaded',
        privacyStatus: s.resource.status.privacyStatus ?? 'public',
        license: s.resource.status.license ?? 'youtube',
        embeddable: s.resource.status.embeddable ?? true,
        publicStatsViewable: s.resource.status.publicStatsViewable ?? true,
        madeForKids: s.resource.status.selfDeclaredMadeForKids === true,
        selfDeclaredMadeForKids: s.resource.status.selfDeclaredMadeForKids === true,
      },
    };
    videos.set(id, { channelId: s.channelId, video });
    log.addPost({
      platform: 'youtube',
      accountId: s.channelId,
      postId: id,
      postUrl: `https://www.youtube.com/watch?v=${id}`,
      kind: 'video',
      body: { snippet: video.snippet, status: video.status, bytes: s.size, sha256, notifySubscribers: s.notifySubscribers },
      createdAt: clock.now(),
    });
    return video;
  }

  const api = new Hono();
  api.use('*', recorder(YOUTUBE_HOST, log, clock));

  // videos.insert: uploadType=resumable (a session), multipart (metadata and video in one multipart/related body) or media (the video alone).
  api.post('/upload/youtube/v3/videos', async (c) => {
    const channelId = authenticate(c);
    if (!channelId) return unauthenticated(c);
    const q = googleQuery(c);
    const uploadType = q.uploadType ?? 'media';
    if (!['resumable', 'multipart', 'media'].includes(uploadType)) return gError(c, 400, 'invalidUploadType', `Invalid uploadType: ${uploadType}. Use resumable, multipart or media.`, 'global');
    const partProblem = checkParts(q.part, INSERT_PARTS);
    if (partProblem) return gError(c, 400, partProblem.reason, partProblem.message, 'youtube.part', { location: 'part', locationType: 'parameter' });
    let resource: Session['resource'] | null;
    let media: Buffer | null = null;
    let size: number;
    let type: string;
    if (uploadType === 'resumable') {
      size = Number(c.req.header('x-upload-content-length'));
      type = c.req.header('x-upload-content-type') ?? '';
      if (!Number.isInteger(size) || size <= 0) return gError(c, 400, 'mediaBodyRequired', 'X-Upload-Content-Length must give the size of the video.');
      resource = (await c.req.json().catch(() => null)) as Session['resource'] | null;
    } else if (uploadType === 'multipart') {
      const parts = parseMultipart(Buffer.from(await c.req.arrayBuffer()), c.req.header('content-type') ?? '');
      if (!parts || parts.length !== 2) return gError(c, 400, 'badContent', 'A multipart upload is a multipart/related body of two parts: the JSON metadata, then the video.', 'global');
      try {
        resource = JSON.parse(parts[0]!.data.toString('utf8')) as Session['resource'];
      } catch {
        resource = null;
      }
      media = parts[1]!.data;
      size = media.length;
      type = parts[1]!.contentType ?? '';
    } else {
      media = Buffer.from(await c.req.arrayBuffer());
      size = media.length;
      type = c.req.header('content-type') ?? '';
      // The video alone: YouTube names it itself; privacy is the default.
      resource = { snippet: { title: 'Untitled video' }, status: {} };
    }
    const rec = recordOf(c);
    if (rec && media) rec.body = { resource, media: `<${media.length} bytes>` };
    if (size === 0) return gError(c, 400, 'mediaBodyRequired', 'The request does not include the video content.');
    if (!type.startsWith('video/') && type !== 'application/octet-stream') return gError(c, 400, 'invalidContentType', `The video content type ${type || '(none)'} is not a video type.`);
    const problem = checkResource(resource);
    if (problem) return gError(c, 400, problem.reason, problem.message);
    if (!takeQuota(channelId)) {
      return gError(c, 403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', 'youtube.quota');
    }
    const id = randomBytes(16).toString('base64url');
    const session: Session = {
      id,
      channelId,
      resource: { snippet: resource!.snippet, status: resource!.status ?? {} },
      size,
      contentType: type,
      received: 0,
      expiresAt: clock.now() + settings.sessionTtlMs,
      video: null,
      notifySubscribers: q.notifySubscribers !== 'false',
    };
    if (media) {
      session.received = media.length;
      const digest = createHash('sha256').update(media).digest('hex');
      return c.json(partsOf(state.atomically(() => makeVideo(session, digest)), q.part!), 200);
    }
    sessions.set(id, session);
    hashes.set(id, createHash('sha256'));
    c.header('location', `${selfBase(c, YOUTUBE_HOST)}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${id}&part=${encodeURIComponent(q.part!)}`);
    c.header('x-guploader-uploadid', id);
    return c.body(null, 200);
  });

  api.put('/upload/youtube/v3/videos', async (c) => {
    const s = sessions.get(c.req.query('upload_id') ?? '');
    if (!s || clock.now() >= s.expiresAt) return gError(c, 404, 'notFound', 'The upload session does not exist or has expired.', 'global');
    const range = c.req.header('content-range') ?? '';
    const length = Number(c.req.header('content-length') ?? '0');
    const held = (): Record<string, string> => (s.received > 0 ? { range: `bytes=0-${s.received - 1}` } : {});
    const probe = /^bytes \*\/(\d+)$/.exec(range);
    if (probe) {
      if (Number(probe[1]) !== s.size) return gError(c, 400, 'badRequest', 'The total size does not match the session.', 'global');
      if (s.video) return c.json(s.video, 200);
      return c.body(null, 308, held());
    }
    if (s.video) return c.json(s.video, 200);
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!m && range !== '') return gError(c, 400, 'badRequest', 'Content-Range is malformed.', 'global');
    const first = m ? Number(m[1]) : 0;
    const last = m ? Number(m[2]) : s.size - 1;
    const total = m ? Number(m[3]) : s.size;
    if (total !== s.size) return gError(c, 400, 'badRequest', 'The total size in Content-Range does not match X-Upload-Content-Length.', 'global');
    if (first !== s.received) return gError(c, 400, 'badRequest', `The chunk starts at ${first}, but the session holds ${s.received} bytes.`, 'global');
    if (last - first + 1 !== length) return gError(c, 400, 'badRequest', 'Content-Length does not match Content-Range.', 'global');
    const final = last === s.size - 1;
    if (!final && length % QUANTUM !== 0) return gError(c, 400, 'badRequest', `Every chunk but the last must be a multiple of ${QUANTUM} bytes.`, 'global');

    const cut = log.takeFault('PUT', '/upload/youtube/v3/videos', ['cut']);
    const limit = cut && (cut.cutAtBytes ?? 0) - first < length ? Math.max(0, (cut.cutAtBytes ?? 0) - first) : undefined;
    const { bytes, complete } = await readBody(c, limit);
    const rec = recordOf(c);
    if (rec) rec.body = `<${bytes.length} bytes${complete ? '' : ', cut'}>`;
    // The session keeps whatever arrived, even from a broken request (that is what resuming relies on).
    const usable = complete ? bytes : bytes.subarray(0, Math.min(bytes.length, length));
    hashes.get(s.id)?.update(usable);
    // The bytes held, the video they make and the session's end in one transaction: a kill
    // leaves a session that still holds the bytes and makes the video when resumed, or the
    // video and a session that answers with it; never a video and a session that makes another.
    const made = state.atomically(() => {
      s.received += usable.length;
      if (complete && bytes.length === length && s.received === s.size) {
        s.video = partsOf(makeVideo(s, hashes.get(s.id)?.digest('hex') ?? null), googleQuery(c).part ?? 'snippet,status');
      }
      sessions.set(s.id, s);
      return s.video !== null;
    });
    if (!complete) {
      dropConnection(c);
      return c.body(null, 503);
    }
    if (bytes.length !== length) return gError(c, 400, 'badRequest', 'The body is shorter than Content-Length.', 'global');
    if (made) {
      hashes.delete(s.id);
      return c.json(s.video, 201);
    }
    return c.body(null, 308, held());
  });

  // channels.list: mine=true or id=..., any listed part, Google's list envelope.
  api.get('/youtube/v3/channels', (c) => {
    const channelId = authenticate(c);
    if (!channelId) return unauthenticated(c);
    const q = googleQuery(c);
    const partProblem = checkParts(q.part, CHANNEL_PARTS);
    if (partProblem) return gError(c, 400, partProblem.reason, partProblem.message, 'youtube.parameter', { location: 'part', locationType: 'parameter' });
    const ids = q.mine === 'true' ? [channelId] : q.id !== undefined ? q.id.split(',') : null;
    if (!ids) return gError(c, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: mine, id, forHandle, forUsername, managedByMe, categoryId.', 'youtube.parameter');
    const items = ids.flatMap((id) => {
      const ch = channels.get(id);
      if (!ch) return [];
      const uploaded = [...videos.values()].filter((v) => v.channelId === id).length;
      return [
        partsOf(
          {
            kind: 'youtube#channel',
            etag: etagOf(ch),
            id: ch.id,
            snippet: { title: ch.title, description: '', customUrl: `@${ch.id.toLowerCase()}`, publishedAt: '2024-01-01T00:00:00Z', thumbnails: {}, localized: { title: ch.title, description: '' } },
            contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${ch.id.slice(2)}` } },
            statistics: { viewCount: '0', subscriberCount: '0', hiddenSubscriberCount: false, videoCount: String(uploaded) },
            status: { privacyStatus: 'public', isLinked: true, longUploadsStatus: 'allowed', madeForKids: false },
          },
          q.part!,
        ),
      ];
    });
    return c.json(listEnvelope('youtube#channelListResponse', items));
  });

  /** A video's statistics as videos.list answers them (counts as strings, as Google sends them), growing with its age. */
  const statisticsOf = (video: Record<string, unknown>) => {
    const f = simFigures(`youtube:${String(video.id)}`, clock.now() - Date.parse(String((video.snippet as { publishedAt: string }).publishedAt)));
    return { viewCount: String(f.views), likeCount: String(f.likes), favoriteCount: '0', commentCount: String(f.replies) };
  };

  // videos.list by id: the caller's videos and public ones of others.
  api.get('/youtube/v3/videos', (c) => {
    const channelId = authenticate(c);
    if (!channelId) return unauthenticated(c);
    const q = googleQuery(c);
    const partProblem = checkParts(q.part, VIDEO_PARTS);
    if (partProblem) return gError(c, 400, partProblem.reason, partProblem.message, 'youtube.parameter', { location: 'part', locationType: 'parameter' });
    if (q.id === undefined) return gError(c, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: id, myRating, chart.', 'youtube.parameter');
    const items = q.id.split(',').flatMap((id) => {
      const v = videos.get(id);
      if (!v) return [];
      const privacy = (v.video.status as { privacyStatus?: string }).privacyStatus;
      if (v.channelId !== channelId && privacy === 'private') return [];
      return [partsOf({ ...v.video, statistics: statisticsOf(v.video) }, q.part!)];
    });
    return c.json(listEnvelope('youtube#videoListResponse', items));
  });

  // videos.update: replaces the listed parts (snippet needs title and categoryId, as Google requires).
  api.put('/youtube/v3/videos', async (c) => {
    const channelId = authenticate(c);
    if (!channelId) return unauthenticated(c);
    const part = googleQuery(c).part;
    const partProblem = checkParts(part, UPDATE_PARTS);
    if (partProblem) return gError(c, 400, partProblem.reason, partProblem.message, 'youtube.parameter', { location: 'part', locationType: 'parameter' });
    const body = (await c.req.json().catch(() => null)) as { id?: string; snippet?: Record<string, unknown>; status?: Record<string, unknown> } | null;
    if (!body || typeof body.id !== 'string') return gError(c, 400, 'videoRequired', 'The request body must be a video resource with its id.', 'youtube.video');
    const v = videos.get(body.id);
    if (!v || v.channelId !== channelId) return gError(c, 404, 'videoNotFound', 'The video that you are trying to update cannot be found.', 'youtube.video');
    const parts = part!.split(',');
    const snippet = parts.includes('snippet') ? body.snippet : (v.video.snippet as Record<string, unknown>);
    const status = parts.includes('status') ? body.status : (v.video.status as Record<string, unknown>);
    if (parts.includes('snippet') && (!snippet || snippet.categoryId === undefined)) return gError(c, 400, 'invalidCategoryId', 'The snippet.categoryId property must be set when updating the snippet.', 'youtube.video');
    const problem = checkResource({ snippet, status });
    if (problem) return gError(c, 400, problem.reason, problem.message);
    const old = v.video as { snippet: Record<string, unknown>; status: Record<string, unknown> };
    const video = {
      ...v.video,
      etag: randomBytes(12).toString('base64url'),
      snippet: parts.includes('snippet') ? { ...old.snippet, ...snippet, localized: { title: snippet!.title, description: snippet!.description ?? '' } } : old.snippet,
      status: parts.includes('status') ? { ...old.status, ...status } : old.status,
    };
    videos.set(body.id, { channelId, video });
    return c.json(partsOf(video, part!));
  });

  // videos.delete: 204, only the owner's videos.
  api.delete('/youtube/v3/videos', (c) => {
    const channelId = authenticate(c);
    if (!channelId) return unauthenticated(c);
    const id = c.req.query('id');
    if (!id) return gError(c, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: id.', 'youtube.parameter');
    const v = videos.get(id);
    if (!v) return gError(c, 404, 'videoNotFound', 'The video that you are trying to delete cannot be found.', 'youtube.video');
    if (v.channelId !== channelId) return gError(c, 403, 'forbidden', 'The video that you are trying to delete cannot be deleted. The request might not be properly authorized.', 'youtube.video');
    state.atomically(() => {
      videos.delete(id);
      log.removePost('youtube', id, clock.now());
    });
    return c.body(null, 204);
  });

  const routeDeps: YouTubeRouteDeps = { api, clock, log, state, authenticate, unauthenticated, gError, video: (id) => videos.get(id) };
  commentRoutes({
    ...routeDeps,
    hasScope: (c, scope) => sandboxOrScope(/^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '', tokens.get(/^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '')?.scope, scope),
    channelTitle: (id) => channels.get(id)?.title ?? id,
  });

  const extras = thumbnailAndPlaylistRoutes({
    ...routeDeps,
    saveVideo: (id, entry) => videos.set(id, entry),
  });

  // Anything else: Google's error shape.
  api.all('*', (c) => {
    const path = hostPath(c, YOUTUBE_HOST);
    const known = ['/upload/youtube/v3/videos', '/youtube/v3/videos', '/youtube/v3/channels', '/upload/youtube/v3/thumbnails/set', '/youtube/v3/playlistItems', '/youtube/v3/playlists', '/youtube/v3/commentThreads', '/youtube/v3/comments', '/youtube/v3/comments/setModerationStatus'].includes(path);
    if (known) return gError(c, 405, 'methodNotAllowed', `Method ${c.req.method} is not allowed for ${path}.`, 'global');
    return gError(c, 404, 'notFound', `Not Found: ${c.req.method} ${path}`, 'global');
  });

  const oauth = new Hono();
  oauth.use('*', recorder(GOOGLE_OAUTH_HOST, log, clock));
  const oauthError = (c: Context, status: number, error: string, description: string) => c.json({ error, error_description: description }, status as 400);

  // The consent page (accounts.google.com/o/oauth2/v2/auth): the simulated user approves.
  oauth.get('/o/oauth2/v2/auth', (c) => {
    const q = googleQuery(c);
    if (!q.client_id || q.response_type !== 'code' || !q.redirect_uri || !q.scope) return c.text('Error 400: invalid_request', 400);
    const code = `4/sim-${randomBytes(12).toString('base64url')}`;
    codes.issue(code, { clientId: q.client_id, redirectUri: q.redirect_uri, challenge: q.code_challenge ?? null, expiresAt: clock.now() + 10 * 60_000, scope: q.scope }, clock.now());
    const target = new URL(q.redirect_uri);
    if (q.state) target.searchParams.set('state', q.state);
    target.searchParams.set('code', code);
    target.searchParams.set('scope', q.scope);
    return c.redirect(target.toString(), 302);
  });

  function issueAccess(scope: string, channelId = channel.id) {
    const access = `ya29.sim-${randomBytes(18).toString('base64url')}`;
    tokens.set(access, { expiresAt: clock.now() + 3599_000, scope, channelId });
    return access;
  }

  oauth.post('/token', async (c) => {
    const form = (await c.req.parseBody()) as Record<string, string>;
    if (!form.client_id) return oauthError(c, 401, 'invalid_client', 'The OAuth client was not found.');
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt <= clock.now() || code.clientId !== form.client_id) return oauthError(c, 400, 'invalid_grant', 'Malformed auth code.');
      if (code.redirectUri !== form.redirect_uri) return oauthError(c, 400, 'redirect_uri_mismatch', 'Bad Request');
      if (code.challenge !== null && createHash('sha256').update(form.code_verifier ?? '').digest('base64url') !== code.challenge) return oauthError(c, 400, 'invalid_grant', 'Invalid code verifier.');
      // Exchanged once, even when another daemon's simulator exchanges it at the same moment.
      if (!codes.take(form.code ?? '', clock.now())) return oauthError(c, 400, 'invalid_grant', 'Malformed auth code.');
      const refresh = `1//sim-${randomBytes(18).toString('base64url')}`;
      refreshTokens.set(refresh, { clientId: form.client_id, scope: code.scope, revoked: false });
      return c.json({ access_token: issueAccess(code.scope), expires_in: 3599, refresh_token: refresh, scope: code.scope, token_type: 'Bearer' });
    }
    if (form.grant_type === 'refresh_token') {
      const token = form.refresh_token ?? '';
      const rt = refreshTokens.get(token);
      if (!isSandboxToken(token) && (!rt || rt.revoked || rt.clientId !== form.client_id)) return oauthError(c, 400, 'invalid_grant', 'Token has been expired or revoked.');
      // No rotation: Google answers without a refresh_token and the old one stays valid.
      const scope = rt?.scope ?? 'https://www.googleapis.com/auth/youtube.upload';
      const owner = rt ? (rt.channelId ?? channel.id) : sandboxChannel(token);
      return c.json({ access_token: issueAccess(scope, owner), expires_in: 3599, scope, token_type: 'Bearer' });
    }
    return oauthError(c, 400, 'unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`);
  });

  return {
    host: YOUTUBE_HOST,
    apps: [
      { host: YOUTUBE_HOST, app: api },
      { host: GOOGLE_OAUTH_HOST, app: oauth },
    ],
    log,
    settings,
    channel,
    quotaUsed: (channelId = channel.id) => quotas.used(channelId, clock.now()),
    session: (id: string) => sessions.get(id),
    video: (id: string) => videos.get(id),
    addPlaylist: extras.addPlaylist,
    playlist: extras.playlist,
    /** Issues a token pair directly (as if the user had consented). */
    issueTokens(clientId = 'sandbox-client', scope = 'https://www.googleapis.com/auth/youtube.upload') {
      const refresh = `1//sim-${randomBytes(18).toString('base64url')}`;
      refreshTokens.set(refresh, { clientId, scope, revoked: false });
      return { access_token: issueAccess(scope), refresh_token: refresh, expires_in: 3599 };
    },
    revoke(refreshToken: string): void {
      const rt = refreshTokens.get(refreshToken);
      if (rt) refreshTokens.set(refreshToken, { ...rt, revoked: true });
    },
  };
}

export type YoutubeSimulator = ReturnType<typeof createYoutubeSimulator>;

const INSERT_PARTS = ['snippet', 'status', 'contentDetails', 'fileDetails', 'id', 'liveStreamingDetails', 'localizations', 'player', 'processingDetails', 'recordingDetails', 'statistics', 'suggestions', 'topicDetails'];
const VIDEO_PARTS = INSERT_PARTS;
const UPDATE_PARTS = ['snippet', 'status', 'id', 'localizations', 'recordingDetails'];
const CHANNEL_PARTS = ['auditDetails', 'brandingSettings', 'contentDetails', 'contentOwnerDetails', 'id', 'localizations', 'snippet', 'statistics', 'status', 'topicDetails'];

/** `part` is required and each listed part must be one the method knows. */
function checkParts(part: string | undefined, allowed: readonly string[]): { reason: string; message: string } | null {
  if (!part) return { reason: 'missingRequiredParameter', message: 'No value specified for required parameter: part' };
  const unknown = part.split(',').map((p) => p.trim()).filter((p) => !allowed.includes(p));
  return unknown.length ? { reason: 'unknownPart', message: `'${unknown.join(',')}'` } : null;
}

/** The resource with only the parts asked for (kind, etag and id always). */
function partsOf(resource: Record<string, unknown>, part: string): Record<string, unknown> {
  const want = part.split(',').map((p) => p.trim());
  return Object.fromEntries(Object.entries(resource).filter(([k]) => ['kind', 'etag', 'id'].includes(k) || want.includes(k)));
}

function etagOf(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('base64url');
}

/** Google's list envelope: kind, etag, pageInfo, items. */
function listEnvelope(kind: string, items: Array<Record<string, unknown>>): Record<string, unknown> {
  return { kind, etag: etagOf(items), pageInfo: { totalResults: items.length, resultsPerPage: Math.max(items.length, 5) }, items };
}

/**
 * The query as Google reads it: a repeated parameter (`part=snippet&part=status`, as
 * `googleapis` sends arrays) is the same as its values joined by commas (`part=snippet,status`).
 */
function googleQuery(c: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => [k, v.join(',')]));
}
