import { Hono } from 'hono';
import { formatInstant, type Platform, type SandboxPost as SandboxPostView } from '@socialpub/core';
import type { DB } from '../store/database';
import type { Clock } from '../util/clock';
import { META_SIMULATOR_HOSTS, MetaSimulator } from './meta/simulator';
import type { SimulatedPost } from './shared/sandbox-post-sink';
import { tiktokSandbox } from './tiktok/sandbox';
import { twitterSandbox } from './twitter/sandbox';
import { youtubeSandbox } from './youtube/sandbox';

/** What every simulator factory receives. */
export interface SandboxDeps {
  /** Posts go to sandbox_posts, so `socialpub sandbox posts` lists them across restarts. */
  db: DB | null;
  clock: Clock;
}

/** A simulator: a Hono app answering `/<host>/...` for each of its hosts. */
export interface Simulator {
  hosts: readonly string[];
  app: Hono;
}

/**
 * The platform simulators the daemon serves for sandbox connections. One entry per
 * simulator; add yours to the list.
 */
export const SIMULATORS: ((deps: SandboxDeps) => Simulator)[] = [
  (deps) => {
    // A dry run should not make the user wait: images are ready at once, videos after 15 s
    // (tests use the simulator's own, slower defaults to exercise IN_PROGRESS).
    const sim = new MetaSimulator({ clock: deps.clock, db: deps.db, config: { imageProcessingMs: 0, videoProcessingMs: 15_000 } });
    return { hosts: META_SIMULATOR_HOSTS, app: sim.app };
  },
  twitterSandbox,
  tiktokSandbox,
  youtubeSandbox,
];

/**
 * One app mounting every simulator under `/<host>`, e.g. `/graph.facebook.com/v25.0/...`.
 * The daemon mounts it at `/sandbox`, so a sandbox connection's `ctx.baseUrl(host)` is
 * `<daemon url>/sandbox/<host>`.
 */
export function createSandboxApp(deps: SandboxDeps, simulators = SIMULATORS): Hono {
  const app = new Hono();
  for (const make of simulators) app.route('/', make(deps).app);
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

/**
 * What the simulators received, oldest first (for `socialpub sandbox posts [--platform P]`).
 * `latest`: the most recent `limit` posts (still oldest first) instead of the first ones.
 */
export function listSandboxPosts(db: DB, filter: { platform?: Platform; limit?: number; latest?: boolean } = {}): SandboxPost[] {
  const limit = Math.max(1, Math.min(filter.limit ?? 1000, 100_000));
  const order = filter.latest ? 'created_at DESC, id DESC' : 'created_at, id';
  const selected = filter.platform
    ? db.prepare<[string, number], SandboxPostRow>(`SELECT * FROM sandbox_posts WHERE platform = ? ORDER BY ${order} LIMIT ?`).all(filter.platform, limit)
    : db.prepare<[number], SandboxPostRow>(`SELECT * FROM sandbox_posts ORDER BY ${order} LIMIT ?`).all(limit);
  const rows = filter.latest ? selected.reverse() : selected;
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

/** A stored simulated post as the API and `socialpub sandbox posts --json` show it. */
export function presentSandboxPost(p: SandboxPost): SandboxPostView {
  return {
    platform: p.platform,
    kind: p.kind,
    post_id: p.postId,
    post_url: p.postUrl,
    account_id: p.accountId,
    created_at: formatInstant(p.createdAt),
    body: p.body,
  };
}
