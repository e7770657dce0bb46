import { platformDescription, type InboxList, type PlatformInfo, type InboxQuery, type InboxRefreshResponse, type InboxReplyResponse, type InboxItemResponse, type Platform, type PostSource } from '@socialpub/core';
import { captionLength } from '../jobs/caption-length';
import { connectionCall, type ConnectionCallDeps } from '../platforms/connection-call';
import type { CommentsClient, RemoteComment } from '../platforms/conversations';
import { AuthExpiredError, PermanentError, PublishError, RateLimitedError } from '../platforms/errors';
import type { InboxItemRecord, InboxReplyRecord, NewInboxItem, WatchedTarget } from '../store/inbox';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import type { Clock } from '../util/clock';
import { newId } from '../util/ids';
import type { RootLogger } from '../util/logger';
import { startRoundLoop, type RoundLoop } from '../util/round-loop';
import { ServiceError } from '../util/service-error';
import { COLLECT_FOR_MS, NEVER, nextPollAt } from './poll-schedule';
import { decodeCursor, encodeCursor, presentItem, presentReply } from './present-inbox';

/** A network's comment support (platforms/registry.ts createCommentClients). */
export type CommentClientEntry = CommentsClient | { unsupported: string };

export interface InboxServiceDeps {
  store: Store;
  clock: Clock;
  logger: RootLogger;
  clients: Map<Platform, CommentClientEntry>;
  /** How calls on a connection's behalf are made (tokens stored, sandbox connections to the simulators). */
  calls: ConnectionCallDeps;
  /** The caption rule of a network for a connection (its adapter's infoFor: a Mastodon server's own limit): replies are held to it. Default: none checked here. */
  captionRule?: (platform: Platform, connectionMeta: Record<string, unknown>) => PlatformInfo['caption'];
  /** Told after events were written (wakes SSE streams sooner than their poll). */
  notify?: () => void;
  /** Targets read per round of the schedule. Default 20. */
  batch?: number;
  /** How far ahead a due post keeps the collector off its connection (ms). Default 2 minutes. */
  publishMarginMs?: number;
  /** Bound on one network call (ms). Default 60 s. */
  timeoutMs?: number;
}

export type InboxService = ReturnType<typeof createInboxService>;

/** Who wrote a reply and through what: decides whether it waits for approval. */
export interface ReplyWriter {
  source: PostSource;
  /** The key's scope (`agent` keys' replies always wait, as their posts do). */
  scope: 'full' | 'agent' | 'read';
  /** Commits with the reply (the Idempotency-Key's record), in its transaction. */
  alsoCommit?: (answer: InboxReplyResponse, now: number) => void;
}

/**
 * The inbox (docs/api.md "Inbox"): collects the comments under published targets from each
 * network (on a schedule that decays with the post's age, and on demand), lists and marks
 * them, and sends our replies exactly once. A reply is written down (with its
 * Idempotency-Key record) before it is answered and sent by the sender, which moves it
 * queued -> sending durably before the network call and keeps what it sent in the reply's
 * checkpoint: a reply left `sending` by a stopped process is sent again with the same key
 * (which the network dedupes, or which it finds already made), never twice. The collector
 * leaves a connection alone while it is publishing or has a post due within
 * `publishMarginMs`, and while the network has paused it (platform_pauses): comments wait, publishes do not.
 */
export function createInboxService(deps: InboxServiceDeps) {
  const { store, clock, logger } = deps;
  const batch = deps.batch ?? 20;
  const margin = deps.publishMarginMs ?? 2 * 60_000;
  const sending = new Set<string>();
  const collecting = new Set<string>();
  /** When a reply that could not be sent for now is tried again (in memory: a restart tries at once). */
  const retryAt = new Map<string, number>();
  let stopped = false;
  let loop: RoundLoop | null = null;
  const stopper = new AbortController();

  const signal = () => AbortSignal.any([stopper.signal, AbortSignal.timeout(deps.timeoutMs ?? 60_000)]);
  const nameOf = (p: Platform) => platformDescription(p)?.name ?? p;

  function itemOf(user: User, id: string): InboxItemRecord {
    const it = store.inbox.get(user.id, id);
    if (!it) throw new ServiceError('not_found', `no inbox item ${id}`);
    return it;
  }
  const present = (it: InboxItemRecord) => presentItem(it, store.inbox.repliesOf([it.id]).get(it.id) ?? []);

  function clientFor(platform: Platform): CommentsClient | string {
    const c = deps.clients.get(platform);
    if (!c) return `socialpub does not read ${nameOf(platform)} comments yet`;
    return 'unsupported' in c ? c.unsupported : c;
  }

  /** Reads one target's comments and adds the new ones; reschedules it. Throws the network's error (after rescheduling). */
  async function collectTarget(t: WatchedTarget): Promise<number> {
    const client = clientFor(t.platform);
    const now = clock.now();
    if (typeof client === 'string') {
      store.inbox.reschedule(t.targetId, NEVER, now, 0);
      throw new ServiceError('conflict', client);
    }
    const credentials = t.connectionId ? store.credentials.credentialsFor(t.userId, t.platform, t.connectionId) : null;
    if (!credentials) {
      store.inbox.reschedule(t.targetId, nextPollAt(t.publishedAt, now, t.failures + 1), now, t.failures + 1);
      throw new ServiceError('conflict', `the ${nameOf(t.platform)} account that published it is no longer connected`);
    }
    const ctx = connectionCall(deps.calls, t.platform, credentials, signal(), { job: t.jobId, target: t.targetId, op: 'inbox' });
    let found: RemoteComment[];
    try {
      found = await client.list(ctx, t.postId);
    } catch (err) {
      const after = clock.now();
      const next = err instanceof RateLimitedError ? Math.max(err.until, nextPollAt(t.publishedAt, after, t.failures)) : nextPollAt(t.publishedAt, after, t.failures + 1);
      store.inbox.reschedule(t.targetId, next, after, t.failures + 1);
      throw err;
    }
    const known = store.inbox.knownCommentIds(t.targetId);
    const rows: NewInboxItem[] = found
      .filter((c) => !c.own && !known.has(c.id))
      .map((c) => ({
        id: newId('inb'),
        userId: t.userId,
        jobId: t.jobId,
        targetId: t.targetId,
        connectionId: credentials.connectionId,
        platform: t.platform,
        postId: t.postId,
        commentId: c.id,
        inReplyTo: c.inReplyTo,
        thread: c.thread,
        authorName: c.author.name,
        authorHandle: c.author.handle,
        authorUrl: c.author.url,
        text: c.text,
        url: c.url,
        createdAt: c.createdAt,
      }));
    const after = clock.now();
    const added = await store.commits.durable(() => {
      const out = rows.length > 0 ? store.inbox.addItems(rows, after) : [];
      store.inbox.reschedule(t.targetId, nextPollAt(t.publishedAt, after, 0), after, 0);
      return out;
    });
    if (added.length > 0) {
      deps.notify?.();
      logger.info('inbox: new comments', { target: t.targetId, platform: t.platform, count: added.length });
    }
    return added.length;
  }

  /** Whether the collector must leave this target's connection to the publisher now; the reason, or null. */
  function heldBack(t: WatchedTarget, busy: Set<string>, now: number): string | null {
    if (t.connectionId && busy.has(t.connectionId)) return 'its account is publishing (comments wait for publishes)';
    const pause = store.platformPauses.forConnection(t.userId, t.platform, now, t.connectionId);
    return pause ? `${nameOf(t.platform)} has paused the account until ${new Date(pause.until).toISOString()} (its rate limit)` : null;
  }

  /** One round of the schedule: new published targets join it; the due ones are read, one at a time. */
  async function collectDue(): Promise<number> {
    const now = clock.now();
    store.commits.relaxed(() => store.inbox.watchNewTargets(now));
    const busy = store.inbox.busyConnections(now + margin);
    let added = 0;
    for (const t of store.inbox.dueTargets(now, batch)) {
      if (stopped) break;
      if (collecting.has(t.targetId)) continue;
      if (heldBack(t, busy, now)) {
        store.inbox.reschedule(t.targetId, now + 60_000, now, t.failures);
        continue;
      }
      collecting.add(t.targetId);
      try {
        added += await collectTarget(t);
      } catch (err) {
        logger.warn('inbox: reading comments failed', { target: t.targetId, platform: t.platform, error: (err as Error).message });
      } finally {
        collecting.delete(t.targetId);
      }
    }
    return added;
  }

  /** Sends one reply (queued or left sending); its state after. Never throws for a network's answer. */
  async function send(replyId: string): Promise<InboxReplyRecord | null> {
    if (sending.has(replyId)) return store.inbox.reply(replyId);
    sending.add(replyId);
    try {
      let r = store.inbox.reply(replyId);
      if (!r) return null;
      if (r.state === 'queued') {
        const at = clock.now();
        r = await store.commits.durable(() => store.inbox.moveReply(replyId, 'queued', 'sending', at));
        if (!r) return store.inbox.reply(replyId);
      }
      if (r.state !== 'sending') return r;
      const reply = r;
      const fail = async (message: string) => {
        const at = clock.now();
        await store.commits.durable(() => store.inbox.markReplyFailed(reply.id, message, at));
        logger.warn('inbox: reply refused', { reply: reply.id, error: message });
        return store.inbox.reply(reply.id);
      };
      const item = store.inbox.get(reply.userId, reply.itemId);
      if (!item) return fail('the comment is gone from the inbox');
      const client = clientFor(item.platform);
      if (typeof client === 'string') return fail(client);
      const credentials = store.credentials.credentialsFor(item.userId, item.platform, item.connectionId);
      if (!credentials) return fail(`the ${nameOf(item.platform)} account that published the post is no longer connected`);
      let data = { ...reply.checkpoint };
      const ctx = {
        ...connectionCall(deps.calls, item.platform, credentials, signal(), { reply: reply.id, item: item.id, op: 'inbox-reply' }),
        replyId: reply.id,
        checkpoint: {
          get data() {
            return data;
          },
          save: async (patch: Record<string, unknown>) => {
            data = { ...data, ...patch };
            const snapshot = data;
            await store.commits.durable(() => store.inbox.saveReplyCheckpoint(reply.id, snapshot, clock.now()));
          },
        },
      };
      try {
        const posted = await client.reply(ctx, { postId: item.postId, commentId: item.commentId }, reply.text);
        const at = clock.now();
        const done = await store.commits.durable(() => store.inbox.markReplySent(reply.id, posted.id, posted.url, at));
        retryAt.delete(reply.id);
        if (done) {
          deps.notify?.();
          logger.info('inbox: reply sent', { reply: reply.id, item: item.id, platform: item.platform, post_id: posted.id });
        }
        return store.inbox.reply(reply.id);
      } catch (err) {
        if (err instanceof PermanentError || err instanceof AuthExpiredError) return fail(err.message);
        // Not sent, or not known to be: it stays `sending` and goes again with the same key (which the network dedupes or finds).
        const wait = err instanceof RateLimitedError ? err.until : clock.now() + 30_000;
        retryAt.set(reply.id, wait);
        logger.warn('inbox: reply not sent yet; will try again', { reply: reply.id, error: (err as Error).message, kind: err instanceof PublishError ? err.kind : 'error' });
        return store.inbox.reply(reply.id);
      }
    } finally {
      sending.delete(replyId);
    }
  }

  /** Sends every reply that is queued or was left sending (a restart's first round). */
  async function sendPending(): Promise<void> {
    const now = clock.now();
    for (const r of store.inbox.repliesToSend()) {
      if (stopped) return;
      if ((retryAt.get(r.id) ?? 0) > now) continue;
      await send(r.id);
    }
  }

  // A queued reply starts a round now; queued while a round runs, right after it (util/round-loop.ts).
  const kick = () => loop?.kick();

  async function answerFor(replyId: string, message: string): Promise<InboxReplyResponse> {
    const r = store.inbox.reply(replyId)!;
    const it = store.inbox.get(r.userId, r.itemId)!;
    return { success: true, message, reply: presentReply(r), item: present(it) };
  }

  /** Where a cursor points: its item's (created_at, id); an old cursor's item is looked up (present-inbox.ts). */
  function cursorPosition(user: User, cursor: string): { createdAt: number; id: string } {
    const c = decodeCursor(cursor);
    const createdAt = c === null ? undefined : (c.createdAt ?? store.inbox.get(user.id, c.id)?.createdAt);
    if (c === null || createdAt === undefined) throw new ServiceError('invalid_request', 'cursor is not one this list gave', [{ path: 'cursor', message: 'use next_cursor from the previous page' }]);
    return { createdAt, id: c.id };
  }

  return {
    list(user: User, q: InboxQuery): InboxList {
      const before = q.cursor === undefined ? undefined : cursorPosition(user, q.cursor);
      const rows = store.inbox.list(user.id, { platform: q.platform, status: q.status, jobId: q.job_id, replyState: q.reply_state, limit: q.limit + 1, before });
      const page = rows.slice(0, q.limit);
      const replies = store.inbox.repliesOf(page.map((r) => r.id));
      return {
        success: true,
        items: page.map((it) => presentItem(it, replies.get(it.id) ?? [])),
        unread: store.inbox.unreadCount(user.id),
        next_cursor: rows.length > q.limit ? encodeCursor(page[page.length - 1]!) : null,
      };
    },

    async mark(user: User, id: string, status: 'read' | 'hidden'): Promise<InboxItemResponse> {
      const it = itemOf(user, id);
      // Read never undoes replied or hidden; hidden is where it stays.
      if (status === 'read' && it.status !== 'unread') return { success: true, message: `${id} is already ${it.status}`, item: present(it) };
      if (status === 'hidden' && it.status === 'hidden') return { success: true, message: `${id} is already hidden`, item: present(it) };
      // Hidden on the network first where it lets the post's author hide replies (X): a refusal leaves the item as it was.
      let onNetwork = false;
      const client = status === 'hidden' ? clientFor(it.platform) : null;
      if (client !== null && typeof client !== 'string' && client.hide) {
        const credentials = store.credentials.credentialsFor(user.id, it.platform, it.connectionId);
        if (!credentials) throw new ServiceError('conflict', `the ${nameOf(it.platform)} account that published the post is no longer connected: connect it again to hide the reply there`);
        try {
          await client.hide(connectionCall(deps.calls, it.platform, credentials, signal(), { item: it.id, op: 'inbox-hide' }), { postId: it.postId, commentId: it.commentId });
        } catch (err) {
          throw new ServiceError(err instanceof RateLimitedError ? 'rate_limited' : 'conflict', `${nameOf(it.platform)} did not hide the reply: ${(err as Error).message}`);
        }
        onNetwork = true;
      }
      const at = clock.now();
      const after = await store.commits.durable(() => store.inbox.setStatus(user.id, id, status, at));
      const message = status === 'read' ? `Marked ${id} read` : onNetwork ? `Hid ${id} on ${nameOf(it.platform)} and in the inbox` : `Hid ${id} in the inbox only (socialpub does not hide replies on ${nameOf(it.platform)})`;
      return { success: true, message, item: present(after ?? it) };
    },

    async reply(user: User, id: string, text: string, writer: ReplyWriter): Promise<InboxReplyResponse> {
      const it = itemOf(user, id);
      const client = clientFor(it.platform);
      if (typeof client === 'string') throw new ServiceError('conflict', client);
      const credentials = store.credentials.credentialsFor(user.id, it.platform, it.connectionId);
      if (!credentials) {
        throw new ServiceError('conflict', `the ${nameOf(it.platform)} account that published the post is no longer connected: connect it again to reply`);
      }
      // The network's own limit, counted as it counts (a reply is a post there): refused here, not after the reply was queued.
      const rule = deps.captionRule?.(it.platform, credentials.meta);
      const length = rule ? captionLength(text, rule.counting, rule.urlLength) : 0;
      if (rule && length > rule.max) {
        const message = `${nameOf(it.platform)} takes replies of at most ${rule.max} characters; this one counts ${length}`;
        throw new ServiceError('invalid_request', message, [{ path: 'text', message }]);
      }
      // A comment's own limit, where the network keeps comments shorter than posts.
      const chars = [...text].length;
      if (client.replyMaxChars !== undefined && chars > client.replyMaxChars) {
        const message = `${nameOf(it.platform)} takes comments of at most ${client.replyMaxChars} characters; this one has ${chars}`;
        throw new ServiceError('invalid_request', message, [{ path: 'text', message }]);
      }
      // An agent writes, a person approves (docs/api.md "Inbox"): agent keys always; MCP while approval is on.
      const held = writer.scope === 'agent' || (writer.source === 'mcp' && (user.approvalWorkflow || user.agentApproval));
      const replyId = newId('rpl');
      const now = clock.now();
      const answer = await store.commits.durable(() => {
        store.inbox.addReply({ id: replyId, itemId: it.id, userId: user.id, text, state: held ? 'pending_approval' : 'queued', source: writer.source }, now);
        const r = store.inbox.reply(replyId)!;
        const a: InboxReplyResponse = {
          success: true,
          message: held ? `Reply ${replyId} waits for approval (POST /inbox/replies/${replyId}/approve)` : `Reply ${replyId} is queued; comment.replied reports it sent`,
          reply: presentReply(r),
          item: presentItem(it, [...(store.inbox.repliesOf([it.id]).get(it.id) ?? [])]),
        };
        writer.alsoCommit?.(a, now);
        return a;
      });
      if (!held) kick();
      return answer;
    },

    async approve(user: User, replyId: string): Promise<InboxReplyResponse> {
      const r = store.inbox.reply(replyId);
      if (!r || r.userId !== user.id) throw new ServiceError('not_found', `no reply ${replyId}`);
      const at = clock.now();
      const moved = await store.commits.durable(() => store.inbox.moveReply(replyId, 'pending_approval', 'queued', at));
      if (!moved) throw new ServiceError('conflict', `reply ${replyId} is ${r.state}, not waiting for approval`);
      kick();
      return answerFor(replyId, `Approved reply ${replyId}: it is sent once`);
    },

    async reject(user: User, replyId: string): Promise<InboxReplyResponse> {
      const r = store.inbox.reply(replyId);
      if (!r || r.userId !== user.id) throw new ServiceError('not_found', `no reply ${replyId}`);
      const at = clock.now();
      const moved = await store.commits.durable(() => store.inbox.moveReply(replyId, 'pending_approval', 'rejected', at));
      if (!moved) throw new ServiceError('conflict', `reply ${replyId} is ${r.state}, not waiting for approval`);
      return answerFor(replyId, `Declined reply ${replyId}: nothing was sent`);
    },

    /** DELETE /inbox/replies/{id}: a sent reply of ours deleted from the network (it stays listed, with deleted_at). */
    async deleteReply(user: User, replyId: string): Promise<InboxReplyResponse> {
      const r = store.inbox.reply(replyId);
      if (!r || r.userId !== user.id) throw new ServiceError('not_found', `no reply ${replyId}`);
      if (r.deletedAt !== null) throw new ServiceError('conflict', `reply ${replyId} was deleted already`);
      if (r.state !== 'sent' || r.remoteId === null) throw new ServiceError('conflict', `reply ${replyId} is ${r.state}, not on the network: there is nothing to delete`);
      const it = itemOf(user, r.itemId);
      const client = clientFor(it.platform);
      if (typeof client === 'string') throw new ServiceError('conflict', client);
      const credentials = store.credentials.credentialsFor(user.id, it.platform, it.connectionId);
      if (!credentials) throw new ServiceError('conflict', `the ${nameOf(it.platform)} account that published the post is no longer connected: connect it again to delete the reply`);
      let outcome: 'deleted' | 'already_gone';
      try {
        outcome = await client.deleteReply(connectionCall(deps.calls, it.platform, credentials, signal(), { reply: r.id, op: 'inbox-delete' }), { postId: it.postId, commentId: it.commentId, replyId: r.remoteId });
      } catch (err) {
        throw new ServiceError(err instanceof RateLimitedError ? 'rate_limited' : 'conflict', `${nameOf(it.platform)} did not delete the reply: ${(err as Error).message}`);
      }
      const at = clock.now();
      await store.commits.durable(() => store.inbox.markReplyDeleted(r.id, at));
      return answerFor(r.id, outcome === 'deleted' ? `Deleted reply ${r.id} from ${nameOf(it.platform)}` : `Reply ${r.id} was already gone from ${nameOf(it.platform)}; marked deleted`);
    },

    /** POST /inbox/refresh: every published target of the user from the last 30 days, now (those whose account is publishing are skipped). */
    async refresh(user: User): Promise<InboxRefreshResponse> {
      const now = clock.now();
      store.commits.relaxed(() => store.inbox.watchNewTargets(now));
      const busy = store.inbox.busyConnections(now + margin);
      const skipped = new Map<Platform, string>();
      let newItems = 0;
      let checked = 0;
      for (const t of store.inbox.targetsOf(user.id, now - COLLECT_FOR_MS)) {
        const client = clientFor(t.platform);
        const why = typeof client === 'string' ? client : heldBack(t, busy, now);
        if (why) {
          skipped.set(t.platform, why);
          continue;
        }
        if (collecting.has(t.targetId)) continue;
        collecting.add(t.targetId);
        try {
          newItems += await collectTarget(t);
          checked++;
        } catch (err) {
          skipped.set(t.platform, (err as Error).message);
        } finally {
          collecting.delete(t.targetId);
        }
      }
      return {
        success: true,
        message: `Read ${checked} post${checked === 1 ? '' : 's'}: ${newItems} new comment${newItems === 1 ? '' : 's'}`,
        new_items: newItems,
        posts_checked: checked,
        skipped: [...skipped].map(([platform, reason]) => ({ platform, reason })),
      };
    },

    /** One round: due targets read, pending replies sent (tests call it; the loop repeats it). */
    async runOnce(): Promise<void> {
      await sendPending();
      await collectDue();
    },
    /** Sends one reply now (tests; the route's replies go through the loop). */
    send,

    /** Starts the loop: replies left sending by a previous run first, then a round every `intervalMs` (default 30 s) or when a reply is queued. */
    start(intervalMs = 30_000): void {
      if (loop) return;
      loop = startRoundLoop({
        clock,
        intervalMs,
        signal: stopper.signal,
        round: async () => {
          await sendPending();
          await collectDue();
        },
        onError: (err) => logger.error('inbox round failed', { error: (err as Error).message }),
      });
    },
    async stop(): Promise<void> {
      stopped = true;
      stopper.abort();
      await loop?.done;
      loop = null;
    },
  };
}
