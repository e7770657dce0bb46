/**
 * The dashboard's only way to the daemon: the same HTTP API the SDK uses, under
 * /api/agents/v1, with the session cookie (never a key: the page holds none). Unsafe
 * methods carry the session's CSRF token; every error is the API's one error body.
 */
export const API = '/api/agents/v1';

export interface ErrorDetail {
  path?: string;
  message: string;
  platform?: string;
  code?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
  /** The message with each detail, for people. */
  get full(): string {
    const extra = this.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).filter((m) => !this.message.includes(m));
    return [this.message, ...extra].join(' — ');
  }
}

let csrfToken: string | null = null;
/** Set once the session is known (GET /auth/session). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function errorFrom(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string; details?: ErrorDetail[] } };
    if (body.error) return new ApiError(res.status, body.error.code ?? 'error', body.error.message ?? res.statusText, body.error.details ?? []);
  } catch {
    // not the error body: fall through
  }
  return new ApiError(res.status, 'http_error', `${res.status} ${res.statusText}`);
}

/** One API call; `path` is under /api/agents/v1 unless it starts with /auth. */
export async function call<T>(method: Method, path: string, body?: unknown, init: { public?: boolean; headers?: Record<string, string>; keepalive?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken && !init.public) headers['X-CSRF-Token'] = csrfToken;
  const url = path.startsWith('/auth') ? path : API + path;
  const res = await fetch(url, {
    method,
    headers,
    credentials: init.public ? 'omit' : 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
    // A held decision sent as the page goes away (lib/held-actions.ts) must outlive it.
    ...(init.keepalive ? { keepalive: true } : {}),
  });
  if (!res.ok) throw await errorFrom(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

export const get = <T>(path: string) => call<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => call<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => call<T>('PATCH', path, body);
export const put = <T>(path: string, body: unknown) => call<T>('PUT', path, body);
export const del = <T>(path: string) => call<T>('DELETE', path);

/** Query string from the defined values. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * Uploads a file's bytes to POST /media/upload with progress (fetch has no upload
 * progress; XMLHttpRequest does). Resolves with the completed media task.
 */
export function upload<T>(file: File, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API}/media/upload${qs({ filename: file.name })}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    if (csrfToken) xhr.setRequestHeader('X-CSRF-Token', csrfToken);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as T);
        return;
      }
      const err = (body as { error?: { code?: string; message?: string; details?: ErrorDetail[] } } | null)?.error;
      reject(new ApiError(xhr.status, err?.code ?? 'http_error', err?.message ?? `upload failed (${xhr.status})`, err?.details ?? []));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'the upload could not reach the daemon'));
    xhr.send(file);
  });
}

/** Every page of a cursor-paged list (GET /content/scheduled). */
export async function allPages<T>(path: string, params: Record<string, string | number | undefined>, key: string, max = 10_000): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await get<Record<string, unknown> & { next_cursor?: string | null }>(path + qs({ ...params, cursor }));
    out.push(...((page[key] as T[]) ?? []));
    cursor = page.next_cursor ?? undefined;
  } while (cursor && out.length < max);
  return out;
}

export function message(err: unknown): string {
  if (err instanceof ApiError) return err.full;
  if (err instanceof Error) return err.message;
  return String(err);
}
