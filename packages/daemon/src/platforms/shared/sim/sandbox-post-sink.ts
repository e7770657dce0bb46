import type { Platform } from '@socialpub/core';
import type { DB } from '../../../store/database';

/** A post a simulator made (what `socialpub sandbox posts` lists). */
export interface SimulatedPost {
  platform: Platform;
  accountId: string | null;
  postId: string;
  postUrl: string | null;
  kind: string;
  body: Record<string, unknown>;
  createdAt: number;
}

/** Persists simulated posts into sandbox_posts, so `socialpub sandbox posts` lists them across restarts. */
export function sandboxPostSink(db: DB | null): ((post: SimulatedPost) => void) | undefined {
  if (!db) return undefined;
  const insert = db.prepare('INSERT INTO sandbox_posts (platform, account_id, post_id, post_url, kind, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  return (p) => {
    insert.run(p.platform, p.accountId, p.postId, p.postUrl, p.kind, JSON.stringify(p.body), p.createdAt);
  };
}
