import { API_PREFIX, type ErrorDetail } from '@socialpub/core';
import { BackendError, type CallOptions, type SocialPubBackend } from '@socialpub/mcp';
import { SOURCE_HEADER } from '../http/job-source';

/** Sends one request to the daemon's own app (Hono's `app.request`), no socket involved; `address` stands for the client's. */
export type AppFetch = (path: string, init: RequestInit, address: string) => Promise<Response>;

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/**
 * The MCP tools' backend inside the daemon: each method is the REST call it stands for,
 * made in-process through the app with the session's headers (its API key, forwarding
 * headers) and `X-SocialPub-Source: mcp`. So a tool call meets the same authentication,
 * rate-limit class, idempotency, validation and approval rules as the REST call.
 */
export function inProcessBackend(fetch: AppFetch, headers: Record<string, string>, address: string): SocialPubBackend {
  async function call<T>({ method, path, query, body }: Call, options: CallOptions = {}): Promise<T> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.size > 0 ? `?${params}` : '';
    const h: Record<string, string> = { ...headers, [SOURCE_HEADER]: 'mcp' };
    if (body !== undefined) h['content-type'] = 'application/json';
    if (options.idempotencyKey) h['idempotency-key'] = options.idempotencyKey;
    const res = await fetch(`${API_PREFIX}${path}${qs}`, {
      method,
      headers: h,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }, address);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (res.ok) return parsed as T;
    const error = (parsed as { error?: { code?: string; message?: string; details?: ErrorDetail[]; retry_after?: number } } | undefined)?.error;
    throw new BackendError({
      status: res.status,
      code: error?.code ?? 'internal',
      message: error?.message ?? `the daemon answered ${res.status}`,
      details: error?.details,
      retryAfter: error?.retry_after,
    });
  }
  const byJob = (method: Call['method'], path: string) => (jobId: string, options?: CallOptions) => call<never>({ method, path, query: { job_id: jobId } }, options);

  return {
    auth: { validate: (o) => call({ method: 'POST', path: '/auth/validate' }, o) },
    platforms: { list: (o) => call({ method: 'GET', path: '/platforms' }, o) },
    content: {
      publish: (body, o) => call({ method: 'POST', path: '/content/publish', body }, o),
      validate: (body, o) => call({ method: 'POST', path: '/content/validate', body }, o),
    },
    scheduled: {
      list: (params, o) => call({ method: 'GET', path: '/content/scheduled', query: { status: params.status, limit: params.limit, cursor: params.cursor } }, o),
      get: byJob('GET', '/content/scheduled'),
      update: (jobId, body, o) => call({ method: 'PATCH', path: '/content/scheduled', query: { job_id: jobId }, body }, o),
      cancel: byJob('DELETE', '/content/scheduled'),
      approve: byJob('POST', '/content/scheduled/approve'),
      reject: byJob('POST', '/content/scheduled/reject'),
      unpublish: byJob('POST', '/content/scheduled/unpublish'),
    },
    media: {
      prepare: (body, o) => call({ method: 'POST', path: '/media/prepare', body }, o),
      status: (taskId, o) => call({ method: 'GET', path: `/media/status/${encodeURIComponent(taskId)}` }, o),
    },
    sandbox: { posts: (params, o) => call({ method: 'GET', path: '/sandbox/posts', query: { platform: params.platform, limit: params.limit } }, o) },
  };
}
