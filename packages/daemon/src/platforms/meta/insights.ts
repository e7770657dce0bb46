import type { CallContext, Credentials } from '../adapter';
import { MissingScopeError, numericFields, type PostAnalytics, type PostFigures } from '../post-analytics';
import type { TokenRefresher } from '../shared/token-env';
import { graphMessage } from './classify-error';
import { GraphApiError } from './graph-client';
import { MetaRun, newClient, type MetaAdapterOptions } from './meta-run';

/** How one Meta platform reads a post's insights: its host, token, metrics and what they mean. */
export interface MetaInsights {
  label: string;
  host(ctx: CallContext): string;
  version: string;
  tokenIn?: 'header' | 'param';
  token(ctx: CallContext): string;
  refresher(ctx: CallContext): TokenRefresher | null;
  /** The metrics asked for, by the network's current names. */
  metrics: readonly string[];
  /** The normalized figures from the network's own (flattened: `post_reactions_by_type_total.like`). */
  normalize(own: Record<string, number>): PostFigures['metrics'];
  /** The permission the insights need, and how to get it, when the connection's grant lacks it. */
  requiredScope(credentials: Credentials): { scope: string; reconnect: string } | null;
  /** Calls the collector may make per connection per hour (a share of the platform's limit). */
  callsPerHour: number;
}

/** Graph's "Object with ID … does not exist" (code 100, subcode 33): the post is gone. */
function isGone(err: unknown): boolean {
  const cause = err instanceof GraphApiError ? err : (err as { cause?: unknown } | null)?.cause;
  return cause instanceof GraphApiError && cause.error.code === 100 && cause.error.error_subcode === 33;
}

/** Graph's permission errors (code 10, "Permission Denied"; 200-299, "API Permission"): the token's grant lacks the insights permission. */
function permissionRefused(err: unknown): GraphApiError | null {
  const cause = err instanceof GraphApiError ? err : (err as { cause?: unknown } | null)?.cause;
  return cause instanceof GraphApiError && (cause.error.code === 10 || (cause.error.code >= 200 && cause.error.code <= 299)) ? cause : null;
}

/** A metric's value as Graph answers it: a number, or an object of numbers (reactions by type) flattened under the metric's name. */
function flatten(name: string, value: unknown): Record<string, number> {
  if (typeof value === 'number') return { [name]: value };
  return Object.fromEntries(Object.entries(numericFields(value)).map(([k, v]) => [`${name}.${k}`, v]));
}

/**
 * `GET /{object-id}/insights?metric=…` on a Meta host (docs/reference/platforms.md §18.2-17.4),
 * one post a call: `{"data":[{"name","period":"lifetime","values":[{"value"}]}]}`. A metric
 * Graph left out (not enough viewers, no data yet) is absent, not 0.
 */
export function createMetaInsights(d: MetaInsights, options: MetaAdapterOptions = {}): PostAnalytics {
  return {
    batchSize: 1,
    budget: { calls: d.callsPerHour, windowMs: 3_600_000 },
    refusal(credentials) {
      const need = d.requiredScope(credentials);
      const scopes = credentials.meta.scopes;
      if (!need || !Array.isArray(scopes) || scopes.includes(need.scope)) return null;
      return `this ${d.label} connection was made without the ${need.scope} permission figures need: reconnect it (${need.reconnect}) to read them`;
    },
    async read(ctx, postIds) {
      const run = new MetaRun(ctx, d.label, newClient(ctx, options, d.host(ctx), d.version, d.token(ctx), d.tokenIn ?? 'header'), d.refresher(ctx), options.http);
      const out = new Map<string, PostFigures>();
      for (const id of postIds) {
        let body: { data?: Array<{ name?: string; values?: Array<{ value?: unknown }> }> };
        try {
          body = await run.call(`${encodeURIComponent(id)}/insights`, { params: { metric: d.metrics.join(',') } });
        } catch (err) {
          if (isGone(err)) continue;
          const refused = permissionRefused(err);
          const need = refused ? d.requiredScope(ctx.credentials) : null;
          if (refused && need) {
            throw new MissingScopeError(`${graphMessage(d.label, refused)}: this connection's grant lacks the ${need.scope} permission figures need; reconnect it (${need.reconnect}) and allow it`, { cause: err });
          }
          throw err;
        }
        const own: Record<string, number> = {};
        for (const row of body.data ?? []) if (row.name) Object.assign(own, flatten(row.name, row.values?.[0]?.value));
        out.set(id, { platformMetrics: own, metrics: d.normalize(own) });
      }
      return out;
    },
  };
}
