import { APIError, SocialPub } from '@socialpub/sdk';
import { SOURCE_HEADER } from '@socialpub/core';
import type { SocialPubBackend } from '@socialpub/mcp';
import type { EventsHub } from '../events/events-hub';
import { followUserEvents } from '../events/follow-user-events';
import type { EventsRepository } from '../store/events';

/** Sends one request to the daemon's own app (Hono's `app.request`), no socket involved; `address` stands for the client's. */
export type AppFetch = (path: string, init: RequestInit, address: string) => Promise<Response>;

/** One attempt as the SDK's transport hands it to its sender (the SDK's OutgoingRequest). */
interface Attempt {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | AsyncIterable<Uint8Array> | undefined;
  signal?: AbortSignal | undefined;
}

/** The origin the in-process client's URLs carry; only their path and query reach the app. */
const IN_PROCESS_ORIGIN = 'http://in-process.invalid';

/** Headers that name the caller's key: the session's own replace whatever the client would send. */
const KEY_HEADERS = ['authorization', 'x-api-key'];

/**
 * The SDK's sender over the daemon's app: each attempt is an `app.request` with the
 * session's headers (its key as it sent it, what a TLS proxy said) and the client's
 * address; an answer that is not 2xx becomes the SDK's APIError from its body, so the SDK's
 * one error-body parser serves the MCP tools of both transports.
 */
class AppSender {
  constructor(
    private readonly fetch: AppFetch,
    private readonly session: Record<string, string>,
    private readonly address: string,
  ) {}

  async send(request: Attempt): Promise<{ statusCode: number; body: string }> {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (!KEY_HEADERS.includes(name)) headers[name] = value;
    Object.assign(headers, this.session);
    if (request.body !== undefined && typeof request.body !== 'string' && !(request.body instanceof Uint8Array)) {
      throw new TypeError('the in-process client sends no streamed bodies (uploads go to the daemon over HTTP)');
    }
    let response: Response;
    try {
      response = await this.fetch(`${url.pathname}${url.search}`, { method: request.method, headers, ...(request.body !== undefined ? { body: request.body as NonNullable<RequestInit['body']> } : {}), ...(request.signal ? { signal: request.signal } : {}) }, this.address);
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      throw APIError.from(error);
    }
    const body = await response.text();
    if (response.ok) return { statusCode: response.status, body };
    throw APIError.from({ response: { statusCode: response.status, statusMessage: response.statusText, headers: Object.fromEntries(response.headers), body } });
  }
}

/** The key the session was opened with, as the client sent it (Bearer or X-API-Key). */
function keyOf(session: Record<string, string>): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(session.authorization ?? '')?.[1];
  return bearer ?? (session['x-api-key']?.trim() || undefined);
}

/** The session's user and the daemon's event hub: what the waits follow in-process. */
export interface InProcessEvents {
  hub: EventsHub;
  events: EventsRepository;
  userId: string;
}

/**
 * The MCP tools' backend inside the daemon: the SDK's SocialPub client, sending through the
 * daemon's own app with the session's headers and `X-SocialPub-Source: mcp`. So each tool
 * call is the REST call it stands for (the route table's declaration, as the SDK builds it)
 * and meets the same authentication, rate-limit class, idempotency, validation and approval
 * rules. Like the hand-written backend before it: no retries (an agent sees a 429 or 503
 * and decides), answers passed on as the daemon sent them (not re-checked). Its event
 * stream is the daemon's hub read for the session's user (followUserEvents), so a tool
 * that waits spends no request on it.
 */
export function inProcessBackend(fetch: AppFetch, headers: Record<string, string>, address: string, live: InProcessEvents): SocialPubBackend {
  const sender = new AppSender(fetch, headers, address);
  const InProcessClient = class extends SocialPub {
    protected static override createSender() {
      return sender;
    }
  };
  const client = new InProcessClient({
    baseUrl: IN_PROCESS_ORIGIN,
    // The transport wants a key; the sender sends the session's own key headers in its place.
    apiKey: keyOf(headers) ?? 'in-process',
    headers: { [SOURCE_HEADER]: 'mcp' },
    maxRetries: 0,
    validateResponses: false,
  });
  return {
    auth: client.auth,
    platforms: client.platforms,
    content: client.content,
    scheduled: client.scheduled,
    analytics: client.analytics,
    media: client.media,
    sandbox: client.sandbox,
    connections: client.connections,
    inbox: client.inbox,
    events: { stream: (params) => followUserEvents(live, params) },
  };
}
