import { ROUTES, type SandboxFaults, type SandboxFaultsResponse, type SandboxPostsQuery, type SandboxPostsResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class Sandbox extends Resource {
  /**
   * GET /sandbox/posts (a socialpub extension): the latest posts the platform simulators
   * received, oldest first, on the platforms you have a sandbox connection to.
   */
  posts(params: SandboxPostsQuery = {}, options?: RequestOptions): Promise<SandboxPostsResponse> {
    return this.transport.call(ROUTES['sandbox.posts'], { query: { platform: params.platform, limit: params.limit } }, options);
  }

  /** GET /sandbox/faults (extension): the latency and faults your sandbox connections meet, and those the daemon sets for everyone. */
  faults(options?: RequestOptions): Promise<SandboxFaultsResponse> {
    return this.transport.call(ROUTES['sandbox.faults'], {}, options);
  }

  /**
   * PUT /sandbox/faults (extension): replaces your sandbox faults, e.g.
   * `{ all: { latency_ms: { min: 200, max: 400 } }, twitter: { rate_limited: 0.5 } }`; `{}` clears them.
   */
  setFaults(faults: SandboxFaults, options?: RequestOptions): Promise<SandboxFaultsResponse> {
    return this.transport.call(ROUTES['sandbox.setFaults'], { body: { faults } }, options);
  }

  /** DELETE /sandbox/faults (extension): your sandbox connections answer like a platform on a perfect day again. */
  clearFaults(options?: RequestOptions): Promise<SandboxFaultsResponse> {
    return this.transport.call(ROUTES['sandbox.clearFaults'], {}, options);
  }
}
