import { randomUUID } from 'node:crypto';
import { API_PREFIX, VERSION } from '@socialpub/core';
import type { Got } from 'got';
import type { z } from 'zod';
import type { SdkClock } from './clock';
import { APIError, APIResponseValidationError, AuthenticationError } from './errors';
import { loadGot } from './got';
import type { RequestOptions } from './options';
import { retryDelay } from './retry-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call of the API, as a resource method describes it. */
export interface ApiRequest<S extends z.ZodType> {
  method: HttpMethod;
  /** Path under `/api/agents/v1` (or under the base URL when `root` is true). */
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  /** Schema of a successful answer; the body is parsed with it. */
  schema: S;
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
}

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
  clock: SdkClock;
  random: () => number;
}

/**
 * Sends requests with got (its own retry turned off) inside one retry loop, so the rules
 * of docs/sdk.md "Retries" hold exactly: got's defaults never retry a POST and give up
 * when Retry-After exceeds the timeout, and neither fits an idempotency-keyed API.
 */
export class Transport {
  #got: Promise<Got> | undefined;

  constructor(readonly config: TransportConfig) {}

  /** got with its retry off and errors mapped to ours; built on the first request. */
  private client(): Promise<Got> {
    this.#got ??= loadGot().then((got) =>
      got.extend({
        retry: { limit: 0 },
        responseType: 'text',
        throwHttpErrors: true,
        headers: { 'user-agent': `socialpub-sdk/${VERSION} node/${process.versions.node}`, accept: 'application/json' },
        hooks: {
          // A user's abort passes through untouched; everything else becomes one of our classes, got's error as cause.
          beforeError: [(error) => (error.name === 'AbortError' ? error : APIError.from(error))],
        },
      }),
    );
    return this.#got;
  }

  async request<S extends z.ZodType>(req: ApiRequest<S>, options: RequestOptions = {}): Promise<z.infer<S>> {
    const { signal } = options;
    // A stream read once cannot be sent again: no retry, whatever the error.
    const maxRetries = req.upload && !req.upload.reopenable ? 0 : (options.maxRetries ?? this.config.maxRetries);
    const timeout = options.timeout ?? this.config.timeout;
    // Generated once per call, before the first attempt, so every retry carries the same key.
    const idempotencyKey = options.idempotencyKey ?? (req.idempotent ? randomUUID() : undefined);
    const repeatable = req.method !== 'POST' || req.readOnly === true || idempotencyKey !== undefined;
    const url = this.url(req);
    const headers = this.headers(req, options, idempotencyKey);

    const got = await this.client();
    for (let retry = 0; ; retry += 1) {
      signal?.throwIfAborted();
      try {
        const response = await got(url, {
          method: req.method,
          headers,
          ...(req.upload ? { body: req.upload.open() as Buffer } : req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
          // An upload may rightly take longer than any fixed limit: the timeout bounds the
          // connection, each silence on the socket and the wait for the answer, not the whole.
          timeout: req.upload ? { connect: timeout, socket: timeout, response: timeout } : { request: timeout },
          ...(signal ? { signal } : {}),
        });
        return parseBody(req.schema, response.statusCode, response.body);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const wait = retry < maxRetries ? retryDelay(error, { retry, repeatable, maxRetryAfterMs: this.config.maxRetryAfter, random: this.config.random }) : null;
        if (wait === null) throw error;
        await this.config.clock.sleep(wait, signal);
      }
    }
  }

  private url(req: ApiRequest<z.ZodType>): string {
    const url = new URL(`${this.config.baseUrl.replace(/\/+$/, '')}${req.root ? '' : API_PREFIX}${req.path}`);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  private headers(req: ApiRequest<z.ZodType>, options: RequestOptions, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...this.config.headers };
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

export function parseBody<S extends z.ZodType>(schema: S, status: number, text: string): z.infer<S> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new APIResponseValidationError(status, text, error);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new APIResponseValidationError(status, body, parsed.error);
  return parsed.data;
}
