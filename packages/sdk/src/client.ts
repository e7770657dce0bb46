import { ROUTES, type HealthResponse } from '@socialpub/core';
import { systemClock } from './clock';
import { InternalServerError } from './errors';
import { DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_TIMEOUT_MS, type ClientOptions, type RequestOptions } from './options';
import { Auth } from './resources/auth';
import { Content } from './resources/content';
import { Events } from './resources/events';
import { Media } from './resources/media';
import { Platforms } from './resources/platforms';
import { QueueResource } from './resources/queue';
import { SeriesResource } from './resources/series';
import { AnalyticsResource } from './resources/analytics';
import { SettingsResource } from './resources/settings';
import { Sandbox } from './resources/sandbox';
import { Scheduled } from './resources/scheduled';
import { Webhooks } from './resources/webhooks';
import { Inbox } from './resources/inbox';
import { ReviewLinks } from './resources/review-links';
import { Connections } from './resources/connections';
import { Keys } from './resources/keys';
import { GotSender } from './senders/got-sender';
import type { HttpSender } from './senders/sender';
import { Transport } from './transport';

/**
 * The client of a socialpub daemon: one property per resource of `/api/agents/v1`.
 *
 * ```ts
 * const client = new SocialPub(); // SOCIALPUB_BASE_URL, SOCIALPUB_API_KEY
 * const job = await client.content.publish({ caption: 'hello', platforms: ['twitter'], publish_now: true });
 * ```
 */
export class SocialPub {
  readonly auth: Auth;
  readonly content: Content;
  readonly scheduled: Scheduled;
  readonly media: Media;
  readonly platforms: Platforms;
  readonly events: Events;
  readonly webhooks: Webhooks;
  /** The caller's settings (timezone). */
  readonly settings: SettingsResource;
  /** Weekly posting slots; publish with `queue: true` to take the next free one. */
  readonly queue: QueueResource;
  /** Recurring posts (publish with `recurrence`). */
  readonly series: SeriesResource;
  /** Figures of published posts, read from each network (`posts`, `refresh`). */
  readonly analytics: AnalyticsResource;
  readonly sandbox: Sandbox;
  /** Links a person without an account opens to approve or reject some posts (create, list, revoke). */
  readonly reviewLinks: ReviewLinks;
  /** The caller's accounts on the networks (several per network, by label): list, rename, make default, remove. */
  readonly connections: Connections;
  /** The caller's API keys and their scopes (a full key only). */
  readonly keys: Keys;
  /** Comments under your published posts and your replies to them. */
  readonly inbox: Inbox;
  /** The base URL in use (without /api/agents/v1). */
  readonly baseUrl: string;
  readonly #transport: Transport;

  /**
   * @internal What a client of this class sends its requests with: got. The CLI's client
   * (src/light-client.ts) overrides it with a sender on node:http alone.
   */
  protected static createSender(): HttpSender {
    return new GotSender();
  }

  constructor(options: ClientOptions = {}) {
    const env = process.env;
    this.baseUrl = (options.baseUrl ?? env.SOCIALPUB_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (!/^https?:\/\//.test(this.baseUrl)) throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(this.baseUrl)}`);
    const clock = options.clock ?? systemClock;
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey ?? (env.SOCIALPUB_API_KEY || undefined),
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      maxRetryAfter: options.maxRetryAfter ?? DEFAULT_MAX_RETRY_AFTER_MS,
      headers: options.headers ?? {},
      validateResponses: options.validateResponses ?? true,
      clock,
      random: Math.random,
      sender: (new.target as typeof SocialPub).createSender(),
    });
    this.auth = new Auth(this.#transport, clock);
    this.content = new Content(this.#transport, clock);
    this.scheduled = new Scheduled(this.#transport, clock);
    this.media = new Media(this.#transport, clock);
    this.platforms = new Platforms(this.#transport, clock);
    this.events = new Events(this.#transport, clock);
    this.webhooks = new Webhooks(this.#transport, clock);
    this.settings = new SettingsResource(this.#transport, clock);
    this.queue = new QueueResource(this.#transport, clock);
    this.series = new SeriesResource(this.#transport, clock);
    this.analytics = new AnalyticsResource(this.#transport, clock);
    this.sandbox = new Sandbox(this.#transport, clock);
    this.reviewLinks = new ReviewLinks(this.#transport, clock);
    this.connections = new Connections(this.#transport, clock);
    this.keys = new Keys(this.#transport, clock);
    this.inbox = new Inbox(this.#transport, clock);
  }

  /**
   * GET /healthz (no API key): the daemon's version, uptime and scheduler state. An
   * unhealthy daemon answers 503 with the same body; it is returned, not thrown, so a
   * caller can show why.
   */
  async health(options?: RequestOptions): Promise<HealthResponse> {
    try {
      return await this.#transport.call(ROUTES.health, {}, options);
    } catch (error) {
      if (error instanceof InternalServerError && error.status === 503) {
        const unhealthy = await this.#transport.readBody((s) => s.HealthResponseSchema, 503, error.body).catch(() => undefined);
        if (unhealthy) return unhealthy;
      }
      throw error;
    }
  }
}
