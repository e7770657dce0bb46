import type { MediaItem, PublishContext } from '../adapter';
import { PermanentError, RetryableError } from '../errors';
import { readMediaChunk } from '../shared/read-media-chunk';
import { header } from '../shared/response-header';
import { encodeUrn, LINKEDIN_API_HOST, type LinkedinSession } from './linkedin-session';

/** What the checkpoint keeps of one upload, so a resumed attempt goes on instead of uploading again. */
export interface UploadCheckpoint {
  urn: string;
  kind: 'image' | 'video' | 'document';
  /** initialized: upload URL(s) handed out; uploaded: bytes sent (and a video finalized); ready: AVAILABLE. */
  state: 'initialized' | 'uploaded' | 'ready';
  uploadUrl?: string;
  /** Video: LinkedIn's parts and the ETag of each part sent. */
  parts?: Array<{ uploadUrl: string; firstByte: number; lastByte: number }>;
  etags?: string[];
  uploadToken?: string;
  /** Epoch ms after which the upload URL(s) no longer work. */
  expiresAt: number;
}

export interface UploadDeps {
  /** Give up waiting for LinkedIn's processing after this long. Default 30 minutes. */
  maxProcessingMs?: number;
  /** Between status checks. Default 2 s. */
  pollMs?: number;
}

type Resource = 'images' | 'videos' | 'documents';
const RESOURCE: Record<UploadCheckpoint['kind'], Resource> = { image: 'images', video: 'videos', document: 'documents' };

/**
 * An upload URL is only used when it is LinkedIn's (https on linkedin.com) or, for a
 * sandbox connection, the simulator's own origin: the daemon never PUTs a member's file
 * to an address an answer merely named.
 */
export function checkUploadUrl(ctx: PublishContext, url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PermanentError(`LinkedIn handed out an upload URL that is not a URL: ${url.slice(0, 100)}`, { platformCode: 'bad-upload-url' });
  }
  const sandbox = ctx.credentials.mode === 'sandbox' && u.origin === new URL(ctx.baseUrl(LINKEDIN_API_HOST)).origin;
  const linkedin = u.protocol === 'https:' && (u.hostname === 'linkedin.com' || u.hostname.endsWith('.linkedin.com') || u.hostname.endsWith('.licdn.com'));
  if (!sandbox && !linkedin) throw new PermanentError(`LinkedIn handed out an upload URL outside LinkedIn (${u.host}); not uploading there`, { platformCode: 'bad-upload-url' });
}

/**
 * Uploads a target's media through the Images, Videos and Documents APIs
 * (`initializeUpload`, the PUT to the upload URL, a video's `finalizeUpload`), each step
 * checkpointed, then waits until LinkedIn reports each AVAILABLE. Returns the URNs in order.
 */
export async function uploadMedia(ctx: PublishContext, session: LinkedinSession, owner: string, deps: UploadDeps = {}): Promise<string[]> {
  const urns: string[] = [];
  for (const [index, item] of ctx.media.entries()) {
    const kind: UploadCheckpoint['kind'] = ctx.target.type === 'document' ? 'document' : item.kind === 'video' ? 'video' : 'image';
    urns.push(await uploadOne(ctx, session, owner, item, index, kind, deps));
  }
  return urns;
}

const uploads = (ctx: PublishContext) => (ctx.checkpoint.data.uploads ?? {}) as Record<string, UploadCheckpoint>;
const saveUpload = (ctx: PublishContext, index: number, u: UploadCheckpoint) => ctx.checkpoint.save({ uploads: { ...uploads(ctx), [String(index)]: u } });

async function uploadOne(ctx: PublishContext, session: LinkedinSession, owner: string, item: MediaItem, index: number, kind: UploadCheckpoint['kind'], deps: UploadDeps): Promise<string> {
  let u = uploads(ctx)[String(index)];
  if (u?.state === 'ready') return u.urn;
  // Upload URLs live a day or so; an expired one means starting that item again.
  if (u && u.state === 'initialized' && u.expiresAt <= ctx.clock.now() + 60_000) u = undefined;
  if (!u) u = await initialize(ctx, session, owner, item, index, kind);
  if (u.state === 'initialized') u = await send(ctx, session, item, index, u);
  await waitAvailable(ctx, session, u, index, deps);
  const ready: UploadCheckpoint = { urn: u.urn, kind: u.kind, state: 'ready', expiresAt: u.expiresAt };
  await saveUpload(ctx, index, ready);
  return u.urn;
}

async function initialize(ctx: PublishContext, session: LinkedinSession, owner: string, item: MediaItem, index: number, kind: UploadCheckpoint['kind']): Promise<UploadCheckpoint> {
  const resource = RESOURCE[kind];
  const request = kind === 'video' ? { owner, fileSizeBytes: item.size, uploadCaptions: false, uploadThumbnail: false } : { owner };
  const res = await session.call(`${kind} upload initialize`, false, (c) =>
    c.request<{ value: Record<string, unknown> }>(`/rest/${resource}`, { method: 'POST', query: { action: 'initializeUpload' }, json: { initializeUploadRequest: request } }),
  );
  const v = res.body.value ?? {};
  let u: UploadCheckpoint;
  if (kind === 'video') {
    const parts = ((v.uploadInstructions ?? []) as Array<{ uploadUrl: string; firstByte: number; lastByte: number }>).map((p) => ({ uploadUrl: p.uploadUrl, firstByte: p.firstByte, lastByte: p.lastByte }));
    if (typeof v.video !== 'string' || parts.length === 0) throw new RetryableError('LinkedIn answered the video initializeUpload without a video or upload instructions', { platformCode: 'bad-answer' });
    for (const p of parts) checkUploadUrl(ctx, p.uploadUrl);
    u = { urn: v.video, kind, state: 'initialized', parts, etags: [], uploadToken: typeof v.uploadToken === 'string' ? v.uploadToken : '', expiresAt: Number(v.uploadUrlsExpireAt) || ctx.clock.now() + 3_600_000 };
  } else {
    const urn = v[kind === 'image' ? 'image' : 'document'];
    if (typeof urn !== 'string' || typeof v.uploadUrl !== 'string') throw new RetryableError(`LinkedIn answered the ${kind} initializeUpload without an upload URL`, { platformCode: 'bad-answer' });
    checkUploadUrl(ctx, v.uploadUrl);
    u = { urn, kind, state: 'initialized', uploadUrl: v.uploadUrl, expiresAt: Number(v.uploadUrlExpiresAt) || ctx.clock.now() + 3_600_000 };
  }
  await saveUpload(ctx, index, u);
  return u;
}

async function send(ctx: PublishContext, session: LinkedinSession, item: MediaItem, index: number, u: UploadCheckpoint): Promise<UploadCheckpoint> {
  if (u.kind !== 'video') {
    const bytes = await readMediaChunk(item, 0, item.size);
    // A PUT of the whole file replaces what an interrupted one left: safe to repeat.
    await session.call(`${u.kind} upload`, false, (c) => c.upload(u.uploadUrl as string, bytes, u.kind === 'document' ? 'application/pdf' : item.mimeType));
    const next: UploadCheckpoint = { ...u, state: 'uploaded' };
    await saveUpload(ctx, index, next);
    return next;
  }
  const parts = u.parts ?? [];
  const etags = [...(u.etags ?? [])];
  for (let i = etags.length; i < parts.length; i++) {
    const p = parts[i]!;
    const bytes = await readMediaChunk(item, p.firstByte, p.lastByte - p.firstByte + 1);
    const res = await session.call(`video part ${i + 1} upload`, false, (c) => c.upload(p.uploadUrl, bytes, 'application/octet-stream'));
    const etag = header(res.headers, 'etag');
    if (!etag) throw new RetryableError(`LinkedIn answered video part ${i + 1} without an ETag`, { platformCode: 'bad-answer' });
    etags.push(etag);
    await saveUpload(ctx, index, { ...u, etags });
  }
  // After a crash between finalizeUpload and its record the video is past WAITING_UPLOAD: not finalized twice.
  const status = await session.call('video status', false, (c) => c.request<{ status?: string }>(`/rest/videos/${encodeUrn(u.urn)}`, { method: 'GET' }));
  if (status.body.status === 'WAITING_UPLOAD') await session.call('video finalize', false, (c) =>
    c.request(`/rest/videos`, { method: 'POST', query: { action: 'finalizeUpload' }, json: { finalizeUploadRequest: { video: u.urn, uploadToken: u.uploadToken ?? '', uploadedPartIds: etags } } }),
  );
  const next: UploadCheckpoint = { ...u, etags, state: 'uploaded' };
  await saveUpload(ctx, index, next);
  return next;
}

/** Polls GET /rest/{images|videos|documents}/{urn} until AVAILABLE. */
async function waitAvailable(ctx: PublishContext, session: LinkedinSession, u: UploadCheckpoint, index: number, deps: UploadDeps): Promise<void> {
  const deadline = ctx.clock.now() + (deps.maxProcessingMs ?? 30 * 60_000);
  for (;;) {
    const res = await session.call(`${u.kind} status`, false, (c) => c.request<{ status?: string }>(`/rest/${RESOURCE[u.kind]}/${encodeUrn(u.urn)}`, { method: 'GET' }));
    const status = res.body.status;
    if (status === 'AVAILABLE') return;
    if (status === 'PROCESSING_FAILED') throw new PermanentError(`LinkedIn could not process media ${index + 1} (${u.kind} ${u.urn}): PROCESSING_FAILED`, { platformCode: 'PROCESSING_FAILED' });
    if (ctx.clock.now() >= deadline) throw new RetryableError(`LinkedIn is still processing media ${index + 1} (${status ?? 'no status'})`, { platformCode: 'PROCESSING' });
    await ctx.clock.sleep(deps.pollMs ?? 2_000, ctx.signal);
  }
}
