import { Hono } from 'hono';
import type { Platform } from '@socialpub/core';
import type { DB } from '../store/database';
import type { SandboxDeps } from './platform-module';
import { simulators } from './registry';
import type { SimulatedPost } from './shared/sim/sandbox-post-sink';

/**
 * One app mounting every simulator under `/<host>`, e.g. `/graph.facebook.com/v25.0/...`.
 * The daemon mounts it at `/sandbox`, so a sandbox connection's `ctx.baseUrl(host)` is
 * `<daemon url>/sandbox/<host>`.
 */
export function createSandboxApp(deps: SandboxDeps, factories = simulators()): Hono {
  const app = new Hono();
  for (const make of factories) app.route('/', make(deps).app);
  return app;
}

/** `<daemon url>/sandbox/<host>`: the base URL adapters use for a sandbox connection. */
export function sandboxBaseUrl(daemonUrl: string, host: string): string {
  return `${daemonUrl.replace(/\/+$/, '')}/sandbox/${host}`;
}

/** A stored simulated post, with its row id. */
export interface SandboxPost extends SimulatedPost {
  id: number;
}

interface SandboxPostRow {
  id: number;
  platform: Platform;
  account_id: string | null;
  post_id: string;
  post_url: string | null;
  kind: string;
  body: string;
  created_at: number;
}

/** What the simulators received, oldest first (for `socialpub sandbox posts [--platform P]`). */
export function listSandboxPosts(db: DB, filter: { platform?: Platform; limit?: number } = {}): SandboxPost[] {
  const limit = Math.max(1, Math.min(filter.limit ?? 1000, 100_000));
  const rows = filter.platform
    ? db.prepare<[string, number], SandboxPostRow>('SELECT * FROM sandbox_posts WHERE platform = ? ORDER BY created_at, id LIMIT ?').all(filter.platform, limit)
    : db.prepare<[number], SandboxPostRow>('SELECT * FROM sandbox_posts ORDER BY created_at, id LIMIT ?').all(limit);
  return rows.map((r) => ({
    id: r.id,
    platform: r.platform,
    accountId: r.account_id,
    postId: r.post_id,
    postUrl: r.post_url,
    kind: r.kind,
    body: JSON.parse(r.body) as Record<string, unknown>,
    createdAt: r.created_at,
  }));
}
