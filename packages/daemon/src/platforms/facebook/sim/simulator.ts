import { bool, DAY_MS, fail, GraphFail, granted, graphTime, isPublicHttpUrl, pickFields, type MetaSimState, type SimAccount, type SimRequest, type TokenRecord } from '../../meta/sim/core';

/**
 * graph.facebook.com / graph-video.facebook.com / rupload.facebook.com for Pages, strict
 * per docs/reference/platforms.md §2 and §9: page tokens, feed/photos/videos, unpublished photos for
 * multi-photo posts and photo stories, video_reels and video_stories start / upload /
 * finish with rupload offsets, the 30-per-24 h reels quota, 506 on a consecutive
 * duplicate, /stories and /feed for reconciliation.
 */

interface FbPhoto extends Record<string, unknown> {
  _type: 'fb_photo';
  id: string;
  pageId: string;
  published: boolean;
  postId: string | null;
  usedBy: string | null;
  source: string;
}

interface FbVideo extends Record<string, unknown> {
  _type: 'fb_video';
  id: string;
  pageId: string;
  kind: 'reel' | 'story' | 'video';
  fileSize: number | null;
  uploaded: number;
  uploadComplete: boolean;
  readyAt: number | null;
  error: string | null;
  publishStatus: 'draft' | 'published' | 'scheduled';
  publishTime: number | null;
  postId: string | null;
  source: string | null;
}

export function facebookRoutes(req: SimRequest, sim: MetaSimState): unknown {
  if (req.host === 'rupload.facebook.com') return rupload(req, sim);
  const [id, edge, extra] = req.segments;
  if (!id || extra !== undefined) return undefined;
  if (id === 'oauth' || id === 'debug_token') return undefined;
  if (id === 'me' && !edge && req.method === 'GET') {
    const tok = sim.authenticate(req, 'facebook', null);
    const acc = sim.accounts.get(tok.accountId);
    return pickFields({ id: tok.accountId, name: acc?.name ?? 'Sandbox user' }, req.params.fields, ['id', 'name']);
  }
  if (id === 'me' && edge === 'accounts' && req.method === 'GET') return myPages(req, sim);
  const obj = sim.objects.get(id);
  if (!edge && req.method === 'GET' && obj && String(obj._type).startsWith('fb_')) {
    const pageId = String(obj.pageId);
    sim.actingFor(req, pageId, 'facebook', 'fb_page');
    if (obj._type === 'fb_video') return pickFields({ ...obj, status: videoStatus(sim, obj as FbVideo), permalink_url: `https://www.facebook.com/reel/${String(obj.id)}` }, req.params.fields, ['id']);
    return pickFields(obj, req.params.fields, ['id']);
  }
  const known = sim.accounts.get(id);
  if (known && known.platform !== 'facebook') return undefined;
  const pageEdges = ['feed', 'photos', 'videos', 'video_reels', 'video_stories', 'photo_stories', 'stories', 'published_posts'];
  if (edge && !pageEdges.includes(edge)) return undefined;
  if (!edge && req.method === 'GET') {
    // A sandbox token makes any unknown numeric id its page; a page post id (`<page>_<post>`) is no page, so a deleted or unknown post is Graph's "does not exist".
    if (!known && (id.includes('_') || !sim.acceptsSandboxToken(req.token))) return undefined;
    const tok = auth(req, sim, id);
    const p = page(sim, id, tok);
    const view: Record<string, unknown> = { id: p.id, name: p.name };
    if (p.linkedIgId) {
      const igAcc = sim.accounts.get(p.linkedIgId);
      view.instagram_business_account = { id: p.linkedIgId, username: igAcc?.username };
    }
    if (tok.kind === 'fb_user') view.access_token = pageToken(sim, tok, p.id);
    return pickFields(view, req.params.fields, ['id', 'name']);
  }
  if (!edge) return undefined;
  const tok = auth(req, sim, id);
  if (tok.kind === 'fb_user' && req.method === 'POST') fail(200, '(#200) Publishing to a Page requires a Page access token.', { type: 'OAuthException' });
  const p = page(sim, id, tok);
  if (req.method === 'POST') {
    switch (edge) {
      case 'feed':
        return createFeedPost(req, sim, p);
      case 'photos':
        return createPhoto(req, sim, p);
      case 'videos':
        return createVideo(req, sim, p);
      case 'video_reels':
        return videoPhase(req, sim, p, 'reel');
      case 'video_stories':
        return videoPhase(req, sim, p, 'story');
      case 'photo_stories':
        return photoStory(req, sim, p);
    }
  }
  if (req.method === 'GET' && (edge === 'feed' || edge === 'published_posts')) return pagePosts(req, sim, p);
  if (req.method === 'GET' && edge === 'stories') {
    const rows = [...sim.objects.values()]
      .filter((o) => o._type === 'fb_story' && o.pageId === p.id)
      .reverse()
      .map((o) => ({ post_id: o.post_id, status: Number(o.createdAt) > sim.clock.now() - DAY_MS ? 'PUBLISHED' : 'ARCHIVED', creation_time: o.creation_time, media_type: o.media_type, media_id: o.media_id, url: o.url }));
    return { data: rows };
  }
  return fail(100, `Unsupported ${req.method} request.`, { subcode: 33 });
}

function auth(req: SimRequest, sim: MetaSimState, hint: string | null): TokenRecord {
  return sim.authenticate(req, 'facebook', hint);
}

function page(sim: MetaSimState, id: string, tok: TokenRecord): SimAccount {
  return sim.account(id, 'facebook', 'fb_page', tok);
}

/** A stable page token per (user, page, grant), as /me/accounts hands out: it carries the user's grant. */
function pageToken(sim: MetaSimState, userTok: TokenRecord, pageId: string): string {
  const grant = userTok.scopes?.join(',');
  for (const t of sim.tokens.values()) if (t.kind === 'fb_page' && t.accountId === pageId && !t.revoked && t.appId === userTok.appId && t.scopes?.join(',') === grant) return t.token;
  return sim.issueToken({ token: sim.newToken('EAAP'), platform: 'facebook', kind: 'fb_page', accountId: pageId, expiresAt: null, longLived: true, appId: userTok.appId, ...granted(userTok.scopes) }).token;
}

function myPages(req: SimRequest, sim: MetaSimState): unknown {
  const tok = auth(req, sim, null);
  const user = sim.accounts.get(tok.accountId);
  const rows = (user?.pageIds ?? []).map((pid) => {
    const pg = sim.accounts.get(pid) as SimAccount;
    return pickFields({ id: pid, name: pg.name, access_token: pageToken(sim, tok, pid), tasks: ['CREATE_CONTENT', 'MANAGE'] }, req.params.fields, ['id', 'name', 'access_token']);
  });
  return { data: rows };
}

function nowIso(sim: MetaSimState): string {
  return graphTime(sim.clock.now());
}

/**
 * Each page's latest post (its key in `sim.objects`), for the duplicate-message rule: found
 * by one scan of the objects per page, then kept as posts are made, instead of a scan of
 * every object the simulator ever made on each new post.
 */
const latestPosts = new WeakMap<MetaSimState, Map<string, string>>();

function latestPost(sim: MetaSimState, pageId: string): Record<string, unknown> | undefined {
  let latest = latestPosts.get(sim);
  if (!latest) {
    const made = new Map<string, string>();
    latestPosts.set(sim, (latest = made));
    // A post another daemon's simulator made (one PostgreSQL database) is the page's latest when newer.
    sim.objects.onOutsideChange((key, o) => {
      if (o?._type !== 'fb_post') return;
      const pageId = String(o.pageId);
      const known = made.get(pageId);
      const current = known === undefined ? undefined : sim.objects.get(known);
      if (current?._type !== 'fb_post' || Number(current.createdAt) <= Number(o.createdAt)) made.set(pageId, key);
    });
  }
  const key = latest.get(pageId);
  const known = key === undefined ? undefined : sim.objects.get(key);
  // A deleted post leaves a tombstone under its key (meta/sim/deletion.ts): no longer the page's.
  if (known?._type === 'fb_post') return known;
  // Not known yet (or deleted since): the newest post of the page that is left.
  const entries = [...sim.objects.entries()];
  for (let i = entries.length - 1; i >= 0; i--) {
    const [k, o] = entries[i]!;
    if (o._type === 'fb_post' && o.pageId === pageId) {
      latest.set(pageId, k);
      return o;
    }
  }
  latest.delete(pageId);
  return undefined;
}

function newPost(sim: MetaSimState, p: SimAccount, fields: Record<string, unknown>, kind: string, body: Record<string, unknown>, url?: string, id?: string): string {
  const postId = id ?? `${p.id}_${sim.newId('10')}`;
  const permalink = url ?? `https://www.facebook.com/${postId}`;
  // A video's post shares the video's id; the video object keeps that id in the map (GET /{video-id} reads its status).
  const key = id ? `post:${postId}` : postId;
  sim.objects.set(key, { _type: 'fb_post', id: postId, pageId: p.id, created_time: nowIso(sim), permalink_url: permalink, createdAt: sim.clock.now(), ...fields });
  latestPosts.get(sim)?.set(p.id, key);
  sim.recordPost({ platform: 'facebook', accountId: p.id, postId, postUrl: permalink, kind, body });
  return postId;
}

function attachedMedia(params: Record<string, string>): string[] {
  const entries: unknown[] = [];
  if (params.attached_media) {
    try {
      const parsed: unknown = JSON.parse(params.attached_media);
      if (Array.isArray(parsed)) entries.push(...parsed);
    } catch {
      fail(100, 'Param attached_media must be a JSON array of {"media_fbid": id}.');
    }
  }
  for (const [k, v] of Object.entries(params)) {
    if (/^attached_media\[\d+\]$/.test(k)) {
      try {
        entries.push(JSON.parse(v));
      } catch {
        fail(100, `Param ${k} must be {"media_fbid": id}.`);
      }
    }
  }
  return entries.map((e) => String((e as { media_fbid?: unknown }).media_fbid ?? ''));
}

function createFeedPost(req: SimRequest, sim: MetaSimState, p: SimAccount): unknown {
  const { message, link } = req.params;
  // Checked before anything is made: a refused field makes no post.
  const answer = readAfterWrite(req);
  const media = attachedMedia(req.params);
  if (!message && !link && media.length === 0) fail(100, '(#100) The message, link or attached_media parameter is required.');
  if (link && !isPublicHttpUrl(link)) fail(100, '(#100) The link is invalid.', { subcode: 2061006 });
  checkPlace(req.params.place);
  if (req.params.published === 'false' && !req.params.scheduled_publish_time) fail(100, '(#100) Unpublished posts need scheduled_publish_time.');
  for (const fbid of media) {
    const ph = sim.objects.get(fbid) as FbPhoto | undefined;
    if (!ph || ph._type !== 'fb_photo' || ph.pageId !== p.id) fail(100, `(#100) attached_media ${fbid} is not a photo of this page.`);
    if (ph.published || ph.usedBy) fail(100, '(#100) These photos were already posted.', { subcode: 1366051 });
  }
  const last = latestPost(sim, p.id);
  if (message && media.length === 0 && !link && last && last.message === message && !last.link && !(last.attachments as unknown[] | undefined)?.length) {
    fail(506, '(#506) Duplicate status message');
  }
  const { place } = req.params;
  const id = newPost(sim, p, { message, link, place, attachments: media }, media.length ? 'photos' : link ? 'link' : 'text', { message: message ?? null, link: link ?? null, media, ...(place ? { options: { place } } : {}) });
  for (const fbid of media) {
    const ph = sim.objects.get(fbid) as FbPhoto;
    ph.usedBy = id;
  }
  return answer(sim.objects.get(id) as Record<string, unknown>);
}

/**
 * Graph's read-after-write: a create call with `fields` answers the new post with those
 * fields (docs/reference/platforms.md §2, Permalinks: `fields=id,permalink_url` on the
 * create call, as Postiz does) instead of `{id}` alone; an unknown field is Graph's error,
 * as on a read.
 */
function readAfterWrite(req: SimRequest): (post: Record<string, unknown>) => Record<string, unknown> {
  const fields = (req.params.fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  for (const f of fields) if (!POST_FIELDS.has(f)) fail(100, `(#100) Tried accessing nonexisting field (${f}) on node type (PagePost)`);
  return (post) => {
    const out: Record<string, unknown> = { id: post.id };
    for (const f of fields) if (post[f] !== undefined) out[f] = post[f];
    return out;
  };
}

function sourceOf(req: SimRequest, urlParam: string): string {
  if (req.files.source) return `upload:${req.files.source.size} bytes`;
  const url = req.params[urlParam];
  if (url === undefined) fail(100, `(#100) Either source or ${urlParam} is required.`);
  if (!isPublicHttpUrl(url)) fail(100, '(#100) The media could not be fetched from this URI.', { subcode: 2061006 });
  return url;
}

function createPhoto(req: SimRequest, sim: MetaSimState, p: SimAccount): unknown {
  const source = sourceOf(req, 'url');
  checkPlace(req.params.place);
  if (req.files.source && req.files.source.size > 10 * 1024 * 1024) fail(100, 'Photos should be smaller than 4 MB and saved as JPG, PNG', { subcode: 1366046 });
  const published = bool(req.params.published, true);
  const photo: FbPhoto = { _type: 'fb_photo', id: sim.newId('12'), pageId: p.id, published, postId: null, usedBy: null, source, created_time: nowIso(sim) };
  sim.objects.set(photo.id, photo);
  if (!published) return { id: photo.id };
  const caption = req.params.message ?? req.params.caption;
  const { place } = req.params;
  photo.postId = newPost(sim, p, { message: caption, place, attachments: [photo.id] }, 'photo', { message: caption ?? null, media: [source], ...(place ? { options: { place } } : {}) });
  photo.usedBy = photo.postId;
  return { id: photo.id, post_id: photo.postId };
}

function createVideo(req: SimRequest, sim: MetaSimState, p: SimAccount): unknown {
  const source = sourceOf(req, 'file_url');
  const video = newVideo(sim, p, 'video');
  video.source = source;
  video.uploadComplete = true;
  video.readyAt = sim.clock.now() + sim.config.videoProcessingMs;
  video.publishStatus = 'published';
  video.publishTime = sim.clock.now();
  video.postId = newPost(
    sim,
    p,
    { message: req.params.description, video_id: video.id },
    'video',
    { title: req.params.title ?? null, description: req.params.description ?? null, media: [source] },
    `https://www.facebook.com/${p.id}/videos/${video.id}`,
    video.id,
  );
  return { id: video.id };
}

function newVideo(sim: MetaSimState, p: SimAccount, kind: FbVideo['kind']): FbVideo {
  const video: FbVideo = {
    _type: 'fb_video', id: sim.newId('13'), pageId: p.id, kind, fileSize: null, uploaded: 0, uploadComplete: false, readyAt: null,
    error: sim.takeProcessingFailure('facebook'), publishStatus: 'draft', publishTime: null, postId: null, source: null,
  };
  sim.objects.set(video.id, video);
  return video;
}

function videoStatus(sim: MetaSimState, v: FbVideo): Record<string, unknown> {
  const now = sim.clock.now();
  const processed = v.uploadComplete && v.readyAt !== null && now >= v.readyAt;
  const videoStatus = !v.uploadComplete ? 'uploading' : !processed ? 'processing' : v.error ? 'error' : 'ready';
  return {
    video_status: videoStatus,
    uploading_phase: { status: v.uploadComplete ? 'complete' : v.uploaded > 0 ? 'in_progress' : 'not_started', bytes_transfered: v.uploaded, source_file_size: v.fileSize },
    processing_phase: v.error && processed ? { status: 'error', error: { message: v.error } } : { status: processed ? 'complete' : v.uploadComplete ? 'in_progress' : 'not_started' },
    publishing_phase: { status: v.publishStatus === 'published' ? 'complete' : 'not_started', publish_status: v.publishStatus, publish_time: v.publishTime ? Math.floor(v.publishTime / 1000) : undefined },
  };
}

function videoPhase(req: SimRequest, sim: MetaSimState, p: SimAccount, kind: 'reel' | 'story'): unknown {
  const phase = req.params.upload_phase;
  if (phase === 'start') {
    const v = newVideo(sim, p, kind);
    return { video_id: v.id, upload_url: `${req.selfBase}/rupload.facebook.com/video-upload/${req.version ?? 'v25.0'}/${v.id}` };
  }
  if (phase !== 'finish') return fail(100, '(#100) upload_phase must be start or finish.');
  const v = sim.objects.get(req.params.video_id ?? '') as FbVideo | undefined;
  if (!v || v._type !== 'fb_video' || v.pageId !== p.id || v.kind !== kind) return fail(100, `(#100) video_id ${req.params.video_id ?? '(missing)'} is not a ${kind} upload of this page.`);
  if (!v.uploadComplete) return fail(100, '(#100) The video has not been uploaded yet.', { subcode: 1363130 });
  if (v.publishStatus === 'published') return fail(100, '(#100) This video has already been published.', { subcode: 1366051 });
  const st = videoStatus(sim, v);
  if (st.video_status === 'error') return fail(100, `(#100) Video processing failed: ${v.error}`, { subcode: 2069019 });
  if (kind === 'reel') {
    const state = req.params.video_state ?? 'PUBLISHED';
    if (state !== 'PUBLISHED') {
      v.publishStatus = state === 'SCHEDULED' ? 'scheduled' : 'draft';
      return { success: true };
    }
    if (sim.usage(p.reelPublishes) >= sim.config.quota.facebookReels) fail(9, 'Reels publishing limit reached: 30 API-published reels per Page in 24 hours.');
    p.reelPublishes.push(sim.clock.now());
    v.publishStatus = 'published';
    v.publishTime = sim.clock.now();
    v.postId = newPost(sim, p, { message: req.params.description, video_id: v.id }, 'reel', { description: req.params.description ?? null, title: req.params.title ?? null, media: [v.source], video_id: v.id }, `https://www.facebook.com/reel/${v.id}`, v.id);
    return { success: true };
  }
  if (st.video_status !== 'ready') return fail(100, '(#100) The video is still processing; try again when it is ready.', { subcode: 1363047, transient: true });
  v.publishStatus = 'published';
  v.publishTime = sim.clock.now();
  v.postId = story(sim, p, 'video', v.id, { media: [v.source], video_id: v.id });
  return { success: true, post_id: v.postId };
}

function photoStory(req: SimRequest, sim: MetaSimState, p: SimAccount): unknown {
  const ph = sim.objects.get(req.params.photo_id ?? '') as FbPhoto | undefined;
  if (!ph || ph._type !== 'fb_photo' || ph.pageId !== p.id) return fail(100, `(#100) photo_id ${req.params.photo_id ?? '(missing)'} is not a photo of this page.`);
  if (ph.published || ph.usedBy) return fail(100, '(#100) A photo already used in a published post cannot be used for a story.', { subcode: 1366051 });
  const postId = story(sim, p, 'photo', ph.id, { media: [ph.source], photo_id: ph.id });
  ph.usedBy = postId;
  return { success: true, post_id: postId };
}

function story(sim: MetaSimState, p: SimAccount, mediaType: 'photo' | 'video', mediaId: string, body: Record<string, unknown>): string {
  const postId = sim.newId('14');
  const url = `https://www.facebook.com/stories/${p.id}/${postId}/`;
  sim.objects.set(`story:${postId}`, { _type: 'fb_story', id: postId, post_id: postId, pageId: p.id, media_type: mediaType, media_id: mediaId, url, creation_time: nowIso(sim), createdAt: sim.clock.now() });
  sim.recordPost({ platform: 'facebook', accountId: p.id, postId, postUrl: url, kind: 'story', body });
  return postId;
}

function uploadError(type: string, message: string, retriable: boolean, status = 400): never {
  throw new GraphFail(status, { debug_info: { retriable, type, message } });
}

/** POST /video-upload/{v}/{video_id}: bytes from `offset`, or a `file_url` header. */
function rupload(req: SimRequest, sim: MetaSimState): unknown {
  const [kindSeg, version, id] = req.segments;
  if (req.method !== 'POST' || kindSeg !== 'video-upload' || !version || !id) return undefined;
  const v = sim.objects.get(id) as FbVideo | undefined;
  if (!v || v._type !== 'fb_video') return uploadError('ProcessingFailedError', `Video ${id} has no upload session.`, false, 404);
  if (!/^OAuth\s+/i.test(req.headers.authorization ?? '')) uploadError('AuthError', 'rupload needs "Authorization: OAuth <page token>".', false, 401);
  try {
    sim.actingFor(req, v.pageId, 'facebook', 'fb_page');
  } catch (e) {
    if (e instanceof GraphFail) uploadError('AuthError', String((e.body.error as { message: string }).message), false, 401);
    throw e;
  }
  if (v.uploadComplete) return { success: true };
  const fileUrl = req.headers.file_url;
  if (fileUrl) {
    if (!isPublicHttpUrl(fileUrl) || /fbcdn/.test(fileUrl)) uploadError('ProcessingFailedError', 'The file_url could not be fetched.', false);
    v.source = fileUrl;
    v.uploaded = v.fileSize = 1;
  } else {
    const offset = Number(req.headers.offset ?? NaN);
    const size = Number(req.headers.file_size ?? NaN);
    if (!Number.isInteger(size) || size <= 0) uploadError('PartialRequestError', 'The file_size header is required.', false);
    if (offset !== v.uploaded) uploadError('OffsetInvalidError', `Invalid offset ${req.headers.offset}; resume from ${v.uploaded}.`, true);
    const got = req.rawBody?.length ?? 0;
    if (offset + got > size) uploadError('PartialRequestError', 'More bytes than file_size.', false);
    v.fileSize = size;
    v.uploaded = offset + got;
    v.source = `upload:${size} bytes`;
    if (v.uploaded < size) uploadError('PartialRequestError', `Received ${v.uploaded} of ${size} bytes; resume from offset ${v.uploaded}.`, true);
  }
  v.uploadComplete = true;
  v.readyAt = sim.clock.now() + sim.config.videoProcessingMs;
  return { success: true, message: 'Upload successful.' };
}

/** `place` is the id of a Page with a location (docs/reference/platforms.md §12.2.1): numeric, as every Graph id. */
function checkPlace(place: string | undefined): void {
  if (place !== undefined && !/^\d+$/.test(place)) fail(100, `(#100) Param place must be a valid place ID; ${JSON.stringify(place)} is not.`);
}

/** The fields a Page post (PagePost) answers on /feed and /published_posts; asking for another is Graph's error. */
const POST_FIELDS = new Set(['id', 'message', 'created_time', 'updated_time', 'permalink_url', 'story', 'status_type', 'is_published', 'attachments', 'from', 'link', 'place', 'full_picture']);

/** `since` / `until` as Graph takes them: Unix seconds, or a date strtotime() reads (ISO 8601 here). */
function graphInstant(name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  if (!Number.isFinite(ms)) fail(100, `(#100) The parameter ${name} must be a Unix timestamp or a date strtotime() understands; got ${JSON.stringify(value)}.`);
  return ms;
}

/**
 * GET /{page-id}/feed and /published_posts (docs/reference/platforms.md §2.7, how a lost
 * publishing call is settled): the page's posts, newest first, `since` / `until` bounding
 * their created_time, `limit` (default 25, at most 100), only the `fields` asked for (an
 * unknown one is refused, as Graph does), and cursor paging with `after`.
 */
function pagePosts(req: SimRequest, sim: MetaSimState, p: SimAccount): unknown {
  const fields = (req.params.fields ?? 'id,message,created_time').split(',').map((f) => f.trim().replace(/\{.*$/, '')).filter(Boolean);
  for (const f of fields) if (!POST_FIELDS.has(f)) fail(100, `(#100) Tried accessing nonexisting field (${f}) on node type (PagePost)`);
  const limit = req.params.limit === undefined ? 25 : Number(req.params.limit);
  if (!Number.isInteger(limit) || limit < 1) fail(100, '(#100) Param limit must be a positive integer.');
  const since = graphInstant('since', req.params.since);
  const until = graphInstant('until', req.params.until);
  let start = 0;
  if (req.params.after !== undefined) {
    start = Number(Buffer.from(req.params.after, 'base64url').toString('utf8'));
    if (!Number.isInteger(start) || start < 0) fail(100, '(#100) The after cursor is invalid.');
  }
  const posts = [...sim.objects.values()]
    .filter((o) => o._type === 'fb_post' && o.pageId === p.id)
    .filter((o) => (since === null || Number(o.createdAt) >= since) && (until === null || Number(o.createdAt) <= until))
    .map((o, i) => ({ o, i }))
    .sort((a, b) => Number(b.o.createdAt) - Number(a.o.createdAt) || b.i - a.i)
    .map(({ o }) => o);
  const page = posts.slice(start, start + Math.min(limit, 100));
  const data = page.map((o) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) if (o[f] !== undefined) out[f] = o[f];
    return out;
  });
  const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
  const answer: Record<string, unknown> = { data };
  if (page.length > 0) {
    const end = start + page.length;
    answer.paging = { cursors: { before: cursor(start), after: cursor(end) }, ...(end < posts.length ? { next: `https://graph.facebook.com/${req.version ?? 'v25.0'}/${p.id}/feed?after=${cursor(end)}&limit=${limit}` } : {}) };
  }
  return answer;
}
