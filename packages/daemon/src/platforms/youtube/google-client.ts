import got, { type Got, type Response } from 'got';
import { singleAttempt } from '../shared/single-attempt';
import { TransportError } from '../shared/transport-error';
import { wasSent } from '../shared/was-sent';

/** Google's JSON error: `{"error":{"code","message","errors":[{"reason","domain","message"}],"status"}}`. */
export class GoogleApiError extends Error {
  constructor(
    readonly status: number,
    /** The first `errors[].reason` (quotaExceeded, authError, invalidTitle, …), or the `status` string. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'GoogleApiError';
  }
}

/** No answer arrived from Google. */
export class GoogleTransportError extends TransportError {
  override name = 'GoogleTransportError';
}

export interface VideoResource {
  id: string;
  snippet?: { title?: string; channelId?: string };
  status?: { uploadStatus?: string; privacyStatus?: string };
}

/** Where a resumable session stands. */
export type SessionState = { kind: 'incomplete'; received: number } | { kind: 'complete'; video: VideoResource } | { kind: 'gone' };

export function parseGoogleError(status: number, text: string): GoogleApiError {
  try {
    const body = JSON.parse(text) as { error?: { message?: string; status?: string; errors?: Array<{ reason?: string; message?: string }> } | string; error_description?: string };
    if (typeof body.error === 'object' && body.error) {
      const reason = body.error.errors?.[0]?.reason ?? body.error.status ?? String(status);
      return new GoogleApiError(status, reason, body.error.message ?? body.error.errors?.[0]?.message ?? `HTTP ${status}`);
    }
    if (typeof body.error === 'string') return new GoogleApiError(status, body.error, body.error_description ?? body.error);
  } catch {
    // not JSON
  }
  return new GoogleApiError(status, String(status), text.slice(0, 300) || `HTTP ${status}`);
}

/** Bytes received from a 308's `Range: bytes=0-N` header (no header: none). */
export function receivedFromRange(range: string | string[] | undefined): number {
  const v = Array.isArray(range) ? range[0] : range;
  const m = v ? /bytes=(\d+)-(\d+)/.exec(v) : null;
  return m ? Number(m[2]) + 1 : 0;
}

export interface GoogleClientOptions {
  /** `https://www.googleapis.com`, or the simulator's URL. */
  baseUrl: string;
  token: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  http?: Got;
}

/** The YouTube Data API's resumable upload protocol over got (docs/reference/platforms.md §6.1), no automatic retries. */
export class GoogleClient {
  constructor(private readonly options: GoogleClientOptions) {}

  setToken(token: string): void {
    (this.options as { token: string }).token = token;
  }

  async #send(url: string, init: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: string | Buffer; headers: Record<string, string> }, what: string): Promise<Response<string>> {
    try {
      return (await (this.options.http ?? got)(url, {
        method: init.method,
        body: init.body,
        headers: { authorization: `Bearer ${this.options.token}`, ...init.headers },
        ...singleAttempt(this.options.timeoutMs ?? 120_000, this.options.signal),
      })) as Response<string>;
    } catch (err) {
      throw new GoogleTransportError(`No answer from YouTube (${what}): ${(err as Error).message}`, (err as { code?: string }).code, wasSent(err), { cause: err });
    }
  }

  /** Starts a videos.insert resumable session; resolves with the session URI from `Location`. */
  async startSession(metadata: unknown, size: number, contentType: string, notifySubscribers: boolean): Promise<string> {
    const base = this.options.baseUrl.replace(/\/+$/, '');
    const url = `${base}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&notifySubscribers=${notifySubscribers}`;
    const body = JSON.stringify(metadata);
    const res = await this.#send(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(size),
        'x-upload-content-type': contentType,
      },
    }, 'starting the upload session');
    const location = res.headers.location;
    if (res.statusCode === 200 && location) return location;
    if (res.statusCode >= 200 && res.statusCode < 300) throw new GoogleApiError(502, 'noSessionUri', 'YouTube started no upload session (no Location header)');
    throw parseGoogleError(res.statusCode, res.body);
  }

  #settle(res: Response<string>): SessionState {
    if (res.statusCode === 308) return { kind: 'incomplete', received: receivedFromRange(res.headers.range) };
    if (res.statusCode === 200 || res.statusCode === 201) return { kind: 'complete', video: JSON.parse(res.body) as VideoResource };
    if (res.statusCode === 404 || res.statusCode === 410) return { kind: 'gone' };
    throw parseGoogleError(res.statusCode, res.body);
  }

  /** Sends bytes [first, first+len) of `total`. */
  async putChunk(sessionUri: string, bytes: Buffer, first: number, total: number, contentType: string): Promise<SessionState> {
    const res = await this.#send(sessionUri, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': contentType, 'content-length': String(bytes.length), 'content-range': `bytes ${first}-${first + bytes.length - 1}/${total}` },
    }, 'uploading a chunk');
    return this.#settle(res);
  }

  /**
   * commentThreads.insert (docs/reference/platforms.md §12.6.5): a top-level comment on a
   * video, as the channel; answers the commentThread, whose id is the comment's.
   */
  async insertCommentThread(channelId: string | null, videoId: string, text: string): Promise<{ id: string }> {
    const snippet = { ...(channelId ? { channelId } : {}), videoId, topLevelComment: { snippet: { textOriginal: text } } };
    const res = await this.#send(`${this.#base()}/youtube/v3/commentThreads?part=snippet`, { method: 'POST', body: JSON.stringify({ snippet }), headers: { 'content-type': 'application/json; charset=UTF-8' } }, 'posting the first comment');
    if (res.statusCode === 200) return JSON.parse(res.body) as { id: string };
    throw parseGoogleError(res.statusCode, res.body);
  }

  /** thumbnails.set with the image as the body (uploadType=media; docs/reference/platforms.md §12.6.3). */
  async setThumbnail(videoId: string, bytes: Buffer, contentType: string): Promise<void> {
    const url = `${this.#base()}/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(videoId)}&uploadType=media`;
    const res = await this.#send(url, { method: 'POST', body: bytes, headers: { 'content-type': contentType, 'content-length': String(bytes.length) } }, 'setting the thumbnail');
    if (res.statusCode !== 200) throw parseGoogleError(res.statusCode, res.body);
  }

  /** playlistItems.insert of a video at the end of a playlist (§12.6.4); resolves with the playlist item id. */
  async insertPlaylistItem(playlistId: string, videoId: string): Promise<string> {
    const body = JSON.stringify({ snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId } } });
    const res = await this.#send(`${this.#base()}/youtube/v3/playlistItems?part=snippet`, { method: 'POST', body, headers: { 'content-type': 'application/json; charset=UTF-8' } }, 'adding to the playlist');
    if (res.statusCode !== 200) throw parseGoogleError(res.statusCode, res.body);
    return (JSON.parse(res.body) as { id: string }).id;
  }

  /** The id of the video's item in the playlist (playlistItems.list by playlistId and videoId), or null. */
  async findPlaylistItem(playlistId: string, videoId: string): Promise<string | null> {
    const url = `${this.#base()}/youtube/v3/playlistItems?part=id&playlistId=${encodeURIComponent(playlistId)}&videoId=${encodeURIComponent(videoId)}`;
    const res = await this.#send(url, { method: 'GET', headers: {} }, 'looking in the playlist');
    if (res.statusCode !== 200) throw parseGoogleError(res.statusCode, res.body);
    return (JSON.parse(res.body) as { items?: Array<{ id: string }> }).items?.[0]?.id ?? null;
  }

  /**
   * A Data API call answered with JSON (or 204): `path` under the API's base, `query` as
   * given, `json` as the body. Any other status throws Google's error.
   */
  async json<T>(method: 'GET' | 'POST' | 'DELETE', path: string, query: Record<string, string>, what: string, json?: unknown): Promise<T | null> {
    const url = `${this.#base()}${path}?${new URLSearchParams(query)}`;
    const res = await this.#send(url, { method, ...(json === undefined ? { headers: {} } : { body: JSON.stringify(json), headers: { 'content-type': 'application/json; charset=UTF-8' } }) }, what);
    if (res.statusCode === 204) return null;
    if (res.statusCode === 200) return JSON.parse(res.body) as T;
    throw parseGoogleError(res.statusCode, res.body);
  }

  #base(): string {
    return this.options.baseUrl.replace(/\/+$/, '');
  }

  /** Asks the session how much it holds (`Content-Range: bytes *\/total`). */
  async probe(sessionUri: string, total: number): Promise<SessionState> {
    const res = await this.#send(sessionUri, { method: 'PUT', body: '', headers: { 'content-length': '0', 'content-range': `bytes */${total}` } }, 'asking the upload session');
    return this.#settle(res);
  }

  /** videos.delete (docs/reference/platforms.md §12.6.7): 204 deleted; 404 videoNotFound: already gone. */
  async deleteVideo(id: string): Promise<'deleted' | 'already_gone'> {
    const res = await this.#send(`${this.options.baseUrl.replace(/\/+$/, '')}/youtube/v3/videos?id=${encodeURIComponent(id)}`, { method: 'DELETE', headers: {} }, 'deleting the video');
    if (res.statusCode === 204 || res.statusCode === 200) return 'deleted';
    const err = parseGoogleError(res.statusCode, res.body);
    if (res.statusCode === 404 && err.reason === 'videoNotFound') return 'already_gone';
    throw err;
  }

  /** videos.list?part=statistics by ids (up to 50): each listed video's statistics (an unknown or deleted id lists no item). */
  async videoStatistics(ids: readonly string[]): Promise<Array<{ id: string; statistics: Record<string, unknown> }>> {
    const res = await this.#send(`${this.options.baseUrl.replace(/\/+$/, '')}/youtube/v3/videos?part=statistics&id=${ids.map(encodeURIComponent).join(',')}`, { method: 'GET', headers: {} }, 'reading video statistics');
    if (res.statusCode !== 200) throw parseGoogleError(res.statusCode, res.body);
    const items = (JSON.parse(res.body) as { items?: Array<{ id?: string; statistics?: Record<string, unknown> }> }).items ?? [];
    return items.flatMap((v) => (typeof v.id === 'string' ? [{ id: v.id, statistics: v.statistics ?? {} }] : []));
  }

  /** videos.list by id: whether the video exists (an unknown or deleted id lists no item, §12.6.6). */
  async videoExists(id: string): Promise<boolean> {
    const res = await this.#send(`${this.options.baseUrl.replace(/\/+$/, '')}/youtube/v3/videos?part=id&id=${encodeURIComponent(id)}`, { method: 'GET', headers: {} }, 'looking the video up');
    if (res.statusCode !== 200) throw parseGoogleError(res.statusCode, res.body);
    const items = (JSON.parse(res.body) as { items?: Array<{ id?: string }> }).items ?? [];
    return items.some((v) => v.id === id);
  }
}
