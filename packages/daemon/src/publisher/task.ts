import type { Platform } from '@socialpub/core';
import type { RateLimitedError } from '../platforms/errors';
import type { ResolvedOptions } from './options';

/** One piece of the publisher's work: publish a due target, or reconcile one left `publishing`. */
export interface Task {
  kind: 'publish' | 'reconcile';
  id: string;
  platform: Platform;
  /** The target's user: with the platform, the connection it goes out through. */
  userId: string;
  /** The account it goes out through (its connection); null for a target accepted before accounts had labels. */
  connectionId: string | null;
  /** For a reconcile at start: the dead process whose lease may be taken before it runs out. */
  deadOwner: string | null;
}

/** How an attempt or a reconciliation ended, as seen by listeners (tests, metrics). */
export interface Settled {
  targetId: string;
  kind: 'publish' | 'reconcile';
  /** The target's status afterwards; `skipped` when the claim lost (not due, cancelled, taken); `abandoned` at shutdown. */
  result: 'published' | 'scheduled' | 'failed' | 'needs_review' | 'skipped' | 'abandoned' | 'lease_lost' | 'reconcile_later';
}

/** What an attempt may use of the publisher that runs it. */
export interface AttemptScope {
  readonly o: ResolvedOptions;
  /** True when the attempt on `id` was given up at shutdown: nothing more is written for it. */
  abandoned(id: string): boolean;
  /** True once stop() returned: the store may be closed, so late results are not written. */
  stopped(): boolean;
  /** False once stop() began: a target waiting for a slot on the database gives it up (it stays scheduled). */
  accepting(): boolean;
  /** Reads the pauses from the store again (another daemon recorded one). */
  reloadPauses(now: number): void;
  /** Resolves once a preparation of the target in flight (publisher/preparer.ts) has ended, or waited for long enough. */
  preparation(id: string): Promise<void>;
  /** Defers the target to the end of its connection's pause (or its platform's app-wide one), if paused; true if it did. */
  holdIfPaused(id: string, userId: string, platform: Platform, now: number, connectionId: string | null): boolean;
  /**
   * Pauses what a platform's limit applies to — the target's connection, or with
   * `appliesTo: 'app'` every connection of the platform — until the reset the platform
   * gave, and hands their waiting targets back to the store until then.
   */
  pause(target: { userId: string; platform: Platform; connectionId: string | null }, limit: RateLimitedError, now: number): void;
}
