import { MediaStatusSchema, PrepareResponseSchema, type MediaStatus, type PrepareResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { pollUntil, type WaitOptions } from '../poll';
import type { PrepareParams, SettledMediaStatus } from '../types';
import { Resource } from './resource';

export class Media extends Resource {
  /**
   * POST /media/prepare: starts fetching and re-hosting 1 to 10 URLs; resolves `{ task_id }`
   * at once. Always sends an Idempotency-Key, so a retry never starts a second task.
   */
  prepare(body: PrepareParams, options?: RequestOptions): Promise<PrepareResponse> {
    return this.transport.request({ method: 'POST', path: '/media/prepare', body, schema: PrepareResponseSchema, idempotent: true }, options);
  }

  /** GET /media/status/{task_id}: `processing` with progress, `completed` with files, or `failed`. */
  status(taskId: string, options?: RequestOptions): Promise<MediaStatus> {
    return this.transport.request({ method: 'GET', path: `/media/status/${encodeURIComponent(taskId)}`, schema: MediaStatusSchema }, options);
  }

  /**
   * Polls status() with backoff until the task is `completed` or `failed`, and resolves with
   * that last status (it does not throw on `failed`: check `status`, and `failed` for files
   * that could not be prepared).
   */
  async waitUntilReady(taskId: string, options: WaitOptions<MediaStatus> = {}): Promise<SettledMediaStatus> {
    const done = await pollUntil(
      (signal) => this.status(taskId, { signal }),
      (s) => s.status !== 'processing',
      `Media task ${taskId}`,
      options,
      this.clock,
    );
    return done as SettledMediaStatus;
  }
}
