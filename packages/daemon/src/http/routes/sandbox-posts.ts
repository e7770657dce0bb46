import { SandboxPostsQuerySchema, type SandboxPostsResponse } from '@socialpub/core';
import { Hono } from 'hono';
import { listSandboxPosts, presentSandboxPost } from '../../platforms/sandbox';
import type { RouteDeps } from '../deps';
import type { AppEnv } from '../env';
import { invalid, issuesToDetails } from '../errors';
import { rateClass } from '../middleware/rate-limit';

/**
 * GET /sandbox/posts (an extension): what the simulators received, limited to the platforms
 * the caller has a sandbox connection to — the API view of `socialpub sandbox posts`, so an
 * agent can see its dry run land.
 */
export function sandboxPostsRoutes(deps: RouteDeps) {
  return new Hono<AppEnv>().get('/posts', rateClass('sandbox'), (c) => {
    const parsed = SandboxPostsQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw invalid(issuesToDetails(parsed.error.issues));
    const { platform, limit } = parsed.data;
    const sandboxed = new Set(
      deps.store.connections
        .listForUser(c.get('user').id)
        .filter((x) => x.mode === 'sandbox')
        .map((x) => x.platform),
    );
    const rows = platform === undefined || sandboxed.has(platform) ? listSandboxPosts(deps.store.db, { platform, limit, latest: true }) : [];
    const body: SandboxPostsResponse = {
      success: true,
      posts: rows.filter((p) => sandboxed.has(p.platform)).map(presentSandboxPost),
    };
    return c.json(body, 200);
  });
}
