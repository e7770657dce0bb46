import type { ResourceNotifier } from './resources';

/** What the notifications need of an event (the API's event envelope has both). */
export interface ChangeEvent {
  type: string;
  job_id?: string | null | undefined;
}

/** The event types that change a resource: posts and their targets, connections (the platforms table). */
export const NOTIFYING_EVENT_TYPES = ['post.*', 'target.*', 'connection.*', 'comment.*'] as const;

/**
 * Tells subscribed clients what a batch of events changed, each resource once: a new post
 * (`post.accepted`) changes the posts list; any post or target event changes that post's
 * resource; a connection event changes `socialpub://platforms` (it shows your connections);
 * a comment event (`comment.received`, `comment.replied`) changes `socialpub://inbox/unread`.
 * Both transports feed it from the daemon's event stream, so changes made anywhere — the
 * REST API, the publisher, the CLI, another MCP session — reach every session of the user.
 */
export function notifyChanges(notifier: ResourceNotifier, events: readonly ChangeEvent[]): void {
  let list = false;
  let platforms = false;
  let inbox = false;
  const posts = new Set<string>();
  for (const e of events) {
    if (e.type === 'post.accepted') list = true;
    if (e.job_id && (e.type.startsWith('post.') || e.type.startsWith('target.'))) posts.add(e.job_id);
    if (e.type.startsWith('connection.')) platforms = true;
    if (e.type.startsWith('comment.')) inbox = true;
  }
  if (list) notifier.postsListChanged();
  for (const jobId of posts) notifier.postChanged(jobId);
  if (platforms) notifier.platformsChanged();
  if (inbox) notifier.inboxChanged();
}
