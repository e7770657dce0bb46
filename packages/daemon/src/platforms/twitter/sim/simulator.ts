import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import twitterText from 'twitter-text';
import type { Clock } from '../../../util/clock';
import { parseOAuth1Header, verifyOAuth1 } from '../oauth1';
import { isSandboxToken } from '../../shared/is-sandbox-token';
import { multipartFields, parseMultipart } from '../../shared/sim/multipart';
import { simState, type SimState } from '../../shared/sim/sim-state';
import { sandboxAccounts } from '../../shared/sim/sandbox-accounts';
import { simReaderReply } from '../../shared/sim/sim-conversation';
import { hostPath, recorder, recordOf, SimulatorLog } from '../../shared/sim/simulator-recorder';
import type { PostRemovalSink, SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { simFigures } from '../../shared/sim/sim-figures';
import { isExtrasProblem, readTweetExtras } from './tweet-extras';

/**
 * A strict simulator of api.x.com for the endpoints socialpub uses (docs/reference/platforms.md §3, §9):
 * problem-details errors shaped as x-api-v2.openapi.json describes them, 201 on create,
 * 403 on duplicate text, x-rate-limit-* headers and 429s, processing_info progressions
 * driven by the clock, media ownership and count checks, OAuth 2.0 with PKCE (30 s codes,
 * single-use rotating refresh tokens) and OAuth 1.0a signatures. Only the dedicated
 * initialize/append/finalize media endpoints exist (the legacy `command=INIT` form is
 * deliberately refused, as the adapter must not use it).
 */

export const X_HOST = 'api.x.com';

export interface XSimUser {
  id: string;
  username: string;
  name: string;
}

interface TokenInfo {
  userId: string;
  expiresAt: number;
  scope: string;
}

interface MediaRecord {
  id: string;
  userId: string;
  category: string;
  mediaType: string;
  totalBytes: number;
  /** Segment index -> bytes received. */
  segments: Record<string, number>;
  finalizedAt: number | null;
  expiresAt: number;
  fail: boolean;
}

interface PostRecord {
  id: string;
  userId: string;
  text: string;
  mediaIds: string[];
  createdAt: number;
  /** The post this one replies to (a thread part, a self-reply). */
  inReplyTo?: string;
  /** The poll, reply settings and quote the post was made with (absent on posts stored before they existed). */
  poll?: { id: string; options: string[]; durationMinutes: number; endsAt: number } | null;
  replySettings?: string | null;
  quoteTweetId?: string | null;
  /** Hidden by the conversation's author (PUT /2/tweets/:id/hidden). */
  hidden?: boolean;
}

export interface TwitterSimulatorOptions {
  clock: Clock;
  onPost?: (post: SimulatedPost) => void;
  /** Called for every post deleted (sandbox_posts.removed_at). */
  onRemove?: PostRemovalSink;
  /** How long video/GIF processing takes after finalize. Default 5 s. */
  processingMs?: number;
  /** Posts per user per 15 minutes before 429 (the stricter documented reading). Default 100. */
  postsPer15Min?: number;
  /** Where ids, accounts, tokens, posts, uploads and rate windows live (default: memory only). */
  state?: SimState;
}

const WINDOW_MS = 15 * 60_000;
const LIMITS: Record<string, number> = { 'tweets-hide': 50, search: 300, tweets: 100, 'tweets-delete': 50, 'tweets-lookup': 900, 'media-upload': 500, 'media-status': 1000, 'media-chunked': 1875, users: 900, oauth: 10_000 };
const IMAGE_MAX = 5 * 1024 * 1024;
const GIF_MAX = 15 * 1024 * 1024;
const VIDEO_MAX = 512 * 1024 * 1024;
const CREATE_KEYS = new Set([
  'card_uri', 'community_id', 'direct_message_deep_link', 'edit_options', 'for_super_followers_only', 'geo', 'made_with_ai', 'media', 'nullcast',
  'paid_partnership', 'poll', 'quote_tweet_id', 'reply', 'reply_settings', 'share_with_followers', 'text',
]);
const MEDIA_TYPES = new Set(['video/mp4', 'video/webm', 'video/mp2t', 'video/quicktime', 'image/jpeg', 'image/gif', 'image/png', 'image/webp', 'image/pjpeg', 'image/bmp', 'image/tiff', 'text/srt', 'text/vtt']);
const CATEGORIES = new Set(['amplify_video', 'tweet_gif', 'tweet_image', 'tweet_video', 'dm_gif', 'dm_image', 'dm_video', 'subtitles']);

type ProblemKind = 'invalid-request' | 'disallowed-resource' | 'resource-not-found' | 'not-authorized-for-resource' | 'internal-error' | 'resource-unavailable';

export function createTwitterSimulator(options: TwitterSimulatorOptions) {
  const { clock } = options;
  const log = new SimulatorLog(options.onPost, options.onRemove);
  const settings = { processingMs: options.processingMs ?? 5_000, failProcessing: false, postsPer15Min: options.postsPer15Min ?? LIMITS.tweets! };
  const state = options.state ?? simState(null, 'x');
  const defaultUser: XSimUser = { id: '1000000000000000001', username: 'sandbox_x', name: 'Sandbox X' };
  /** Simulated accounts by user id; one per sandbox connection besides the default one. */
  const users = state.map<XSimUser>('users');
  if (!users.has(defaultUser.id)) users.set(defaultUser.id, defaultUser);
  const tokens = state.map<TokenInfo>('tokens');
  const refreshTokens = state.map<{ clientId: string; userId: string; used: boolean; scope: string }>('refresh-tokens');
  const usedSandboxRefresh = state.map<true>('spent-sandbox-refresh');
  // In the store, not this process's memory: the consent on one daemon, the exchange on another (sim-codes.ts).
  const codes = state.codes<{ clientId: string; redirectUri: string; challenge: string | null; method: string; userId: string; expiresAt: number; scope: string }>('codes');
  const oauth1 = new Map<string, { consumerKey: string; consumerSecret: string; tokenSecret: string; userId: string }>();
  const media = state.map<MediaRecord>('media');
  const posts = state.map<PostRecord>('posts');
  // Each user's posts, oldest first: the duplicate rule and a user's timeline read only
  // theirs (a scan of every post on each new one grew with the sandbox's whole history).
  const postsByUser = new Map<string, PostRecord[]>();
  const postsOf = (userId: string): PostRecord[] => {
    let list = postsByUser.get(userId);
    if (!list) postsByUser.set(userId, (list = []));
    return list;
  };
  for (const p of [...posts.values()].sort((a, b) => a.createdAt - b.createdAt)) postsOf(p.userId).push(p);
  // A post another daemon's simulator made, changed or deleted (one PostgreSQL database): its user's list follows.
  posts.onOutsideChange((id, post, previous) => {
    if (previous) {
      const own = postsOf(previous.userId);
      const i = own.findIndex((p) => p.id === id);
      if (i >= 0) own.splice(i, 1);
    }
    if (post) {
      const own = postsOf(post.userId);
      let i = own.length;
      while (i > 0 && own[i - 1]!.createdAt > post.createdAt) i--;
      own.splice(i, 0, post);
    }
  });
  // Counted in the database when several daemons' simulators share it: together they never pass a limit (sim-windows.ts).
  const windows = state.windows('windows');
  const nextMedia = state.counter('media', 1_880_000_000_000_000_000n);
  const nextPost = state.counter('post', 1_990_000_000_000_000_000n);
  const nextPoll = state.counter('poll', 1_770_000_000_000_000_000n);

  /** The simulated user a sandbox token acts as: its connection's own account, created on first use. */
  const sandboxUser = sandboxAccounts(state, 'user', 1_000_000_000_000_000_101n, defaultUser.id, {
    id: (n) => String(n),
    make: (id, n) => void users.set(id, { id, username: `sandbox_x_${n - 1_000_000_000_000_000_000n}`, name: 'Sandbox X' }),
  });

  const problem = (c: Context, status: number, kind: ProblemKind, title: string, detail: string, extra: Record<string, string> = {}) =>
    c.body(JSON.stringify({ type: `https://api.x.com/2/problems/${kind}`, title, detail, status, ...extra }), status as 400, { 'content-type': 'application/problem+json' });
  /** The spec's other error shape (`Error`: code + message), which X uses for auth and rate limits. */
  const plainError = (c: Context, status: number, code: number, message: string, headers: Record<string, string> = {}) =>
    c.body(JSON.stringify({ code, message }), status as 400, { 'content-type': 'application/json', ...headers });

  /** Authenticates the request: OAuth 2.0 bearer (issued here, or a sandbox token) or a verified OAuth 1.0a signature. */
  function authenticate(c: Context, form: Record<string, string> = {}): string | null {
    const header = c.req.header('authorization');
    if (!header) return null;
    const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1];
    if (bearer) {
      if (isSandboxToken(bearer)) return sandboxUser(bearer);
      const t = tokens.get(bearer);
      return t && t.expiresAt > clock.now() ? t.userId : null;
    }
    const params = parseOAuth1Header(header);
    if (!params?.oauth_token || !params.oauth_consumer_key || params.oauth_signature_method !== 'HMAC-SHA1') return null;
    const known = oauth1.get(params.oauth_token);
    if (!known) return isSandboxToken(params.oauth_token) ? sandboxUser(params.oauth_token) : null;
    if (known.consumerKey !== params.oauth_consumer_key) return null;
    return verifyOAuth1(c.req.method, c.req.url, params, known.consumerSecret, known.tokenSecret, form) ? known.userId : null;
  }

  /** Counts the call in its 15-minute window and sets x-rate-limit-*; returns false once the window is used up. */
  function rateLimit(c: Context, userId: string, bucket: string): boolean {
    const limit = bucket === 'tweets' ? settings.postsPer15Min : (LIMITS[bucket] ?? 1000);
    const now = clock.now();
    const w = windows.take(`${userId}:${bucket}`, { now, start: now, end: now + WINDOW_MS, limit });
    c.header('x-rate-limit-limit', String(limit));
    c.header('x-rate-limit-remaining', String(Math.max(0, limit - w.used)));
    c.header('x-rate-limit-reset', String(Math.ceil(w.end / 1000)));
    return w.allowed;
  }

  const unauthorized = (c: Context) => plainError(c, 401, 32, 'Unauthorized: could not authenticate you');
  const tooMany = (c: Context) => plainError(c, 429, 88, 'Too Many Requests: rate limit exceeded');
  const mediaNotFound = (c: Context, id: string) => problem(c, 404, 'resource-not-found', 'Not Found Error', `Could not find media with id: [${id}].`, { resource_type: 'media', resource_id: id });

  function processingInfo(m: MediaRecord): Record<string, unknown> | undefined {
    if (m.category === 'tweet_image' || m.finalizedAt === null) return undefined;
    const elapsed = clock.now() - m.finalizedAt;
    if (m.fail && elapsed >= 1000) return { state: 'failed', progress_percent: 0 };
    if (elapsed < 1000) return { state: 'pending', check_after_secs: 1 };
    if (elapsed < settings.processingMs) {
      return { state: 'in_progress', check_after_secs: Math.max(1, Math.ceil((settings.processingMs - elapsed) / 1000)), progress_percent: Math.min(99, Math.floor((elapsed / settings.processingMs) * 100)) };
    }
    return { state: 'succeeded', progress_percent: 100 };
  }

  const ready = (m: MediaRecord) => m.finalizedAt !== null && (m.category === 'tweet_image' || processingInfo(m)?.state === 'succeeded');

  function mediaData(m: MediaRecord): Record<string, unknown> {
    const data: Record<string, unknown> = {
      id: m.id,
      media_key: mediaKey(m),
      size: m.totalBytes,
      expires_after_secs: Math.max(0, Math.floor((m.expiresAt - clock.now()) / 1000)),
    };
    if (m.category === 'tweet_image') data.image = { image_type: m.mediaType };
    else data.video = { video_type: m.mediaType === 'image/gif' ? 'video/mp4' : m.mediaType };
    const info = processingInfo(m);
    if (info) data.processing_info = info;
    return data;
  }

  function newMedia(userId: string, category: string, mediaType: string, totalBytes: number): MediaRecord {
    const id = String(nextMedia());
    const m: MediaRecord = { id, userId, category, mediaType, totalBytes, segments: {}, finalizedAt: null, expiresAt: clock.now() + 86_400_000, fail: settings.failProcessing };
    media.set(id, m);
    return m;
  }

  function issueTokens(clientId: string, userId: string, scope: string) {
    const access = `xat-${randomBytes(18).toString('base64url')}`;
    tokens.set(access, { userId, expiresAt: clock.now() + 7200_000, scope });
    const out: Record<string, unknown> = { token_type: 'bearer', expires_in: 7200, access_token: access, scope };
    if (scope.split(' ').includes('offline.access')) {
      const refresh = `xrt-${randomBytes(18).toString('base64url')}`;
      refreshTokens.set(refresh, { clientId, userId, used: false, scope });
      out.refresh_token = refresh;
    }
    return out;
  }

  const oauthError = (c: Context, status: number, error: string, description: string) => c.json({ error, error_description: description }, status as 400);

  const app = new Hono();
  app.use('*', recorder(X_HOST, log, clock));

  // The consent page (x.com/i/oauth2/authorize): the simulated user always approves.
  app.get('/i/oauth2/authorize', (c) => {
    const q = c.req.query();
    if (q.response_type !== 'code' || !q.client_id || !q.redirect_uri || !q.state) return c.text('invalid authorize request', 400);
    if (q.code_challenge_method && !['S256', 'plain'].includes(q.code_challenge_method)) return c.text('unsupported code_challenge_method', 400);
    const code = `xcode-${randomBytes(12).toString('base64url')}`;
    codes.issue(
      code,
      {
        clientId: q.client_id,
        redirectUri: q.redirect_uri,
        challenge: q.code_challenge ?? null,
        method: q.code_challenge_method ?? 'plain',
        userId: defaultUser.id,
        expiresAt: clock.now() + 30_000,
        scope: q.scope ?? '',
      },
      clock.now(),
    );
    const target = new URL(q.redirect_uri);
    target.searchParams.set('state', q.state);
    target.searchParams.set('code', code);
    return c.redirect(target.toString(), 302);
  });

  app.post('/2/oauth2/token', async (c) => {
    const form = (await c.req.parseBody()) as Record<string, string>;
    const rec = recordOf(c);
    if (rec) rec.body = { ...form, ...(form.code_verifier ? { code_verifier: '…' } : {}) };
    const basic = /^Basic\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const clientId = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':')[0] : form.client_id;
    if (!clientId) return oauthError(c, 401, 'invalid_client', 'Missing valid authorization header');
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used || code.clientId !== clientId) return oauthError(c, 400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      if (code.expiresAt <= clock.now()) return oauthError(c, 400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      if (code.redirectUri !== form.redirect_uri) return oauthError(c, 400, 'invalid_request', 'Value passed for the redirect uri did not match the uri of the authorization code.');
      const verifier = form.code_verifier ?? '';
      const expected = code.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (code.challenge !== null && expected !== code.challenge) return oauthError(c, 400, 'invalid_request', 'Value passed for the code verifier did not match the code challenge.');
      // Exchanged once, even when another daemon's simulator exchanges it at the same moment.
      if (!codes.take(form.code ?? '', clock.now())) return oauthError(c, 400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      return c.json(issueTokens(clientId, code.userId, code.scope));
    }
    if (form.grant_type === 'refresh_token') {
      const token = form.refresh_token ?? '';
      if (isSandboxToken(token)) {
        if (usedSandboxRefresh.has(token)) return oauthError(c, 400, 'invalid_request', 'Value passed for the token was invalid.');
        // The spent token and the new pair in one transaction: a kill between them would leave the connection no usable refresh token.
        return c.json(
          state.atomically(() => {
            usedSandboxRefresh.set(token, true);
            return issueTokens(clientId, sandboxUser(token), 'tweet.read tweet.write users.read media.write offline.access');
          }),
        );
      }
      const rt = refreshTokens.get(token);
      // Single use: a spent refresh token is refused (X may then end the whole chain).
      if (!rt || rt.used || rt.clientId !== clientId) return oauthError(c, 400, 'invalid_request', 'Value passed for the token was invalid.');
      return c.json(
        state.atomically(() => {
          rt.used = true;
          refreshTokens.set(token, rt);
          return issueTokens(clientId, rt.userId, rt.scope);
        }),
      );
    }
    return oauthError(c, 400, 'unsupported_grant_type', `grant_type ${form.grant_type ?? '(none)'} is not supported`);
  });

  app.get('/2/users/me', (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'users')) return tooMany(c);
    const u = users.get(userId) as XSimUser;
    return c.json({ data: { id: u.id, name: u.name, username: u.username } });
  });

  app.get('/2/users/:id/tweets', (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'users')) return tooMany(c);
    const id = c.req.param('id');
    if (!/^[0-9]{1,19}$/.test(id)) return problem(c, 400, 'invalid-request', 'Invalid Request', `The \`id\` query parameter value [${id}] is not valid`, { parameter: 'id', value: id });
    if (!users.has(id)) return problem(c, 404, 'resource-not-found', 'Not Found Error', `Could not find user with id: [${id}].`, { resource_type: 'user', resource_id: id, parameter: 'id', value: id });
    const q = c.req.query();
    const max = q.max_results === undefined ? 10 : Number(q.max_results);
    if (!Number.isInteger(max) || max < 5 || max > 100) return problem(c, 400, 'invalid-request', 'Invalid Request', `The \`max_results\` query parameter value [${q.max_results}] is not between 5 and 100`, { parameter: 'max_results' });
    const start = q.start_time ? Date.parse(q.start_time) : 0;
    if (Number.isNaN(start)) return problem(c, 400, 'invalid-request', 'Invalid Request', `Invalid start_time: ${q.start_time}`, { parameter: 'start_time' });
    const noReplies = (q.exclude ?? '').split(',').includes('replies');
    const found = postsOf(id).filter((p) => p.createdAt >= start && !(noReplies && p.inReplyTo)).sort((a, b) => b.createdAt - a.createdAt).slice(0, max);
    if (found.length === 0) return c.json({ meta: { result_count: 0 } });
    return c.json({
      data: found.map((p) => ({ id: p.id, text: p.text, edit_history_post_ids: [p.id] })),
      meta: { result_count: found.length, newest_id: found[0]!.id, oldest_id: found[found.length - 1]!.id },
    });
  });

  /** The conversation a post is in: the post its reply chain starts from (X's conversation_id). */
  const conversationOf = (p: PostRecord): string => {
    let at = p;
    for (let i = 0; i < 1000 && at.inReplyTo && posts.get(at.inReplyTo); i++) at = posts.get(at.inReplyTo)!;
    return at.id;
  };
  const readers = state.map<string>('readers');
  const readerMade = state.map<string>('reader-replies');
  const nextReader = state.counter('reader', 1_000_000_000_000_009_001n);
  /**
   * A sandbox reader's reply to a top-level post of a sandbox connection, made when its
   * conversation is first searched at or after its time (sim-conversation.ts decides which
   * posts and what, by the post id), once.
   */
  function readerReplies(root: PostRecord): void {
    if (root.inReplyTo || root.userId === defaultUser.id || [...readers.values()].includes(root.userId) || readerMade.has(root.id)) return;
    const plan = simReaderReply(root.id, root.createdAt);
    if (!plan || clock.now() < plan.at) return;
    state.atomically(() => {
      let readerId = readers.get(plan.reader.username);
      if (!readerId) {
        readerId = String(nextReader());
        users.set(readerId, { id: readerId, username: plan.reader.username, name: plan.reader.name });
        readers.set(plan.reader.username, readerId);
      }
      const id = String(nextPost());
      const post: PostRecord = { id, userId: readerId, text: plan.text, mediaIds: [], createdAt: plan.at, inReplyTo: root.id };
      posts.set(id, post);
      postsOf(readerId).push(post);
      readerMade.set(root.id, id);
    });
  }

  // Hide a reply: only the author of the conversation's first post may, and only replies in it.
  app.put('/2/tweets/:id/hidden', async (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'tweets-hide')) return tooMany(c);
    const id = c.req.param('id');
    if (!/^[0-9]{1,19}$/.test(id)) return badPostId(c, id);
    const body = (await c.req.json().catch(() => null)) as { hidden?: unknown } | null;
    if (!body || typeof body.hidden !== 'boolean') return problem(c, 400, 'invalid-request', 'Invalid Request', 'hidden must be a boolean', { parameter: 'hidden' });
    const p = posts.get(id);
    if (!p) return problem(c, 404, 'resource-not-found', 'Not Found Error', `Could not find post with id: [${id}].`, { resource_type: 'post', resource_id: id, parameter: 'id', value: id });
    const root = posts.get(conversationOf(p));
    if (!p.inReplyTo || !root || root.userId !== userId) return problem(c, 403, 'not-authorized-for-resource', 'Forbidden', 'You can only hide replies to conversations you started.', { resource_type: 'post', resource_id: id });
    posts.set(id, { ...p, hidden: body.hidden });
    return c.json({ data: { hidden: body.hidden } });
  });

  // Recent search, for the one operator the inbox uses: `conversation_id:<id>` (the replies in a conversation, newest first).
  app.get('/2/tweets/search/recent', (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'search')) return tooMany(c);
    const q = c.req.query();
    const m = /^conversation_id:([0-9]{1,19})$/.exec((q.query ?? '').trim());
    if (!m) return problem(c, 400, 'invalid-request', 'Invalid Request', 'The simulator searches only `conversation_id:<id>`', { parameter: 'query' });
    const max = q.max_results === undefined ? 10 : Number(q.max_results);
    if (!Number.isInteger(max) || max < 10 || max > 100) return problem(c, 400, 'invalid-request', 'Invalid Request', `The \`max_results\` query parameter value [${q.max_results}] is not between 10 and 100`, { parameter: 'max_results' });
    const root = posts.get(m[1]!);
    if (root) readerReplies(root);
    // Recent search covers the last 7 days.
    const since = clock.now() - 7 * 86_400_000;
    const all = [...posts.values()].filter((p) => p.inReplyTo && p.createdAt >= since && conversationOf(p) === m[1]).sort((a, b) => b.createdAt - a.createdAt || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
    const start = q.next_token ? Number(Buffer.from(q.next_token, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) return problem(c, 400, 'invalid-request', 'Invalid Request', 'next_token is not valid', { parameter: 'next_token' });
    const page = all.slice(start, start + max);
    if (page.length === 0) return c.json({ meta: { result_count: 0 } });
    const fields = (q['tweet.fields'] ?? '').split(',');
    const data = page.map((p) => ({
      id: p.id,
      text: p.text,
      edit_history_post_ids: [p.id],
      ...(fields.includes('author_id') ? { author_id: p.userId } : {}),
      ...(fields.includes('created_at') ? { created_at: new Date(p.createdAt).toISOString() } : {}),
      ...(fields.includes('conversation_id') ? { conversation_id: m[1] } : {}),
      ...(fields.includes('in_reply_to_user_id') && p.inReplyTo ? { in_reply_to_user_id: posts.get(p.inReplyTo)?.userId } : {}),
      ...(fields.includes('referenced_tweets') && p.inReplyTo ? { referenced_tweets: [{ type: 'replied_to', id: p.inReplyTo }] } : {}),
    }));
    const authors = (q.expansions ?? '').split(',').includes('author_id') ? [...new Set(page.map((p) => p.userId))].map((id) => users.get(id)!).map((u) => ({ id: u.id, name: u.name, username: u.username })) : null;
    const next = start + max < all.length ? Buffer.from(String(start + max)).toString('base64url') : null;
    return c.json({
      data,
      ...(authors ? { includes: { users: authors } } : {}),
      meta: { result_count: page.length, newest_id: page[0]!.id, oldest_id: page[page.length - 1]!.id, ...(next ? { next_token: next } : {}) },
    });
  });

  // Simple upload (images): multipart `media` (raw bytes, with or without a filename) + `media_category`, or JSON with base64 `media`.
  app.post('/2/media/upload', async (c) => {
    const fields = await uploadFields(c, ['media_category', 'additional_owners', 'command']);
    if (!fields) return problem(c, 400, 'invalid-request', 'Invalid Request', 'The request body is not valid JSON or multipart/form-data');
    const category = typeof fields.media_category === 'string' ? fields.media_category : undefined;
    const bytes = mediaBytes(fields.media);
    const extra = Object.keys(fields).filter((k) => !['media', 'media_category', 'additional_owners'].includes(k));
    const rec = recordOf(c);
    if (rec) rec.body = { media_category: category, media: bytes ? `<${bytes.length} bytes>` : undefined, ...Object.fromEntries(extra.map((k) => [k, '…'])) };
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'media-upload')) return tooMany(c);
    if (extra.includes('command')) return problem(c, 400, 'invalid-request', 'Invalid Request', 'The command=INIT/APPEND/FINALIZE form is not supported here; use /2/media/upload/initialize, /append and /finalize');
    if (extra.length > 0) return problem(c, 400, 'invalid-request', 'Invalid Request', `Unknown field(s): ${extra.join(', ')}`);
    if (!category || !CATEGORIES.has(category)) return problem(c, 400, 'invalid-request', 'Invalid Request', 'media_category is required and must be one of tweet_image, tweet_video, tweet_gif, dm_image, dm_video, dm_gif, subtitles', { parameter: 'media_category' });
    if (!bytes || bytes.length === 0) return problem(c, 400, 'invalid-request', 'Invalid Request', 'media is required', { parameter: 'media' });
    if (category !== 'tweet_image') return problem(c, 400, 'invalid-request', 'Invalid Request', `${category} must be uploaded with the chunked endpoints`);
    const type = sniffImage(bytes);
    if (!type) return problem(c, 400, 'invalid-request', 'Invalid Request', 'media type unrecognized.');
    if (bytes.length > IMAGE_MAX) return problem(c, 400, 'invalid-request', 'Invalid Request', `File size exceeds ${IMAGE_MAX} bytes.`);
    const m = newMedia(userId, 'tweet_image', type, bytes.length);
    m.segments['0'] = bytes.length;
    m.finalizedAt = clock.now();
    media.set(m.id, m);
    return c.json({ data: mediaData(m) });
  });

  app.get('/2/media/upload', (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'media-status')) return tooMany(c);
    const { command, media_id: id } = c.req.query();
    if (command !== undefined && command !== 'STATUS') return problem(c, 400, 'invalid-request', 'Invalid Request', `Invalid command: ${command}`, { parameter: 'command' });
    if (!id || !/^[0-9]{1,19}$/.test(id)) return problem(c, 400, 'invalid-request', 'Invalid Request', 'media_id is required', { parameter: 'media_id' });
    const m = media.get(id);
    if (!m || m.userId !== userId) return mediaNotFound(c, id);
    return c.json({ data: mediaData(m) });
  });

  app.post('/2/media/upload/initialize', async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const rec = recordOf(c);
    if (rec) rec.body = body;
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'media-chunked')) return tooMany(c);
    if (!body || typeof body !== 'object') return problem(c, 400, 'invalid-request', 'Invalid Request', 'The request body must be a JSON object');
    const unknown = Object.keys(body).filter((k) => !['additional_owners', 'media_category', 'media_type', 'shared', 'total_bytes'].includes(k));
    if (unknown.length) return problem(c, 400, 'invalid-request', 'Invalid Request', `Unknown field(s): ${unknown.join(', ')}`);
    const { media_type: type, total_bytes: total, media_category: category } = body as { media_type?: string; total_bytes?: number; media_category?: string };
    if (!type || !MEDIA_TYPES.has(type)) return problem(c, 400, 'invalid-request', 'Invalid Request', `Unsupported media_type: ${String(type)}`, { parameter: 'media_type' });
    if (!Number.isInteger(total) || (total as number) <= 0) return problem(c, 400, 'invalid-request', 'Invalid Request', 'total_bytes must be a positive integer', { parameter: 'total_bytes' });
    const cat = category ?? (type.startsWith('video/') ? 'tweet_video' : type === 'image/gif' ? 'tweet_gif' : 'tweet_image');
    if (!CATEGORIES.has(cat)) return problem(c, 400, 'invalid-request', 'Invalid Request', `Unsupported media_category: ${cat}`);
    const max = cat === 'tweet_gif' ? GIF_MAX : cat === 'tweet_image' ? IMAGE_MAX : VIDEO_MAX;
    if ((total as number) > max) return problem(c, 400, 'invalid-request', 'Invalid Request', `File size exceeds ${max} bytes.`);
    if (cat === 'tweet_gif' && type !== 'image/gif') return problem(c, 400, 'invalid-request', 'Invalid Request', 'tweet_gif needs media_type image/gif');
    if ((cat === 'tweet_video' || cat === 'amplify_video') && !type.startsWith('video/')) return problem(c, 400, 'invalid-request', 'Invalid Request', `${cat} needs a video media_type`);
    const m = newMedia(userId, cat, type, total as number);
    return c.json({ data: { id: m.id, media_key: mediaKey(m), expires_after_secs: Math.floor((m.expiresAt - clock.now()) / 1000) } });
  });

  // Append: multipart (`media` raw bytes, `segment_index` text) or JSON (`media` base64, `segment_index` integer).
  app.post('/2/media/upload/:id/append', async (c) => {
    const id = c.req.param('id');
    const fields = await uploadFields(c, ['segment_index']);
    const bytes = mediaBytes(fields?.media);
    const size = bytes?.length ?? 0;
    const rawIndex = fields?.segment_index;
    const rec = recordOf(c);
    if (rec) rec.body = { segment_index: rawIndex, media: `<${size} bytes>` };
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'media-chunked')) return tooMany(c);
    const m = media.get(id);
    if (!m || m.userId !== userId) return mediaNotFound(c, id);
    if (m.finalizedAt !== null) return problem(c, 400, 'invalid-request', 'Invalid Request', 'The upload was already finalized');
    if (!fields) return problem(c, 400, 'invalid-request', 'Invalid Request', 'The request body is not valid JSON or multipart/form-data');
    const seg = typeof rawIndex === 'number' ? rawIndex : typeof rawIndex === 'string' && /^[0-9]+$/.test(rawIndex) ? Number(rawIndex) : NaN;
    if (!Number.isInteger(seg) || seg < 0 || seg > 999) return problem(c, 400, 'invalid-request', 'Invalid Request', 'segment_index must be an integer from 0 to 999', { parameter: 'segment_index' });
    if (size === 0) return problem(c, 400, 'invalid-request', 'Invalid Request', 'media is required', { parameter: 'media' });
    if (size > 5 * 1024 * 1024) return problem(c, 400, 'invalid-request', 'Invalid Request', 'A segment may hold at most 5 MB');
    m.segments[String(seg)] = size;
    media.set(id, m);
    return c.json({ data: { expires_at: Math.floor(m.expiresAt / 1000) } });
  });

  app.post('/2/media/upload/:id/finalize', (c) => {
    const id = c.req.param('id');
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'media-chunked')) return tooMany(c);
    const m = media.get(id);
    if (!m || m.userId !== userId) return mediaNotFound(c, id);
    if (m.finalizedAt === null) {
      const indexes = Object.keys(m.segments).map(Number).sort((a, b) => a - b);
      const contiguous = indexes.every((v, i) => v === i);
      const sum = Object.values(m.segments).reduce((a, b) => a + b, 0);
      if (!contiguous || sum !== m.totalBytes) return problem(c, 400, 'invalid-request', 'Invalid Request', `Segments do not add up to provided total file size (${sum} of ${m.totalBytes} bytes).`);
      m.finalizedAt = clock.now();
      media.set(id, m);
    }
    return c.json({ data: mediaData(m) });
  });

  app.post('/2/tweets', async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const rec = recordOf(c);
    if (rec) rec.body = body;
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'tweets')) return tooMany(c);
    if (!body || typeof body !== 'object' || Array.isArray(body)) return problem(c, 400, 'invalid-request', 'Invalid Request', 'The request body must be a JSON object');
    const unknown = Object.keys(body).filter((k) => !CREATE_KEYS.has(k));
    if (unknown.length) return problem(c, 400, 'invalid-request', 'Invalid Request', `The following fields are not allowed: ${unknown.join(', ')}`);
    // X normalises to NFC before counting and storing.
    const text = typeof body.text === 'string' ? body.text.normalize('NFC') : '';
    const mediaIds = (body.media as { media_ids?: unknown } | undefined)?.media_ids;
    if (mediaIds !== undefined && (!Array.isArray(mediaIds) || mediaIds.some((x) => typeof x !== 'string' || !/^[0-9]{1,19}$/.test(x)))) {
      return problem(c, 400, 'invalid-request', 'Invalid Request', 'media.media_ids must be an array of media id strings');
    }
    const ids = (mediaIds ?? []) as string[];
    // CreatePostsReply (docs/reference/platforms.md §12.3): in_reply_to_tweet_id required, and the post must exist.
    const reply = body.reply as { in_reply_to_tweet_id?: unknown; [k: string]: unknown } | undefined;
    let inReplyTo: string | undefined;
    if (reply !== undefined) {
      const extra = reply && typeof reply === 'object' && !Array.isArray(reply) ? Object.keys(reply).filter((k) => !['in_reply_to_tweet_id', 'exclude_reply_user_ids', 'auto_populate_reply_metadata'].includes(k)) : [];
      if (!reply || typeof reply !== 'object' || Array.isArray(reply) || extra.length) return problem(c, 400, 'invalid-request', 'Invalid Request', `reply must be an object with in_reply_to_tweet_id${extra.length ? ` (not allowed: ${extra.join(', ')})` : ''}`, { parameter: 'reply' });
      const target = reply.in_reply_to_tweet_id;
      if (typeof target !== 'string' || !/^[0-9]{1,19}$/.test(target)) return problem(c, 400, 'invalid-request', 'Invalid Request', 'reply.in_reply_to_tweet_id must match ^[0-9]{1,19}$', { parameter: 'reply.in_reply_to_tweet_id' });
      if (!posts.has(target)) return problem(c, 403, 'disallowed-resource', 'Forbidden', 'You attempted to reply to a Tweet that is deleted or not visible to you.', { resource_type: 'post', resource_id: target });
      inReplyTo = target;
    }
    if (text.trim() === '' && ids.length === 0) return problem(c, 400, 'invalid-request', 'Invalid Request', 'Post text or media is required');
    const parsed = twitterText.parseTweet(text);
    if (parsed.weightedLength > 280) return problem(c, 400, 'invalid-request', 'Invalid Request', 'Your Tweet text is too long. For more information on how X counts characters, see the counting-characters documentation.');
    if (twitterText.extractCashtags(text).length > 1) return problem(c, 400, 'invalid-request', 'Invalid Request', 'Tweet contains more than the maximum of one cashtag.');
    if (ids.length > 4) return problem(c, 400, 'invalid-request', 'Invalid Request', 'Your media IDs are invalid: a post holds a maximum of 4 items.');
    const items = ids.map((id) => media.get(id));
    if (items.some((m) => !m || m.userId !== userId || m.expiresAt <= clock.now() || !ready(m))) {
      return problem(c, 400, 'invalid-request', 'Invalid Request', 'Your media IDs are invalid.', { parameter: 'media.media_ids' });
    }
    const kinds = items.map((m) => m!.category);
    if (kinds.length > 1 && kinds.some((k) => k !== 'tweet_image')) return problem(c, 400, 'invalid-request', 'Invalid Request', 'Your media IDs are invalid: a video or GIF must be the only media.');
    const extras = readTweetExtras(body, ids.length > 0, (qid) => posts.has(qid));
    if (isExtrasProblem(extras)) return problem(c, extras.status, 'invalid-request', 'Invalid Request', extras.detail, { parameter: extras.parameter });
    const normalized = text.normalize('NFC').trim();
    if (normalized !== '' && postsOf(userId).some((p) => p.text.normalize('NFC').trim() === normalized)) {
      return problem(c, 403, 'disallowed-resource', 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.', { resource_type: 'post' });
    }
    // The post, its ids and its sandbox_posts row in one transaction: a kill leaves all or nothing.
    return state.atomically(() => {
      const id = String(nextPost());
      const poll = extras.poll ? { id: String(nextPoll()), ...extras.poll, endsAt: clock.now() + extras.poll.durationMinutes * 60_000 } : null;
      const post: PostRecord = { id, userId, text, mediaIds: ids, createdAt: clock.now(), poll, replySettings: extras.replySettings, quoteTweetId: extras.quoteTweetId, ...(inReplyTo ? { inReplyTo } : {}) };
      posts.set(id, post);
      postsOf(userId).push(post);
      const user = users.get(userId) as XSimUser;
      log.addPost({
        platform: 'twitter',
        accountId: userId,
        postId: id,
        postUrl: `https://x.com/${user.username}/status/${id}`,
        kind: inReplyTo ? 'reply' : 'tweet',
        body: {
          text,
          media: items.map((m) => ({ id: m!.id, category: m!.category, type: m!.mediaType, bytes: m!.totalBytes })),
          ...(inReplyTo ? { in_reply_to: inReplyTo } : {}),
          ...(poll ? { poll: { options: poll.options, duration_minutes: poll.durationMinutes } } : {}),
          ...(extras.replySettings ? { reply_settings: extras.replySettings } : {}),
          ...(extras.quoteTweetId ? { quote_tweet_id: extras.quoteTweetId } : {}),
        },
        createdAt: post.createdAt,
      });
      return c.json({ data: { id, text, edit_history_post_ids: [id] } }, 201);
    });
  });

  const badPostId = (c: Context, id: string) => problem(c, 400, 'invalid-request', 'Invalid Request', `The \`id\` query parameter value [${id}] does not match ^[0-9]{1,19}$`, { parameter: 'id', value: id });

  const notFoundPost = (id: string) => ({ type: 'https://api.x.com/2/problems/resource-not-found', title: 'Not Found Error', detail: `Could not find post with id: [${id}].`, resource_type: 'post', resource_id: id, parameter: 'id', value: id });

  /**
   * A post as a lookup answers it, with the fields asked for: `public_metrics` for anyone;
   * `non_public_metrics` and `organic_metrics` only for the author and for posts under 30
   * days old (docs/reference/platforms.md §17), otherwise a field authorization error.
   */
  function postData(p: PostRecord, fields: string[], viewer: string): { data: Record<string, unknown>; fieldErrors: Record<string, unknown>[] } {
    const data: Record<string, unknown> = { id: p.id, text: p.text, edit_history_post_ids: [p.id] };
    const fieldErrors: Record<string, unknown>[] = [];
    if (fields.includes('author_id')) data.author_id = p.userId;
    if (fields.includes('created_at')) data.created_at = new Date(p.createdAt).toISOString();
    if (fields.includes('attachments') && (p.mediaIds.length || p.poll)) {
      data.attachments = {
        ...(p.mediaIds.length ? { media_keys: p.mediaIds.map((m) => (media.get(m) ? mediaKey(media.get(m)!) : `3_${m}`)) } : {}),
        ...(p.poll ? { poll_ids: [p.poll.id] } : {}),
      };
    }
    // Read back, X answers `everyone` for a post made without reply_settings.
    if (fields.includes('reply_settings')) data.reply_settings = p.replySettings ?? 'everyone';
    if ((fields.includes('referenced_tweets') || fields.includes('referenced_posts')) && p.quoteTweetId) data.referenced_tweets = [{ type: 'quoted', id: p.quoteTweetId }];
    const age = clock.now() - p.createdAt;
    const f = simFigures(`x:${p.id}`, age);
    if (fields.includes('public_metrics')) {
      data.public_metrics = { retweet_count: f.reposts, reply_count: f.replies, like_count: f.likes, quote_count: f.quotes, bookmark_count: f.bookmarks, impression_count: f.impressions };
    }
    for (const private_ of ['non_public_metrics', 'organic_metrics'] as const) {
      if (!fields.includes(private_)) continue;
      if (p.userId !== viewer || age >= 30 * 86_400_000) {
        fieldErrors.push({
          value: p.id,
          detail: `Sorry, you are not authorized to access '${private_}' on the Post with ids: ${p.id}.`,
          title: 'Field Authorization Error',
          resource_type: 'post',
          parameter: private_,
          resource_id: p.id,
          type: 'https://api.x.com/2/problems/not-authorized-for-field',
        });
        continue;
      }
      data[private_] =
        private_ === 'non_public_metrics'
          ? { impression_count: f.impressions, url_link_clicks: f.linkClicks, user_profile_clicks: f.profileClicks }
          : { impression_count: f.impressions, like_count: f.likes, reply_count: f.replies, retweet_count: f.reposts, url_link_clicks: f.linkClicks, user_profile_clicks: f.profileClicks };
    }
    return { data, fieldErrors };
  }

  // The description names it post.fields; clients written before the rename send tweet.fields.
  const fieldsOf = (c: Context) => (c.req.query('post.fields') ?? c.req.query('tweet.fields') ?? '').split(',');

  // Posts by ids (1 to 100, comma-separated): the posts found in `data`, the others in `errors`, as X answers it.
  app.get('/2/tweets', (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'tweets-lookup')) return tooMany(c);
    const raw = c.req.query('ids');
    if (raw === undefined || raw === '') return problem(c, 400, 'invalid-request', 'Invalid Request', 'The query parameter [ids] is required.', { parameter: 'ids' });
    const ids = raw.split(',');
    if (ids.length > 100) return problem(c, 400, 'invalid-request', 'Invalid Request', `The number of values in the \`ids\` query parameter list [${ids.length}] is not between 1 and 100`, { parameter: 'ids' });
    const bad = ids.find((id) => !/^[0-9]{1,19}$/.test(id));
    if (bad !== undefined) return problem(c, 400, 'invalid-request', 'Invalid Request', `The \`ids\` query parameter value [${bad}] does not match ^[0-9]{1,19}$`, { parameter: 'ids', value: bad });
    const fields = fieldsOf(c);
    const data: Record<string, unknown>[] = [];
    const errors: Record<string, unknown>[] = [];
    for (const id of ids) {
      const p = posts.get(id);
      if (!p) {
        errors.push(notFoundPost(id));
        continue;
      }
      const one = postData(p, fields, userId);
      data.push(one.data);
      errors.push(...one.fieldErrors);
    }
    return c.json({ ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) });
  });

  // Post lookup: a missing post is a 200 with an `errors` entry, as X answers it.
  app.get('/2/tweets/:id', (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'tweets-lookup')) return tooMany(c);
    const id = c.req.param('id');
    if (!/^[0-9]{1,19}$/.test(id)) return badPostId(c, id);
    const p = posts.get(id);
    if (!p) return c.json({ errors: [notFoundPost(id)] });
    const { data, fieldErrors } = postData(p, fieldsOf(c), userId);
    const errors = fieldErrors.length ? { errors: fieldErrors } : {};
    const expansions = (c.req.query('expansions') ?? '').split(',');
    if (expansions.includes('attachments.poll_ids') && p.poll) {
      const ended = clock.now() >= p.poll.endsAt;
      return c.json({
        data,
        includes: {
          polls: [{ id: p.poll.id, options: p.poll.options.map((label, i) => ({ position: i + 1, label, votes: 0 })), duration_minutes: p.poll.durationMinutes, end_datetime: new Date(p.poll.endsAt).toISOString(), voting_status: ended ? 'closed' : 'open' }],
        },
        ...errors,
      });
    }
    return c.json({ data, ...errors });
  });

  // Delete: only the author's own posts; the post leaves lookups, timelines and the duplicate memory.
  app.delete('/2/tweets/:id', (c) => {
    const userId = authenticate(c);
    if (!userId) return unauthorized(c);
    if (!rateLimit(c, userId, 'tweets-delete')) return tooMany(c);
    const id = c.req.param('id');
    if (!/^[0-9]{1,19}$/.test(id)) return badPostId(c, id);
    const p = posts.get(id);
    if (!p) return problem(c, 404, 'resource-not-found', 'Not Found Error', `Could not find post with id: [${id}].`, { resource_type: 'post', resource_id: id, parameter: 'id', value: id });
    if (p.userId !== userId) return problem(c, 403, 'not-authorized-for-resource', 'Forbidden', 'You are not allowed to delete this Post.', { resource_type: 'post', resource_id: id });
    state.atomically(() => {
      posts.delete(id);
      const own = postsOf(p.userId);
      own.splice(own.indexOf(p), 1);
      log.removePost('twitter', id, clock.now());
    });
    return c.json({ data: { deleted: true } });
  });

  // Anything else: X's own error shapes (a problem for an unknown resource, 405 for a known path with another method).
  app.all('*', (c) => {
    const path = hostPath(c, X_HOST);
    if (KNOWN_PATHS.some((re) => re.test(path))) return problem(c, 405, 'invalid-request', 'Method Not Allowed', `The method ${c.req.method} is not allowed for ${path}.`);
    return problem(c, 404, 'resource-not-found', 'Not Found Error', `Sorry, that page does not exist: ${c.req.method} ${path}`, { resource_type: 'endpoint', resource_id: path });
  });

  return {
    host: X_HOST,
    app,
    log,
    settings,
    defaultUser,
    posts: () => [...posts.values()],
    media: (id: string) => media.get(id),
    /** Registers an OAuth 1.0a app + user token pair the simulator verifies signatures with. */
    registerOAuth1(keys: { consumerKey: string; consumerSecret: string; token: string; tokenSecret: string }, userId = defaultUser.id): void {
      oauth1.set(keys.token, { consumerKey: keys.consumerKey, consumerSecret: keys.consumerSecret, tokenSecret: keys.tokenSecret, userId });
    },
    /** Issues an OAuth 2.0 token pair directly (as if the user had consented). */
    issueTokens(clientId: string, scope = 'tweet.read tweet.write users.read media.write offline.access', userId = defaultUser.id) {
      return issueTokens(clientId, userId, scope) as { access_token: string; refresh_token?: string; expires_in: number };
    },
    /** Whether a refresh token has been spent. */
    refreshTokenUsed: (token: string) => refreshTokens.get(token)?.used ?? usedSandboxRefresh.has(token),
  };
}

export type TwitterSimulator = ReturnType<typeof createTwitterSimulator>;

/** The paths this simulator serves (a request to one with another method is a 405). */
const KNOWN_PATHS = [
  /^\/i\/oauth2\/authorize$/, /^\/2\/oauth2\/token$/, /^\/2\/users\/me$/, /^\/2\/users\/[^/]+\/tweets$/, /^\/2\/media\/upload$/,
  /^\/2\/media\/upload\/initialize$/, /^\/2\/media\/upload\/[^/]+\/(append|finalize)$/, /^\/2\/tweets$/, /^\/2\/tweets\/[^/]+$/,
];

/** X's media keys: 3_ for images, 16_ for GIFs, 7_ for videos, the same from initialize on. */
function mediaKey(m: { id: string; category: string }): string {
  return `${m.category === 'tweet_image' || m.category === 'dm_image' ? 3 : m.category === 'tweet_gif' || m.category === 'dm_gif' ? 16 : 7}_${m.id}`;
}

/**
 * The fields of a media upload body: JSON as parsed, or multipart with `textFields` as
 * text and every other part (`media`) as its raw bytes. Null for any other body.
 */
async function uploadFields(c: Context, textFields: readonly string[]): Promise<Record<string, unknown> | null> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    const body = (await c.req.json().catch(() => null)) as unknown;
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  }
  const parts = parseMultipart(Buffer.from(await c.req.arrayBuffer()), type);
  return parts ? multipartFields(parts, textFields) : null;
}

/** `media` as bytes: raw from multipart, base64 from JSON. */
function mediaBytes(value: unknown): Buffer | null {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value, 'base64');
  return null;
}

function sniffImage(b: Buffer): string | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}
