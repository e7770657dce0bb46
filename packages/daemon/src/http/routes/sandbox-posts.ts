import type { Routes, SandboxPostsResponse } from '@socialpub/core';
import { presentSandboxPost, sandboxLabels } from '../../platforms/sandbox';
import type { SandboxAccount } from '../../store/sandbox-store';
import { sandboxAccountKey } from '../../platforms/shared/is-sandbox-token';
import type { RouteDeps } from '../deps';
import type { RouteHandlers } from '../route-table/mount-route';

/**
 * GET /sandbox/posts (an extension): what the simulators received from the caller's own
 * sandbox connections — the API view of `socialpub sandbox posts`, so an agent can see its
 * dry run land, and nobody else's.
 */
export function sandboxPostsHandlers(deps: RouteDeps): RouteHandlers<Routes, 'sandbox.posts'> {
  return { 'sandbox.posts': ({ query }, c) => {
    const { platform, limit } = query;
    // The caller's sandbox connections; a post is theirs when one of them made it.
    const accounts: SandboxAccount[] = [];
    // (The account key of its tokens, as the simulators read it: sandboxAccountKey.)
    const userId = c.get('user').id;
    const connections = deps.store.connections.listForUser(userId);
    for (const x of connections) {
      const token = x.mode === 'sandbox' ? deps.store.credentials.credentialsById(x.id)?.secrets.access_token : undefined;
      const key = token ? sandboxAccountKey(token) : null;
      if (key !== null) accounts.push({ platform: x.platform, accountKey: key });
    }
    const rows = deps.store.sandbox.posts.list({ platform, limit, latest: true, accounts });
    // Each named by its account's label: two sandbox accounts of one network read apart.
    const labelOf = sandboxLabels(connections);
    const body: SandboxPostsResponse = { success: true, posts: rows.map((p) => presentSandboxPost(p, labelOf)) };
    return body;
  } };
}
