import { ROUTES, type ApiKeyCreated, type ApiKeyCreateRequest, type ApiKeyList } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

/** The caller's API keys (extension; a full key only): never a secret but in the answer that makes one. */
export class Keys extends Resource {
  /** GET /keys: the caller's active keys with their scope. */
  list(options?: RequestOptions): Promise<ApiKeyList> {
    return this.transport.call(ROUTES['keys.list'], {}, options);
  }

  /** POST /keys: a new key of `scope` (full unless asked); `key` is shown in this answer only. */
  create(body: ApiKeyCreateRequest = {}, options?: RequestOptions): Promise<ApiKeyCreated> {
    return this.transport.call(ROUTES['keys.create'], { body }, options);
  }

  /** POST /keys/{id}/rotate: a new key of the same scope; the old one stops working at once. */
  rotate(id: string, options?: RequestOptions): Promise<ApiKeyCreated> {
    return this.transport.call(ROUTES['keys.rotate'], { params: { id } }, options);
  }

  /** DELETE /keys/{id}: the key stops working (and the dashboard sessions it opened end). */
  async revoke(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.call(ROUTES['keys.revoke'], { params: { id } }, options);
  }
}
