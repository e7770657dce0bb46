import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { KeyScope } from '@socialpub/core';
import { createSocialPubMcpServer, type ResourceNotifier, type SocialPubBackend } from '@socialpub/mcp';
import type { Clock } from '../util/clock';

export interface McpSession {
  id: string;
  userId: string;
  /** A session belongs to the key that opened it; another key (even the user's) does not reach it. */
  keyId: string;
  transport: WebStandardStreamableHTTPServerTransport;
  notifier: ResourceNotifier;
  lastUsed: number;
}

export interface McpSessionsOptions {
  clock: Clock;
  /**
   * Most open sessions per user; past it that user's least recently used one is closed, so one
   * user's sessions never close another's (issue 35, item 11). Default 100.
   */
  maxSessionsPerUser?: number;
  /** A session unused this long is closed. Default 1 hour. */
  idleMs?: number;
  /** Largest request body the transport reads. */
  maxBodyBytes: number;
}

/** Open Streamable HTTP sessions: one MCP server and transport each, bounded in number per user and in idle time. */
export class McpSessions {
  readonly #sessions = new Map<string, McpSession>();
  readonly #clock: Clock;
  readonly #max: number;
  readonly #idleMs: number;
  readonly #maxBodyBytes: number;

  constructor(options: McpSessionsOptions) {
    this.#clock = options.clock;
    this.#max = options.maxSessionsPerUser ?? 100;
    this.#idleMs = options.idleMs ?? 3_600_000;
    this.#maxBodyBytes = options.maxBodyBytes;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The largest request body a session takes (the API's body limit). */
  get maxBodyBytes(): number {
    return this.#maxBodyBytes;
  }

  /** The session, touched, if it exists and belongs to this key. */
  get(id: string, keyId: string): McpSession | null {
    this.#sweep();
    const session = this.#sessions.get(id);
    if (!session || session.keyId !== keyId) return null;
    session.lastUsed = this.#clock.now();
    return session;
  }

  /**
   * A new server and transport for an initialize request; the session is kept once the
   * transport has answered the initialize (it assigns the id).
   */
  async open(owner: { userId: string; keyId: string }, backend: SocialPubBackend, { json, scope }: { json: boolean; scope: KeyScope }): Promise<WebStandardStreamableHTTPServerTransport> {
    this.#sweep();
    // The daemon's event stream tells every session of the user about every change (mcp-event-feed.ts).
    // The tools the key's scope cannot call are not offered (their REST calls would be refused anyway).
    const { server, notifier } = createSocialPubMcpServer({ backend, changesFromEvents: true, scope });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: json,
      maxRequestBodySize: this.#maxBodyBytes,
      onsessioninitialized: (id) => {
        while (this.#countOf(owner.userId) >= this.#max) this.#closeOldest(owner.userId);
        this.#sessions.set(id, { id, ...owner, transport, notifier, lastUsed: this.#clock.now() });
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  /** The users with at least one open session. */
  userIds(): Set<string> {
    return new Set([...this.#sessions.values()].map((s) => s.userId));
  }

  /** Every session of `userId`'s notifier (for change notifications from outside a session). */
  notifiers(userId: string): ResourceNotifier[] {
    return [...this.#sessions.values()].filter((s) => s.userId === userId).map((s) => s.notifier);
  }

  async closeAll(): Promise<void> {
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => {})));
  }

  #sweep(): void {
    const cutoff = this.#clock.now() - this.#idleMs;
    for (const s of this.#sessions.values()) if (s.lastUsed < cutoff) this.#close(s);
  }

  #countOf(userId: string): number {
    let n = 0;
    for (const s of this.#sessions.values()) if (s.userId === userId) n++;
    return n;
  }

  /** Closes `userId`'s least recently used session. */
  #closeOldest(userId: string): void {
    let oldest: McpSession | null = null;
    for (const s of this.#sessions.values()) if (s.userId === userId && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
    if (oldest) this.#close(oldest);
  }

  #close(s: McpSession): void {
    this.#sessions.delete(s.id);
    void s.transport.close().catch(() => {});
  }
}
