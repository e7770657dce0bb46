import type { Got } from 'got';
import type { CallContext, PublishContext, TokenUpdate } from '../adapter';
import { AuthExpiredError, RetryableError, type PublishError } from '../errors';
import { classifyGraphError, isAuthError } from './classify-error';
import { GraphApiError, GraphClient, GraphTransportError, type GraphCall } from './graph-client';
import type { TokenRefresher } from '../shared/token-env';

/** Options every Meta adapter takes (documented defaults). */
export interface MetaAdapterOptions {
  /** Graph API version for graph.facebook.com / graph.instagram.com. Default v25.0. */
  graphVersion?: string;
  /** Threads API version. Default v1.0. */
  threadsVersion?: string;
  /** Per-request timeout. Default 60 s. */
  timeoutMs?: number;
  /** Shared got instance. */
  http?: Got;
}

/**
 * One publish (or reconcile) run against a Meta host: every call is classified into the
 * publisher's errors, and an expired token is refreshed where the platform allows it and
 * the step retried once. A refresh the platform refuses marks the connection expired; a
 * transient refresh failure only retries later.
 */
export class MetaRun<C extends CallContext = PublishContext> {
  #refreshed = false;

  constructor(
    readonly ctx: C,
    readonly label: string,
    readonly client: GraphClient,
    /** The platform's TokenRefresher; null where the token cannot be refreshed (Facebook Login: re-authenticate). */
    readonly refresher: TokenRefresher | null,
    /** The got instance the refresh uses (MetaAdapterOptions.http). */
    readonly http?: Got,
  ) {}

  async call<T = Record<string, unknown>>(path: string, call: GraphCall = {}, opts: { publishing?: boolean } = {}): Promise<T> {
    const publishing = opts.publishing ?? false;
    try {
      return await this.client.request<T>(path, call);
    } catch (err) {
      // An auth error is an answer (nothing was done), so refreshing and repeating is safe even for a publishing call.
      if (!isAuthError(err)) throw await this.fail(err, publishing);
      await this.refresh(err);
      try {
        return await this.client.request<T>(path, call);
      } catch (again) {
        throw await this.fail(again, publishing);
      }
    }
  }

  /** Classifies without a refresh attempt (used for errors already seen). */
  async fail(err: unknown, publishing: boolean): Promise<PublishError> {
    const classified = classifyGraphError(err, { now: this.ctx.clock.now(), publishing, label: this.label });
    if (classified instanceof AuthExpiredError) await this.ctx.markConnectionExpired(classified.message);
    return classified;
  }

  async refresh(cause: unknown): Promise<void> {
    const reason = cause instanceof GraphApiError ? classifyGraphError(cause, { now: this.ctx.clock.now(), publishing: false, label: this.label }) : null;
    if (!this.refresher || this.#refreshed) {
      const message = reason?.message ?? `${this.label}: the access token is no longer valid`;
      await this.ctx.markConnectionExpired(message);
      throw new AuthExpiredError(`${message}. Reconnect with \`socialpub connect ${this.ctx.target.platform}\`.`, { platformCode: reason?.platformCode ?? null, cause });
    }
    this.#refreshed = true;
    let update: TokenUpdate;
    try {
      const credentials = { ...this.ctx.credentials, secrets: { ...this.ctx.credentials.secrets, access_token: this.client.token } };
      update = await this.refresher.refresh(credentials, { baseUrl: (h) => this.ctx.baseUrl(h), clock: this.ctx.clock, signal: this.ctx.signal, ...(this.http ? { http: this.http } : {}) });
    } catch (err) {
      if (err instanceof GraphTransportError || (err instanceof GraphApiError && (err.status >= 500 || err.error.is_transient))) {
        throw new RetryableError(`${this.label}: the token refresh failed for now (${err.message}); will try again`, { cause: err });
      }
      const message = `${this.label}: the token could not be refreshed (${err instanceof Error ? err.message : String(err)})`;
      await this.ctx.markConnectionExpired(message);
      throw new AuthExpiredError(`${message}. Reconnect with \`socialpub connect ${this.ctx.target.platform}\`.`, { cause: err });
    }
    await this.ctx.saveTokens(update);
    this.client.setToken(update.secrets.access_token as string);
    this.ctx.log.info('token refreshed after an auth error', { platform: this.ctx.target.platform });
  }
}

/** The access token of a connection, or an auth error naming the fix. */
export function requireToken(ctx: CallContext, label: string): string {
  const token = ctx.credentials.secrets.access_token;
  if (!token) throw new AuthExpiredError(`${label}: the connection holds no access token. Reconnect with \`socialpub connect ${ctx.target.platform}\`.`);
  return token;
}

export function newClient(ctx: CallContext, o: MetaAdapterOptions, host: string, version: string | null, token: string, tokenIn: 'header' | 'param' = 'header'): GraphClient {
  return new GraphClient({ baseUrl: ctx.baseUrl(host), version, token, tokenIn, signal: ctx.signal, timeoutMs: o.timeoutMs, http: o.http });
}
