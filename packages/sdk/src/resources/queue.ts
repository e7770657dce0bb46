import { ROUTES, type Platform, type QueueNextResponse, type QueueResponse, type QueueUpdateInput } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class QueueResource extends Resource {
  /** GET /queue: the weekly posting slots, their zone and capacity. */
  get(options?: RequestOptions): Promise<QueueResponse> {
    return this.transport.call(ROUTES['queue.get'], {}, options);
  }

  /** PUT /queue: replaces the slots (posts already queued keep their times). */
  set(body: QueueUpdateInput, options?: RequestOptions): Promise<QueueResponse> {
    return this.transport.call(ROUTES['queue.replace'], { body }, options);
  }

  /** GET /queue/next: the next free slots (default 10), optionally only those a post to `platforms` may take. */
  next(params: { count?: number; platforms?: readonly Platform[] } = {}, options?: RequestOptions): Promise<QueueNextResponse> {
    return this.transport.call(ROUTES['queue.next'], { query: { count: params.count, platforms: params.platforms?.join(',') } }, options);
  }
}
