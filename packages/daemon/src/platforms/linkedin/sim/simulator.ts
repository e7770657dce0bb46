import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Clock } from '../../../util/clock';
import { isSandboxToken } from '../../shared/is-sandbox-token';
import { sandboxAccounts } from '../../shared/sim/sandbox-accounts';
import type { PostRemovalSink, SimulatedPost } from '../../shared/sim/sandbox-post-sink';
import { simState, type SimState } from '../../shared/sim/sim-state';
import { hostPath, recorder, recordOf, selfBase, SimulatorLog } from '../../shared/sim/simulator-recorder';
import { linkedinCommentRoutes, type CommentRecord } from './comments';
import { defaultVersion, LINKEDIN_VERSION_FORMAT, monthVersion } from '../api-version';
import { readCommentary } from './sim-text';
import { simFigures } from '../../shared/sim/sim-figures';

/**
 * A strict simulator of LinkedIn's 3-legged OAuth (www.linkedin.com) and the versioned
 * REST API socialpub uses (api.linkedin.com): userinfo, organizationAcls, organizations,
 * the Images, Videos and Documents upload flows, Posts (create, read, find by author,
 * delete) and socialActions comments. Errors are LinkedIn's
 * `{"status","serviceErrorCode","code","message"}`; `Linkedin-Version` is required and
 * checked against the versions active at the clock's date (426 NONEXISTENT_VERSION for a
 * retired one, and it can be told that versions retired early); a missing
 * `X-Restli-Protocol-Version: 2.0.0` is refused; posts per member per day are limited
 * (429). Each sandbox connection is its own member, administering two organizations.
 */

export const LINKEDIN_API_HOST = 'api.linkedin.com';
export const LINKEDIN_WWW_HOST = 'www.linkedin.com';

export interface SimMember {
  sub: string;
  name: string;
  /** Organization ids the member administers. */
  organizations: string[];
}

interface SimOrganization {
  id: string;
  name: string;
  vanityName: string;
}

interface TokenInfo {
  sub: string;
  scope: string;
  expiresAt: number;
}

interface UploadRecord {
  urn: string;
  kind: 'image' | 'video' | 'document';
  owner: string;
  /** Key of each upload URL -> expected byte range (videos) or the whole file. */
  parts: Array<{ key: string; firstByte: number; lastByte: number; etag: string | null }>;
  fileSizeBytes: number | null;
  mediaType: string | null;
  bytes: number;
  uploadedAt: number | null;
  finalizedAt: number | null;
  expiresAt: number;
}

interface PostRecord {
  id: string;
  author: string;
  commentary: string;
  visibility: string;
  content: Record<string, unknown> | null;
  distribution: Record<string, unknown>;
  lifecycleState: string;
  isReshareDisabledByAuthor: boolean;
  createdAt: number;
  /** The member who made it (an organization's post is made by one of its administrators). */
  by: string;
}

export interface LinkedinSimulatorOptions {
  clock: Clock;
  onPost?: (post: SimulatedPost) => void;
  onRemove?: PostRemovalSink;
  /** Where ids, members, tokens, uploads, posts and rate windows live (default: memory only). */
  state?: SimState;
  /** Video processing after finalizeUpload. Default 3 s. */
  processingMs?: number;
}

const DAY_MS = 86_400_000;
const PART_BYTES = 4 * 1024 * 1024;
const POST_KEYS = new Set(['author', 'commentary', 'visibility', 'distribution', 'content', 'lifecycleState', 'isReshareDisabledByAuthor', 'contentLandingPage', 'contentCallToActionLabel', 'adContext', 'container', 'reshareContext']);
const VISIBILITIES = new Set(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER']);
const RESERVED_MAX = 3000;
/** The scopes a sandbox connection's token holds (an app with Share on LinkedIn, Community Management and r_member_social). */
const SANDBOX_SCOPE = 'openid profile email w_member_social r_member_social w_organization_social r_organization_social rw_organization_admin r_member_postAnalytics';

const sniff = (b: Buffer): string | null => {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (b.length >= 5 && b.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (b.length >= 12 && b.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  return null;
};

export function createLinkedinSimulator(options: LinkedinSimulatorOptions) {
  const { clock } = options;
  const log = new SimulatorLog(options.onPost, options.onRemove);
  const state = options.state ?? simState(null, 'linkedin');
  // The writes that make or remove something, with their sandbox_posts row, in one transaction (SimState.atomically).
  const atomic = <T>(fn: () => T): T => state.atomically(fn);
  const settings: {
    processingMs: number;
    postsPerDay: number;
    /** Versions up to this one (YYYYMM) are retired, besides those older than a year. */
    retiredThrough: string | null;
    /** The newest version released; default: last month's. */
    newestVersion: string | null;
  } = { processingMs: options.processingMs ?? 3_000, postsPerDay: 150, retiredThrough: null, newestVersion: null };

  const members = state.map<SimMember>('members');
  const organizations = state.map<SimOrganization>('organizations');
  const tokens = state.map<TokenInfo>('tokens');
  const refreshTokens = state.map<{ sub: string; scope: string; clientId: string; expiresAt: number }>('refresh-tokens');
  // In the store, not this process's memory: the consent on one daemon, the exchange on another (sim-codes.ts).
  const codes = state.codes<{ clientId: string; redirectUri: string; sub: string; scope: string; expiresAt: number }>('codes');
  const uploads = state.map<UploadRecord>('uploads');
  const uploadKeys = state.map<string>('upload-keys');
  const posts = state.map<PostRecord>('posts');
  const comments = state.map<CommentRecord>('comments');
  // Counted in the database when several daemons' simulators share it: together they never pass a limit (sim-windows.ts).
  const windows = state.windows('windows');
  const nextId = state.counter('id', 7_300_000_000_000_000_000n);
  const nextOrg = state.counter('organization', 90_000_001n);

  function newMember(sub: string, name: string): SimMember {
    const orgs = [0, 1].map((i) => {
      const id = String(nextOrg());
      organizations.set(id, { id, name: `${name} ${i === 0 ? 'Studio' : 'Labs'}`, vanityName: `${sub.toLowerCase()}-${i === 0 ? 'studio' : 'labs'}` });
      return id;
    });
    const m = { sub, name, organizations: orgs };
    members.set(sub, m);
    return m;
  }
  const defaultMember = members.get('sbxDefault01') ?? newMember('sbxDefault01', 'Sandbox Member');
  const sandboxMember = sandboxAccounts(state, 'member', 1n, defaultMember.sub, { id: (n) => `sbxM${n}`, make: (sub, n) => void newMember(sub, `Sandbox Member ${n}`) });

  // ---- LinkedIn's error shape ------------------------------------------------------------

  const fail = (c: Context, status: number, code: string, message: string, serviceErrorCode?: number, headers: Record<string, string> = {}) =>
    c.body(JSON.stringify({ status, ...(serviceErrorCode !== undefined ? { serviceErrorCode } : {}), code, message }), status as 400, { 'content-type': 'application/json', ...headers });
  const oauthError = (c: Context, status: number, error: string, description: string) => c.json({ error, error_description: description }, status as 400);

  function activeVersions(): { oldest: string; newest: string } {
    const newest = settings.newestVersion ?? monthVersion(clock.now(), 1);
    return { newest, oldest: monthVersion(clock.now(), 12) };
  }

  /** The version check every /rest call passes: present, well formed, released and not retired. */
  function checkVersion(c: Context): Response | null {
    const v = c.req.header('linkedin-version');
    if (!v) return fail(c, 400, 'VERSION_MISSING', 'A version must be present. Please specify a version by adding the LinkedIn-Version header.');
    if (!LINKEDIN_VERSION_FORMAT.test(v)) return fail(c, 400, 'INVALID_VERSION', `Invalid version format: ${v}. The version must be in the format YYYYMM.`);
    const month = Number(v.slice(0, 6));
    const { oldest, newest } = activeVersions();
    const retired = settings.retiredThrough !== null && month <= Number(settings.retiredThrough);
    if (month < Number(oldest) || month > Number(newest) || retired) return fail(c, 426, 'NONEXISTENT_VERSION', `Requested version ${v} is not active`);
    return null;
  }

  function authenticate(c: Context): TokenInfo | null {
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer) return null;
    if (isSandboxToken(bearer)) return { sub: sandboxMember(bearer), scope: SANDBOX_SCOPE, expiresAt: Number.MAX_SAFE_INTEGER };
    const t = tokens.get(bearer);
    return t && t.expiresAt > clock.now() ? t : null;
  }

  const has = (t: TokenInfo, ...scopes: string[]) => scopes.some((s) => t.scope.split(' ').includes(s));
  const personUrn = (sub: string) => `urn:li:person:${sub}`;
  const administers = (sub: string, orgUrn: string) => members.get(sub)?.organizations.some((o) => `urn:li:organization:${o}` === orgUrn) ?? false;

  /** Whether the token's member may act as `author` (post, upload, comment, delete): itself with w_member_social, an organization it administers with w_organization_social. */
  function mayActAs(t: TokenInfo, author: string): 'ok' | 'scope' | 'not-admin' {
    if (author === personUrn(t.sub)) return has(t, 'w_member_social') ? 'ok' : 'scope';
    if (author.startsWith('urn:li:organization:')) return !has(t, 'w_organization_social') ? 'scope' : administers(t.sub, author) ? 'ok' : 'not-admin';
    return 'not-admin';
  }
  const denied = (c: Context, why: 'scope' | 'not-admin', author: string, what: string) =>
    why === 'scope'
      ? fail(c, 403, 'ACCESS_DENIED', `Not enough permissions to access: ${what}`, 100)
      : fail(c, 403, 'ACCESS_DENIED', `Member is not authorized to act as ${author} (${what})`, 100);

  function countPost(c: Context, sub: string): boolean {
    const now = clock.now();
    const day = Math.floor(now / DAY_MS) * DAY_MS;
    const w = windows.take(sub, { now, start: day, end: day + DAY_MS, limit: settings.postsPerDay });
    if (!w.allowed) return false;
    c.header('x-li-rate-remaining', String(settings.postsPerDay - w.used));
    return true;
  }

  // ---- www.linkedin.com: OAuth and upload URLs -------------------------------------------

  const www = new Hono();
  www.use('*', recorder(LINKEDIN_WWW_HOST, log, clock));

  // The consent page: the simulated member approves at once.
  www.get('/oauth/v2/authorization', (c) => {
    const q = c.req.query();
    if (q.response_type !== 'code') return c.text('response_type must be code', 400);
    if (!q.client_id || !q.redirect_uri) return c.text('client_id and redirect_uri are required', 400);
    if (!q.scope) return c.text('scope is required', 400);
    const code = `AQ${randomBytes(24).toString('base64url')}`;
    codes.issue(code, { clientId: q.client_id, redirectUri: q.redirect_uri, sub: defaultMember.sub, scope: q.scope.split(/[\s,]+/).join(' '), expiresAt: clock.now() + 30 * 60_000 }, clock.now());
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    if (q.state) target.searchParams.set('state', q.state);
    return c.redirect(target.toString(), 302);
  });

  function issue(clientId: string, sub: string, scope: string, refresh?: { token: string; expiresAt: number }) {
    const access = `AQV${randomBytes(30).toString('base64url')}`;
    tokens.set(access, { sub, scope, expiresAt: clock.now() + 60 * DAY_MS });
    const rt = refresh ?? { token: `AQX${randomBytes(30).toString('base64url')}`, expiresAt: clock.now() + 365 * DAY_MS };
    if (!refresh) refreshTokens.set(rt.token, { sub, scope, clientId, expiresAt: rt.expiresAt });
    return {
      access_token: access,
      expires_in: 60 * 86_400,
      refresh_token: rt.token,
      refresh_token_expires_in: Math.max(0, Math.floor((rt.expiresAt - clock.now()) / 1000)),
      scope,
      token_type: 'Bearer',
      ...(scope.split(' ').includes('openid') ? { id_token: `sim.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig` } : {}),
    };
  }

  www.post('/oauth/v2/accessToken', async (c) => {
    if (!(c.req.header('content-type') ?? '').includes('application/x-www-form-urlencoded')) return oauthError(c, 400, 'invalid_request', 'The content type must be application/x-www-form-urlencoded');
    const form = (await c.req.parseBody()) as Record<string, string>;
    const rec = recordOf(c);
    if (rec) rec.body = { ...form, ...(form.client_secret ? { client_secret: '…' } : {}) };
    if (!form.client_id || !form.client_secret) return oauthError(c, 401, 'invalid_client', 'Client authentication failed');
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt <= clock.now() || code.clientId !== form.client_id) return oauthError(c, 400, 'invalid_request', 'Unable to retrieve access token: authorization code not found');
      if (code.redirectUri !== form.redirect_uri) return oauthError(c, 400, 'invalid_redirect_uri', 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code');
      // Exchanged once, even when another daemon's simulator exchanges it at the same moment.
      if (!codes.take(form.code ?? '', clock.now())) return oauthError(c, 400, 'invalid_request', 'Unable to retrieve access token: authorization code not found');
      return c.json(issue(form.client_id, code.sub, code.scope));
    }
    if (form.grant_type === 'refresh_token') {
      const token = form.refresh_token ?? '';
      if (isSandboxToken(token)) return c.json(issue(form.client_id, sandboxMember(token), SANDBOX_SCOPE, { token, expiresAt: clock.now() + 300 * DAY_MS }));
      const rt = refreshTokens.get(token);
      if (!rt || rt.clientId !== form.client_id) return oauthError(c, 400, 'invalid_request', 'The provided refresh token is invalid');
      if (rt.expiresAt <= clock.now()) return oauthError(c, 400, 'invalid_grant', 'The provided refresh token has expired');
      // LinkedIn's refresh tokens do not rotate: the same one comes back with its remaining lifetime.
      return c.json(issue(form.client_id, rt.sub, rt.scope, { token, expiresAt: rt.expiresAt }));
    }
    return oauthError(c, 400, 'unsupported_grant_type', `grant_type ${form.grant_type ?? '(none)'} is not supported`);
  });

  /** PUT to an upload URL: the bytes of an image or document, or one part of a video (answered with its ETag). */
  async function receiveUpload(c: Context): Promise<Response> {
    const key = c.req.param('key') ?? '';
    const urn = uploadKeys.get(key);
    const u = urn ? uploads.get(urn) : undefined;
    if (!u) return fail(c, 404, 'NOT_FOUND', 'Upload URL not found or expired');
    const t = authenticate(c);
    if (!t) return fail(c, 401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
    if (u.expiresAt <= clock.now()) return fail(c, 400, 'UPLOAD_EXPIRED', 'The upload URL expired');
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const rec = recordOf(c);
    if (rec) rec.body = `<${bytes.length} bytes>`;
    const part = u.parts.find((p) => p.key === key)!;
    if (u.kind === 'video') {
      const want = part.lastByte - part.firstByte + 1;
      if (bytes.length !== want) return fail(c, 400, 'INVALID_PART', `Part has ${bytes.length} bytes; bytes ${part.firstByte}-${part.lastByte} (${want}) were expected`);
      if (part.firstByte === 0) u.mediaType = sniff(bytes);
      part.etag = `/ambry-video/signedId/${randomBytes(12).toString('base64url')}`;
      u.bytes = u.parts.reduce((n, p) => n + (p.etag ? p.lastByte - p.firstByte + 1 : 0), 0);
      uploads.set(u.urn, u);
      return c.body(null, 200, { etag: part.etag });
    }
    const type = sniff(bytes);
    if (u.kind === 'image' && !['image/jpeg', 'image/png', 'image/gif'].includes(type ?? '')) return fail(c, 400, 'INVALID_MEDIA', 'The image is not a JPEG, PNG or GIF');
    if (u.kind === 'document' && type !== 'application/pdf') return fail(c, 400, 'INVALID_MEDIA', 'The document is not a PDF, PPT, PPTX, DOC or DOCX');
    if (u.kind === 'document' && bytes.length > 100 * 1024 * 1024) return fail(c, 400, 'INVALID_MEDIA', 'Documents are limited to 100 MB');
    u.mediaType = type;
    u.bytes = bytes.length;
    u.uploadedAt = clock.now();
    uploads.set(u.urn, u);
    return c.body(null, 201);
  }
  www.put('/dms-uploads/:key', receiveUpload);

  // ---- api.linkedin.com --------------------------------------------------------------------

  const api = new Hono();
  api.use('*', recorder(LINKEDIN_API_HOST, log, clock));
  // The upload URLs handed out (LinkedIn's are on www.linkedin.com/dms-uploads; the simulator's on this host, so they are reachable however it is served).
  api.put('/dms-uploads/:key', receiveUpload);

  api.use('/rest/*', async (c, next) => {
    const versionProblem = checkVersion(c);
    if (versionProblem) return versionProblem;
    if (c.req.header('x-restli-protocol-version') !== '2.0.0') {
      return fail(c, 400, 'ILLEGAL_ARGUMENT', 'Rest.li protocol 2.0.0 is required for this resource: send the header X-Restli-Protocol-Version: 2.0.0', 100);
    }
    await next();
  });

  const auth = (c: Context): TokenInfo | Response => authenticate(c) ?? fail(c, 401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);

  api.get('/v2/userinfo', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    if (!has(t, 'openid')) return fail(c, 403, 'ACCESS_DENIED', 'Not enough permissions to access: userinfo.GET.NO_VERSION', 100);
    const m = members.get(t.sub)!;
    const [given, ...family] = m.name.split(' ');
    return c.json({ sub: m.sub, name: m.name, given_name: given, family_name: family.join(' '), picture: null, locale: { country: 'US', language: 'en' }, email_verified: true });
  });

  api.get('/rest/organizationAcls', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    const q = c.req.query();
    if (q.q !== 'roleAssignee') return fail(c, 400, 'ILLEGAL_ARGUMENT', `Unsupported finder: ${q.q ?? '(none)'}`, 100);
    if (!has(t, 'w_organization_social', 'r_organization_social', 'rw_organization_admin', 'r_organization_admin')) return fail(c, 403, 'ACCESS_DENIED', 'Not enough permissions to access: organizationAcls.FINDER-roleAssignee', 100);
    if (q.role && q.role !== 'ADMINISTRATOR') return c.json({ paging: { start: 0, count: 10, total: 0, links: [] }, elements: [] });
    if (q.state && q.state !== 'APPROVED') return c.json({ paging: { start: 0, count: 10, total: 0, links: [] }, elements: [] });
    const m = members.get(t.sub)!;
    const elements = m.organizations.map((o) => ({ roleAssignee: personUrn(m.sub), state: 'APPROVED', role: 'ADMINISTRATOR', organization: `urn:li:organization:${o}` }));
    return c.json({ paging: { start: 0, count: 10, total: elements.length, links: [] }, elements });
  });

  api.get('/rest/organizations/:id', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    const o = organizations.get(c.req.param('id'));
    if (!o) return fail(c, 404, 'NOT_FOUND', `Organization ${c.req.param('id')} not found`, 100);
    return c.json({ id: Number(o.id), localizedName: o.name, vanityName: o.vanityName, name: { localized: { en_US: o.name }, preferredLocale: { country: 'US', language: 'en' } } });
  });

  /** POST /rest/{images|videos|documents}?action=initializeUpload|finalizeUpload */
  function uploadResource(kind: UploadRecord['kind']) {
    return async (c: Context) => {
      const t = auth(c);
      if (t instanceof Response) return t;
      const body = (await c.req.json().catch(() => undefined)) as Record<string, Record<string, unknown>> | undefined;
      const rec = recordOf(c);
      if (rec) rec.body = body;
      const action = c.req.query('action');
      if (action === 'finalizeUpload' && kind === 'video') return finalizeVideo(c, t, body?.finalizeUploadRequest);
      if (action !== 'initializeUpload') return fail(c, 400, 'ILLEGAL_ARGUMENT', `Unsupported action: ${action ?? '(none)'}`, 100);
      const req = body?.initializeUploadRequest;
      if (!req || typeof req !== 'object') return fail(c, 422, 'UNPROCESSABLE_ENTITY', 'initializeUploadRequest is required', 100);
      const owner = req.owner;
      if (typeof owner !== 'string' || !/^urn:li:(person|organization):/.test(owner)) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/initializeUploadRequest/owner :: not a valid person or organization URN', 100);
      const may = mayActAs(t, owner);
      if (may !== 'ok') return denied(c, may, owner, `${kind}s.ACTION-initializeUpload`);
      // Upload URLs on the simulated api host itself: reachable however the simulator is served (under /sandbox or at its own origin).
      const uploadBase = selfBase(c, LINKEDIN_API_HOST);
      const id = `D${randomBytes(9).toString('base64url')}`;
      const prefix = kind === 'image' ? 'C4E' : kind === 'video' ? 'C5505' : 'D5510';
      const urn = `urn:li:${kind === 'image' ? 'image' : kind === 'video' ? 'video' : 'document'}:${prefix}${id}`;
      const expiresAt = clock.now() + DAY_MS;
      const newKey = () => randomBytes(18).toString('base64url');
      let parts: UploadRecord['parts'];
      let size: number | null = null;
      if (kind === 'video') {
        size = req.fileSizeBytes as number;
        if (!Number.isInteger(size) || size <= 0) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/initializeUploadRequest/fileSizeBytes :: a positive integer is required', 100);
        if (size < 75 * 1024 || size > 500 * 1024 * 1024) return fail(c, 400, 'INVALID_MEDIA', 'Videos must be 75 KB to 500 MB', 100);
        parts = [];
        for (let first = 0; first < size; first += PART_BYTES) parts.push({ key: newKey(), firstByte: first, lastByte: Math.min(size, first + PART_BYTES) - 1, etag: null });
      } else {
        parts = [{ key: newKey(), firstByte: 0, lastByte: -1, etag: null }];
      }
      const u: UploadRecord = { urn, kind, owner, parts, fileSizeBytes: size, mediaType: null, bytes: 0, uploadedAt: null, finalizedAt: null, expiresAt };
      uploads.set(urn, u);
      for (const p of parts) uploadKeys.set(p.key, urn);
      const url = (key: string) => `${uploadBase}/dms-uploads/${key}`;
      if (kind === 'video') {
        return c.json({ value: { uploadUrlsExpireAt: expiresAt, video: urn, uploadInstructions: parts.map((p) => ({ uploadUrl: url(p.key), firstByte: p.firstByte, lastByte: p.lastByte })), uploadToken: '' } });
      }
      return c.json({ value: { uploadUrlExpiresAt: expiresAt, uploadUrl: url(parts[0]!.key), [kind]: urn } });
    };
  }

  function finalizeVideo(c: Context, t: TokenInfo, req: Record<string, unknown> | undefined): Response {
    const urn = req?.video;
    const u = typeof urn === 'string' ? uploads.get(urn) : undefined;
    if (!u || u.kind !== 'video') return fail(c, 404, 'NOT_FOUND', `Video ${String(urn)} not found`, 100);
    const may = mayActAs(t, u.owner);
    if (may !== 'ok') return denied(c, may, u.owner, 'videos.ACTION-finalizeUpload');
    if (u.finalizedAt !== null) return fail(c, 400, 'ILLEGAL_STATE', 'The video upload was already finalized', 100);
    const ids = req?.uploadedPartIds;
    const etags = u.parts.map((p) => p.etag);
    if (!Array.isArray(ids) || ids.length !== etags.length || ids.some((x, i) => x !== etags[i])) {
      return fail(c, 400, 'INVALID_PART_IDS', `uploadedPartIds must list the ETag of each of the ${etags.length} parts, in order`, 100);
    }
    u.finalizedAt = clock.now();
    u.uploadedAt = clock.now();
    uploads.set(u.urn, u);
    return c.body(null, 200);
  }

  function uploadStatus(u: UploadRecord): string {
    if (u.kind === 'video') {
      if (u.finalizedAt === null) return 'WAITING_UPLOAD';
      if (u.mediaType !== 'video/mp4') return 'PROCESSING_FAILED';
      return clock.now() - u.finalizedAt < settings.processingMs ? 'PROCESSING' : 'AVAILABLE';
    }
    return u.uploadedAt === null ? 'WAITING_UPLOAD' : 'AVAILABLE';
  }

  function readUpload(kind: UploadRecord['kind']) {
    return (c: Context) => {
      const t = auth(c);
      if (t instanceof Response) return t;
      const urn = decodeURIComponent(c.req.param('urn') ?? '');
      const u = uploads.get(urn);
      if (!u || u.kind !== kind) return fail(c, 404, 'NOT_FOUND', `${urn} not found`, 100);
      const status = uploadStatus(u);
      const common = { id: u.urn, owner: u.owner, status };
      if (kind === 'image') return c.json({ ...common, downloadUrl: status === 'AVAILABLE' ? `https://media.licdn.com/dms/image/${u.urn.split(':').pop()}` : undefined });
      if (kind === 'video') return c.json({ ...common, duration: 0, aspectRatioWidth: 16, aspectRatioHeight: 9 });
      return c.json({ ...common, downloadUrl: status === 'AVAILABLE' ? `https://media.licdn.com/dms/document/${u.urn.split(':').pop()}` : undefined });
    };
  }

  api.post('/rest/images', uploadResource('image'));
  api.post('/rest/videos', uploadResource('video'));
  api.post('/rest/documents', uploadResource('document'));
  api.get('/rest/images/:urn', readUpload('image'));
  api.get('/rest/videos/:urn', readUpload('video'));
  api.get('/rest/documents/:urn', readUpload('document'));

  /** Checks a post's content; returns an error response or the media it uses. */
  function checkContent(c: Context, author: string, content: unknown): Response | UploadRecord[] {
    if (content === undefined) return [];
    if (!content || typeof content !== 'object' || Array.isArray(content)) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/content :: must be an object', 100);
    const ct = content as Record<string, unknown>;
    const keys = Object.keys(ct);
    if (keys.length !== 1 || !['media', 'multiImage', 'article', 'poll'].includes(keys[0]!)) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/content :: exactly one of media, multiImage, article, poll', 100);
    const lookup = (id: unknown, path: string): Response | UploadRecord => {
      const u = typeof id === 'string' ? uploads.get(id) : undefined;
      if (!u) return fail(c, 422, 'UNPROCESSABLE_ENTITY', `${path} :: ${String(id)} is not an uploaded image, video or document`, 100);
      if (u.owner !== author) return fail(c, 403, 'ACCESS_DENIED', `${path} :: ${u.urn} belongs to ${u.owner}, not the post's author`, 100);
      if (uploadStatus(u) !== 'AVAILABLE') return fail(c, 400, 'MEDIA_NOT_READY', `${path} :: ${u.urn} is ${uploadStatus(u)}, not AVAILABLE`, 100);
      return u;
    };
    if (ct.media) {
      const m = ct.media as Record<string, unknown>;
      const extra = Object.keys(m).filter((k) => !['id', 'title', 'altText'].includes(k));
      if (extra.length) return fail(c, 422, 'UNPROCESSABLE_ENTITY', `/content/media :: unknown field(s) ${extra.join(', ')}`, 100);
      const u = lookup(m.id, '/content/media/id');
      if (u instanceof Response) return u;
      if (u.kind === 'document' && (typeof m.title !== 'string' || m.title.trim() === '')) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/content/media/title :: a document post needs a title', 100);
      return [u];
    }
    if (ct.multiImage) {
      const images = (ct.multiImage as { images?: unknown }).images;
      if (!Array.isArray(images) || images.length < 2 || images.length > 20) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/content/multiImage/images :: 2 to 20 images', 100);
      const out: UploadRecord[] = [];
      for (const [i, img] of images.entries()) {
        const u = lookup((img as { id?: unknown })?.id, `/content/multiImage/images/${i}/id`);
        if (u instanceof Response) return u;
        if (u.kind !== 'image') return fail(c, 422, 'UNPROCESSABLE_ENTITY', `/content/multiImage/images/${i}/id :: only images go in a multi-image post`, 100);
        out.push(u);
      }
      return out;
    }
    return fail(c, 422, 'UNPROCESSABLE_ENTITY', `/content/${keys[0]} :: not supported by this simulator`, 100);
  }

  api.post('/rest/posts', async (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    const body = (await c.req.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const rec = recordOf(c);
    if (rec) rec.body = body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(c, 400, 'ILLEGAL_ARGUMENT', 'The request body must be a JSON object', 100);
    const unknown = Object.keys(body).filter((k) => !POST_KEYS.has(k));
    if (unknown.length) return fail(c, 422, 'UNPROCESSABLE_ENTITY', `Unrecognized field(s): ${unknown.join(', ')}`, 100);
    const author = body.author;
    if (typeof author !== 'string') return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/author :: field is required but not found and has no default value', 100);
    if (!VISIBILITIES.has(String(body.visibility))) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/visibility :: must be PUBLIC, CONNECTIONS, LOGGED_IN or CONTAINER', 100);
    const dist = body.distribution as Record<string, unknown> | undefined;
    if (!dist || !['MAIN_FEED', 'NONE'].includes(String(dist.feedDistribution))) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/distribution/feedDistribution :: field is required (MAIN_FEED or NONE)', 100);
    if (!['PUBLISHED', 'DRAFT'].includes(String(body.lifecycleState))) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/lifecycleState :: must be PUBLISHED or DRAFT', 100);
    const may = mayActAs(t, author);
    if (may !== 'ok') return denied(c, may, author, 'posts.CREATE');
    if (author.startsWith('urn:li:organization:') && body.visibility === 'CONNECTIONS') return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/visibility :: CONNECTIONS is for member authors', 100);
    const commentary = typeof body.commentary === 'string' ? body.commentary : '';
    const read = readCommentary(commentary);
    if (read.text.length > RESERVED_MAX) return fail(c, 422, 'UNPROCESSABLE_ENTITY', `/commentary :: length ${read.text.length} exceeds the maximum of ${RESERVED_MAX}`, 100);
    for (const m of read.mentions) {
      if (m.startsWith('urn:li:organization:') && !organizations.has(m.replace('urn:li:organization:', ''))) return fail(c, 422, 'UNPROCESSABLE_ENTITY', `/commentary :: mentioned entity ${m} does not exist`, 100);
    }
    const media = checkContent(c, author, body.content);
    if (media instanceof Response) return media;
    if (!countPost(c, t.sub)) return fail(c, 429, 'TOO_MANY_REQUESTS', 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.', 101);
    // The post and its sandbox_posts row commit together: a crash leaves both or neither.
    const id = atomic(() => {
      const urn = `urn:li:share:${nextId()}`;
      const post: PostRecord = {
        id: urn,
        author,
        commentary,
        visibility: String(body.visibility),
        content: (body.content as Record<string, unknown> | undefined) ?? null,
        distribution: dist,
        lifecycleState: String(body.lifecycleState),
        isReshareDisabledByAuthor: body.isReshareDisabledByAuthor === true,
        createdAt: clock.now(),
        by: t.sub,
      };
      posts.set(urn, post);
      log.addPost({
        platform: 'linkedin',
        accountId: author,
        postId: urn,
        postUrl: `https://www.linkedin.com/feed/update/${urn}/`,
        kind: media[0]?.kind === 'document' ? 'document' : media.length > 1 ? 'multi_image' : media[0] ? media[0].kind : 'text',
        body: {
          text: read.text,
          commentary,
          visibility: post.visibility,
          ...(read.mentions.length ? { mentions: read.mentions } : {}),
          ...(read.hashtags.length ? { hashtags: read.hashtags } : {}),
          media: media.map((m) => ({ id: m.urn, kind: m.kind, type: m.mediaType, bytes: m.bytes })),
          ...(media[0]?.kind === 'document' ? { title: (body.content as { media: { title: string } }).media.title } : {}),
        },
        createdAt: post.createdAt,
      });
      return urn;
    });
    return c.body(null, 201, { 'x-restli-id': id, 'x-linkedin-id': id });
  });

  const present = (p: PostRecord) => ({
    id: p.id,
    author: p.author,
    commentary: p.commentary,
    visibility: p.visibility,
    distribution: p.distribution,
    ...(p.content ? { content: p.content } : {}),
    lifecycleState: p.lifecycleState,
    isReshareDisabledByAuthor: p.isReshareDisabledByAuthor,
    createdAt: p.createdAt,
    publishedAt: p.createdAt,
    lastModifiedAt: p.createdAt,
    lifecycleStateInfo: { isEditedByAuthor: false },
  });

  /** Reading an author's posts: a member's need r_member_social (a restricted permission), an organization's r_organization_social and an admin role. */
  function mayRead(t: TokenInfo, author: string): boolean {
    if (author === personUrn(t.sub)) return has(t, 'r_member_social');
    return author.startsWith('urn:li:organization:') && has(t, 'r_organization_social') && administers(t.sub, author);
  }

  api.get('/rest/posts', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    const q = c.req.query();
    if (q.q !== 'author') return fail(c, 400, 'ILLEGAL_ARGUMENT', `Unsupported finder: ${q.q ?? '(none)'}`, 100);
    const author = q.author ?? '';
    if (!/^urn:li:(person|organization):/.test(author)) return fail(c, 400, 'ILLEGAL_ARGUMENT', `Invalid author URN: ${author}`, 100);
    if (!mayRead(t, author)) return fail(c, 403, 'ACCESS_DENIED', `Not enough permissions to access: posts.FINDER-author (${author})`, 100);
    const count = q.count === undefined ? 10 : Number(q.count);
    const start = q.start === undefined ? 0 : Number(q.start);
    if (!Number.isInteger(count) || count < 1 || count > 100 || !Number.isInteger(start) || start < 0) return fail(c, 400, 'ILLEGAL_ARGUMENT', 'count must be 1 to 100 and start a non-negative integer', 100);
    const mine = [...posts.values()].filter((p) => p.author === author).sort((a, b) => b.createdAt - a.createdAt || (BigInt(shareId(b.id)) > BigInt(shareId(a.id)) ? 1 : -1));
    return c.json({ paging: { start, count, total: mine.length, links: [] }, elements: mine.slice(start, start + count).map(present) });
  });

  api.get('/rest/posts/:urn', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    const urn = decodeURIComponent(c.req.param('urn'));
    const p = posts.get(urn);
    if (!p) return fail(c, 404, 'NOT_FOUND', `Post ${urn} not found`, 100);
    return c.json(present(p));
  });

  // Figures (docs/reference/platforms.md §18.5). An organization's posts: organizationalEntityShareStatistics with
  // shares=List(…) (rw_organization_admin and an administrator role); a member's own post: memberCreatorPostAnalytics
  // q=entity, one queryType a call (r_member_postAnalytics). Counts grow with the post's age.
  const figuresOf = (p: PostRecord) => simFigures(`linkedin:${p.id}`, clock.now() - p.createdAt);
  api.get('/rest/organizationalEntityShareStatistics', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    const q = c.req.query();
    if (q.q !== 'organizationalEntity') return fail(c, 400, 'ILLEGAL_ARGUMENT', `Unsupported finder: ${q.q ?? '(none)'}`, 100);
    const org = q.organizationalEntity ?? '';
    if (!/^urn:li:organization:\d+$/.test(org)) return fail(c, 400, 'ILLEGAL_ARGUMENT', `Invalid organizationalEntity: ${org}`, 100);
    if (!has(t, 'rw_organization_admin') || !administers(t.sub, org)) return fail(c, 403, 'ACCESS_DENIED', `Not enough permissions to access: organizationalEntityShareStatistics.FINDER-organizationalEntity (${org})`, 100);
    const list = /^List\((.*)\)$/.exec(q.shares ?? q.ugcPosts ?? '')?.[1];
    if (list === undefined) return fail(c, 400, 'ILLEGAL_ARGUMENT', 'shares must be a Rest.li list: shares=List(urn%3Ali%3Ashare%3A…)', 100);
    const urns = list.split(',').filter((u) => u !== '');
    const elements = urns.flatMap((urn) => {
      const p = posts.get(urn);
      if (!p || p.author !== org) return [];
      const f = figuresOf(p);
      const totalShareStatistics = {
        uniqueImpressionsCount: f.reach,
        shareCount: f.reposts,
        engagement: f.impressions === 0 ? 0 : (f.likes + f.replies + f.reposts + f.linkClicks) / f.impressions,
        clickCount: f.linkClicks,
        likeCount: f.likes,
        impressionCount: f.impressions,
        commentCount: f.replies,
      };
      return [{ organizationalEntity: org, [urn.startsWith('urn:li:ugcPost:') ? 'ugcPost' : 'share']: urn, totalShareStatistics }];
    });
    return c.json({ paging: { start: 0, count: elements.length, links: [] }, elements });
  });

  const CREATOR_METRICS = ['IMPRESSION', 'MEMBERS_REACHED', 'RESHARE', 'REACTION', 'COMMENT'] as const;
  api.get('/rest/memberCreatorPostAnalytics', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    if (!has(t, 'r_member_postAnalytics')) return fail(c, 403, 'ACCESS_DENIED', 'Not enough permissions to access: memberCreatorPostAnalytics.FINDER-entity', 100);
    const q = c.req.query();
    if (q.q !== 'entity') return fail(c, 400, 'ILLEGAL_ARGUMENT', `Unsupported finder: ${q.q ?? '(none)'}`, 100);
    const urn = /^\((?:share|ugc):(urn:li:(?:share|ugcPost):\d+)\)$/.exec(q.entity ?? '')?.[1];
    if (!urn) return fail(c, 400, 'ILLEGAL_ARGUMENT', `Invalid entity: ${q.entity ?? '(none)'} (entity=(share:urn%3Ali%3Ashare%3A…))`, 100);
    const type = q.queryType as (typeof CREATOR_METRICS)[number];
    if (!CREATOR_METRICS.includes(type)) return fail(c, 400, 'ILLEGAL_ARGUMENT', `Invalid queryType: ${q.queryType ?? '(none)'} (one of ${CREATOR_METRICS.join(', ')})`, 100);
    if ((q.aggregation ?? 'TOTAL') !== 'TOTAL') return fail(c, 400, 'ILLEGAL_ARGUMENT', 'aggregation must be TOTAL for a single post', 100);
    const p = posts.get(urn);
    if (!p) return fail(c, 404, 'NOT_FOUND', `Post ${urn} not found`, 100);
    if (p.author !== personUrn(t.sub)) return fail(c, 403, 'ACCESS_DENIED', `Member is not the author of ${urn}`, 100);
    const f = figuresOf(p);
    const count = { IMPRESSION: f.impressions, MEMBERS_REACHED: f.reach, RESHARE: f.reposts, REACTION: f.likes, COMMENT: f.replies }[type];
    return c.json({
      paging: { start: 0, count: 1, links: [] },
      elements: [{ count, metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': type }, targetEntity: { share: urn } }],
    });
  });

  api.delete('/rest/posts/:urn', (c) => {
    const t = auth(c);
    if (t instanceof Response) return t;
    const urn = decodeURIComponent(c.req.param('urn'));
    const p = posts.get(urn);
    if (!p) return fail(c, 404, 'NOT_FOUND', `Post ${urn} not found`, 100);
    const may = mayActAs(t, p.author);
    if (may !== 'ok') return denied(c, may, p.author, 'posts.DELETE');
    atomic(() => {
      posts.delete(urn);
      log.removePost('linkedin', urn, clock.now());
    });
    return c.body(null, 204);
  });

  linkedinCommentRoutes({
    api,
    clock,
    comments,
    atomic,
    nextId,
    auth,
    fail,
    mayActAs,
    denied,
    post: (urn) => posts.get(urn),
    readerActor: (username, name) => personUrn(members.get(`reader-${username}`)?.sub ?? newMember(`reader-${username}`, name).sub),
    isSandboxAuthor: (author) => !author.startsWith('urn:li:person:reader-'),
  });

  const notFound = (c: Context, host: string) => fail(c, 404, 'NOT_FOUND', `No resource at ${c.req.method} ${hostPath(c, host)}`, 100);
  api.all('*', (c) => notFound(c, LINKEDIN_API_HOST));
  www.all('*', (c) => notFound(c, LINKEDIN_WWW_HOST));

  return {
    api,
    www,
    log,
    settings,
    defaultMember,
    member: (sub: string) => members.get(sub),
    organization: (id: string) => organizations.get(id),
    posts: () => [...posts.values()],
    comments: () => [...comments.values()],
    upload: (urn: string) => uploads.get(urn),
    /** The version a client defaulting from the date sends now. */
    defaultVersion: () => defaultVersion(clock.now()),
    /** Tells the simulator that every version up to `version` (YYYYMM) has retired. */
    retireThrough(version: string | null): void {
      settings.retiredThrough = version;
    },
    /** Issues tokens directly (as if the member had consented). */
    issueTokens(clientId: string, scope = SANDBOX_SCOPE, sub = defaultMember.sub) {
      return issue(clientId, sub, scope);
    },
  };
}

export type LinkedinSimulator = ReturnType<typeof createLinkedinSimulator>;

/** The number of `urn:li:share:N` (newest first among posts made in the same millisecond). */
const shareId = (urn: string) => urn.split(':').pop() ?? '0';
