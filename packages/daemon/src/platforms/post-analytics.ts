import type { NormalizedMetrics } from '@socialpub/core';
import type { CallContext, Credentials } from './adapter';

/** One post's figures as read: under common names, and as the network names them. */
export interface PostFigures {
  metrics: NormalizedMetrics;
  /** The network's own field names and values, as read (`like_count`, `favourites_count`, `likeCount`). */
  platformMetrics: Record<string, number>;
}

/**
 * How one platform reads the figures of published posts (docs/reference/platforms.md §18),
 * made by its module's `analytics`. Calls throw the publisher's errors (platforms/errors.ts):
 * RateLimitedError when the network says wait, RetryableError when it cannot answer now,
 * PermanentError when it refuses, AuthExpiredError when the connection is dead.
 */
export interface PostAnalytics {
  /** Posts one call reads (X 100, Bluesky 25, one for networks that read a post per call). */
  readonly batchSize: number;
  /**
   * The calls the collector may make per connection in a window: a share of the network's
   * read budget, so a publish on the same connection always finds calls left.
   */
  readonly budget: { calls: number; windowMs: number };
  /** Why a post cannot be read by its id (TikTok: a private post kept under its publish id, not a video id), or null. */
  unreadable?(postId: string): string | null;
  /** Why this connection cannot be read (a scope not granted at connect, with how to reconnect), or null. */
  refusal(credentials: Credentials): string | null;
  /** The figures of up to `batchSize` posts, by post id; posts the network does not know (deleted) are absent. */
  read(ctx: CallContext, postIds: readonly string[]): Promise<Map<string, PostFigures>>;
}

/**
 * The network refused a reading because the connection's grant lacks a permission the
 * figures need (a person may untick it in the consent dialog, which the connection's asked
 * scopes cannot show): the collector answers `missing_scope` with this message, which says
 * how to reconnect.
 */
export class MissingScopeError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'MissingScopeError';
  }
}

/** Keeps the numeric fields of a network's answer (its own names), dropping anything else. */
export function numericFields(value: unknown): Record<string, number> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
}

/**
 * The normalized figures from the network's own: each common name from one field or the
 * sum of several (`shares: ['reposts', 'quotes']`), present only where the network
 * answered at least one of them.
 */
export function normalizedFrom(own: Record<string, number>, map: Partial<Record<keyof NormalizedMetrics, string | readonly string[]>>): NormalizedMetrics {
  const out: NormalizedMetrics = {};
  for (const [to, from] of Object.entries(map) as Array<[keyof NormalizedMetrics, string | readonly string[]]>) {
    const present = (typeof from === 'string' ? [from] : from).filter((n) => own[n] !== undefined);
    if (present.length > 0) out[to] = present.reduce((sum, n) => sum + own[n]!, 0);
  }
  return out;
}
