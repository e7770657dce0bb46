import got, { type Got, type Response } from 'got';
import { singleAttempt } from '../shared/single-attempt';
import { TransportError } from '../shared/transport-error';
import { wasSent } from '../shared/was-sent';

/** TikTok answered with `error.code` other than `ok` (or an error status). */
export class TikTokApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly logId: string | null,
  ) {
    super(message);
    this.name = 'TikTokApiError';
  }
}

/** No answer arrived from TikTok. */
export class TikTokTransportError extends TransportError {
  override name = 'TikTokTransportError';
}

interface Envelope<T> {
  data?: T;
  error?: { code?: string; message?: string; log_id?: string };
}

export interface TikTokClientOptions {
  /** `https://open.tiktokapis.com`, or the simulator's URL. */
  baseUrl: string;
  token: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  http?: Got;
}

/** The answer to one chunk PUT. */
export interface ChunkAnswer {
  status: number;
  /** Bytes the upload holds, from the `Content-Range: bytes 0-N/TOTAL` response header (null when absent). */
  uploaded: number | null;
}

/** Parses `bytes 0-N/TOTAL` (or `bytes *\/TOTAL`) into the count of bytes held. */
export function heldBytes(contentRange: string | undefined): number | null {
  if (!contentRange) return null;
  const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(contentRange.trim());
  if (m) return Number(m[2]) + 1;
  return /^bytes\s+\*\/\d+$/i.test(contentRange.trim()) ? 0 : null;
}

/**
 * TikTok's Content Posting API over got: JSON POSTs answering `{data, error{code,
 * message, log_id}}`, and raw chunk PUTs to the returned upload URL. No automatic retries.
 */
export class TikTokClient {
  constructor(private readonly options: TikTokClientOptions) {}

  setToken(token: string): void {
    (this.options as { token: string }).token = token;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
    let res: Response<string>;
    try {
      res = (await (this.options.http ?? got)(url, {
        method: 'POST',
        body: JSON.stringify(body ?? {}),
        headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json; charset=UTF-8', accept: 'application/json' },
        ...singleAttempt(this.options.timeoutMs ?? 60_000, this.options.signal),
      })) as Response<string>;
    } catch (err) {
      throw new TikTokTransportError(`No answer from TikTok (${path}): ${(err as Error).message}`, (err as { code?: string }).code, wasSent(err), { cause: err });
    }
    let env: Envelope<T>;
    try {
      env = JSON.parse(res.body || '{}') as Envelope<T>;
    } catch {
      throw new TikTokApiError(res.statusCode, res.statusCode >= 500 ? 'internal_error' : 'invalid_response', `TikTok answered ${res.statusCode} with a body that is not JSON`, null);
    }
    const code = env.error?.code ?? (res.statusCode < 400 ? 'ok' : 'unknown_error');
    if (code !== 'ok' || res.statusCode >= 400) {
      throw new TikTokApiError(res.statusCode, code, env.error?.message || `TikTok answered ${res.statusCode}`, env.error?.log_id ?? null);
    }
    return (env.data ?? {}) as T;
  }

  /** PUTs one chunk to the upload URL (given verbatim by init); statuses are the caller's to read. */
  async putChunk(uploadUrl: string, bytes: Buffer, first: number, last: number, total: number, contentType: string): Promise<ChunkAnswer> {
    let res: Response<string>;
    try {
      res = (await (this.options.http ?? got)(uploadUrl, {
        method: 'PUT',
        body: bytes,
        headers: { 'content-type': contentType, 'content-length': String(bytes.length), 'content-range': `bytes ${first}-${last}/${total}` },
        ...singleAttempt(this.options.timeoutMs ?? 120_000, this.options.signal),
      })) as Response<string>;
    } catch (err) {
      throw new TikTokTransportError(`The chunk upload to TikTok broke off: ${(err as Error).message}`, (err as { code?: string }).code, wasSent(err), { cause: err });
    }
    const range = res.headers['content-range'];
    return { status: res.statusCode, uploaded: heldBytes(Array.isArray(range) ? range[0] : range) };
  }
}
