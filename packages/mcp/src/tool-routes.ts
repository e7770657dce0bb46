import { ROUTES, scopeAllows, type KeyScope, type RouteDecl, type RouteName } from '@socialpub/core';

/**
 * The REST route each tool calls (its backend method's declaration in core's route table),
 * so a tool needs the key scope its route declares: a session opened with a narrower key
 * does not list it (server.ts), as the daemon would refuse the call (403 insufficient_scope).
 */
export const TOOL_ROUTES: Readonly<Record<string, RouteName>> = {
  whoami: 'auth.validate',
  list_platforms: 'platforms.list',
  validate_post: 'content.validate',
  publish_post: 'content.publish',
  list_posts: 'scheduled.list',
  get_post: 'scheduled.list',
  retime_post: 'scheduled.update',
  cancel_post: 'scheduled.cancel',
  approve_post: 'scheduled.approve',
  reject_post: 'scheduled.reject',
  request_changes: 'scheduled.request_changes',
  comment_on_post: 'scheduled.comment',
  unpublish_post: 'scheduled.unpublish',
  get_post_metrics: 'analytics.posts',
  refresh_post_metrics: 'analytics.refresh',
  get_analytics_summary: 'analytics.summary',
  export_analytics_csv: 'analytics.export',
  prepare_media: 'media.prepare',
  media_status: 'media.status',
  upload_file: 'media.upload',
  list_sandbox_posts: 'sandbox.posts',
  list_connections: 'connections.list',
  update_connection: 'connections.update',
  list_inbox: 'inbox.list',
  reply_to_comment: 'inbox.reply',
};

/** Whether a key of `scope` may use the tool (a tool this table does not name: not offered). */
export function toolAllowed(tool: string, scope: KeyScope): boolean {
  const route = TOOL_ROUTES[tool];
  const needed = route ? (ROUTES[route] as RouteDecl).scope : undefined;
  return needed !== undefined && scopeAllows(scope, needed);
}
