import type { SandboxPostsQuery, SandboxPostsResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class Sandbox extends Resource {
  /**
   * GET /sandbox/posts (a socialpub extension): the latest posts the platform simulators
   * received, oldest first, on the platforms you have a sandbox connection to.
   */
  posts(params: SandboxPostsQuery = {}, options?: RequestOptions): Promise<SandboxPostsResponse> {
    return this.transport.request({ method: 'GET', path: '/sandbox/posts', query: { platform: params.platform, limit: params.limit }, schema: (s) => s.SandboxPostsResponseSchema }, options);
  }
}
