import type { Platform } from '@socialpub/core';
import type { DB } from '../../../store/database';
import { sandboxCallerKey } from './sandbox-caller';

/** A post a simulator made (what `socialpub sandbox posts` lists). */
export interface SimulatedPost {
  platform: Platform;
  accountId: string | null;
  postId: string;
  postUrl: string | null;
  kind: string;
  body: Record<string, unknown>;
  createdAt: number;
  /** When the simulator deleted it (a take-down); absent while it is up. */
  removedAt?: number | null;
}

/** Records that a simulator deleted a post (platform, post id, epoch ms). */
export type PostRemovalSink = (platform: Platform, postId: string, at: number) => void;

/** Marks a simulated post deleted in sandbox_posts, so `socialpub sandbox posts` shows it removed. */
export function sandboxPostRemoval(db: DB | null): PostRemovalSink | undefined {
  if (!db) return undefined;
  const mark = db.prepare('UPDATE sandbox_posts SET removed_at = ? WHERE platform = ? AND post_id = ? AND removed_at IS NULL');
  return (platform, postId, at) => {
    mark.run(at, platform, postId);
  };
}

/** Persists simulated posts into sandbox_posts, so `socialpub sandbox posts` lists them across restarts. */
export function sandboxPostSink(db: DB | null): ((post: SimulatedPost) => void) | undefined {
  if (!db) return undefined;
  const insert = db.prepare('INSERT INTO sandbox_posts (platform, account_id, post_id, post_url, kind, body, created_at, account_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  return (p) => {
    // account_key: the sandbox connection whose request made the post (sandbox-caller.ts).
    insert.run(p.platform, p.accountId, p.postId, p.postUrl, p.kind, JSON.stringify(p.body), p.createdAt, sandboxCallerKey());
  };
}
