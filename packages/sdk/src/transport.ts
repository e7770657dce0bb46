import { API_PREFIX, VERSION, fillPath, type ResponseKey, type RouteCallInput, type RouteDecl, type RouteResponse, type SchemaOutput } from '@socialpub/core';
import type { z } from 'zod';
import type { SdkClock } from './clock';
import { APIError, APIResponseValidationError, AuthenticationError, NotFoundError } from './errors';
import type { RequestOptions } from './options';
import { retryDelay } from './retry-policy';
import type * as Schemas from './schemas';
import type { HttpMethod, HttpSender } from './senders/sender';

/** The schemas answers are checked against (core's and the SDK's own), loaded on first use. */
export type ResponseSchemas = typeof Schemas;

export type { HttpMethod } from './senders/sender';

/** One call of the API, as a resource method describes it. */
export interface ApiRequest<S extends z.ZodType> {
  method: HttpMethod;
  /** Path under `/api/agents/v1` (or under the base URL when `root` is true). */
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  /**
   * Picks the schema of a successful answer, `(s) => s.ListResponseSchema`; the body is
   * parsed with it. A picker rather than the schema itself, so the schemas (and zod) load
   * on the first check, not when the SDK is imported, and never when checking is off.
   */
  schema: (schemas: ResponseSchemas) => S;
  /** Send the API key (everything but /healthz). Default true. */
  auth?: boolean;
  /** `path` is relative to the base URL, not to the API prefix. */
  root?: boolean;
  /** A POST that changes nothing (auth.validate, content.validate) may be repeated freely. */
  readOnly?: boolean;
  /** A POST the daemon deduplicates by Idempotency-Key: generate a key when the caller gave none. */
  idempotent?: boolean;
  /** A raw body instead of JSON (POST /media/upload). */
  upload?: UploadBody;
  /** The answer is text, not JSON (a route declared with a `csv` answer): checked as the string it is. */
  text?: boolean;
}

/** Where a request goes and how it is sent: what the URL and the headers are made from. */
type RequestTarget = Pick<ApiRequest<z.ZodType>, 'method' | 'path' | 'query' | 'auth' | 'root' | 'upload'>;

/** What transport.call resolves with: the route's usual answer, or the one schema `as` names. */
export type CallAnswer<R extends RouteDecl, K = never> = [K] extends [never] ? RouteResponse<R> : SchemaOutput<K>;

/** A raw request body: opened afresh for every attempt. */
export interface UploadBody {
  contentType: string;
  /** The body of one attempt (bytes, or a Node Readable typed as an async iterable). */
  open(): Uint8Array | AsyncIterable<Uint8Array>;
  /** False for a stream that can be read only once: such a call is never retried. */
  reopenable: boolean;
}

export interface TransportConfig {
  baseUrl: string;
  apiKey: string | undefined;
  timeout: number;
  maxRetries: number;
  maxRetryAfter: number;
  headers: Record<string, string>;
  /** Check every answer against its schema (ClientOptions.validateResponses). */
  validateResponses: boolean;
  clock: SdkClock;
  random: () => number;
  /** Sends each attempt: got (the SDK's), or node:http alone (the CLI's; src/senders/). */
  sender: HttpSender;
}

let schemasLoading: Promise<ResponseSchemas> | undefined;

/** The schema module, imported once on the first answer checked. */
function loadSchemas(): Promise<ResponseSchemas> {
  schemasLoading ??= import('./schemas');
  return schemasLoading;
}

/**
 * Sends requests through its sender inside one retry loop, so the rules of docs/sdk.md
 * "Retries" hold exactly whichever sender is used (got's own defaults never retry a POST
 * and give up when Retry-After exceeds the timeout, and neither fits an
 * idempotency-keyed API).
 */
export class Transport {
  constructor(readonly config: TransportConfig) {}

  async request<S extends z.ZodType>(req: ApiRequest<S>, options: RequestOptions = {}): Promise<z.infer<S>> {
    const { signal } = options;
    // A stream read once cannot be sent again: no retry, whatever the error.
    const maxRetries = req.upload && !req.upload.reopenable ? 0 : (options.maxRetries ?? this.config.maxRetries);
    const timeout = options.timeout ?? this.config.timeout;
    // Generated once per call, before the first attempt, so every retry carries the same key.
    // Web Crypto's, not node:crypto's: the module loads only when a key is made (start-up, docs/architecture.md).
    const idempotencyKey = options.idempotencyKey ?? (req.idempotent ? globalThis.crypto.randomUUID() : undefined);
    const repeatable = req.method !== 'POST' || req.readOnly === true || idempotencyKey !== undefined;
    const url = this.url(req);
    const headers = this.headers(req, options, idempotencyKey);

    for (let retry = 0; ; retry += 1) {
      signal?.throwIfAborted();
      try {
        const response = await this.config.sender.send({
          method: req.method,
          url,
          headers,
          body: req.upload ? req.upload.open() : req.body === undefined ? undefined : JSON.stringify(req.body),
          timeout,
          streaming: req.upload !== undefined,
          signal,
        });
        // 204 No Content (a DELETE of the extensions): nothing to parse; the method's type is void.
        if (response.statusCode === 204) return undefined as z.infer<S>;
        // A text answer (CSV) unchecked is the text as sent; checked, its schema is the string's.
        if (req.text && !this.config.validateResponses) return response.body as z.infer<S>;
        return await this.readBody(req.schema, response.statusCode, req.text ? response.body : parseJson(response.statusCode, response.body));
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const wait = retry < maxRetries ? retryDelay(error, { retry, repeatable, maxRetryAfterMs: this.config.maxRetryAfter, random: this.config.random }) : null;
        if (wait === null) throw error;
        await this.config.clock.sleep(wait, signal);
      }
    }
  }

  /**
   * One call of a declared route (core's route table): method, path (its `{params}` filled
   * in), query, body, the key, Idempotency-Key (generated for an idempotent route), retry
   * safety (`readOnly`) and the schema the answer is checked against all come from the
   * declaration. `as` narrows an answer declared as one of several schemas to the one this
   * call expects (GET /content/scheduled with job_id answers a PostResponse).
   */
  call<R extends RouteDecl, K extends ResponseKey<R> = never>(route: R, input: RouteCallInput<R> & { upload?: UploadBody }, options?: RequestOptions, as?: K): Promise<CallAnswer<R, K>> {
    const { params, query, body, upload } = input as { params?: Record<string, unknown>; query?: Record<string, string | number | undefined>; body?: unknown; upload?: UploadBody };
    const usual = Object.values(route.responses)[0];
    const declared = usual?.schema;
    const keys: readonly string[] = as !== undefined ? [as as string] : typeof declared === 'string' ? [declared] : (declared ?? []);
    return this.request(
      {
        method: route.method,
        path: fillPath(route.path, params),
        ...(route.root ? { root: true } : {}),
        auth: route.auth !== 'public',
        ...(query ? { query } : {}),
        ...(body !== undefined ? { body } : {}),
        ...(upload ? { upload } : {}),
        ...(route.readOnly ? { readOnly: true } : {}),
        ...(usual?.kind === 'csv' ? { text: true } : {}),
        // A stream read once is never retried, so no key is generated for it (the caller may still give one).
        ...(route.idempotent && (!upload || upload.reopenable) ? { idempotent: true } : {}),
        schema: (s) => s.schemaOfKeys(keys),
      },
      options,
    ) as never;
  }

  /**
   * Opens a long-lived GET (Server-Sent Events) with the client's key and headers; resolves
   * with the response once its head arrives. An error status throws the matching APIError;
   * an answer that is not `text/event-stream` throws NotFoundError (code
   * `not_an_event_stream`): no stream lives at that address.
   */
  async openStream(path: string, query: Record<string, string | undefined>, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const req: RequestTarget = { method: 'GET', path, query };
    const all = { ...this.headers(req, {}, undefined), accept: 'text/event-stream', ...headers };
    let response: Response;
    try {
      response = await fetch(this.url(req), { headers: all, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw APIError.from((error as { cause?: unknown }).cause ?? error);
    }
    if (!response.ok) {
      const body = await response.text();
      throw APIError.from({
        response: { statusCode: response.status, statusMessage: response.statusText, headers: Object.fromEntries(response.headers), body },
      });
    }
    const type = response.headers.get('content-type') ?? '';
    if (!/^text\/event-stream\b/i.test(type)) {
      // Something answered, but not with events (an older daemon's catch-all, a proxy's page):
      // no stream lives here, as with a 404. Reading it as one would find no events and reconnect forever.
      await response.body?.cancel().catch(() => {});
      throw new NotFoundError({
        status: response.status,
        code: 'not_an_event_stream',
        message: `GET ${path} answered ${response.status} ${type || 'without a content type'}, not text/event-stream: no event stream here`,
        headers: Object.fromEntries(response.headers),
      });
    }
    return response;
  }

  /**
   * A parsed answer as the caller gets it: checked against its schema (unknown fields
   * dropped; a mismatch is an APIResponseValidationError), or, with checking off, the
   * daemon's JSON object as sent.
   */
  async readBody<S extends z.ZodType>(pick: (schemas: ResponseSchemas) => S, status: number, body: unknown): Promise<z.infer<S>> {
    if (!this.config.validateResponses) {
      if (body === null || typeof body !== 'object') throw new APIResponseValidationError(status, body, new TypeError('the answer is not a JSON object'));
      return body as z.infer<S>;
    }
    const parsed = pick(await loadSchemas()).safeParse(body);
    if (!parsed.success) throw new APIResponseValidationError(status, body, parsed.error);
    return parsed.data;
  }

  private url(req: RequestTarget): string {
    const url = new URL(`${this.config.baseUrl.replace(/\/+$/, '')}${req.root ? '' : API_PREFIX}${req.path}`);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  private headers(req: RequestTarget, options: RequestOptions, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': `socialpub-sdk/${VERSION} node/${process.versions.node}`, accept: 'application/json', ...this.config.headers };
    if (req.auth !== false) {
      if (!this.config.apiKey) {
        throw new AuthenticationError({
          code: 'missing_api_key',
          message: 'No API key: pass apiKey to new SocialPub() or set SOCIALPUB_API_KEY (create one with `socialpub keys create`).',
        });
      }
      headers.authorization = `Bearer ${this.config.apiKey}`;
    }
    // The interface asks for Content-Type: application/json on every POST, even without a body.
    if (req.upload) headers['content-type'] = req.upload.contentType;
    else if (req.method !== 'GET' && req.method !== 'DELETE') headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    return { ...headers, ...options.headers };
  }
}

/** The JSON of an answer; text that is not JSON is an APIResponseValidationError. */
function parseJson(status: number, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new APIResponseValidationError(status, text, error);
  }
}
