import { createHash, randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Clock } from '../../../util/clock';
import { recordOf, type SimulatorLog } from '../../shared/sim/simulator-recorder';
import type { SimState } from '../../shared/sim/sim-state';

/** The simulator's pieces its route modules need (simulator.ts owns them). */
export interface YouTubeRouteDeps {
  api: Hono;
  clock: Clock;
  log: SimulatorLog;
  state: SimState;
  /** The channel the request acts for, or null (then `unauthenticated`). */
  authenticate(c: Context): string | null;
  unauthenticated(c: Context): Response;
  gError(c: Context, status: number, reason: string, message: string, domain?: string, extra?: Record<string, unknown>): Response;
  video(id: string): { channelId: string; video: Record<string, unknown> } | undefined;
}

/** What the thumbnail and playlist routes need besides. */
export interface ThumbnailPlaylistDeps extends YouTubeRouteDeps {
  saveVideo(id: string, entry: { channelId: string; video: Record<string, unknown> }): void;
}

interface Playlist {
  id: string;
  channelId: string;
  title: string;
  /** Video ids in order, with their playlist item ids. */
  items: Array<{ itemId: string; videoId: string }>;
}

/** thumbnails.set: JPEG or PNG (sniffed), at most 50 MB (docs/reference/platforms.md §12.6.3). */
const THUMBNAIL_MAX = 50 * 1024 * 1024;
/** YouTube's playlist size cap (playlistContainsMaximumNumberOfVideos). */
const PLAYLIST_MAX = 5000;

function imageType(b: Buffer): string | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  return null;
}

/** The playlist every simulated channel has, so sandbox posts have one to name: PL + the channel id without its UC. */
export const sandboxPlaylistId = (channelId: string) => `PL${channelId.replace(/^UC/, '')}`;

/**
 * thumbnails.set, playlistItems.insert/list and playlists.list on the YouTube simulator
 * (docs/reference/platforms.md §12.6.3, §12.6.4), with the thumbnail stored on the video and each
 * playlist's items; both are recorded for `socialpub sandbox posts`.
 */
export function thumbnailAndPlaylistRoutes(d: ThumbnailPlaylistDeps) {
  const playlists = d.state.map<Playlist>('playlists');

  function playlistsOf(channelId: string): Playlist[] {
    const id = sandboxPlaylistId(channelId);
    if (!playlists.has(id)) playlists.set(id, { id, channelId, title: 'Sandbox playlist', items: [] });
    return [...playlists.values()].filter((p) => p.channelId === channelId);
  }

  function itemResource(p: Playlist, index: number): Record<string, unknown> {
    const item = p.items[index]!;
    const v = d.video(item.videoId)?.video as { snippet?: { title?: string; description?: string; channelTitle?: string } } | undefined;
    return {
      kind: 'youtube#playlistItem',
      etag: createHash('sha1').update(`${p.id}:${item.itemId}`).digest('base64url'),
      id: item.itemId,
      snippet: {
        publishedAt: new Date(d.clock.now()).toISOString(),
        channelId: p.channelId,
        title: v?.snippet?.title ?? '',
        description: v?.snippet?.description ?? '',
        thumbnails: {},
        channelTitle: v?.snippet?.channelTitle ?? '',
        playlistId: p.id,
        position: index,
        resourceId: { kind: 'youtube#video', videoId: item.videoId },
      },
    };
  }

  // thumbnails.set: the image is the body (uploadType=media).
  d.api.post('/upload/youtube/v3/thumbnails/set', async (c) => {
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const rec = recordOf(c);
    if (rec) rec.body = `<${bytes.length} bytes>`;
    const channelId = d.authenticate(c);
    if (!channelId) return d.unauthenticated(c);
    const videoId = c.req.query('videoId');
    if (!videoId) return d.gError(c, 400, 'missingRequiredParameter', 'No value specified for required parameter: videoId', 'youtube.parameter');
    const v = d.video(videoId);
    if (!v) return d.gError(c, 404, 'videoNotFound', 'The video that you are trying to set a thumbnail for cannot be found.', 'youtube.thumbnail');
    if (v.channelId !== channelId) return d.gError(c, 403, 'forbidden', "The thumbnail can't be set for the specified video. The request might not be properly authorized.", 'youtube.thumbnail');
    if (bytes.length === 0) return d.gError(c, 400, 'mediaBodyRequired', 'The request does not include the image content.', 'youtube.thumbnail');
    if (bytes.length > THUMBNAIL_MAX) return d.gError(c, 413, 'uploadTooLarge', 'The thumbnail image is larger than 50 MB.', 'global');
    const declared = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (!['image/jpeg', 'image/png', 'application/octet-stream'].includes(declared)) return d.gError(c, 400, 'mediaTypeNotAllowed', `Media type '${declared}' is not supported. Valid media types: [image/jpeg, image/png, application/octet-stream]`, 'global');
    const type = imageType(bytes);
    if (!type) return d.gError(c, 400, 'invalidImage', 'The provided image content is invalid.', 'youtube.thumbnail');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const base = `https://i.ytimg.com/vi/${videoId}`;
    const thumbnails = { default: { url: `${base}/default.jpg`, width: 120, height: 90 }, medium: { url: `${base}/mqdefault.jpg`, width: 320, height: 180 }, high: { url: `${base}/hqdefault.jpg`, width: 480, height: 360 } };
    const snippet = { ...((v.video.snippet as Record<string, unknown>) ?? {}), thumbnails };
    d.state.atomically(() => {
      d.saveVideo(videoId, { channelId, video: { ...v.video, snippet, customThumbnail: { type, bytes: bytes.length, sha256 } } });
      d.log.addPost({
        platform: 'youtube',
        accountId: channelId,
        postId: videoId,
        postUrl: `https://www.youtube.com/watch?v=${videoId}`,
        kind: 'thumbnail',
        body: { videoId, type, bytes: bytes.length, sha256 },
        createdAt: d.clock.now(),
      });
    });
    return c.json({ kind: 'youtube#thumbnailSetResponse', etag: randomBytes(12).toString('base64url'), items: [thumbnails] });
  });

  // playlistItems.insert: snippet.playlistId and snippet.resourceId are required; the playlist must be the caller's.
  d.api.post('/youtube/v3/playlistItems', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { snippet?: { playlistId?: unknown; position?: unknown; resourceId?: { kind?: unknown; videoId?: unknown } } } | null;
    const rec = recordOf(c);
    if (rec) rec.body = body;
    const channelId = d.authenticate(c);
    if (!channelId) return d.unauthenticated(c);
    const part = c.req.query('part') ?? '';
    if (!part.split(',').every((p) => ['snippet', 'contentDetails', 'id', 'status'].includes(p.trim()))) return d.gError(c, 400, 'unknownPart', `'${part}'`, 'youtube.part');
    const s = body?.snippet;
    if (!s || typeof s.playlistId !== 'string') return d.gError(c, 400, 'playlistIdRequired', 'The request must specify snippet.playlistId.', 'youtube.playlistItem');
    if (!s.resourceId || s.resourceId.kind !== 'youtube#video' || typeof s.resourceId.videoId !== 'string') {
      return d.gError(c, 400, 'invalidResourceId', 'snippet.resourceId must be {kind: "youtube#video", videoId}.', 'youtube.playlistItem');
    }
    playlistsOf(channelId);
    const p = playlists.get(s.playlistId);
    if (!p) return d.gError(c, 404, 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.', 'youtube.playlistItem');
    if (p.channelId !== channelId) return d.gError(c, 403, 'playlistItemsNotAccessible', 'The request is not properly authorized to insert the specified playlist item.', 'youtube.playlistItem');
    const videoId = s.resourceId.videoId;
    const v = d.video(videoId);
    if (!v || (v.channelId !== channelId && (v.video.status as { privacyStatus?: string }).privacyStatus === 'private')) {
      return d.gError(c, 404, 'videoNotFound', 'The video that you are trying to add to the playlist cannot be found.', 'youtube.playlistItem');
    }
    if (p.items.length >= PLAYLIST_MAX) return d.gError(c, 403, 'playlistContainsMaximumNumberOfVideos', 'The playlist already contains the maximum allowed number of items.', 'youtube.playlistItem');
    const position = typeof s.position === 'number' && Number.isInteger(s.position) ? Math.max(0, Math.min(s.position, p.items.length)) : p.items.length;
    const itemId = randomBytes(24).toString('base64url');
    d.state.atomically(() => {
      p.items.splice(position, 0, { itemId, videoId });
      playlists.set(p.id, p);
      d.log.addPost({
        platform: 'youtube',
        accountId: channelId,
        postId: itemId,
        postUrl: `https://www.youtube.com/watch?v=${videoId}&list=${p.id}`,
        kind: 'playlist_item',
        body: { playlistId: p.id, videoId, position },
        createdAt: d.clock.now(),
      });
    });
    return c.json(itemResource(p, position));
  });

  // playlistItems.list by playlistId (optionally videoId).
  d.api.get('/youtube/v3/playlistItems', (c) => {
    const channelId = d.authenticate(c);
    if (!channelId) return d.unauthenticated(c);
    const q = c.req.query();
    if (!q.part) return d.gError(c, 400, 'missingRequiredParameter', 'No value specified for required parameter: part', 'youtube.parameter');
    if (!q.playlistId && !q.id) return d.gError(c, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: id, playlistId.', 'youtube.parameter');
    playlistsOf(channelId);
    const p = q.playlistId ? playlists.get(q.playlistId) : undefined;
    if (q.playlistId && !p) return d.gError(c, 404, 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.', 'youtube.playlistItem');
    const items = (p ? p.items.map((_, i) => itemResource(p, i)) : []).filter((it) => !q.videoId || (it.snippet as { resourceId: { videoId: string } }).resourceId.videoId === q.videoId);
    return c.json({ kind: 'youtube#playlistItemListResponse', etag: createHash('sha1').update(JSON.stringify(items)).digest('base64url'), pageInfo: { totalResults: items.length, resultsPerPage: Math.max(5, items.length) }, items });
  });

  // playlists.list?mine=true: the channel's playlists (each simulated channel has one, sandboxPlaylistId).
  d.api.get('/youtube/v3/playlists', (c) => {
    const channelId = d.authenticate(c);
    if (!channelId) return d.unauthenticated(c);
    if (c.req.query('mine') !== 'true' && !c.req.query('id')) return d.gError(c, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: mine, id, channelId.', 'youtube.parameter');
    const ids = c.req.query('id')?.split(',');
    const items = playlistsOf(channelId)
      .filter((p) => !ids || ids.includes(p.id))
      .map((p) => ({ kind: 'youtube#playlist', etag: createHash('sha1').update(p.id).digest('base64url'), id: p.id, snippet: { channelId, title: p.title }, contentDetails: { itemCount: p.items.length } }));
    return c.json({ kind: 'youtube#playlistListResponse', etag: createHash('sha1').update(JSON.stringify(items)).digest('base64url'), pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items });
  });

  return {
    /** A playlist of the channel (tests), empty. */
    addPlaylist(channelId: string, id: string, title = 'Playlist'): void {
      playlists.set(id, { id, channelId, title, items: [] });
    },
    playlist: (id: string) => playlists.get(id),
  };
}
