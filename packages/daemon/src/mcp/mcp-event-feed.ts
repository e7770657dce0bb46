import { notifyChanges } from '@socialpub/mcp';
import type { EventsHub } from '../events/events-hub';
import type { EventFilter, EventsRepository } from '../store/events';
import type { McpSessions } from './mcp-sessions';

/** The events that change an MCP resource (NOTIFYING_EVENT_TYPES as the outbox filters them). */
const FILTER: EventFilter = { types: ['post.', 'target.', 'connection.', 'comment.'] };
const PAGE = 500;

/**
 * Feeds the open MCP sessions from the outbox: whenever the hub says events committed, each
 * user with a session gets the new events' resource notifications (notifyChanges), whoever
 * made the change — REST, the publisher, the CLI, an MCP session. Events of users without
 * a session are passed over. Returns a function that stops it.
 */
export function feedMcpSessions({ hub, events, sessions }: { hub: EventsHub; events: EventsRepository; sessions: McpSessions }): () => void {
  let cursor = hub.lastId;
  return hub.subscribe((upTo) => {
    const from = cursor;
    cursor = Math.max(cursor, upTo);
    for (const userId of sessions.userIds()) {
      const changes: { type: string; job_id: string | null }[] = [];
      let after = from;
      for (;;) {
        const page = events.listAfter(userId, after, FILTER, PAGE);
        for (const e of page.events) if (e.id <= upTo) changes.push({ type: e.type, job_id: e.jobId });
        if (page.events.length < PAGE || page.scanned >= upTo) break;
        after = page.scanned;
      }
      if (changes.length === 0) continue;
      for (const notifier of sessions.notifiers(userId)) notifyChanges(notifier, changes);
    }
  });
}
