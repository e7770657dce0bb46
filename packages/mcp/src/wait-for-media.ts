import type { MediaStatus } from '@socialpub/core';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { SocialPubBackend } from './backend';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface MediaWaitOptions {
  /** Longest wait before answering with the task still processing. Default 10 minutes (a task's own deadline). */
  maxWaitMs?: number;
  /** Default: setTimeout, ended early by the call's abort signal. Tests pass a fake. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

const TIMED_OUT = Symbol('timed out');
const END_TYPES = ['media.task_completed', 'media.task_failed'] as const;

/**
 * Waits until a media task is no longer `processing` (or the wait runs out) by following
 * the task's end on the backend's event stream, not by polling: a wait of any length costs
 * at most 3 counted requests over HTTP (the stream, the status once it is open, the status
 * once the task ended or the wait ran out) and 2 in the daemon (its event hub costs none).
 * Polling spent the scheduled-content class's budget the user's own commands need (issue
 * 35). Sends an MCP progress notification (files done of total) with each status read
 * when the client asked for progress with a progressToken.
 */
export async function waitForMedia(backend: SocialPubBackend, taskId: string, extra: ToolExtra, options: MediaWaitOptions = {}): Promise<MediaStatus> {
  const maxWaitMs = options.maxWaitMs ?? 10 * 60_000;
  const sleep = options.sleep ?? realSleep;
  const token = extra._meta?.progressToken;
  let lastReported = -1;
  const read = async (): Promise<MediaStatus> => {
    const status = await backend.media.status(taskId, { signal: extra.signal });
    const done = status.progress.completed + status.progress.failed;
    // Progress must grow with each notification: report only when another file is done.
    if (token !== undefined && done > lastReported) {
      lastReported = done;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: done,
          total: status.progress.total,
          message: status.status === 'processing' ? `${done} of ${status.progress.total} files done` : `task ${status.status}`,
        },
      });
    }
    return status;
  };

  extra.signal.throwIfAborted();
  const ctl = new AbortController();
  const stop = () => ctl.abort(extra.signal.reason);
  extra.signal.addEventListener('abort', stop, { once: true });
  let opened!: () => void;
  const open = new Promise<'open'>((resolve) => (opened = () => resolve('open')));
  const events = backend.events.stream({ types: END_TYPES, signal: ctl.signal, onOpen: () => opened() })[Symbol.asyncIterator]();
  // The longest wait; never settles once the wait is over (ctl aborted).
  const deadline = sleep(maxWaitMs, ctl.signal).then(
    (): typeof TIMED_OUT => TIMED_OUT,
    () => new Promise<never>(() => {}),
  );
  try {
    let next = events.next();
    const first = await Promise.race([open, next.then(() => 'ended' as const), deadline]);
    extra.signal.throwIfAborted();
    if (first === TIMED_OUT) return await read();
    if (first === 'ended') throw new Error('the event stream ended before it opened');
    const status = await read();
    if (status.status !== 'processing') return status;
    for (;;) {
      const r = await Promise.race([next, deadline]);
      extra.signal.throwIfAborted();
      if (r === TIMED_OUT) return await read();
      if (r.done) throw new Error(`the event stream ended while media task ${taskId} was processing`);
      const e = r.value;
      // The end event only marks it ended: read once more for its files (and what was refused).
      if ((END_TYPES as readonly string[]).includes(e.type) && (e.data as { task_id?: unknown }).task_id === taskId) {
        const ended = await read();
        if (ended.status !== 'processing') return ended;
      }
      next = events.next();
    }
  } finally {
    extra.signal.removeEventListener('abort', stop);
    ctl.abort();
    void events.return?.(undefined)?.catch(() => {});
  }
}
