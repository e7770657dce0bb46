import { ROUTES, type Connection, type ConnectionList, type ConnectionUpdateRequest, type SandboxConnectRequest } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

/**
 * The caller's platform connections (extension): one per account, several per network
 * (`label`; `is_default` marks the one a bare network name means). Reading needs a key of
 * scope read or more; changing them a full key.
 */
export class Connections extends Resource {
  /** GET /connections: every account of the caller, with its label, status and pause. */
  list(options?: RequestOptions): Promise<ConnectionList> {
    return this.transport.call(ROUTES['connections.list'], {}, options);
  }

  /** POST /connections/sandbox: an account on the platform's simulator (`label`: another one; without: the default one, replaced). */
  connectSandbox(body: SandboxConnectRequest, options?: RequestOptions): Promise<Connection> {
    return this.transport.call(ROUTES['connections.sandbox'], { body }, options);
  }

  /** PATCH /connections/{id}: renames the account (`label`) and/or makes it its platform's default (`default: true`). */
  update(id: string, body: ConnectionUpdateRequest, options?: RequestOptions): Promise<Connection> {
    return this.transport.call(ROUTES['connections.update'], { params: { id }, body }, options);
  }

  /** DELETE /connections/{id}: the account is removed (its scheduled targets fail as not connected). */
  async remove(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.call(ROUTES['connections.remove'], { params: { id } }, options);
  }
}
