import type { PlatformsResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class Platforms extends Resource {
  /** GET /platforms: each platform's content types, caption and media rules, and your connection to it. */
  list(options?: RequestOptions): Promise<PlatformsResponse> {
    return this.transport.request({ method: 'GET', path: '/platforms', schema: (s) => s.PlatformsResponseSchema }, options);
  }
}
