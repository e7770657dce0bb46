import type { MediaStatus } from '@socialpub/core';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { SocialPubBackend } from './backend';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface MediaWaitOptions {
  /** Between two status polls. Default 1 s. */
  intervalMs?: number;
  /** Longest wait before answering with the task still processing. Default 10 minutes (a task's own deadline). */
  maxWaitMs?: number;
  /** Default: setTimeout, ended early by the call's abort signal. Tests pass a fake. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Default: Date.now. */
  now?: () => number;
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

/**
 * Polls a media task until it is no longer `processing` (or the wait runs out), sending an
 * MCP progress notification (files done of total) after each poll when the client asked
 * for progress with a progressToken.
 */
export async function waitForMedia(backend: SocialPubBackend, taskId: string, extra: ToolExtra, options: MediaWaitOptions = {}): Promise<MediaStatus> {
  const intervalMs = options.intervalMs ?? 1000;
  const maxWaitMs = options.maxWaitMs ?? 10 * 60_000;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const token = extra._meta?.progressToken;
  const started = now();
  let lastReported = -1;
  for (;;) {
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
    if (status.status !== 'processing' || now() - started >= maxWaitMs) return status;
    await sleep(intervalMs, extra.signal);
  }
}
