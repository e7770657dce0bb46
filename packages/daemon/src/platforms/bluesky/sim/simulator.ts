import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Clock } from '../../../util/clock';
import { isSandboxToken, sandboxAccountKey } from '../../shared/is-sandbox-token';
import { actAsSandboxConnection } from '../../shared/sim/sandbox-caller';
import { simState, type SimState } from '../../shared/sim/sim-state';
import { recorder, selfBase, SimulatorLog } from '../../shared/sim/simulator-recorder';
import type { PostRemovalSink, SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { HANDLE } from '../facets';
import { BSKY_HOST, VIDEO_HOST } from '../pds-access';
import { recordKeyFor, tid, TID } from '../tid';
import { simReaderReply } from '../../shared/sim/sim-conversation';
import { simFigures } from '../../shared/sim/sim-figures';
import { cidFor } from './cid';
import { jwtKit, type SimClaims } from './jwt';

/**
 * A strict simulator of a Bluesky PDS (`bsky.social`) and the video service
 * (`video.bsky.app`) for the XRPC methods socialpub and `@atproto/api` use
 * (docs/reference/platforms.md, Bluesky): sessions from an app password (any identifier,
 * the password `sandbox-app-password`; the account is made on first use; a sandbox
 * connection's account only with that connection's own sandbox password), rotating
 * refresh tokens, `app.bsky.feed.post` records checked against the lexicon (300
 * graphemes, 3,000 bytes, facets' byte ranges, langs, self-labels, image blobs up to
 * 1,000,000 bytes, 4 images, reply refs), records at a client-chosen key refused when the
 * key is taken, XRPC errors as `{"error","message"}`, RateLimit-* headers and 429s, and
 * video jobs whose state moves with the clock.
 */

export const SANDBOX_APP_PASSWORD = 'sandbox-app-password';
const POST = 'app.bsky.feed.post';
const THREADGATE = 'app.bsky.feed.threadgate';
const ACCESS_MS = 2 * 3_600_000;
const REFRESH_MS = 90 * 86_400_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** PDS write limits (points per account: create 3, delete 1), createSession per account per 5 minutes. */
const POINTS_PER_HOUR = 5_000;
const POINTS_PER_DAY = 35_000;
const SESSIONS_PER_5_MIN = 30;
const IMAGE_MAX = 1_000_000;
const BLOB_MAX = 100_000_000;
const VIDEO_MAX = 100_000_000;
const VIDEOS_PER_DAY = 25;
const VIDEO_BYTES_PER_DAY = 10_000_000_000;
const SELF_LABELS = new Set(['sexual', 'nudity', 'porn', 'graphic-media', '!no-unauthenticated']);

export interface SimAccount {
  did: string;
  handle: string;
  email: string;
  createdAt: number;
}

interface SimRecord {
  uri: string;
  cid: string;
  did: string;
  rkey: string;
  value: Record<string, unknown>;
  createdAt: number;
}

interface SimBlob {
  cid: string;
  did: string;
  mimeType: string;
  size: number;
}

interface SimJob {
  jobId: string;
  did: string;
  size: number;
  cid: string;
  createdAt: number;
  fail: boolean;
}

export interface BlueskySimulatorOptions {
  clock: Clock;
  onPost?: (post: SimulatedPost) => void;
  onRemove?: PostRemovalSink;
  /** Where accounts, sessions, blobs, records, jobs and rate windows live (default: memory only). */
  state?: SimState;
  /** Runs a write (a record and the post sink's row) in one SQLite transaction. Default: runs it. */
  atomically?: (write: () => void) => void;
  /** How long a video job takes. Default 4 s. */
  processingMs?: number;
  /**
   * Whether `password` is the sandbox password of the sandbox connection whose account key
   * is `key` (platforms/shared/sandbox-password.ts). Without it no connection's account can
   * be signed into with a password (only its connection's tokens act for it).
   */
  sandboxPassword?: (key: string, password: string) => boolean;
}

/** A sandbox connection's account id as `connections` lists it, taken as a sign-in identifier for its account. */
const CONNECTION_ID = /^sandbox_bluesky_([0-9a-z]+)$/;
/** The handles sandbox connections' accounts are given: never made by a sign-in, so nobody can claim one before its connection does. */
const CONNECTION_HANDLE = /^sandbox-\d+\.bsky\.social$/;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (s: string) => [...segmenter.segment(s)].length;
const encoder = new TextEncoder();
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DID_RE = /^did:[a-z]+:[a-zA-Z0-9._:%-]+$/;
const LANG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/;

/** did:plc:<24 base32> derived from the handle, so an account keeps its DID across restarts. */
function didFor(handle: string): string {
  const h = createHash('sha256').update(`sim:${handle}`).digest();
  let out = '';
  for (let i = 0; i < 24; i++) out += 'abcdefghijklmnopqrstuvwxyz234567'[h[i]! & 31];
  return `did:plc:${out}`;
}

export function createBlueskySimulator(options: BlueskySimulatorOptions) {
  const { clock } = options;
  const log = new SimulatorLog(options.onPost, options.onRemove);
  const state = options.state ?? simState(null, 'bluesky');
  const atomically = options.atomically ?? ((write: () => void) => write());
  const settings = { processingMs: options.processingMs ?? 4_000, failVideos: false, canUpload: true };
  const secrets = state.map<string>('secret');
  if (!secrets.get('jwt')) secrets.set('jwt', randomBytes(32).toString('base64url'));
  const jwt = jwtKit(secrets.get('jwt')!);
  const accounts = state.map<SimAccount>('accounts');
  const refreshes = state.map<{ did: string; revoked: boolean }>('refresh');
  const sandboxKeys = state.map<string>('sandbox-accounts');
  const spentSandboxRefresh = state.map<true>('spent-sandbox-refresh');
  const records = state.map<SimRecord>('records');
  /** app.bsky.feed.threadgate records by `<did>:<rkey>` (the rkey of the post they gate). */
  const threadgates = state.map<{ uri: string; cid: string; value: Record<string, unknown> }>('threadgates');
  const blobs = state.map<SimBlob>('blobs');
  const jobs = state.map<SimJob>('jobs');
  // Counted in the database when several daemons' simulators share it: together they never pass a limit (sim-windows.ts).
  const windows = state.windows('windows');
  const nextSandbox = state.counter('sandbox-account', 1n);
  /** sandboxKeys the other way: DID -> the account key of the sandbox connection it belongs to. */
  const keyOfDid = new Map<string, string>();
  for (const [key, did] of sandboxKeys.entries()) keyOfDid.set(did, key);
  // A connection's account another daemon's simulator made (one PostgreSQL database).
  sandboxKeys.onOutsideChange((key, did, previous) => {
    if (previous !== undefined) keyOfDid.delete(previous);
    if (did !== undefined) keyOfDid.set(did, key);
  });

  const xrpcError = (c: Context, status: number, error: string, message: string, headers: Record<string, string> = {}) =>
    c.body(JSON.stringify({ error, message }), status as 400, { 'content-type': 'application/json; charset=utf-8', ...headers });
  const invalid = (c: Context, message: string) => xrpcError(c, 400, 'InvalidRequest', message);

  function accountFor(handle: string): SimAccount {
    const did = didFor(handle);
    const known = accounts.get(did);
    if (known) return known;
    const acct: SimAccount = { did, handle, email: `${handle.split('.')[0]}@sandbox.invalid`, createdAt: clock.now() };
    accounts.set(did, acct);
    return acct;
  }

  /** The handle an identifier names (a handle, an email); null for a DID; 'invalid' for neither. */
  function identifierHandle(id: string): string | null | 'invalid' {
    if (id.startsWith('did:')) return null;
    if (id.includes('@')) {
      const local = id.split('@')[0]!.replace(/[^a-z0-9-]/g, '-').replace(/^-+|-+$/g, '') || 'sandbox';
      return `${local}.bsky.social`;
    }
    const handle = id.includes('.') ? id : `${id}.bsky.social`;
    return HANDLE.test(handle) ? handle : 'invalid';
  }

  /** The sandbox connection (its account key) whose account `did` is; null for any other account. */
  const connectionKeyOf = (did: string): string | null => keyOfDid.get(did) ?? null;

  /**
   * createSession's check: a sandbox connection's account (named by its connection's account
   * id `sandbox_bluesky_<key>`, its handle or its DID) opens with that connection's own
   * sandbox password only; any other account with SANDBOX_APP_PASSWORD, made on first use,
   * except the handles kept for connections. Null: refused (nothing is made).
   */
  function signIn(identifier: string, password: string): SimAccount | null | 'invalid' {
    const id = identifier.trim().toLowerCase().replace(/^@/, '');
    let key = CONNECTION_ID.exec(id)?.[1] ?? null;
    if (key === null) {
      const handle = identifierHandle(id);
      if (handle === 'invalid') return 'invalid';
      const existing = handle === null ? accounts.get(id) : accounts.get(didFor(handle));
      key = existing ? connectionKeyOf(existing.did) : null;
      if (key === null) {
        if (password !== SANDBOX_APP_PASSWORD) return null;
        if (handle === null) return existing ?? null;
        return CONNECTION_HANDLE.test(handle) ? null : accountFor(handle);
      }
    }
    if (!options.sandboxPassword?.(key, password)) return null;
    return sandboxAccountOf(key);
  }

  /** The simulated account of a sandbox connection's token (`sandbox_at_<key>.…`), one per key. */
  function sandboxAccount(token: string): SimAccount {
    return sandboxAccountOf(sandboxAccountKey(token) ?? 'default');
  }

  function sandboxAccountOf(key: string): SimAccount {
    const did = sandboxKeys.get(key);
    const known = did ? accounts.get(did) : undefined;
    if (known) return known;
    // The key claimed, then the account made, in one transaction: two daemons meeting a new
    // connection at the same moment make one account, the later one acting as the first's.
    return state.atomically(() => {
      const handle = `sandbox-${nextSandbox()}.bsky.social`;
      const mine = didFor(handle);
      const held = did === undefined ? sandboxKeys.claim(key, mine) : (sandboxKeys.set(key, mine), mine);
      keyOfDid.set(held, key);
      if (held === mine) return accountFor(handle);
      const theirs = accounts.get(held);
      if (!theirs) throw new Error(`the account ${held} of a sandbox connection is not in the simulators' store`);
      return theirs;
    });
  }

  function didDoc(c: Context, acct: SimAccount) {
    return {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: acct.did,
      alsoKnownAs: [`at://${acct.handle}`],
      verificationMethod: [],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: selfBase(c, BSKY_HOST) }],
    };
  }

  function issueSession(c: Context, acct: SimAccount) {
    const now = clock.now();
    const jti = jwt.newJti();
    refreshes.set(jti, { did: acct.did, revoked: false });
    const iat = Math.floor(now / 1000);
    return {
      accessJwt: jwt.sign({ scope: 'com.atproto.appPass', sub: acct.did, aud: `did:web:${BSKY_HOST}`, iat, exp: Math.floor((now + ACCESS_MS) / 1000) }),
      refreshJwt: jwt.sign({ scope: 'com.atproto.refresh', sub: acct.did, aud: `did:web:${BSKY_HOST}`, iat, exp: Math.floor((now + REFRESH_MS) / 1000), jti }),
      handle: acct.handle,
      did: acct.did,
      didDoc: didDoc(c, acct),
      email: acct.email,
      emailConfirmed: true,
      emailAuthFactor: false,
      active: true,
    };
  }

  const bearer = (c: Context) => /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? null;

  /** The caller's account from an access token; an error response when there is none or it is refused. */
  function authenticate(c: Context): SimAccount | Response {
    const token = bearer(c);
    if (!token) return xrpcError(c, 401, 'AuthenticationRequired', 'Authentication Required');
    if (isSandboxToken(token)) return sandboxAccount(token);
    const claims = jwt.verify(token);
    if (!claims) return xrpcError(c, 400, 'InvalidToken', 'Malformed token');
    if (claims.scope !== 'com.atproto.appPass' && claims.scope !== 'com.atproto.access') return xrpcError(c, 400, 'InvalidToken', 'Invalid token type');
    if (claims.exp * 1000 <= clock.now()) return xrpcError(c, 400, 'ExpiredToken', 'Token has expired');
    const acct = accounts.get(claims.sub);
    if (!acct) return xrpcError(c, 400, 'InvalidToken', 'Token could not be verified');
    // A session its owner opened with the connection's sandbox password: what it posts is that connection's (`sandbox posts`).
    const key = connectionKeyOf(acct.did);
    if (key !== null && key !== 'default') actAsSandboxConnection(key);
    return acct;
  }

  /** Charges `points` to the account's hourly and daily write budgets; sets RateLimit-*; false once spent. */
  function charge(c: Context, did: string, points: number): boolean {
    const now = clock.now();
    // Both budgets or neither.
    const [hour, day] = windows.takeAll([
      [`${did}:hour`, { now, start: now, end: now + HOUR, limit: POINTS_PER_HOUR, cost: points }],
      [`${did}:day`, { now, start: now, end: now + DAY, limit: POINTS_PER_DAY, cost: points }],
    ]);
    c.header('ratelimit-limit', String(POINTS_PER_HOUR));
    c.header('ratelimit-remaining', String(Math.max(0, POINTS_PER_HOUR - hour!.used)));
    c.header('ratelimit-reset', String(Math.ceil(hour!.end / 1000)));
    c.header('ratelimit-policy', `${POINTS_PER_HOUR};w=3600`);
    return hour!.allowed && day!.allowed;
  }

  const tooMany = (c: Context) => xrpcError(c, 429, 'RateLimitExceeded', 'Rate Limit Exceeded');

  /** Counts a createSession for the identifier in its 5-minute window. */
  function sessionBudget(c: Context, identifier: string): boolean {
    const now = clock.now();
    const w = windows.take(`session:${identifier.toLowerCase()}`, { now, start: now, end: now + 5 * 60_000, limit: SESSIONS_PER_5_MIN });
    const ok = w.allowed;
    c.header('ratelimit-limit', String(SESSIONS_PER_5_MIN));
    c.header('ratelimit-remaining', String(Math.max(0, SESSIONS_PER_5_MIN - w.used)));
    c.header('ratelimit-reset', String(Math.ceil(w.end / 1000)));
    c.header('ratelimit-policy', `${SESSIONS_PER_5_MIN};w=300`);
    return ok;
  }

  const recordKey = (did: string, rkey: string) => `${did}/${POST}/${rkey}`;
  const repoDid = (repo: unknown): string | null => {
    if (typeof repo !== 'string') return null;
    if (repo.startsWith('did:')) return accounts.get(repo) ? repo : null;
    return [...accounts.values()].find((a) => a.handle === repo.toLowerCase())?.did ?? null;
  };

  /** Checks a blob reference in a record: its form, that this account uploaded it, its type and size. */
  function checkBlob(ref: unknown, did: string, path: string, accept: (mime: string) => boolean, maxSize: number): string | null {
    const b = ref as { $type?: unknown; ref?: { $link?: unknown }; mimeType?: unknown; size?: unknown } | null;
    if (!b || b.$type !== 'blob' || typeof b.ref?.$link !== 'string' || typeof b.mimeType !== 'string' || typeof b.size !== 'number') return `${path} should be a blob ref`;
    const stored = blobs.get(`${did}:${b.ref.$link}`);
    if (!stored) return `Could not find blob: ${b.ref.$link}`;
    if (!accept(stored.mimeType)) return `${path} has the wrong mime type: ${stored.mimeType}`;
    if (stored.size > maxSize) return `${path} file too big (max ${maxSize} bytes)`;
    return null;
  }

  const strongRef = (r: unknown) => {
    const x = r as { uri?: unknown; cid?: unknown } | null;
    return !!x && typeof x.uri === 'string' && x.uri.startsWith('at://') && typeof x.cid === 'string' && x.cid.length > 8;
  };

  /** app.bsky.feed.post as the lexicon defines it; the first problem, worded as the PDS words it. */
  function checkPost(value: Record<string, unknown>, did: string): string | null {
    const r = 'Invalid app.bsky.feed.post record: Record';
    if (value.$type !== POST) return `${r}/$type must be ${POST}`;
    if (typeof value.text !== 'string') return `${r} must have the property "text"`;
    if (encoder.encode(value.text).length > 3000) return `${r}/text must not be longer than 3000 characters`;
    if (graphemes(value.text) > 300) return `${r}/text must not be longer than 300 graphemes`;
    if (typeof value.createdAt !== 'string' || !DATETIME.test(value.createdAt) || Number.isNaN(Date.parse(value.createdAt))) return `${r}/createdAt must be an valid atproto datetime (either ISO 8601 or RFC 3339)`;
    const textBytes = encoder.encode(value.text).length;
    if (value.facets !== undefined) {
      if (!Array.isArray(value.facets)) return `${r}/facets must be an array`;
      for (const [i, f] of (value.facets as Array<Record<string, unknown>>).entries()) {
        const idx = f.index as { byteStart?: unknown; byteEnd?: unknown } | undefined;
        const s = idx?.byteStart;
        const e = idx?.byteEnd;
        if (typeof s !== 'number' || typeof e !== 'number' || !Number.isInteger(s) || !Number.isInteger(e) || s < 0 || e <= s || e > textBytes) {
          return `${r}/facets/${i}/index must be a byte range inside the text (0 to ${textBytes})`;
        }
        if (!Array.isArray(f.features) || f.features.length === 0) return `${r}/facets/${i}/features must be a non-empty array`;
        for (const [j, feat] of (f.features as Array<Record<string, unknown>>).entries()) {
          const at = `${r}/facets/${i}/features/${j}`;
          if (feat.$type === 'app.bsky.richtext.facet#link') {
            if (typeof feat.uri !== 'string' || !/^[a-z][a-z0-9+.-]*:\S+$/i.test(feat.uri)) return `${at}/uri must be a valid uri`;
          } else if (feat.$type === 'app.bsky.richtext.facet#mention') {
            if (typeof feat.did !== 'string' || !DID_RE.test(feat.did)) return `${at}/did must be a valid did`;
          } else if (feat.$type === 'app.bsky.richtext.facet#tag') {
            if (typeof feat.tag !== 'string' || feat.tag.length === 0 || encoder.encode(feat.tag).length > 640 || graphemes(feat.tag) > 64) return `${at}/tag must be 1 to 64 graphemes`;
          }
        }
      }
    }
    if (value.langs !== undefined) {
      if (!Array.isArray(value.langs)) return `${r}/langs must be an array`;
      if (value.langs.length > 3) return `${r}/langs must not have more than 3 elements`;
      if (value.langs.some((l) => typeof l !== 'string' || !LANG.test(l))) return `${r}/langs must be valid language tags`;
    }
    if (value.labels !== undefined) {
      const l = value.labels as { $type?: unknown; values?: unknown };
      if (l.$type !== 'com.atproto.label.defs#selfLabels' || !Array.isArray(l.values)) return `${r}/labels must be com.atproto.label.defs#selfLabels`;
      if (l.values.length > 10) return `${r}/labels/values must not have more than 10 elements`;
      if ((l.values as Array<{ val?: unknown }>).some((v) => typeof v.val !== 'string' || !SELF_LABELS.has(v.val))) return `${r}/labels/values hold an unknown self-label`;
    }
    if (value.reply !== undefined) {
      const rep = value.reply as { root?: unknown; parent?: unknown };
      if (!strongRef(rep.root) || !strongRef(rep.parent)) return `${r}/reply must have root and parent strong refs`;
      for (const which of ['root', 'parent'] as const) {
        const ref = rep[which] as { uri: string; cid: string };
        const m = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([^/]+)$/.exec(ref.uri);
        const local = m ? records.get(recordKey(m[1]!, m[2]!)) : undefined;
        if (m && accounts.get(m[1]!) && (!local || local.cid !== ref.cid)) return `${r}/reply/${which} does not name an existing post (${ref.uri})`;
      }
    }
    if (value.embed !== undefined) {
      const e = value.embed as Record<string, unknown>;
      if (e.$type === 'app.bsky.embed.images') {
        const images = e.images as Array<Record<string, unknown>> | undefined;
        if (!Array.isArray(images) || images.length === 0) return `${r}/embed/images must be a non-empty array`;
        if (images.length > 4) return `${r}/embed/images must not have more than 4 elements`;
        for (const [i, img] of images.entries()) {
          if (typeof img.alt !== 'string') return `${r}/embed/images/${i} must have the property "alt"`;
          const problem = checkBlob(img.image, did, `${r}/embed/images/${i}/image`, (m) => m.startsWith('image/'), IMAGE_MAX);
          if (problem) return problem;
        }
      } else if (e.$type === 'app.bsky.embed.video') {
        const problem = checkBlob(e.video, did, `${r}/embed/video`, (m) => m === 'video/mp4', VIDEO_MAX);
        if (problem) return problem;
      } else if (e.$type === 'app.bsky.embed.external') {
        const x = e.external as Record<string, unknown> | undefined;
        if (!x || typeof x.uri !== 'string' || typeof x.title !== 'string' || typeof x.description !== 'string') return `${r}/embed/external must have uri, title and description`;
        if (x.thumb !== undefined) {
          const problem = checkBlob(x.thumb, did, `${r}/embed/external/thumb`, (m) => m.startsWith('image/'), IMAGE_MAX);
          if (problem) return problem;
        }
      } else if (e.$type !== 'app.bsky.embed.record' && e.$type !== 'app.bsky.embed.recordWithMedia') {
        return `${r}/embed must be an object which includes the "$type" property of a known embed`;
      }
    }
    return null;
  }

  const postUrlOf = (rec: SimRecord) => `https://bsky.app/profile/${accounts.get(rec.did)?.handle ?? rec.did}/post/${rec.rkey}`;

  // ——— the PDS ———
  const pds = new Hono();
  pds.use('*', recorder(BSKY_HOST, log, clock));

  pds.post('/xrpc/com.atproto.server.createSession', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { identifier?: unknown; password?: unknown } | null;
    if (!body || typeof body.identifier !== 'string' || typeof body.password !== 'string') return invalid(c, 'Input must have the properties "identifier" and "password"');
    if (!sessionBudget(c, body.identifier)) return tooMany(c);
    const acct = signIn(body.identifier, body.password);
    if (acct === 'invalid') return invalid(c, 'Invalid handle');
    if (!acct) return xrpcError(c, 401, 'AuthenticationRequired', 'Invalid identifier or password');
    return c.json(issueSession(c, acct));
  });

  pds.post('/xrpc/com.atproto.server.refreshSession', (c) => {
    const token = bearer(c);
    if (!token) return xrpcError(c, 401, 'AuthenticationRequired', 'Authentication Required');
    if (isSandboxToken(token)) {
      if (spentSandboxRefresh.get(token)) return xrpcError(c, 400, 'ExpiredToken', 'Token has been revoked');
      spentSandboxRefresh.set(token, true);
      return c.json(issueSession(c, sandboxAccount(token)));
    }
    const claims = jwt.verify(token);
    if (!claims) return xrpcError(c, 400, 'InvalidToken', 'Malformed token');
    if (claims.scope !== 'com.atproto.refresh' || !claims.jti) return xrpcError(c, 400, 'InvalidToken', 'Invalid token type');
    if (claims.exp * 1000 <= clock.now()) return xrpcError(c, 400, 'ExpiredToken', 'Token has expired');
    const known = refreshes.get(claims.jti);
    if (!known || known.revoked) return xrpcError(c, 400, 'ExpiredToken', 'Token has been revoked');
    refreshes.set(claims.jti, { ...known, revoked: true });
    const acct = accounts.get(claims.sub);
    if (!acct) return xrpcError(c, 400, 'InvalidToken', 'Token could not be verified');
    return c.json(issueSession(c, acct));
  });

  pds.get('/xrpc/com.atproto.server.getSession', (c) => {
    const acct = authenticate(c);
    if (acct instanceof Response) return acct;
    return c.json({ handle: acct.handle, did: acct.did, email: acct.email, emailConfirmed: true, emailAuthFactor: false, didDoc: didDoc(c, acct), active: true });
  });

  pds.get('/xrpc/com.atproto.server.getServiceAuth', (c) => {
    const acct = authenticate(c);
    if (acct instanceof Response) return acct;
    const aud = c.req.query('aud');
    const lxm = c.req.query('lxm');
    const expParam = c.req.query('exp');
    if (!aud || !DID_RE.test(aud.split('#')[0]!)) return invalid(c, 'Error: Params must have the property "aud"');
    const nowSec = Math.floor(clock.now() / 1000);
    const exp = expParam === undefined ? nowSec + 60 : Number(expParam);
    if (!Number.isInteger(exp) || exp <= nowSec) return xrpcError(c, 400, 'BadExpiration', 'expiration is in past');
    if (exp - nowSec > (lxm ? 3600 : 60)) return xrpcError(c, 400, 'BadExpiration', lxm ? 'cannot request a token with an expiration more than an hour in the future' : 'cannot request a method-less token with an expiration more than a minute in the future');
    const claims: SimClaims = { scope: 'com.atproto.service', sub: acct.did, aud, iat: nowSec, exp, jti: jwt.newJti(), ...(lxm ? { lxm } : {}) };
    return c.json({ token: jwt.sign(claims) });
  });

  pds.get('/xrpc/com.atproto.identity.resolveHandle', (c) => {
    const handle = (c.req.query('handle') ?? '').toLowerCase();
    if (!HANDLE.test(handle)) return invalid(c, 'Error: handle must be a valid handle');
    const acct = [...accounts.values()].find((a) => a.handle === handle);
    if (!acct) return invalid(c, 'Unable to resolve handle');
    return c.json({ did: acct.did });
  });

  pds.post('/xrpc/com.atproto.repo.uploadBlob', async (c) => {
    const acct = authenticate(c);
    if (acct instanceof Response) return acct;
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (bytes.length > BLOB_MAX) return xrpcError(c, 413, 'PayloadTooLarge', 'request entity too large');
    if (bytes.length === 0) return invalid(c, 'Request body is empty');
    const mimeType = (c.req.header('content-type') ?? 'application/octet-stream').split(';')[0]!.trim() || 'application/octet-stream';
    const cid = cidFor(bytes, 'raw');
    blobs.set(`${acct.did}:${cid}`, { cid, did: acct.did, mimeType, size: bytes.length });
    return c.json({ blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: bytes.length } });
  });

  pds.post('/xrpc/com.atproto.repo.createRecord', async (c) => {
    const acct = authenticate(c);
    if (acct instanceof Response) return acct;
    const body = (await c.req.json().catch(() => null)) as { repo?: unknown; collection?: unknown; rkey?: unknown; record?: unknown; validate?: unknown } | null;
    if (!body || typeof body.repo !== 'string' || typeof body.collection !== 'string' || typeof body.record !== 'object' || body.record === null) {
      return invalid(c, 'Input must have the properties "repo", "collection" and "record"');
    }
    if (repoDid(body.repo) !== acct.did) return xrpcError(c, 401, 'AuthRequiredError', 'Could not find repo or it does not belong to you');
    if (body.collection !== POST) return invalid(c, `Collection not supported by this simulator: ${body.collection}`);
    const rkey = body.rkey === undefined ? tid(BigInt(clock.now()) * 1000n + BigInt(records.size % 1000), Number(randomBytes(2).readUInt16BE(0))) : body.rkey;
    if (typeof rkey !== 'string' || !TID.test(rkey)) return invalid(c, `Invalid record key for ${POST}: ${String(rkey)} (must be a TID)`);
    const value = body.record as Record<string, unknown>;
    const problem = checkPost(value, acct.did);
    if (problem) return invalid(c, problem);
    const uri = `at://${acct.did}/${POST}/${rkey}`;
    if (records.get(recordKey(acct.did, rkey))) return invalid(c, `Record already exists at ${uri}`);
    if (!charge(c, acct.did, 3)) return tooMany(c);
    const cid = cidFor(encoder.encode(JSON.stringify(value)), 'dag-cbor');
    const rec: SimRecord = { uri, cid, did: acct.did, rkey, value, createdAt: clock.now() };
    const reply = value.reply as { parent?: { uri?: string } } | undefined;
    // The record and the row that says it was posted are written together, or neither is.
    try {
      atomically(() => {
        records.set(recordKey(acct.did, rkey), rec);
        log.addPost({
          platform: 'bluesky',
          accountId: acct.did,
          postId: uri,
          postUrl: postUrlOf(rec),
          kind: reply ? 'reply' : 'post',
          body: { ...value, ...(reply?.parent?.uri ? { in_reply_to: reply.parent.uri } : {}) },
          createdAt: rec.createdAt,
        });
      });
    } catch (err) {
      records.forget(recordKey(acct.did, rkey));
      const i = log.posts.findIndex((p) => p.postId === uri);
      if (i >= 0) log.posts.splice(i, 1);
      return xrpcError(c, 500, 'InternalServerError', `Internal Server Error: ${(err as Error).message}`);
    }
    return c.json({ uri, cid, commit: { cid: cidFor(encoder.encode(`${uri}#${cid}`), 'dag-cbor'), rev: tid(BigInt(clock.now()) * 1000n, 0) }, validationStatus: 'valid' });
  });

  // putRecord, for the collection the simulator keeps besides posts: a post's threadgate (its record key the post's), with swapRecord (null: must not exist yet).
  pds.post('/xrpc/com.atproto.repo.putRecord', async (c) => {
    const acct = authenticate(c);
    if (acct instanceof Response) return acct;
    const body = (await c.req.json().catch(() => null)) as { repo?: unknown; collection?: unknown; rkey?: unknown; record?: unknown; swapRecord?: unknown } | null;
    if (!body || typeof body.repo !== 'string' || typeof body.collection !== 'string' || typeof body.rkey !== 'string' || typeof body.record !== 'object' || body.record === null) {
      return invalid(c, 'Input must have the properties "repo", "collection", "rkey" and "record"');
    }
    if (repoDid(body.repo) !== acct.did) return xrpcError(c, 401, 'AuthRequiredError', 'Could not find repo or it does not belong to you');
    if (body.collection !== THREADGATE) return invalid(c, `Collection not supported by this simulator: ${body.collection}`);
    const value = body.record as Record<string, unknown>;
    const postUri = `at://${acct.did}/${POST}/${body.rkey}`;
    if (value.$type !== THREADGATE || value.post !== postUri) return invalid(c, `Invalid app.bsky.feed.threadgate record: post must be ${postUri} (the gated post, at the same record key)`);
    if (!records.get(recordKey(acct.did, body.rkey))) return invalid(c, `Invalid app.bsky.feed.threadgate record: no post at ${postUri}`);
    const hidden = value.hiddenReplies;
    if (hidden !== undefined && (!Array.isArray(hidden) || hidden.length > 300 || hidden.some((u) => typeof u !== 'string' || !u.startsWith('at://')))) return invalid(c, 'Invalid app.bsky.feed.threadgate record: hiddenReplies must be at most 300 at-uris');
    const key = recordKey(acct.did, body.rkey);
    const old = threadgates.get(key);
    if (body.swapRecord !== undefined && (body.swapRecord === null ? old !== undefined : old?.cid !== body.swapRecord)) return xrpcError(c, 400, 'InvalidSwap', `Record was at ${old?.cid ?? 'null'}`);
    if (!charge(c, acct.did, old ? 2 : 3)) return tooMany(c);
    const uri = `at://${acct.did}/${THREADGATE}/${body.rkey}`;
    const cid = cidFor(encoder.encode(JSON.stringify(value)), 'dag-cbor');
    atomically(() => threadgates.set(key, { uri, cid, value }));
    return c.json({ uri, cid, commit: { cid: cidFor(encoder.encode(`${uri}#${cid}`), 'dag-cbor'), rev: tid(BigInt(clock.now()) * 1000n, 2) }, validationStatus: 'valid' });
  });

  pds.get('/xrpc/com.atproto.repo.getRecord', (c) => {
    const repo = c.req.query('repo');
    const collection = c.req.query('collection');
    const rkey = c.req.query('rkey');
    if (!repo || !collection || !rkey) return invalid(c, 'Error: Params must have the properties "repo", "collection" and "rkey"');
    const did = repoDid(repo);
    if (!did) return invalid(c, `Could not find repo: ${repo}`);
    const rec = collection === POST ? records.get(recordKey(did, rkey)) : collection === THREADGATE ? threadgates.get(recordKey(did, rkey)) : undefined;
    if (!rec) return xrpcError(c, 400, 'RecordNotFound', `Could not locate record: at://${did}/${collection}/${rkey}`);
    return c.json({ uri: rec.uri, cid: rec.cid, value: rec.value });
  });

  const recordAt = (uri: string): SimRecord | undefined => {
    const m = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([^/]+)$/.exec(uri);
    const did = m ? repoDid(m[1]) : null;
    return did ? records.get(recordKey(did, m![2]!)) : undefined;
  };
  const parentUriOf = (rec: SimRecord) => (rec.value.reply as { parent?: { uri?: unknown } } | undefined)?.parent?.uri;
  const repliesTo = (uri: string) => [...records.values()].filter((r) => parentUriOf(r) === uri).sort((a, b) => a.createdAt - b.createdAt || (a.rkey < b.rkey ? -1 : 1));

  /**
   * A sandbox reader's reply to a root post of a sandbox connection, made when the post's
   * thread is first read at or after its time (sim-conversation.ts decides which posts and
   * what, by the post's URI): so a demo has a conversation. Its record key is fixed by the
   * post, so it is made once.
   */
  function readerReplies(rec: SimRecord): void {
    if (rec.value.reply !== undefined || connectionKeyOf(rec.did) === null) return;
    const plan = simReaderReply(rec.uri, rec.createdAt);
    if (!plan || clock.now() < plan.at) return;
    const reader = accountFor(`${plan.reader.username.replace(/_/g, '-')}.bsky.social`);
    const rkey = recordKeyFor(rec.uri, 'comment');
    if (records.get(recordKey(reader.did, rkey))) return;
    const ref = { uri: rec.uri, cid: rec.cid };
    const value = { $type: POST, text: plan.text, createdAt: new Date(plan.at).toISOString(), reply: { root: ref, parent: ref } };
    records.set(recordKey(reader.did, rkey), { uri: `at://${reader.did}/${POST}/${rkey}`, cid: cidFor(encoder.encode(JSON.stringify(value)), 'dag-cbor'), did: reader.did, rkey, value, createdAt: plan.at });
  }

  /** A gated post's threadgate view (app.bsky.feed.defs#threadgateView: its record, hiddenReplies included). */
  const gateView = (rec: SimRecord) => {
    const gate = threadgates.get(recordKey(rec.did, rec.rkey));
    return gate ? { threadgate: { uri: gate.uri, cid: gate.cid, record: gate.value, lists: [] } } : {};
  };

  /** app.bsky.feed.defs#postView. */
  const postView = (rec: SimRecord) => ({
    uri: rec.uri,
    cid: rec.cid,
    author: { did: rec.did, handle: accounts.get(rec.did)?.handle ?? rec.did },
    record: rec.value,
    replyCount: repliesTo(rec.uri).length,
    repostCount: 0,
    likeCount: 0,
    quoteCount: 0,
    indexedAt: new Date(rec.createdAt).toISOString(),
    ...gateView(rec),
  });
  type ThreadView = { $type: string; post: ReturnType<typeof postView>; replies: ThreadView[] };
  const threadView = (rec: SimRecord, depth: number): ThreadView => ({
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: postView(rec),
    replies: depth > 0 ? repliesTo(rec.uri).map((r) => threadView(r, depth - 1)) : [],
  });

  // The AppView's thread (the PDS proxies app.bsky.* to it): the post and its replies to `depth` (default 6, at most 1000); parents are not simulated.
  pds.get('/xrpc/app.bsky.feed.getPostThread', (c) => {
    const uri = c.req.query('uri');
    if (!uri) return invalid(c, 'Error: Params must have the property "uri"');
    const depth = Number(c.req.query('depth') ?? 6);
    if (!Number.isInteger(depth) || depth < 0 || depth > 1000) return invalid(c, 'Error: depth can not be greater than 1000');
    const rec = recordAt(uri);
    if (!rec) return xrpcError(c, 400, 'NotFound', `Post not found: ${uri}`);
    readerReplies(rec);
    return c.json({ thread: threadView(rec, depth) });
  });

  // The AppView's post views, which a PDS answers for its signed-in accounts (as bsky.social proxies them): up to 25 URIs; posts not found are left out.
  pds.get('/xrpc/app.bsky.feed.getPosts', (c) => {
    const uris = c.req.queries('uris') ?? [];
    if (uris.length === 0) return invalid(c, 'Error: Params must have the property "uris"');
    if (uris.length > 25) return invalid(c, 'Error: uris must not have more than 25 elements');
    const posts = [];
    for (const uri of uris) {
      const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
      if (!m) return invalid(c, `Error: uris/${uris.indexOf(uri)} must be a valid at-uri`);
      const did = repoDid(m[1]);
      const rec = did && m[2] === POST ? records.get(recordKey(did, m[3]!)) : undefined;
      if (!rec) continue;
      const f = simFigures(`bluesky:${rec.uri}`, clock.now() - rec.createdAt);
      const author = accounts.get(rec.did);
      posts.push({
        uri: rec.uri,
        cid: rec.cid,
        author: { did: rec.did, handle: author?.handle ?? 'handle.invalid', labels: [], createdAt: new Date(author?.createdAt ?? rec.createdAt).toISOString() },
        record: rec.value,
        replyCount: f.replies,
        repostCount: f.reposts,
        likeCount: f.likes,
        quoteCount: f.quotes,
        bookmarkCount: f.bookmarks,
        indexedAt: new Date(rec.createdAt).toISOString(),
        viewer: {},
        labels: [],
      });
    }
    return c.json({ posts });
  });

  pds.post('/xrpc/com.atproto.repo.deleteRecord', async (c) => {
    const acct = authenticate(c);
    if (acct instanceof Response) return acct;
    const body = (await c.req.json().catch(() => null)) as { repo?: unknown; collection?: unknown; rkey?: unknown } | null;
    if (!body || typeof body.repo !== 'string' || typeof body.collection !== 'string' || typeof body.rkey !== 'string') return invalid(c, 'Input must have the properties "repo", "collection" and "rkey"');
    if (repoDid(body.repo) !== acct.did) return xrpcError(c, 401, 'AuthRequiredError', 'Could not find repo or it does not belong to you');
    if (!charge(c, acct.did, 1)) return tooMany(c);
    const key = recordKey(acct.did, body.rkey);
    if (body.collection === THREADGATE) {
      atomically(() => void threadgates.delete(key));
      return c.json({ commit: { cid: cidFor(encoder.encode(`delete:${key}:${clock.now()}`), 'dag-cbor'), rev: tid(BigInt(clock.now()) * 1000n, 1) } });
    }
    const rec = body.collection === POST ? records.get(key) : undefined;
    // Deleting a record that is not there changes nothing and is not an error, as on a PDS.
    if (rec) {
      atomically(() => {
        records.delete(key);
        log.removePost('bluesky', rec.uri, clock.now());
      });
    }
    return c.json({ commit: { cid: cidFor(encoder.encode(`delete:${key}:${clock.now()}`), 'dag-cbor'), rev: tid(BigInt(clock.now()) * 1000n, 1) } });
  });

  pds.all('/xrpc/:method', (c) => xrpcError(c, 501, 'MethodNotImplemented', `Method Not Implemented: ${c.req.param('method')}`));

  // ——— the video service ———
  const video = new Hono();
  video.use('*', recorder(VIDEO_HOST, log, clock));

  /** A service token for `lxm`, issued by the PDS to the caller. */
  function serviceCaller(c: Context, lxm: string, aud?: (a: string) => boolean): SimAccount | Response {
    const token = bearer(c);
    if (!token) return xrpcError(c, 401, 'AuthenticationRequired', 'Authentication Required');
    const claims = jwt.verify(token);
    if (!claims || claims.scope !== 'com.atproto.service') return xrpcError(c, 401, 'AuthenticationRequired', 'jwt signature does not match jwt issuer');
    if (claims.exp * 1000 <= clock.now()) return xrpcError(c, 401, 'AuthenticationRequired', 'jwt expired');
    if (claims.lxm !== lxm) return xrpcError(c, 401, 'AuthenticationRequired', `bad jwt lexicon method ("lxm"). must match: ${lxm}`);
    if (aud && !aud(claims.aud)) return xrpcError(c, 401, 'AuthenticationRequired', `jwt audience does not match service did: ${claims.aud}`);
    return accounts.get(claims.sub) ?? xrpcError(c, 401, 'AuthenticationRequired', 'unknown account');
  }

  const usedToday = (did: string) => {
    const since = clock.now() - DAY;
    const mine = [...jobs.values()].filter((j) => j.did === did && j.createdAt > since);
    return { videos: mine.length, bytes: mine.reduce((n, j) => n + j.size, 0) };
  };

  video.get('/xrpc/app.bsky.video.getUploadLimits', (c) => {
    const acct = serviceCaller(c, 'app.bsky.video.getUploadLimits', (a) => a === `did:web:${VIDEO_HOST}`);
    if (acct instanceof Response) return acct;
    const used = usedToday(acct.did);
    if (!settings.canUpload) return c.json({ canUpload: false, remainingDailyVideos: 0, remainingDailyBytes: 0, error: 'unconfirmed_email', message: 'Please confirm your email address to upload videos' });
    return c.json({ canUpload: true, remainingDailyVideos: Math.max(0, VIDEOS_PER_DAY - used.videos), remainingDailyBytes: Math.max(0, VIDEO_BYTES_PER_DAY - used.bytes) });
  });

  video.post('/xrpc/app.bsky.video.uploadVideo', async (c) => {
    const acct = serviceCaller(c, 'com.atproto.repo.uploadBlob', (a) => a.startsWith('did:web:'));
    if (acct instanceof Response) return acct;
    if (c.req.query('did') !== acct.did) return invalid(c, 'did must be the uploading account');
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (bytes.length > VIDEO_MAX) return xrpcError(c, 413, 'PayloadTooLarge', `video is too large (max ${VIDEO_MAX} bytes)`);
    if (bytes.length < 12 || bytes.subarray(4, 8).toString('latin1') !== 'ftyp') return invalid(c, 'unsupported video format: upload an MP4');
    const used = usedToday(acct.did);
    if (used.videos >= VIDEOS_PER_DAY || used.bytes + bytes.length > VIDEO_BYTES_PER_DAY) return xrpcError(c, 429, 'RateLimitExceeded', 'daily video upload limit reached');
    const cid = cidFor(bytes, 'raw');
    // The same video again: the service names the job that has it.
    const earlier = [...jobs.values()].find((j) => j.did === acct.did && j.cid === cid && !j.fail);
    if (earlier) return c.body(JSON.stringify({ error: 'already_exists', message: 'Video already processed', jobId: earlier.jobId }), 409, { 'content-type': 'application/json; charset=utf-8' });
    const jobId = randomBytes(12).toString('hex');
    jobs.set(jobId, { jobId, did: acct.did, size: bytes.length, cid, createdAt: clock.now(), fail: settings.failVideos });
    return c.json({ jobId, did: acct.did, state: 'JOB_STATE_CREATED', progress: 0 });
  });

  video.get('/xrpc/app.bsky.video.getJobStatus', (c) => {
    const job = jobs.get(c.req.query('jobId') ?? '');
    if (!job) return xrpcError(c, 404, 'NotFound', 'job not found');
    const elapsed = clock.now() - job.createdAt;
    const base = { jobId: job.jobId, did: job.did };
    if (job.fail && elapsed >= settings.processingMs / 2) return c.json({ jobStatus: { ...base, state: 'JOB_STATE_FAILED', error: 'encoding_failure', failureCode: 'encoding_failure', message: 'the video could not be encoded' } });
    if (elapsed < settings.processingMs / 2) return c.json({ jobStatus: { ...base, state: 'JOB_STATE_ENCODING', progress: Math.min(99, Math.floor((elapsed / settings.processingMs) * 200)) } });
    if (elapsed < settings.processingMs) return c.json({ jobStatus: { ...base, state: 'JOB_STATE_UPLOADING', progress: Math.min(99, Math.floor(((elapsed - settings.processingMs / 2) / settings.processingMs) * 200)) } });
    // Done: the processed video is a blob of the account's repo on the PDS.
    const key = `${job.did}:${job.cid}`;
    if (!blobs.get(key)) blobs.set(key, { cid: job.cid, did: job.did, mimeType: 'video/mp4', size: job.size });
    return c.json({ jobStatus: { ...base, state: 'JOB_STATE_COMPLETED', progress: 100, blob: { $type: 'blob', ref: { $link: job.cid }, mimeType: 'video/mp4', size: job.size } } });
  });

  video.all('/xrpc/:method', (c) => xrpcError(c, 501, 'MethodNotImplemented', `Method Not Implemented: ${c.req.param('method')}`));

  return {
    hosts: [BSKY_HOST, VIDEO_HOST] as const,
    pds,
    video,
    log,
    settings,
    /** The post records by AT URI (tests). */
    record: (uri: string) => [...records.values()].find((r) => r.uri === uri) ?? null,
    accounts: () => [...accounts.values()],
  };
}

export type BlueskySimulator = ReturnType<typeof createBlueskySimulator>;
