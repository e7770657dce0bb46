import { ROUTES, type PlatformsResponse, type TiktokCreatorInfoResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class Platforms extends Resource {
  /** GET /platforms: each platform's content types, caption and media rules, and your connection to it. */
  list(options?: RequestOptions): Promise<PlatformsResponse> {
    return this.transport.call(ROUTES['platforms.list'], {}, options);
  }

  /**
   * GET /platforms/tiktok/creator-info (an extension): your TikTok creator's current
   * settings, read from TikTok: `privacy_level_options` are the only privacy levels
   * `platform_options.tiktok.privacy_level` accepts now. No TikTok connection:
   * PermissionDeniedError (403 `platform_not_connected`). `label`: which of several TikTok
   * accounts (`tiktok:brand`'s `brand`; left out: the default one).
   */
  tiktokCreatorInfo(options?: RequestOptions & { label?: string | undefined }): Promise<TiktokCreatorInfoResponse> {
    const { label, ...rest } = options ?? {};
    return this.transport.call(ROUTES['platforms.tiktokCreatorInfo'], { query: { label } }, rest);
  }
}
