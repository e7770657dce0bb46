import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { SocialPubBackend } from './backend';
import { nextStep } from './next-step';
import { errorInfo } from './tool-result';

export const PLATFORMS_URI = 'socialpub://platforms';
/** How many comments on the user's posts are unread (the inbox). */
export const INBOX_UNREAD_URI = 'socialpub://inbox/unread';
export const postUri = (jobId: string) => `socialpub://posts/${encodeURIComponent(jobId)}`;
/** MCP's "resource not found" (the spec's -32002). */
const RESOURCE_NOT_FOUND = -32002;
/** How many of the latest posts resources/list offers (each is readable by its URI whatever its age). */
const LISTED_POSTS = 50;

const json = (uri: string, data: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }] });

/** A failed read as a JSON-RPC error: resources have no isError result. */
function readError(uri: string, error: unknown): McpError {
  const info = errorInfo(error);
  if (info.code === 'not_found' || info.code === 'forbidden') return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  return new McpError(ErrorCode.InternalError, `${info.code}: ${info.message} (next step: ${nextStep(info)})`, { code: info.code });
}

export interface ResourceNotifier {
  /** A post changed: subscribers of its URI get notifications/resources/updated. */
  postChanged(jobId: string): void;
  /** Posts were added or removed: clients get notifications/resources/list_changed. */
  postsListChanged(): void;
  /** A connection changed: subscribers of socialpub://platforms get notifications/resources/updated. */
  platformsChanged(): void;
  /** A comment arrived or a reply went out: subscribers of socialpub://inbox/unread get notifications/resources/updated. */
  inboxChanged(): void;
}

/**
 * `socialpub://platforms` and the `socialpub://posts/{job_id}` template, with
 * subscriptions: the returned notifier tells subscribed clients when a post changes. The
 * daemon's event stream calls it for every change (event-notifications.ts); without one,
 * the tools call it for their own changes.
 */
export function registerResources(server: McpServer, backend: SocialPubBackend): ResourceNotifier {
  server.registerResource(
    'platforms',
    PLATFORMS_URI,
    { title: 'Platforms', description: 'Content types, caption and media rules per platform, and your connection to each.', mimeType: 'application/json' },
    async (uri, extra) => {
      try {
        return json(uri.href, await backend.platforms.list({ signal: extra.signal }));
      } catch (error) {
        throw readError(uri.href, error);
      }
    },
  );
  server.registerResource(
    'inbox-unread',
    INBOX_UNREAD_URI,
    { title: 'Unread comments', description: 'How many comments under your published posts are unread (list_inbox lists them).', mimeType: 'application/json' },
    async (uri, extra) => {
      try {
        const page = await backend.inbox.list({ status: 'unread', limit: 1 }, { signal: extra.signal });
        return json(uri.href, { unread: page.unread });
      } catch (error) {
        throw readError(uri.href, error);
      }
    },
  );
  server.registerResource(
    'post',
    new ResourceTemplate('socialpub://posts/{job_id}', {
      list: async (extra) => {
        const page = await backend.scheduled.list({ limit: LISTED_POSTS }, { signal: extra.signal });
        return {
          resources: page.posts.map((p) => ({ uri: postUri(p.job_id), name: p.job_id, title: `${p.status}: ${p.caption.slice(0, 60)}`, mimeType: 'application/json' })),
        };
      },
    }),
    { title: 'Post', description: 'One post (job) with its targets, as get_post returns it.', mimeType: 'application/json' },
    async (uri, { job_id }, extra) => {
      const jobId = decodeURIComponent(String(job_id));
      try {
        return json(uri.href, await backend.scheduled.get(jobId, { signal: extra.signal }));
      } catch (error) {
        throw readError(uri.href, error);
      }
    },
  );

  const subscribed = new Set<string>();
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  // Notifications are best effort: a client gone away must not fail the tool that changed the post.
  const quietly = (send: () => Promise<void> | void) => {
    if (!server.isConnected()) return;
    Promise.resolve()
      .then(send)
      .catch(() => {});
  };
  return {
    postChanged(jobId) {
      const uri = postUri(jobId);
      if (subscribed.has(uri)) quietly(() => server.server.sendResourceUpdated({ uri }));
    },
    postsListChanged() {
      quietly(() => server.sendResourceListChanged());
    },
    inboxChanged() {
      if (subscribed.has(INBOX_UNREAD_URI)) quietly(() => server.server.sendResourceUpdated({ uri: INBOX_UNREAD_URI }));
    },
    platformsChanged() {
      if (subscribed.has(PLATFORMS_URI)) quietly(() => server.server.sendResourceUpdated({ uri: PLATFORMS_URI }));
    },
  };
}
