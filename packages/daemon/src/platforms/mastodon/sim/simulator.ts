import { mastodonLength, type ServerLimits } from '@socialpub/core';
import { Hono, type Context } from 'hono';
import type { Clock } from '../../../util/clock';
import { isSandboxToken } from '../../shared/is-sandbox-token';
import { sandboxAccounts } from '../../shared/sim/sandbox-accounts';
import type { PostRemovalSink, SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { simReaderReply, type SimReaderReply } from '../../shared/sim/sim-conversation';
import { simState, type SimState } from '../../shared/sim/sim-state';
import { recorder, recordOf, selfBase, SimulatorLog } from '../../shared/sim/simulator-recorder';
import { DEFAULT_SERVER_LIMITS } from '../server-limits';
import { accountEntity, credentialAccountEntity, mediaEntity, statusEntity, type SimAccount, type SimMedia, type SimStatus } from './entities';
import { instanceEntity } from './instance';
import { oauthRoutes, type SimApp, type SimCode, type SimToken } from './oauth-routes';
import { readBody } from './read-body';

/**
 * A strict simulator of a Mastodon server (mastodon.social) for what socialpub and clients
 * such as masto use: the instance description with its limits, app registration, OAuth
 * authorization code with PKCE (the consent approves at once), verify_credentials, media
 * uploads processed asynchronously (202, then 206 until the file has a URL), statuses with
 * visibility, content warnings, polls, replies and Idempotency-Key, deletions, a status's
 * context and an account's statuses. Errors are Mastodon's `{"error": "..."}` (422 for
 * validation), every API answer carries X-RateLimit-* headers, and 429s come when a window
 * is spent. docs/platforms/simulators.md.
 */

export const MASTODON_HOST = 'mastodon.social';

export interface MastodonSimulatorOptions {
  clock: Clock;
  onPost?: (post: SimulatedPost) => void;
  onRemove?: PostRemovalSink;
  /** The server's limits (default mastodon.social's): a 5,000-character server is `{ characters: 5000 }`. */
  limits?: Partial<ServerLimits>;
  /** How long a video's processing takes (images: none). Default 3 s. */
  processingMs?: number;
  /** Where accounts, apps, tokens, media, statuses, idempotency keys and rate windows live (default: memory only). */
  state?: SimState;
  /** Runs a status's writes (the status, its idempotency key, its sandbox_posts row) as one transaction. */
  transaction?: <T>(fn: () => T) => T;
}

const VISIBILITIES = new Set(['public', 'unlisted', 'private', 'direct']);
/**
 * Mastodon's default rate limits (docs.joinmastodon.org/api/rate-limits): 300 calls per 5
 * minutes per account (per address without a token), 30 media uploads and 30 status
 * deletions per 30 minutes per account.
 */
const WINDOWS = { api: { limit: 300, ms: 5 * 60_000 }, media: { limit: 30, ms: 30 * 60_000 }, deletions: { limit: 30, ms: 30 * 60_000 } } as const;
/** Mastodon remembers an Idempotency-Key for an hour. */
const IDEMPOTENCY_MS = 3_600_000;

export function createMastodonSimulator(options: MastodonSimulatorOptions) {
  const { clock } = options;
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...(options.limits ?? {}) };
  const settings = { processingMs: options.processingMs ?? 3_000 };
  const log = new SimulatorLog(options.onPost, options.onRemove);
  const state = options.state ?? simState(null, 'mastodon');
  const tx = options.transaction ?? (<T>(fn: () => T) => fn());
  const accounts = state.map<SimAccount>('accounts');
  const apps = state.map<SimApp>('apps');
  const tokens = state.map<SimToken>('tokens');
  const media = state.map<SimMedia>('media');
  const statuses = state.map<SimStatus>('statuses');
  const keys = state.map<{ statusId: string; at: number }>('idempotency');
  // Counted in the database when several daemons' simulators share it: together they never pass a limit (sim-windows.ts).
  const windows = state.windows('windows');
  const codes = state.codes<SimCode>('codes');
  const nextId = state.counter('id', 113_500_000_000_000_001n);
  const nextAccount = state.counter('account', 109_000_000_000_000_101n);
  const defaultAccount: SimAccount = { id: '109000000000000001', username: 'sandbox', createdAt: Date.UTC(2024, 0, 1) };
  if (!accounts.has(defaultAccount.id)) accounts.set(defaultAccount.id, defaultAccount);

  /** One simulated account per sandbox connection (its token's account part), made on first use. */
  const sandboxAccount = sandboxAccounts(state, 'sandbox-account', 1n, defaultAccount.id, {
    id: () => String(nextAccount()),
    make: (id) => void accounts.set(id, { id, username: `sandbox_${id.slice(-6)}`, createdAt: clock.now() }),
  });

  const error = (c: Context, status: number, message: string, extra: Record<string, unknown> = {}) => c.json({ error: message, ...extra }, status as 400);
  const origin = (c: Context) => selfBase(c, MASTODON_HOST);
  /** The public origin a status's URLs name: the real host, as a real server's would. */
  const publicOrigin = `https://${MASTODON_HOST}`;

  function authenticate(c: Context): { accountId: string; scopes: string[] } | null {
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer) return null;
    if (isSandboxToken(bearer)) return { accountId: sandboxAccount(bearer), scopes: ['read', 'write'] };
    const t = tokens.get(bearer);
    return t ? { accountId: t.accountId, scopes: t.scopes } : null;
  }

  const allows = (scopes: string[], need: string) => scopes.includes(need) || scopes.includes(need.split(':')[0]!);

  /** Counts a call in its window and sets X-RateLimit-*; false once the window is spent. */
  function rateLimit(c: Context, key: string, which: keyof typeof WINDOWS): boolean {
    const { limit, ms } = WINDOWS[which];
    const now = clock.now();
    const w = windows.take(`${key}:${which}`, { now, start: now, end: now + ms, limit });
    c.header('X-RateLimit-Limit', String(limit));
    c.header('X-RateLimit-Remaining', String(Math.max(0, limit - w.used)));
    c.header('X-RateLimit-Reset', new Date(w.end).toISOString());
    return w.allowed;
  }

  /** Authentication, scope and rate limits of one API call; a Response when refused. */
  function guard(c: Context, scope: string, extra?: 'media' | 'deletions'): { accountId: string } | Response {
    const who = authenticate(c);
    if (!who) return error(c, 401, 'The access token is invalid');
    if (!allows(who.scopes, scope)) return error(c, 403, 'This action is outside the authorized scopes');
    if (!rateLimit(c, who.accountId, 'api')) return error(c, 429, 'Too many requests');
    if (extra && !rateLimit(c, who.accountId, extra)) return error(c, 429, 'Too many requests');
    return who;
  }

  /** Calls without a token count per client address, as Mastodon counts them (300 per 5 minutes). */
  const anonymous = (c: Context): Response | null => (rateLimit(c, `ip:${c.req.header('x-forwarded-for') ?? 'loopback'}`, 'api') ? null : error(c, 429, 'Too many requests'));

  const statusCount = (accountId: string) => [...statuses.values()].filter((s) => s.accountId === accountId && s.deletedAt === null);
  function accountJson(accountId: string) {
    const own = statusCount(accountId);
    return accountEntity(accounts.get(accountId)!, publicOrigin, own.length, own.length ? Math.max(...own.map((s) => s.createdAt)) : null);
  }
  function statusJson(s: SimStatus, withSource = false) {
    const now = clock.now();
    return statusEntity(s, {
      origin: publicOrigin,
      account: accountJson(s.accountId),
      media: s.mediaIds.map((id) => mediaEntity(media.get(id)!, publicOrigin, now)),
      replies: [...statuses.values()].filter((r) => r.inReplyToId === s.id && r.deletedAt === null).length,
      now,
      withSource,
    });
  }

  const bool = (v: unknown) => v === true || v === 'true' || v === '1';

  const app = new Hono();
  app.use('*', recorder(MASTODON_HOST, log, clock));

  app.get('/api/v2/instance', (c) => anonymous(c) ?? c.json(instanceEntity(MASTODON_HOST, limits)));
  app.route('/', oauthRoutes({ clock, apps, tokens, codes, nextId, accountId: defaultAccount.id, error, anonymous }));

  app.get('/api/v1/accounts/verify_credentials', (c) => {
    const who = guard(c, 'read:accounts');
    if (who instanceof Response) return who;
    const own = statusCount(who.accountId);
    return c.json(credentialAccountEntity(accounts.get(who.accountId)!, publicOrigin, own.length, own.length ? Math.max(...own.map((s) => s.createdAt)) : null));
  });

  app.post('/api/v2/media', async (c) => {
    const who = guard(c, 'write:media', 'media');
    if (who instanceof Response) return who;
    if (!(c.req.header('content-type') ?? '').includes('multipart/form-data')) return error(c, 422, "Validation failed: File can't be blank");
    const form = await c.req.parseBody();
    const file = form.file;
    if (!(file instanceof File)) return error(c, 422, "Validation failed: File can't be blank");
    const type = (file.type || '').toLowerCase();
    if (!limits.supported_mime_types.includes(type)) return error(c, 422, `Validation failed: File content type "${type || 'unknown'}" is invalid`);
    const kind = type.startsWith('video/') ? 'video' : type.startsWith('audio/') ? 'audio' : type === 'image/gif' ? 'gifv' : 'image';
    const max = kind === 'image' ? limits.image_size_limit : limits.video_size_limit;
    if (file.size > max) return error(c, 422, `Validation failed: File file size must be less than ${Math.floor(max / 1024 / 1024)} MB`);
    const description = typeof form.description === 'string' && form.description !== '' ? form.description : null;
    if (description !== null && [...description].length > limits.description_limit) {
      return error(c, 422, `Validation failed: Description is too long (maximum is ${limits.description_limit} characters)`);
    }
    let focus: SimMedia['focus'] = null;
    if (typeof form.focus === 'string' && form.focus !== '') {
      const [x, y] = form.focus.split(',').map(Number);
      if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 1 || Math.abs(y) > 1) return error(c, 422, 'Validation failed: Focus is invalid');
      focus = { x, y };
    }
    const now = clock.now();
    const m: SimMedia = { id: String(nextId()), accountId: who.accountId, type: kind, mimeType: type, size: file.size, description, focus, createdAt: now, readyAt: kind === 'image' ? now : now + settings.processingMs, statusId: null };
    media.set(m.id, m);
    const rec = recordOf(c);
    if (rec && rec.body && typeof rec.body === 'object') rec.body = { ...(rec.body as Record<string, unknown>), file: `<${file.size} bytes>` };
    return c.json(mediaEntity(m, publicOrigin, now), kind === 'image' ? 200 : 202);
  });

  app.get('/api/v1/media/:id', (c) => {
    const who = guard(c, 'write:media');
    if (who instanceof Response) return who;
    const m = media.get(c.req.param('id'));
    if (!m || m.accountId !== who.accountId) return error(c, 404, 'Record not found');
    const now = clock.now();
    return c.json(mediaEntity(m, publicOrigin, now), now >= m.readyAt ? 200 : 206);
  });

  app.post('/api/v1/statuses', async (c) => {
    const who = guard(c, 'write:statuses');
    if (who instanceof Response) return who;
    const key = c.req.header('idempotency-key');
    const now = clock.now();
    // A repeat within the hour answers the status the key made, before anything else is looked at.
    const known = key ? keys.get(`${who.accountId}:${key}`) : undefined;
    if (known && known.at > now - IDEMPOTENCY_MS) {
      const s = statuses.get(known.statusId);
      if (s) return c.json(statusJson(s));
    }
    const b = await readBody(c);
    if (!b) return error(c, 422, 'Validation failed: the body is not JSON or a form');
    if (b.scheduled_at !== undefined && b.scheduled_at !== null && b.scheduled_at !== '') return error(c, 422, 'Validation failed: scheduled statuses are not simulated');
    const text = typeof b.status === 'string' ? b.status : '';
    const spoiler = typeof b.spoiler_text === 'string' ? b.spoiler_text : '';
    const mediaIds = (Array.isArray(b.media_ids) ? b.media_ids : []).map(String);
    const visibility = typeof b.visibility === 'string' && b.visibility !== '' ? b.visibility : 'public';
    if (!VISIBILITIES.has(visibility)) return error(c, 422, `Validation failed: Visibility "${visibility}" is not one of public, unlisted, private, direct`);
    if (text.trim() === '' && mediaIds.length === 0) return error(c, 422, "Validation failed: Text can't be blank");
    if (mastodonLength(text, { urlLength: limits.characters_reserved_per_url, spoilerText: spoiler }) > limits.characters) {
      return error(c, 422, `Validation failed: Text character limit of ${limits.characters} exceeded`);
    }
    if (mediaIds.length > limits.max_media_attachments) return error(c, 422, `Validation failed: Cannot attach more than ${limits.max_media_attachments} files`);
    const attached: SimMedia[] = [];
    for (const id of mediaIds) {
      const m = media.get(id);
      if (!m || m.accountId !== who.accountId || (m.statusId !== null && statuses.get(m.statusId)?.deletedAt === null)) return error(c, 422, `Validation failed: media ${id} is not yours or is already attached`);
      if (now < m.readyAt) return error(c, 422, 'Cannot attach files that have not finished processing. Try again in a moment!');
      attached.push(m);
    }
    let poll: SimStatus['poll'] = null;
    if (b.poll !== undefined && b.poll !== null) {
      const p = b.poll as Record<string, unknown>;
      if (mediaIds.length > 0) return error(c, 422, 'Validation failed: Cannot attach both files and a poll');
      const opts = Array.isArray(p.options) ? p.options.map(String) : [];
      const expiresIn = Number(p.expires_in);
      if (opts.length < 2) return error(c, 422, 'Validation failed: Poll must have at least 2 options');
      if (opts.length > limits.poll_max_options) return error(c, 422, `Validation failed: Poll cannot have more than ${limits.poll_max_options} options`);
      if (opts.some((o) => o.trim() === '' || [...o].length > limits.poll_max_characters_per_option)) return error(c, 422, `Validation failed: Poll options cannot be empty or longer than ${limits.poll_max_characters_per_option} characters`);
      if (new Set(opts).size !== opts.length) return error(c, 422, 'Validation failed: Poll contains duplicate items');
      if (!Number.isInteger(expiresIn) || expiresIn < limits.poll_min_expiration || expiresIn > limits.poll_max_expiration) return error(c, 422, 'Validation failed: Poll expiration is out of range');
      poll = { id: String(nextId()), options: opts, expiresAt: now + expiresIn * 1000, multiple: bool(p.multiple), hideTotals: bool(p.hide_totals) };
    }
    let inReplyTo: SimStatus | undefined;
    if (b.in_reply_to_id !== undefined && b.in_reply_to_id !== null && b.in_reply_to_id !== '') {
      inReplyTo = statuses.get(String(b.in_reply_to_id));
      if (!inReplyTo || inReplyTo.deletedAt !== null) return error(c, 404, 'The post you are trying to reply to does not appear to exist.');
    }
    const language = typeof b.language === 'string' && /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(b.language) ? b.language : null;
    const s: SimStatus = {
      id: String(nextId()),
      accountId: who.accountId,
      text,
      spoilerText: spoiler,
      sensitive: bool(b.sensitive) || spoiler !== '',
      visibility: visibility as SimStatus['visibility'],
      language,
      inReplyToId: inReplyTo?.id ?? null,
      inReplyToAccountId: inReplyTo?.accountId ?? null,
      mediaIds,
      poll,
      createdAt: now,
      deletedAt: null,
    };
    const body = statusJson({ ...s });
    // The status, the key that says it was made and the sandbox record: one transaction.
    tx(() => {
      statuses.set(s.id, s);
      for (const m of attached) media.set(m.id, { ...m, statusId: s.id });
      if (key) keys.set(`${who.accountId}:${key}`, { statusId: s.id, at: now });
      log.addPost({
        platform: 'mastodon',
        accountId: who.accountId,
        postId: s.id,
        postUrl: String(body.url),
        kind: inReplyTo ? 'reply' : 'status',
        body: { status: text, visibility, ...(spoiler ? { spoiler_text: spoiler } : {}), ...(mediaIds.length ? { media_ids: mediaIds } : {}), ...(poll ? { poll: { options: poll.options } } : {}), ...(inReplyTo ? { in_reply_to_id: inReplyTo.id } : {}), ...(language ? { language } : {}) },
        createdAt: now,
      });
    });
    return c.json(statusJson(s));
  });

  app.get('/api/v1/statuses/:id', (c) => {
    const who = guard(c, 'read:statuses');
    if (who instanceof Response) return who;
    const s = statuses.get(c.req.param('id'));
    if (!s || s.deletedAt !== null) return error(c, 404, 'Record not found');
    return c.json(statusJson(s));
  });

  app.get('/api/v1/statuses/:id/context', (c) => {
    const who = guard(c, 'read:statuses');
    if (who instanceof Response) return who;
    const s = statuses.get(c.req.param('id'));
    if (!s || s.deletedAt !== null) return error(c, 404, 'Record not found');
    readerReplies(s);
    const ancestors: SimStatus[] = [];
    for (let p = s.inReplyToId ? statuses.get(s.inReplyToId) : undefined; p && p.deletedAt === null; p = p.inReplyToId ? statuses.get(p.inReplyToId) : undefined) ancestors.unshift(p);
    const descendants: SimStatus[] = [];
    const walk = (id: string) => {
      for (const r of [...statuses.values()].filter((x) => x.inReplyToId === id && x.deletedAt === null).sort((a, b) => a.createdAt - b.createdAt)) {
        descendants.push(r);
        walk(r.id);
      }
    };
    walk(s.id);
    return c.json({ ancestors: ancestors.map((x) => statusJson(x)), descendants: descendants.map((x) => statusJson(x)) });
  });

  const readers = state.map<string>('readers');
  const readerMade = state.map<string>('reader-replies');
  function readerAccount(reader: SimReaderReply['reader']): string {
    const known = readers.get(reader.username);
    if (known) return known;
    const id = String(nextAccount());
    accounts.set(id, { id, username: reader.username, displayName: reader.name, createdAt: clock.now() });
    readers.set(reader.username, id);
    return id;
  }
  const isReader = (accountId: string) => [...readers.values()].includes(accountId);

  /**
   * A sandbox reader's reply to a root status of a sandbox connection, made when its context
   * is first read at or after its time (sim-conversation.ts decides which statuses and what,
   * by the status id): so a demo has a conversation. Made once (reader-replies remembers it).
   */
  function readerReplies(s: SimStatus): void {
    if (s.inReplyToId !== null || s.accountId === defaultAccount.id || isReader(s.accountId) || readerMade.has(s.id)) return;
    const plan = simReaderReply(s.id, s.createdAt);
    if (!plan || clock.now() < plan.at) return;
    const r: SimStatus = {
      id: String(nextId()),
      accountId: readerAccount(plan.reader),
      text: plan.text,
      spoilerText: '',
      sensitive: false,
      visibility: 'public',
      language: 'en',
      inReplyToId: s.id,
      inReplyToAccountId: s.accountId,
      mediaIds: [],
      poll: null,
      createdAt: plan.at,
      deletedAt: null,
    };
    tx(() => {
      statuses.set(r.id, r);
      readerMade.set(s.id, r.id);
    });
  }

  app.delete('/api/v1/statuses/:id', (c) => {
    const who = guard(c, 'write:statuses', 'deletions');
    if (who instanceof Response) return who;
    const s = statuses.get(c.req.param('id'));
    if (!s || s.deletedAt !== null || s.accountId !== who.accountId) return error(c, 404, 'Record not found');
    const now = clock.now();
    const gone = { ...s, deletedAt: now };
    tx(() => {
      statuses.set(s.id, gone);
      log.removePost('mastodon', s.id, now);
    });
    return c.json(statusJson(s, true));
  });

  app.get('/api/v1/accounts/:id/statuses', (c) => {
    const who = guard(c, 'read:statuses');
    if (who instanceof Response) return who;
    const id = c.req.param('id');
    if (!accounts.has(id)) return error(c, 404, 'Record not found');
    const limit = Math.min(40, Math.max(1, Number(c.req.query('limit') ?? 20) || 20));
    const list = [...statuses.values()]
      .filter((s) => s.accountId === id && s.deletedAt === null && (s.accountId === who.accountId || s.visibility === 'public' || s.visibility === 'unlisted'))
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
      .slice(0, limit);
    return c.json(list.map((s) => statusJson(s)));
  });

  app.all('*', (c) => error(c, 404, 'Not Found'));

  return {
    app,
    log,
    settings,
    limits,
    defaultAccount,
    /** The statuses made so far (deleted ones too, with deletedAt). */
    statuses: () => [...statuses.values()],
    origin,
  };
}

export type MastodonSimulator = ReturnType<typeof createMastodonSimulator>;
