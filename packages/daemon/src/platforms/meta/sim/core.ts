import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { SandboxStore } from '../../../store/sandbox-store';
import type { Clock } from '../../../util/clock';
import { isSandboxToken, sandboxAccountKey } from '../../shared/is-sandbox-token';
import { readBody } from '../../shared/read-body';
import { noteMadePost } from '../../shared/sim/made-in-request';
import type { SimCodes } from '../../shared/sim/sim-codes';
import { sandboxPostRemoval, sandboxPostSink, type PostRemovalSink, type SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { simState, type SimState, type TrackedMap } from '../../shared/sim/sim-state';
import { KEPT_POSTS, keepLatest } from '../../shared/sim/simulator-recorder';
import type { GraphErrorBody } from '../graph-client';

/**
 * The machinery the Meta simulators share: one state (Instagram-via-Facebook-Login and
 * Facebook pages live on the same host; rupload serves both), tokens, Graph error bodies,
 * fault injection and the record of every request and every post.
 */

export type SimPlatform = 'instagram' | 'facebook' | 'threads';

/** One request as a simulator sees it: every parameter source merged (query, form, JSON, multipart). */
export interface SimRequest {
  at: number;
  method: string;
  host: string;
  /** Path after the host and the optional `vNN.N` segment, e.g. `/1784/media`. */
  path: string;
  version: string | null;
  segments: string[];
  params: Record<string, string>;
  headers: Record<string, string>;
  token: string | null;
  /** Multipart file parts and raw bodies: sizes only. */
  files: Record<string, { size: number; type: string; name: string }>;
  rawBody: Buffer | null;
  /** `<origin><mount prefix>`: where this simulator is reachable, for URLs it hands out (upload_url). */
  selfBase: string;
}

/** Recorded form of a request (tokens redacted). */
export interface RecordedRequest {
  at: number;
  method: string;
  host: string;
  path: string;
  version: string | null;
  params: Record<string, string>;
  headers: Record<string, string>;
  bodyBytes: number | null;
  files: string[];
  status: number;
}

/** A post a Meta simulator made: always on an account. */
export type SimPost = SimulatedPost & { platform: SimPlatform; accountId: string };

/** A fault the next matching request(s) meet. */
export interface Fault {
  host?: string;
  method?: string;
  /** Matched against SimRequest.path: a regexp, or a string the path must end with. */
  path?: RegExp | string;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Let this many matching requests through untouched first (default 0). */
  skip?: number;
  /** Answer this Graph error instead of handling the request. */
  error?: { status: number; error: Partial<GraphErrorBody> & { message: string; code: number } };
  /** Delay the answer by this much simulator-clock time. */
  latencyMs?: number;
  /** Handle the request (the post is made), then drop the connection without answering: the client sees a timeout. */
  hangUpAfter?: boolean;
  /** Handle the request (the post is made), then hold the answer until the client gives up (a crash or a timeout on its side). */
  holdAfter?: boolean;
  /** Answer this body with 200 instead of handling the request (a stale or partial read, e.g. a container without its status). */
  answer?: Record<string, unknown>;
}

export class GraphFail extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String((body.error as { message?: string } | undefined)?.message ?? 'error'));
  }
}

/** Throws a Graph error object (HTTP 400 unless given). */
export function fail(code: number, message: string, extra: { subcode?: number; status?: number; type?: string; transient?: boolean; userMsg?: string } = {}): never {
  const error: Record<string, unknown> = {
    message,
    type: extra.type ?? (code === 190 || code === 104 ? 'OAuthException' : 'OAuthException'),
    code,
    is_transient: extra.transient ?? false,
    fbtrace_id: randomBytes(8).toString('base64url'),
  };
  if (extra.subcode !== undefined) error.error_subcode = extra.subcode;
  if (extra.userMsg) error.error_user_msg = extra.userMsg;
  throw new GraphFail(extra.status ?? 400, { error });
}

export interface TokenRecord {
  token: string;
  platform: SimPlatform;
  /** ig_user (Instagram Login), threads_user, fb_user, fb_page. */
  kind: 'ig_user' | 'threads_user' | 'fb_user' | 'fb_page';
  /** The account (IG user, Threads user, FB user or page) the token acts as. */
  accountId: string;
  issuedAt: number;
  expiresAt: number | null;
  longLived: boolean;
  revoked: boolean;
  appId: string | null;
  /**
   * The permissions the user granted in the dialog (a person may untick some), carried by
   * the tokens exchanged from it; absent: every permission (sandbox connections' tokens,
   * tokens issued without a dialog).
   */
  scopes?: string[];
}

/** The grant a token carries on to the tokens exchanged from it (none recorded: every permission). */
export const granted = (scopes: string[] | undefined): { scopes?: string[] } => (scopes ? { scopes } : {});

export interface SimAccount {
  id: string;
  platform: SimPlatform;
  /** ig_user, threads_user, fb_user, fb_page */
  kind: TokenRecord['kind'];
  username: string;
  name: string;
  /** Pages: the linked IG professional account. Users: the pages they manage. */
  linkedIgId?: string;
  pageIds?: string[];
  /** Epoch ms of each API publish (the moving-window quota). */
  publishes: number[];
  /** Facebook reels published (their own 30/24 h quota). */
  reelPublishes: number[];
  /** The sandbox connection (sandboxAccountKey) that made this account; its tokens alone act for it. */
  sandboxKey?: string | null;
}

export interface SimApp {
  appId: string;
  appSecret: string;
}

export interface MetaSimConfig {
  /** How long an image (or text) container stays IN_PROGRESS. Default 3 s. */
  imageProcessingMs: number;
  /** How long a video container (and a Facebook video) processes. Default 60 s. */
  videoProcessingMs: number;
  /** Quota per 24 h moving window. Defaults: instagram 100, threads 250, facebook reels 30. */
  quota: { instagram: number; threads: number; facebookReels: number };
  /** Accept the sandbox connections' tokens (`sandbox_at_…`, see isSandboxToken) besides issued ones. Default true. */
  acceptSandboxTokens: boolean;
}

export const DAY_MS = 86_400_000;

/** A Graph API timestamp: ISO 8601 to the second, with a +0000 offset (`2026-12-25T09:00:00+0000`). */
export const graphTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

/**
 * The state every Meta simulator reads and writes. Tokens, accounts (with their quota
 * windows), apps and every object (containers, media, posts) are kept in `db`
 * (sandbox_state, simulator `meta`) when given: `flush()` after each request writes what it
 * changed, so a restart continues with the same posts, ids and duplicate memory.
 * Authorization codes are in sandbox_codes (`codes`), read on each exchange.
 */
/** The `_type` of a deleted object's tombstone in `objects` (meta/sim/deletion.ts). */
export const DELETED = 'deleted';

export class MetaSimState {
  readonly config: MetaSimConfig;
  readonly tokens: TrackedMap<TokenRecord>;
  readonly accounts: TrackedMap<SimAccount>;
  readonly apps: TrackedMap<SimApp>;
  /**
   * Authorization codes handed out by the (simulated) dialog: code -> who and for which app.
   * In the simulators' store, read on each exchange: the dialog on one daemon, the exchange
   * on another, once (sim-codes.ts).
   */
  readonly codes: SimCodes<{ platform: SimPlatform; accountId: string; appId: string; redirectUri: string; issuedAt: number; expiresAt: number; scopes?: string[] }>;
  /** Every object by id, for GET /{id} and edges: containers, media, photos, videos, posts. */
  readonly objects: TrackedMap<Record<string, unknown> & { _type: string }>;
  readonly requests: RecordedRequest[] = [];
  readonly posts: SimPost[] = [];
  readonly faults: Fault[] = [];
  readonly #persistPost: ((post: SimPost) => void) | undefined;
  readonly #persistRemoval: PostRemovalSink | undefined;
  /** Containers (IG/Threads) or videos (FB) created next end in ERROR with this message. */
  readonly processingFailures: { platform: SimPlatform; message: string }[] = [];
  readonly #nextSeq: () => bigint;
  readonly #state: SimState;

  constructor(
    readonly clock: Clock,
    readonly store: SandboxStore | null,
    config: Partial<MetaSimConfig> = {},
  ) {
    this.config = {
      imageProcessingMs: 3_000,
      videoProcessingMs: 60_000,
      acceptSandboxTokens: true,
      ...config,
      quota: { instagram: 100, threads: 250, facebookReels: 30, ...config.quota },
    };
    this.#persistPost = sandboxPostSink(store);
    this.#persistRemoval = sandboxPostRemoval(store);
    const state = simState(store, 'meta');
    this.#state = state;
    this.tokens = state.tracked('tokens');
    this.accounts = state.tracked('accounts');
    this.apps = state.tracked('apps');
    this.codes = state.codes('codes');
    this.objects = state.tracked('objects');
    this.#nextSeq = state.counter('id-seq', 1n);
  }

  /** Writes what the last request changed, in one transaction (a no-op without a database). */
  flush(): void {
    this.atomically(() => {
      for (const map of [this.tokens, this.accounts, this.apps, this.objects]) map.flush();
    });
  }

  /**
   * Runs `fn` with every write it makes (objects flushed, sandbox_posts rows) in one SQLite
   * transaction (SimState.atomically): the simulator answers each request inside one, so a
   * post and the container or video that says it was made reach the disk together.
   */
  atomically<T>(fn: () => T): T {
    return this.#state.atomically(fn);
  }

  /** Numeric ids like Graph's, unique across restarts (time-based, and a persisted sequence) and within one. */
  newId(prefix = '17'): string {
    const seq = Number(this.#nextSeq() % 10_000n);
    return `${prefix}${this.clock.now()}${String(seq).padStart(4, '0')}${randomBytes(2).readUInt16BE(0) % 100}`;
  }

  shortcode(): string {
    return randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 11);
  }

  /**
   * The consent dialog, simulated: the user approves and the platform hands out a single-use
   * code (valid 1 h). `scopes`: the permissions the user left ticked (absent: all asked for).
   */
  authorize(grant: { platform: SimPlatform; appId: string; redirectUri: string; accountId: string; scopes?: string[] }): string {
    const code = randomBytes(16).toString('hex');
    const now = this.clock.now();
    this.codes.issue(code, { ...grant, issuedAt: now, expiresAt: now + 3_600_000 }, now);
    return code;
  }

  addAccount(account: Omit<SimAccount, 'publishes' | 'reelPublishes'>): SimAccount {
    const full: SimAccount = { publishes: [], reelPublishes: [], ...account };
    this.accounts.set(account.id, full);
    return full;
  }

  issueToken(t: Omit<TokenRecord, 'issuedAt' | 'revoked' | 'appId'> & { issuedAt?: number; appId?: string | null }): TokenRecord {
    const rec: TokenRecord = { issuedAt: this.clock.now(), revoked: false, appId: null, ...t };
    this.tokens.set(rec.token, rec);
    return rec;
  }

  newToken(prefix: string): string {
    return `${prefix}${randomBytes(24).toString('base64url')}`;
  }

  /**
   * The token's record, or a Graph 190 error. Sandbox tokens (`sandbox-…`) are accepted as
   * a long-lived token of whatever account the path names, so sandbox connections work
   * without a dialog.
   */
  authenticate(req: SimRequest, platform: SimPlatform, accountHint: string | null): TokenRecord {
    if (!req.token) fail(104, 'An access token is required to request this resource.', { type: 'OAuthException' });
    const rec = this.tokens.get(req.token);
    if (!rec) {
      if (this.acceptsSandboxToken(req.token)) {
        return { token: req.token, platform, kind: platform === 'facebook' ? 'fb_page' : platform === 'threads' ? 'threads_user' : 'ig_user', accountId: accountHint ?? sandboxUserId(req.token, platform), issuedAt: 0, expiresAt: null, longLived: true, revoked: false, appId: null };
      }
      fail(190, 'Invalid OAuth access token - Cannot parse access token');
    }
    if (rec.revoked) fail(190, 'Error validating access token: The user has not authorized application.', { subcode: 458 });
    if (rec.expiresAt !== null && this.clock.now() >= rec.expiresAt) {
      fail(190, `Error validating access token: Session has expired on ${new Date(rec.expiresAt).toUTCString()}.`, { subcode: 463 });
    }
    return rec;
  }

  /** The account a path id names, created on first use for sandbox tokens. */
  account(id: string, platform: SimPlatform, kind: SimAccount['kind'], token: TokenRecord): SimAccount {
    if (this.objects.get(id)?._type === DELETED) fail(100, `Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33 });
    let acc = this.accounts.get(id);
    if (!acc && this.isSandboxToken(token)) {
      acc = this.addAccount({ id, platform, kind, username: `sandbox_${id}`.replace(/[^A-Za-z0-9._]/g, '_').slice(0, 30), name: `Sandbox ${platform} ${id}`, sandboxKey: sandboxAccountKey(token.token) });
    }
    // One simulated account per sandbox connection: another connection's token may not act for it.
    if (acc && this.isSandboxToken(token) && acc.sandboxKey && sandboxAccountKey(token.token) !== acc.sandboxKey) fail(10, 'Application does not have permission for this action');
    if (!acc || acc.platform !== platform) fail(100, `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33 });
    if (!this.isSandboxToken(token) && !this.owns(token, acc)) fail(10, 'Application does not have permission for this action');
    return acc;
  }

  /** The account a path's id names, `me` being the token's own account; the token must be allowed to act for it. */
  pathAccount(req: SimRequest, id: string, platform: SimPlatform, kind: SimAccount['kind']): SimAccount {
    const tok = this.authenticate(req, platform, id === 'me' ? null : id);
    return this.account(id === 'me' ? tok.accountId : id, platform, kind, tok);
  }

  /** Account `id` (the owner of an object being read), which the request's token must be allowed to act for. */
  actingFor(req: SimRequest, id: string, platform: SimPlatform, kind: SimAccount['kind']): SimAccount {
    return this.account(id, platform, kind, this.authenticate(req, platform, id));
  }

  /** A token no dialog issued that sandbox connections carry (`sandbox_at_…`), when the config accepts them. */
  acceptsSandboxToken(token: string | null): boolean {
    return this.config.acceptSandboxTokens && token !== null && isSandboxToken(token);
  }

  isSandboxToken(token: TokenRecord): boolean {
    return !this.tokens.has(token.token);
  }

  owns(token: TokenRecord, acc: SimAccount): boolean {
    if (token.accountId === acc.id) return true;
    const owner = this.accounts.get(token.accountId);
    if (owner?.pageIds?.includes(acc.id)) return true;
    // Instagram via Facebook Login: the page (or its user) that links this IG account.
    for (const pageId of owner?.pageIds ?? [token.accountId]) if (this.accounts.get(pageId)?.linkedIgId === acc.id) return true;
    return false;
  }

  /** Publishes inside the moving window that ends now. */
  usage(times: number[], windowMs = DAY_MS): number {
    const since = this.clock.now() - windowMs;
    return times.filter((t) => t > since).length;
  }

  recordPost(post: Omit<SimPost, 'createdAt'>): SimPost {
    const full: SimPost = { ...post, createdAt: this.clock.now() };
    keepLatest(this.posts, full, KEPT_POSTS);
    this.#persistPost?.(full);
    // The sandbox's fault stage loses the answer of a call that made a post ("made but unanswered").
    noteMadePost();
    return full;
  }

  /** A post deleted (a take-down): marked removed here and in sandbox_posts. */
  removePost(platform: SimPlatform, postId: string): void {
    const now = this.clock.now();
    for (const p of this.posts) if (p.platform === platform && p.postId === postId && !p.removedAt) p.removedAt = now;
    this.#persistRemoval?.(platform, postId, now);
  }

  /** The processing error the next container of `platform` will end in, if one was injected. */
  takeProcessingFailure(platform: SimPlatform): string | null {
    const i = this.processingFailures.findIndex((f) => f.platform === platform);
    if (i < 0) return null;
    return (this.processingFailures.splice(i, 1)[0] as { message: string }).message;
  }

  /** Takes the first fault matching this request, counting its use. */
  takeFault(req: SimRequest): Fault | null {
    for (const f of this.faults) {
      if (f.host && f.host !== req.host) continue;
      if (f.method && f.method.toUpperCase() !== req.method) continue;
      if (f.path && !(typeof f.path === 'string' ? req.path.endsWith(f.path) : f.path.test(req.path))) continue;
      if (f.skip) {
        f.skip -= 1;
        return null;
      }
      f.times = (f.times ?? 1) - 1;
      if (f.times <= 0) this.faults.splice(this.faults.indexOf(f), 1);
      return f;
    }
    return null;
  }
}

/**
 * The numeric user id a sandbox token's `me` stands for: one per sandbox connection (its
 * account key, see sandboxAccountKey) and platform, the same after a restart.
 */
export function sandboxUserId(token: string, platform: SimPlatform): string {
  const digest = createHash('sha256').update(`${platform}:${sandboxAccountKey(token) ?? token}`).digest();
  return `${platform === 'threads' ? 2 : platform === 'instagram' ? 1 : 3}${(digest.readBigUInt64BE(0) % 10n ** 15n).toString().padStart(15, '0')}`;
}

/**
 * A route set: answers the request, or returns undefined when it is not its path.
 * Synchronous: it runs inside the request's transaction (MetaSimState.atomically).
 */
export type SimRoutes = (req: SimRequest, sim: MetaSimState) => unknown;

const REDACT = new Set(['access_token', 'client_secret', 'code', 'fb_exchange_token']);

/** Reads every parameter source of a request the way Graph does (query, form, JSON, multipart). */
export async function readSimRequest(c: Context, host: string, clock: Clock): Promise<SimRequest> {
  const url = new URL(c.req.url);
  const all = url.pathname.split('/');
  const hostIdx = all.indexOf(host);
  const rest = hostIdx >= 0 ? all.slice(hostIdx + 1) : all.slice(1);
  const prefix = hostIdx >= 0 ? all.slice(0, hostIdx).join('/') : '';
  let version: string | null = null;
  if (rest[0] && /^v\d+\.\d+$/.test(rest[0])) version = rest.shift() as string;
  const segments = rest.filter((s) => s !== '').map((s) => decodeURIComponent(s));
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((v, k) => (headers[k] = v));
  const files: SimRequest['files'] = {};
  let rawBody: Buffer | null = null;
  const type = headers['content-type'] ?? '';
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    if (type.startsWith('multipart/form-data')) {
      const form = await c.req.raw.formData();
      for (const [k, v] of form.entries()) {
        if (typeof v === 'string') params[k] = v;
        else files[k] = { size: v.size, type: v.type, name: v.name };
      }
    } else if (type.startsWith('application/json')) {
      const json = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
      for (const [k, v] of Object.entries(json)) params[k] = typeof v === 'string' ? v : JSON.stringify(v);
    } else if (type.startsWith('application/x-www-form-urlencoded')) {
      for (const [k, v] of new URLSearchParams(await c.req.text())) params[k] = v;
    } else {
      const { bytes } = await readBody(c);
      if (bytes.length > 0) rawBody = bytes;
    }
  }
  const auth = headers.authorization ?? '';
  const m = /^(?:Bearer|OAuth)\s+(.+)$/i.exec(auth);
  const token = m ? (m[1] as string).trim() : (params.access_token ?? null);
  // The token never lands in containers, records or sandbox posts.
  delete params.access_token;
  return { at: clock.now(), method: c.req.method, host, path: '/' + segments.join('/'), version, segments, params, headers, token, files, rawBody, selfBase: `${url.origin}${prefix}` };
}

export function recordOf(req: SimRequest, status: number): RecordedRequest {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.params)) params[k] = REDACT.has(k) ? '[redacted]' : v;
  const headers: Record<string, string> = {};
  for (const k of ['offset', 'file_size', 'file_url', 'file_offset', 'content-type']) if (req.headers[k] !== undefined) headers[k] = req.headers[k] as string;
  return { at: req.at, method: req.method, host: req.host, path: req.path, version: req.version, params, headers, bodyBytes: req.rawBody?.length ?? null, files: Object.keys(req.files), status };
}

/**
 * An edge listing the way Graph answers it: the objects `match` keeps, newest first, at
 * most `limit` of them (default 25, at most 100), each with the asked `fields` (else `defaults`).
 */
export function listEdge(sim: MetaSimState, req: SimRequest, match: (o: Record<string, unknown>) => boolean, defaults: string[]): { data: Record<string, unknown>[] } {
  const rows = [...sim.objects.values()]
    .filter(match)
    .reverse()
    .slice(0, Math.min(Number(req.params.limit ?? 25) || 25, 100))
    .map((o) => pickFields(o, req.params.fields, defaults));
  return { data: rows };
}

/** Picks `fields` out of an object the way Graph does (only what was asked, plus id). */
export function pickFields(obj: Record<string, unknown>, fields: string | undefined, defaults: string[]): Record<string, unknown> {
  const wanted = fields ? fields.split(',').map((f) => f.trim().replace(/\{.*$/, '')).filter(Boolean) : defaults;
  const out: Record<string, unknown> = { id: obj.id };
  for (const f of wanted) if (obj[f] !== undefined) out[f] = obj[f];
  return out;
}

export function isPublicHttpUrl(value: string | undefined): boolean {
  if (!value || !/^[\x20-\x7e]+$/.test(value)) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

export function bool(value: string | undefined, dflt: boolean): boolean {
  if (value === undefined) return dflt;
  return value === 'true' || value === '1';
}
