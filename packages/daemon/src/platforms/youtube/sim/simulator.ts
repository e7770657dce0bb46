import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Clock } from '../../../util/clock';
import { dropConnection } from '../../shared/drop-connection';
import { recorder, recordOf, selfBase, SimulatorLog } from '../../shared/sim/simulator-recorder';
import { isSandboxToken } from '../../shared/is-sandbox-token';
import { readBody } from '../../shared/read-body';
import type { SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { nextPacificMidnight } from '../pacific-midnight';

/**
 * A strict simulator of YouTube's videos.insert resumable upload on www.googleapis.com and
 * of Google's token endpoint on oauth2.googleapis.com (platforms.md §6, §9): a real
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
  /** videos.insert calls per Pacific day. Default 100. */
  insertsPerDay?: number;
  /** How long an upload session lives. Default 7 days. */
  sessionTtlMs?: number;
}

interface Session {
  id: string;
  channelId: string;
  resource: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  size: number;
  contentType: string;
  received: number;
  hash: ReturnType<typeof createHash>;
  expiresAt: number;
  video: Record<string, unknown> | null;
  notifySubscribers: boolean;
}

const encoder = new TextEncoder();

export function createYoutubeSimulator(options: YoutubeSimulatorOptions) {
  const { clock } = options;
  const log = new SimulatorLog(options.onPost);
  const settings = { insertsPerDay: options.insertsPerDay ?? 100, sessionTtlMs: options.sessionTtlMs ?? 7 * 24 * 3600_000 };
  const channel = { id: 'UCsandboxChannel0000000a', title: 'Sandbox YouTube' };
  const tokens = new Map<string, { expiresAt: number; scope: string }>();
  const refreshTokens = new Map<string, { clientId: string; scope: string; revoked: boolean }>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string | null; expiresAt: number; used: boolean; scope: string }>();
  const sessions = new Map<string, Session>();
  let quota = { resetAt: nextPacificMidnight(clock.now()), used: 0 };

  const gError = (c: Context, status: number, reason: string, message: string, domain = 'youtube.video', extra: Record<string, unknown> = {}) =>
    c.json({ error: { code: status, message, errors: [{ message, domain, reason, ...extra }] } }, status as 400);

  function authenticate(c: Context): boolean {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) return false;
    if (isSandboxToken(token)) return true;
    const t = tokens.get(token);
    return !!t && t.expiresAt > clock.now();
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

  function takeQuota(): boolean {
    if (clock.now() >= quota.resetAt) quota = { resetAt: nextPacificMidnight(clock.now()), used: 0 };
    if (quota.used >= settings.insertsPerDay) return false;
    quota.used += 1;
    return true;
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

  function makeVideo(s: Session): Record<string, unknown> {
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
        channelTitle: channel.title,
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
    log.addPost({
      platform: 'youtube',
      accountId: s.channelId,
      postId: id,
      postUrl: `https://www.youtube.com/watch?v=${id}`,
      kind: 'video',
      body: { snippet: video.snippet, status: video.status, bytes: s.size, sha256: s.hash.digest('hex'), notifySubscribers: s.notifySubscribers },
      createdAt: clock.now(),
    });
    return video;
  }

  const api = new Hono();
  api.use('*', recorder(YOUTUBE_HOST, log, clock));

  api.post('/upload/youtube/v3/videos', async (c) => {
    if (!authenticate(c)) return unauthenticated(c);
    const q = c.req.query();
    if (q.uploadType !== 'resumable') return gError(c, 400, 'invalidUploadType', 'This simulator implements the resumable protocol only (uploadType=resumable).', 'global');
    const parts = (q.part ?? '').split(',');
    if (!parts.includes('snippet') || !parts.includes('status')) return gError(c, 400, 'unexpectedPart', 'part must include snippet and status.', 'youtube.part');
    const size = Number(c.req.header('x-upload-content-length'));
    const type = c.req.header('x-upload-content-type') ?? '';
    if (!Number.isInteger(size) || size <= 0) return gError(c, 400, 'mediaBodyRequired', 'X-Upload-Content-Length must give the size of the video.');
    if (!type.startsWith('video/') && type !== 'application/octet-stream') return gError(c, 400, 'invalidContentType', `X-Upload-Content-Type ${type || '(none)'} is not a video type.`);
    const body = (await c.req.json().catch(() => null)) as Session['resource'] | null;
    const problem = checkResource(body);
    if (problem) return gError(c, 400, problem.reason, problem.message);
    if (!takeQuota()) {
      return gError(c, 403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.', 'youtube.quota');
    }
    const id = randomBytes(16).toString('base64url');
    sessions.set(id, {
      id,
      channelId: channel.id,
      resource: { snippet: body!.snippet, status: body!.status ?? {} },
      size,
      contentType: type,
      received: 0,
      hash: createHash('sha256'),
      expiresAt: clock.now() + settings.sessionTtlMs,
      video: null,
      notifySubscribers: q.notifySubscribers !== 'false',
    });
    c.header('location', `${selfBase(c, YOUTUBE_HOST)}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${id}`);
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
    s.hash.update(usable);
    s.received += usable.length;
    if (!complete) {
      dropConnection(c);
      return c.body(null, 503);
    }
    if (bytes.length !== length) return gError(c, 400, 'badRequest', 'The body is shorter than Content-Length.', 'global');
    if (s.received === s.size) {
      s.video = makeVideo(s);
      return c.json(s.video, 201);
    }
    return c.body(null, 308, held());
  });

  api.get('/youtube/v3/channels', (c) => {
    if (!authenticate(c)) return unauthenticated(c);
    if (c.req.query('mine') !== 'true') return gError(c, 400, 'missingRequiredParameter', 'No filter selected.', 'youtube.parameter');
    return c.json({ kind: 'youtube#channelListResponse', items: [{ kind: 'youtube#channel', id: channel.id, snippet: { title: channel.title } }] });
  });

  const oauth = new Hono();
  oauth.use('*', recorder(GOOGLE_OAUTH_HOST, log, clock));
  const oauthError = (c: Context, status: number, error: string, description: string) => c.json({ error, error_description: description }, status as 400);

  // The consent page (accounts.google.com/o/oauth2/v2/auth): the simulated user approves.
  oauth.get('/o/oauth2/v2/auth', (c) => {
    const q = c.req.query();
    if (!q.client_id || q.response_type !== 'code' || !q.redirect_uri || !q.scope) return c.text('Error 400: invalid_request', 400);
    const code = `4/sim-${randomBytes(12).toString('base64url')}`;
    codes.set(code, { clientId: q.client_id, redirectUri: q.redirect_uri, challenge: q.code_challenge ?? null, expiresAt: clock.now() + 10 * 60_000, used: false, scope: q.scope });
    const target = new URL(q.redirect_uri);
    if (q.state) target.searchParams.set('state', q.state);
    target.searchParams.set('code', code);
    target.searchParams.set('scope', q.scope);
    return c.redirect(target.toString(), 302);
  });

  function issueAccess(scope: string) {
    const access = `ya29.sim-${randomBytes(18).toString('base64url')}`;
    tokens.set(access, { expiresAt: clock.now() + 3599_000, scope });
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
      code.used = true;
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
      return c.json({ access_token: issueAccess(scope), expires_in: 3599, scope, token_type: 'Bearer' });
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
    quotaUsed: () => quota.used,
    session: (id: string) => sessions.get(id),
    /** Issues a token pair directly (as if the user had consented). */
    issueTokens(clientId = 'sandbox-client', scope = 'https://www.googleapis.com/auth/youtube.upload') {
      const refresh = `1//sim-${randomBytes(18).toString('base64url')}`;
      refreshTokens.set(refresh, { clientId, scope, revoked: false });
      return { access_token: issueAccess(scope), refresh_token: refresh, expires_in: 3599 };
    },
    revoke(refreshToken: string): void {
      const rt = refreshTokens.get(refreshToken);
      if (rt) rt.revoked = true;
    },
  };
}

export type YoutubeSimulator = ReturnType<typeof createYoutubeSimulator>;
