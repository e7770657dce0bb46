import type { TiktokCreatorInfo, TiktokPrivacyLevel } from '@socialpub/core';
import type { Got } from 'got';
import type { CallContext } from '../adapter';
import { tiktokApi, tiktokClient } from './tiktok-api';
import type { TikTokClient } from './tiktok-client';

export type Privacy = TiktokPrivacyLevel;

/** `POST /v2/post/publish/creator_info/query/` data (docs/reference/platforms.md §12.5.1). */
export interface CreatorInfo {
  creator_avatar_url?: string;
  creator_username?: string;
  creator_nickname?: string;
  privacy_level_options?: Privacy[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}

/** The creator's current settings: what the publisher asks before every post, and GET /platforms/tiktok/creator-info answers. */
export function queryCreatorInfo(ctx: CallContext, client: TikTokClient): Promise<CreatorInfo> {
  return tiktokApi<CreatorInfo>(ctx, client, 'creator info', '/v2/post/publish/creator_info/query/', {});
}

/** Creator info for a connection outside a publish (the CLI's privacy question). */
export async function fetchCreatorInfo(ctx: CallContext, deps: { requestTimeoutMs?: number; http?: Got } = {}): Promise<TiktokCreatorInfo> {
  const info = await queryCreatorInfo(ctx, await tiktokClient(ctx, deps));
  return {
    creator_username: info.creator_username ?? null,
    creator_nickname: info.creator_nickname ?? null,
    creator_avatar_url: info.creator_avatar_url ?? null,
    privacy_level_options: info.privacy_level_options ?? [],
    comment_disabled: info.comment_disabled === true,
    duet_disabled: info.duet_disabled === true,
    stitch_disabled: info.stitch_disabled === true,
    max_video_post_duration_sec: info.max_video_post_duration_sec ?? null,
  };
}
