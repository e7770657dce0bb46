import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { simFigures } from '../../shared/sim/sim-figures';
import type { Clock } from '../../../util/clock';
import { isSandboxToken, sandboxAccountKey } from '../../shared/is-sandbox-token';
import { parseMultipart } from '../../shared/sim/multipart';
import type { PostRemovalSink, SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { simState, type SimState } from '../../shared/sim/sim-state';
import { hostPath, recorder, recordOf, selfBase, SimulatorLog } from '../../shared/sim/simulator-recorder';
import { sandboxBoards } from './sandbox-boards';

/**
 * A strict simulator of Pinterest's OAuth (the consent page on www.pinterest.com, the
 * token endpoint on api.pinterest.com) and the REST API v5 socialpub uses: the user
 * account, boards and a board's pins, pins (create from image_url, image_base64,
 * multiple_image_urls, multiple_image_base64 or video_id; read; delete) and media
 * (register, the multipart upload to the upload URL it hands out, status). Errors are
 * Pinterest's `{"code","message"}`; every /v5 answer carries `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset`, and writes past the per-minute limit
 * get 429 code 29. Each sandbox connection is its own account with two boards.
 */

export const PINTEREST_API_HOST = 'api.pinterest.com';
export const PINTEREST_WWW_HOST = 'www.pinterest.com';

export interface SimAccount {
  id: string;
  username: string;
  boards: string[];
}

interface SimBoard {
  id: string;
  owner: string;
  name: string;
  createdAt: number;
}

interface TokenInfo {
  account: string;
  scope: string;
  expiresAt: number;
}

interface MediaRecord {
  id: string;
  owner: string;
  key: string;
  mediaType: string | null;
  bytes: number;
  uploadedAt: number | null;
}

export interface PinRecord {
  id: string;
  boardId: string;
  owner: string;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  media: { type: 'image' | 'multiple_images' | 'video'; images: Array<{ contentType: string | null; url: string | null; bytes: number }>; mediaId: string | null; cover: string | number | null };
  createdAt: number;
}

export interface PinterestSimulatorOptions {
  clock: Clock;
  onPost?: (post: SimulatedPost) => void;
  onRemove?: PostRemovalSink;
  state?: SimState;
  /** Video processing after the upload. Default 3 s. */
  processingMs?: number;
}

const DAY_MS = 86_400_000;
const PIN_KEYS = new Set(['board_id', 'board_section_id', 'title', 'description', 'link', 'alt_text', 'dominant_color', 'media_source', 'parent_pin_id', 'sponsor_id', 'note']);
const LIMITS = { title: 100, description: 800, link: 2048, altText: 500, imageBytes: 20 * 1024 * 1024 };
/** The scopes a sandbox connection's token holds. */
const SANDBOX_SCOPE = 'boards:read,pins:read,pins:write,user_accounts:read';

const sniff = (b: Buffer): string | null => {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 12 && b.subarray(4, 8).toString('latin1') === 'ftyp') return b.subarray(8, 12).toString('latin1') === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  return null;
};

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');

export function createPinterestSimulator(options: PinterestSimulatorOptions) {
  const { clock } = options;
  const log = new SimulatorLog(options.onPost, options.onRemove);
  const state = options.state ?? simState(null, 'pinterest');
  // The writes that make or remove something, with their sandbox_posts row, in one transaction (SimState.atomically).
  const atomic = <T>(fn: () => T): T => state.atomically(fn);
  const settings = { processingMs: options.processingMs ?? 3_000, writesPerMinute: 100, readsPerMinute: 1000 };

  const accounts = state.map<SimAccount>('accounts');
  const boards = state.map<SimBoard>('boards');
  const byKey = state.map<string>('sandbox-accounts');
  const tokens = state.map<TokenInfo>('tokens');
  const refreshTokens = state.map<{ account: string; scope: string; clientId: string; expiresAt: number }>('refresh-tokens');
  // In the store, not this process's memory: the consent on one daemon, the exchange on another (sim-codes.ts).
  const codes = state.codes<{ clientId: string; redirectUri: string; account: string; scope: string; expiresAt: number }>('codes');
  const media = state.map<MediaRecord>('media');
  const uploadKeys = state.map<string>('upload-keys');
  const pins = state.map<PinRecord>('pins');
  // Counted in the database when several daemons' simulators share it: together they never pass a limit (sim-windows.ts).
  const windows = state.windows('windows');
  const nextId = state.counter('id', 1_100_000_000_000_000_000n);

  /** An account and its two boards, made together (a restart between them would leave an account without boards). */
  function newAccount(key: string, username: string): SimAccount {
    return atomic(() => {
      const id = `7${sandboxBoards(key)[0]!.id.slice(1)}`;
      const list = sandboxBoards(key);
      for (const b of list) boards.set(b.id, { id: b.id, owner: id, name: b.name, createdAt: clock.now() });
      const a = { id, username, boards: list.map((b) => b.id) };
      accounts.set(id, a);
      byKey.set(key, id);
      return a;
    });
  }
  const accountOfKey = (key: string, username: string) => accounts.get(byKey.get(key) ?? '') ?? newAccount(key, username);
  const defaultAccount = accountOfKey('default', 'sandbox_pinner');
  const accountOfToken = (token: string) => {
    const key = sandboxAccountKey(token);
    return key === null ? defaultAccount : accountOfKey(key, `sandbox_${key.toLowerCase()}`);
  };

  // ---- Pinterest's error shape and rate-limit headers --------------------------------------

  const fail = (c: Context, status: number, code: number, message: string) => c.json({ code, message }, status as 400);

  /** Every /v5 answer says where the caller stands; writes (and reads) past the minute's limit are 429. */
  function rateLimit(c: Context, account: string): Response | null {
    const write = c.req.method !== 'GET';
    const limit = write ? settings.writesPerMinute : settings.readsPerMinute;
    const now = clock.now();
    const minute = Math.floor(now / 60_000) * 60_000;
    const w = windows.take(`${account}:${write ? 'write' : 'read'}`, { now, start: minute, end: minute + 60_000, limit });
    const reset = String(60 - Math.floor((clock.now() % 60_000) / 1000));
    c.header('x-ratelimit-limit', String(limit));
    c.header('x-ratelimit-reset', reset);
    if (!w.allowed) {
      c.header('x-ratelimit-remaining', '0');
      c.header('retry-after', reset);
      return fail(c, 429, 29, 'You have exceeded your rate limit. Try again later.');
    }
    c.header('x-ratelimit-remaining', String(limit - w.used));
    return null;
  }

  function authenticate(c: Context): TokenInfo | null {
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer) return null;
    if (isSandboxToken(bearer)) return { account: accountOfToken(bearer).id, scope: SANDBOX_SCOPE, expiresAt: Number.MAX_SAFE_INTEGER };
    const t = tokens.get(bearer);
    return t && t.expiresAt > clock.now() ? t : null;
  }
  const has = (t: TokenInfo, scope: string) => t.scope.split(/[\s,]+/).includes(scope);

  /** Authentication, the scope, then the rate window: a refused call counts for nothing. */
  function auth(c: Context, scope: string): TokenInfo | Response {
    const t = authenticate(c);
    if (!t) return fail(c, 401, 2, 'Authentication failed.');
    if (!has(t, scope)) return fail(c, 401, 3, `Not authorized to access the resource: the token lacks the ${scope} scope.`);
    return rateLimit(c, t.account) ?? t;
  }

  // ---- www.pinterest.com: the consent page -------------------------------------------------

  const www = new Hono();
  www.use('*', recorder(PINTEREST_WWW_HOST, log, clock));
  www.get('/oauth/', (c) => {
    const q = c.req.query();
    if (q.response_type !== 'code') return c.text('response_type must be code', 400);
    if (!q.client_id || !q.redirect_uri) return c.text('client_id and redirect_uri are required', 400);
    if (!q.scope) return c.text('scope is required', 400);
    const code = randomBytes(20).toString('hex');
    codes.issue(code, { clientId: q.client_id, redirectUri: q.redirect_uri, account: defaultAccount.id, scope: q.scope.split(/[\s,]+/).join(','), expiresAt: clock.now() + 10 * 60_000 }, clock.now());
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    if (q.state) target.searchParams.set('state', q.state);
    return c.redirect(target.toString(), 302);
  });

  // ---- api.pinterest.com -------------------------------------------------------------------

  const api = new Hono();
  api.use('*', recorder(PINTEREST_API_HOST, log, clock));

  function issue(clientId: string, account: string, scope: string, kind: 'authorization_code' | 'refresh_token', refresh?: { token: string; expiresAt: number }) {
    const access = `pina_${randomBytes(30).toString('base64url')}`;
    tokens.set(access, { account, scope, expiresAt: clock.now() + 30 * DAY_MS });
    const rt = refresh ?? { token: `pinr_${randomBytes(30).toString('base64url')}`, expiresAt: clock.now() + 365 * DAY_MS };
    if (!refresh) refreshTokens.set(rt.token, { account, scope, clientId, expiresAt: rt.expiresAt });
    return {
      access_token: access,
      refresh_token: rt.token,
      response_type: kind,
      token_type: 'bearer',
      expires_in: 30 * 86_400,
      refresh_token_expires_in: Math.max(0, Math.floor((rt.expiresAt - clock.now()) / 1000)),
      refresh_token_expires_at: Math.floor(rt.expiresAt / 1000),
      scope,
    };
  }

  api.post('/v5/oauth/token', async (c) => {
    const basic = /^Basic\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const [clientId, clientSecret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    if (!clientId || !clientSecret) return fail(c, 401, 2, 'Authentication failed: send the app id and secret as HTTP Basic.');
    if (!(c.req.header('content-type') ?? '').includes('application/x-www-form-urlencoded')) return fail(c, 400, 1, 'The content type must be application/x-www-form-urlencoded');
    const form = (await c.req.parseBody()) as Record<string, string>;
    const rec = recordOf(c);
    if (rec) rec.body = { ...form, ...(form.code ? { code: '…' } : {}), ...(form.refresh_token ? { refresh_token: '…' } : {}) };
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt <= clock.now() || code.clientId !== clientId) return fail(c, 400, 1, 'Invalid authorization code.');
      if (code.redirectUri !== form.redirect_uri) return fail(c, 400, 1, 'redirect_uri does not match the one the code was issued for.');
      // Exchanged once, even when another daemon's simulator exchanges it at the same moment.
      if (!codes.take(form.code ?? '', clock.now())) return fail(c, 400, 1, 'Invalid authorization code.');
      return c.json(issue(clientId, code.account, code.scope, 'authorization_code'));
    }
    if (form.grant_type === 'refresh_token') {
      const token = form.refresh_token ?? '';
      if (isSandboxToken(token)) return c.json(issue(clientId, accountOfToken(token).id, SANDBOX_SCOPE, 'refresh_token', { token, expiresAt: clock.now() + 300 * DAY_MS }));
      const rt = refreshTokens.get(token);
      if (!rt || rt.clientId !== clientId || rt.expiresAt <= clock.now()) return fail(c, 400, 1, 'Invalid refresh token.');
      return c.json(issue(clientId, rt.account, rt.scope, 'refresh_token', { token, expiresAt: rt.expiresAt }));
    }
    return fail(c, 400, 1, `grant_type ${form.grant_type ?? '(none)'} is not supported`);
  });

  api.get('/v5/user_account', (c) => {
    const t = auth(c, 'user_accounts:read');
    if (t instanceof Response) return t;
    const a = accounts.get(t.account)!;
    return c.json({ id: a.id, username: a.username, account_type: 'BUSINESS', business_name: `Sandbox ${a.username}`, profile_image: 'https://i.pinimg.com/75x75_RS/default.jpg', website_url: '', board_count: a.boards.length });
  });

  /** `page_size` (1-250, default 25) and `bookmark` (an opaque offset) as Pinterest pages lists. */
  function page<T>(c: Context, all: T[]): Response | { items: T[]; bookmark: string | null } {
    const q = c.req.query();
    const size = q.page_size === undefined ? 25 : Number(q.page_size);
    if (!Number.isInteger(size) || size < 1 || size > 250) return fail(c, 400, 1, 'page_size must be an integer from 1 to 250');
    const start = q.bookmark ? Number(Buffer.from(q.bookmark, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(start) || start < 0) return fail(c, 400, 1, 'Invalid bookmark');
    const end = start + size;
    return { items: all.slice(start, end), bookmark: end < all.length ? Buffer.from(String(end)).toString('base64url') : null };
  }

  const presentBoard = (b: SimBoard) => ({
    id: b.id,
    name: b.name,
    description: null,
    owner: { username: accounts.get(b.owner)?.username ?? '' },
    privacy: 'PUBLIC',
    created_at: iso(b.createdAt),
    pin_count: [...pins.values()].filter((p) => p.boardId === b.id).length,
  });

  api.get('/v5/boards', (c) => {
    const t = auth(c, 'boards:read');
    if (t instanceof Response) return t;
    const list = accounts.get(t.account)!.boards.map((id) => boards.get(id)!).map(presentBoard);
    const r = page(c, list);
    return r instanceof Response ? r : c.json(r);
  });

  const presentPin = (p: PinRecord) => ({
    id: p.id,
    created_at: iso(p.createdAt),
    link: p.link,
    title: p.title,
    description: p.description,
    alt_text: p.altText,
    board_id: p.boardId,
    board_section_id: null,
    board_owner: { username: accounts.get(p.owner)?.username ?? '' },
    is_owner: true,
    is_standard: true,
    dominant_color: '#6E7874',
    media:
      p.media.type === 'video'
        ? { media_type: 'video', cover_image_url: typeof p.media.cover === 'string' ? p.media.cover : `https://i.pinimg.com/videos/thumbnails/${p.media.mediaId}.jpg`, duration: 0, width: 1080, height: 1920 }
        : p.media.type === 'multiple_images'
          ? { media_type: 'multiple_images', items: p.media.images.map((_, i) => ({ item_type: 'image', images: { '600x': { url: `https://i.pinimg.com/600x/${p.id}-${i}.jpg`, width: 600, height: 600 } } })) }
          : { media_type: 'image', images: { '600x': { url: `https://i.pinimg.com/600x/${p.id}.jpg`, width: 600, height: 600 } } },
  });

  api.get('/v5/boards/:board_id/pins', (c) => {
    const t = auth(c, 'pins:read');
    if (t instanceof Response) return t;
    const b = boards.get(c.req.param('board_id'));
    if (!b || b.owner !== t.account) return fail(c, 404, 3, 'Board not found.');
    const list = [...pins.values()].filter((p) => p.boardId === b.id).sort((x, y) => y.createdAt - x.createdAt || (BigInt(y.id) > BigInt(x.id) ? 1 : -1));
    const r = page(c, list.map(presentPin));
    return r instanceof Response ? r : c.json(r);
  });

  // ---- media: register, upload, status -----------------------------------------------------

  function mediaStatus(m: MediaRecord): string {
    if (m.uploadedAt === null) return 'registered';
    if (m.mediaType === null) return 'failed';
    return clock.now() - m.uploadedAt < settings.processingMs ? 'processing' : 'succeeded';
  }

  api.post('/v5/media', async (c) => {
    const t = auth(c, 'pins:write');
    if (t instanceof Response) return t;
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const rec = recordOf(c);
    if (rec) rec.body = body;
    if (!body || typeof body !== 'object') return fail(c, 400, 1, 'The request body must be a JSON object');
    const extra = Object.keys(body).filter((k) => k !== 'media_type');
    if (extra.length) return fail(c, 400, 1, `Unknown field(s): ${extra.join(', ')}`);
    if (body.media_type !== 'video') return fail(c, 400, 1, 'media_type must be video');
    // The media, its upload key and the id counter land together.
    const { id, key } = atomic(() => {
      const id = String(nextId());
      const key = `uploads/${id.slice(-2)}/${randomBytes(4).toString('hex')}/${id}:video:${randomBytes(8).toString('hex')}`;
      media.set(id, { id, owner: t.account, key, mediaType: null, bytes: 0, uploadedAt: null });
      uploadKeys.set(Buffer.from(key).toString('base64url'), id);
      return { id, key };
    });
    // Pinterest's upload URL is an S3 bucket; the simulator's is on its own origin, so it is reachable on loopback.
    return c.json(
      {
        media_id: id,
        media_type: 'video',
        upload_url: `${selfBase(c, PINTEREST_API_HOST)}/media-uploads/`,
        upload_parameters: {
          'x-amz-date': iso(clock.now()).replace(/[-:]/g, '') + 'Z',
          'x-amz-signature': randomBytes(32).toString('hex'),
          'x-amz-security-token': randomBytes(24).toString('base64'),
          'x-amz-algorithm': 'AWS4-HMAC-SHA256',
          key,
          policy: Buffer.from(JSON.stringify({ key, expires: clock.now() + DAY_MS })).toString('base64'),
          'x-amz-credential': `SIMULATED/${iso(clock.now()).slice(0, 10).replace(/-/g, '')}/us-east-1/s3/aws4_request`,
          'Content-Type': 'multipart/form-data',
        },
      },
      201,
    );
  });

  /** The upload URL: a multipart POST with the upload parameters as fields and the file last, answered 204 as S3 does. */
  api.post('/media-uploads/', async (c) => {
    const type = c.req.header('content-type') ?? '';
    const raw = Buffer.from(await c.req.arrayBuffer());
    const parts = parseMultipart(raw, type);
    const rec = recordOf(c);
    if (!parts) return c.text('<Error><Code>InvalidArgument</Code><Message>POST requires exactly one file upload per request.</Message></Error>', 400, { 'content-type': 'application/xml' });
    const field = (n: string) => parts.find((p) => p.name === n && p.filename === null)?.data.toString('utf8');
    const key = field('key');
    const id = key ? uploadKeys.get(Buffer.from(key).toString('base64url')) : undefined;
    const m = id ? media.get(id) : undefined;
    const file = parts.find((p) => p.name === 'file');
    if (rec) rec.body = { fields: parts.filter((p) => p.filename === null).map((p) => p.name), file: file ? `<${file.data.length} bytes>` : null };
    if (!m || !field('policy') || !field('x-amz-signature')) return c.text('<Error><Code>AccessDenied</Code><Message>Invalid according to Policy</Message></Error>', 403, { 'content-type': 'application/xml' });
    if (!file || parts[parts.length - 1] !== file) return c.text('<Error><Code>InvalidArgument</Code><Message>The file must be the last field.</Message></Error>', 400, { 'content-type': 'application/xml' });
    const kind = sniff(file.data);
    media.set(m.id, { ...m, mediaType: kind && kind.startsWith('video/') ? kind : null, bytes: file.data.length, uploadedAt: clock.now() });
    return c.body(null, 204);
  });

  api.get('/v5/media/:media_id', (c) => {
    const t = auth(c, 'pins:read');
    if (t instanceof Response) return t;
    const m = media.get(c.req.param('media_id'));
    if (!m || m.owner !== t.account) return fail(c, 404, 3, 'Media not found.');
    return c.json({ media_id: m.id, media_type: 'video', status: mediaStatus(m) });
  });

  // ---- pins --------------------------------------------------------------------------------

  /** Checks a pin's media_source; returns an error response or what the pin shows. */
  function checkSource(c: Context, owner: string, src: unknown): Response | PinRecord['media'] {
    if (!src || typeof src !== 'object' || Array.isArray(src)) return fail(c, 400, 1, 'media_source is required');
    const s = src as Record<string, unknown>;
    const image = (data: unknown, contentType: unknown, path: string): Response | PinRecord['media']['images'][number] => {
      if (contentType !== 'image/jpeg' && contentType !== 'image/png') return fail(c, 400, 1, `${path}.content_type must be image/jpeg or image/png`);
      if (typeof data !== 'string' || !/^[a-zA-Z0-9+/=]+$/.test(data)) return fail(c, 400, 1, `${path}.data must be Base64`);
      const bytes = Buffer.from(data, 'base64');
      if (bytes.length > LIMITS.imageBytes) return fail(c, 400, 1, `${path}: images are limited to 20 MB`);
      const kind = sniff(bytes);
      if (kind !== contentType) return fail(c, 400, 1, `${path}.data is not a ${contentType} image`);
      return { contentType: kind, url: null, bytes: bytes.length };
    };
    const url = (u: unknown, path: string): Response | PinRecord['media']['images'][number] =>
      typeof u === 'string' && /^https?:\/\/[^/\s]+/.test(u) ? { contentType: null, url: u, bytes: 0 } : fail(c, 400, 1, `${path} must be an http(s) URL`);
    switch (s.source_type) {
      case 'image_url': {
        const i = url(s.url, 'media_source.url');
        return i instanceof Response ? i : { type: 'image', images: [i], mediaId: null, cover: null };
      }
      case 'image_base64': {
        const i = image(s.data, s.content_type, 'media_source');
        return i instanceof Response ? i : { type: 'image', images: [i], mediaId: null, cover: null };
      }
      case 'multiple_image_urls':
      case 'multiple_image_base64': {
        const items = s.items;
        if (!Array.isArray(items) || items.length < 2 || items.length > 5) return fail(c, 400, 1, 'media_source.items must hold 2 to 5 images');
        const out = [];
        for (const [n, it] of items.entries()) {
          const x = it as Record<string, unknown>;
          const i = s.source_type === 'multiple_image_urls' ? url(x?.url, `media_source.items[${n}].url`) : image(x?.data, x?.content_type, `media_source.items[${n}]`);
          if (i instanceof Response) return i;
          out.push(i);
        }
        return { type: 'multiple_images', images: out, mediaId: null, cover: null };
      }
      case 'video_id': {
        const m = typeof s.media_id === 'string' ? media.get(s.media_id) : undefined;
        if (!m || m.owner !== owner) return fail(c, 400, 1, `media_source.media_id ${String(s.media_id)} is not a video this account uploaded`);
        const status = mediaStatus(m);
        if (status !== 'succeeded') return fail(c, 400, 1, `media_source.media_id ${m.id} is ${status}, not succeeded`);
        const cover = typeof s.cover_image_url === 'string' ? s.cover_image_url : typeof s.cover_image_key_frame_time === 'number' ? s.cover_image_key_frame_time : typeof s.cover_image_data === 'string' ? 'data' : null;
        if (cover === null) return fail(c, 400, 1, 'A video Pin needs a cover image: cover_image_url, cover_image_data or cover_image_key_frame_time');
        if (typeof s.cover_image_url === 'string' && url(s.cover_image_url, 'media_source.cover_image_url') instanceof Response) return fail(c, 400, 1, 'media_source.cover_image_url must be an http(s) URL');
        return { type: 'video', images: [], mediaId: m.id, cover };
      }
      default:
        return fail(c, 400, 1, `media_source.source_type ${String(s.source_type)} is not supported`);
    }
  }

  api.post('/v5/pins', async (c) => {
    const t = auth(c, 'pins:write');
    if (t instanceof Response) return t;
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const rec = recordOf(c);
    // Image bytes are kept to their first 64 Base64 characters in the record (still Base64, so the record checks against Pinterest's description).
    if (rec) rec.body = body && typeof body === 'object' ? JSON.parse(JSON.stringify(body, (k, v) => (k === 'data' && typeof v === 'string' ? v.slice(0, 64) : v))) : body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(c, 400, 1, 'The request body must be a JSON object');
    const unknown = Object.keys(body).filter((k) => !PIN_KEYS.has(k));
    if (unknown.length) return fail(c, 400, 1, `Unknown field(s): ${unknown.join(', ')}`);
    const text = (k: string, max: number): Response | string | null => {
      const v = body[k];
      if (v === undefined || v === null) return null;
      if (typeof v !== 'string') return fail(c, 400, 1, `${k} must be a string`);
      if ([...v].length > max) return fail(c, 400, 1, `${k} is too long: at most ${max} characters`);
      return v;
    };
    const title = text('title', LIMITS.title);
    const description = text('description', LIMITS.description);
    const link = text('link', LIMITS.link);
    const altText = text('alt_text', LIMITS.altText);
    for (const v of [title, description, link, altText]) if (v instanceof Response) return v;
    if (typeof link === 'string' && !/^https?:\/\//.test(link)) return fail(c, 400, 1, 'link must be an http(s) URL');
    const boardId = body.board_id;
    if (typeof boardId !== 'string' || !/^\d+$/.test(boardId)) return fail(c, 400, 1, 'board_id is required (digits)');
    const board = boards.get(boardId);
    if (!board) return fail(c, 404, 3, 'Board not found.');
    if (board.owner !== t.account) return fail(c, 403, 3, 'Not authorized to access board or Pin.');
    const shown = checkSource(c, t.account, body.media_source);
    if (shown instanceof Response) return shown;
    // The pin and its sandbox_posts row commit together: a crash leaves both or neither.
    const pin = atomic(() => {
      const p: PinRecord = {
        id: String(nextId()),
        boardId,
        owner: t.account,
        title: title as string | null,
        description: description as string | null,
        link: link as string | null,
        altText: altText as string | null,
        media: shown,
        createdAt: clock.now(),
      };
      pins.set(p.id, p);
      log.addPost({
        platform: 'pinterest',
        accountId: t.account,
        postId: p.id,
        postUrl: `https://www.pinterest.com/pin/${p.id}/`,
        kind: shown.type === 'video' ? 'video_pin' : shown.type === 'multiple_images' ? 'carousel' : 'pin',
        body: {
          board_id: boardId,
          board: board.name,
          ...(p.title !== null ? { title: p.title } : {}),
          text: p.description ?? '',
          ...(p.link !== null ? { link: p.link } : {}),
          ...(p.altText !== null ? { alt_text: p.altText } : {}),
          media: shown.type === 'video' ? [{ id: shown.mediaId, kind: 'video', cover: shown.cover }] : shown.images.map((i) => ({ kind: 'image', type: i.contentType, url: i.url, bytes: i.bytes })),
        },
        createdAt: p.createdAt,
      });
      return p;
    });
    return c.json(presentPin(pin), 201);
  });

  api.get('/v5/pins/:pin_id', (c) => {
    const t = auth(c, 'pins:read');
    if (t instanceof Response) return t;
    const p = pins.get(c.req.param('pin_id'));
    if (!p) return fail(c, 404, 3, 'Pin not found.');
    return c.json(presentPin(p));
  });

  // Pin analytics (docs/reference/platforms.md §18.7): the owner's pin, start_date..end_date (UTC days, at most 90 days
  // back), metric_types from the standard list; answered per app type (`ALL` without a split) with daily, summary and
  // lifetime figures that grow with the pin's age.
  const PIN_METRICS = new Set(['IMPRESSION', 'OUTBOUND_CLICK', 'PIN_CLICK', 'SAVE', 'SAVE_RATE', 'TOTAL_COMMENTS', 'TOTAL_REACTIONS', 'USER_FOLLOW', 'PROFILE_VISIT']);
  const DAY = 86_400_000;
  api.get('/v5/pins/:pin_id/analytics', (c) => {
    const t = auth(c, 'pins:read');
    if (t instanceof Response) return t;
    const p = pins.get(c.req.param('pin_id'));
    if (!p) return fail(c, 404, 3, 'Pin not found.');
    if (p.owner !== t.account) return fail(c, 403, 3, 'Not authorized to access board or Pin.');
    const q = c.req.query();
    const day = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? Date.parse(`${v}T00:00:00Z`) : null);
    const start = day(q.start_date);
    const end = day(q.end_date);
    if (start === null || end === null) return fail(c, 400, 1, 'start_date and end_date are required, as YYYY-MM-DD.');
    const today = Math.floor(clock.now() / DAY) * DAY;
    if (start < today - 90 * DAY) return fail(c, 400, 1, 'start_date cannot be more than 90 days back from today.');
    if (end < start) return fail(c, 400, 1, 'end_date must not be before start_date.');
    const types = (q.metric_types ?? '').split(',').filter((m) => m !== '');
    const bad = types.find((m) => !PIN_METRICS.has(m));
    if (types.length === 0 || bad !== undefined) return fail(c, 400, 1, bad ? `Invalid metric_types value: ${bad}` : 'metric_types is required.');
    const at = (ms: number) => {
      const f = simFigures(`pinterest:${p.id}`, Math.max(0, ms - p.createdAt));
      const v: Record<string, number> = { IMPRESSION: f.impressions, OUTBOUND_CLICK: f.linkClicks, PIN_CLICK: f.profileClicks + f.linkClicks, SAVE: f.saves, TOTAL_COMMENTS: f.replies, TOTAL_REACTIONS: f.likes, USER_FOLLOW: 0, PROFILE_VISIT: f.profileClicks };
      return v;
    };
    const now = clock.now();
    const daily = [];
    const summary: Record<string, number> = {};
    for (let d = start; d <= end; d += DAY) {
      const from = at(Math.min(now, Math.max(d, p.createdAt)));
      const to = at(Math.min(now, d + DAY));
      const metrics: Record<string, number> = {};
      for (const m of types) {
        if (m === 'SAVE_RATE') continue;
        metrics[m] = Math.max(0, to[m]! - from[m]!);
        summary[m] = (summary[m] ?? 0) + metrics[m]!;
      }
      if (types.includes('SAVE_RATE')) metrics.SAVE_RATE = (metrics.IMPRESSION ?? 0) === 0 ? 0 : (metrics.SAVE ?? 0) / metrics.IMPRESSION!;
      daily.push({ data_status: d > now ? 'PROCESSING' : 'READY', date: new Date(d).toISOString().slice(0, 10), metrics });
    }
    if (types.includes('SAVE_RATE')) summary.SAVE_RATE = (summary.IMPRESSION ?? 0) === 0 ? 0 : (summary.SAVE ?? 0) / summary.IMPRESSION!;
    const life = at(now);
    const lifetime = Object.fromEntries(['TOTAL_COMMENTS', 'TOTAL_REACTIONS'].filter((m) => types.includes(m)).map((m) => [m, life[m]!]));
    return c.json({ ALL: { daily_metrics: daily, summary_metrics: summary, lifetime_metrics: lifetime } });
  });

  api.delete('/v5/pins/:pin_id', (c) => {
    const t = auth(c, 'pins:write');
    if (t instanceof Response) return t;
    const p = pins.get(c.req.param('pin_id'));
    if (!p) return fail(c, 404, 3, 'Pin not found.');
    if (p.owner !== t.account) return fail(c, 403, 3, 'Not authorized to access board or Pin.');
    atomic(() => {
      pins.delete(p.id);
      log.removePost('pinterest', p.id, clock.now());
    });
    return c.body(null, 204);
  });

  const notFound = (c: Context, host: string) => fail(c, 404, 3, `No resource at ${c.req.method} ${hostPath(c, host)}`);
  api.all('*', (c) => notFound(c, PINTEREST_API_HOST));
  www.all('*', (c) => notFound(c, PINTEREST_WWW_HOST));

  return {
    api,
    www,
    log,
    settings,
    defaultAccount,
    account: (id: string) => accounts.get(id),
    /** The simulated account a (sandbox) token acts as. */
    accountOf: (token: string) => accountOfToken(token),
    board: (id: string) => boards.get(id),
    pins: () => [...pins.values()],
    media: (id: string) => media.get(id),
    /** Issues tokens directly (as if the account had consented). */
    issueTokens(clientId: string, scope = SANDBOX_SCOPE, account = defaultAccount.id) {
      return issue(clientId, account, scope, 'authorization_code');
    },
  };
}

export type PinterestSimulator = ReturnType<typeof createPinterestSimulator>;
