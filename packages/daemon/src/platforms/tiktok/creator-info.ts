import type { ErrorDetail, TiktokCreatorInfo, TiktokOptions, TiktokPrivacyLevel } from '@socialpub/core';
import type { Got } from 'got';
import type { AccountAccess, AccountCheckInput, AccountCheckResult, ValidationMedia } from '../adapter';
import { tiktokApi, tiktokClient } from './tiktok-api';
import type { TikTokClient } from './tiktok-client';

export const CREATOR_INFO_PATH = '/v2/post/publish/creator_info/query/';
export type Privacy = TiktokPrivacyLevel;

/** `data` of POST /v2/post/publish/creator_info/query/ (docs/reference/platforms.md §12.5.1). */
export interface CreatorInfo {
  creator_avatar_url?: string;
  creator_username?: string;
  creator_nickname?: string;
  privacy_level_options?: TiktokPrivacyLevel[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}

export interface CreatorInfoDeps {
  http?: Got;
  requestTimeoutMs?: number;
}

/** Creator info with a client the caller already holds (the publisher's, before every post). */
export function queryCreatorInfo(access: AccountAccess, client: TikTokClient): Promise<CreatorInfo> {
  return tiktokApi<CreatorInfo>(access, client, 'creator info', CREATOR_INFO_PATH, {});
}

/**
 * The creator's current settings, asked with the connection's token (refreshed when due,
 * renewed once when TikTok refuses it). Failures leave as the publisher's typed errors
 * (mapTikTokError). The one place creator info is fetched: publishing, the accept-time
 * checks and GET /platforms/tiktok/creator-info use this.
 */
export async function fetchCreatorInfo(access: AccountAccess, deps: CreatorInfoDeps = {}): Promise<CreatorInfo> {
  return queryCreatorInfo(access, await tiktokClient(access, deps));
}

/** Creator info as GET /platforms/tiktok/creator-info shows it (the CLI's privacy question). */
export async function creatorInfoView(access: AccountAccess, deps: CreatorInfoDeps = {}): Promise<TiktokCreatorInfo> {
  const info = await fetchCreatorInfo(access, deps);
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

const P = 'platform_options.tiktok';

/**
 * What a request asks that this creator cannot have now (docs/reference/platforms.md
 * §12.5.1-§12.5.3): a privacy level outside privacy_level_options, a comment/duet/stitch
 * explicitly allowed (false) that the creator turned off, a video longer than
 * max_video_post_duration_sec. Duet, stitch and duration do not apply to photo posts.
 */
export function creatorInfoIssues(info: CreatorInfo, options: TiktokOptions, media: readonly ValidationMedia[], photo: boolean): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const levels = info.privacy_level_options ?? [];
  if (options.privacy_level !== undefined && !levels.includes(options.privacy_level)) {
    out.push({ path: `${P}.privacy_level`, message: `${options.privacy_level} is not one of this creator's privacy levels now (${levels.join(', ') || 'none offered'})` });
  }
  if (options.disable_comment === false && info.comment_disabled === true) {
    out.push({ path: `${P}.disable_comment`, message: 'the creator has turned comments off on TikTok ("No one"); leave disable_comment out or set it to true' });
  }
  if (!photo) {
    if (options.disable_duet === false && info.duet_disabled === true) {
      out.push({ path: `${P}.disable_duet`, message: 'Duets are off for this creator (a private account, or Duet set to "No one"); leave disable_duet out or set it to true' });
    }
    if (options.disable_stitch === false && info.stitch_disabled === true) {
      out.push({ path: `${P}.disable_stitch`, message: 'Stitches are off for this creator (a private account, or Stitch set to "No one"); leave disable_stitch out or set it to true' });
    }
    const max = info.max_video_post_duration_sec;
    media.forEach((m, i) => {
      if (max !== undefined && m.kind === 'video' && m.durationSec != null && m.durationSec > max) {
        out.push({ path: `media_urls.${i}`, message: `this creator may post videos up to ${max} s; this one lasts ${Math.round(m.durationSec)} s` });
      }
    });
  }
  return out;
}

/** The adapter's checkAccount: creator info, then creatorInfoIssues; a failed query is `unavailable`. */
export async function checkCreatorAccount(input: AccountCheckInput, deps: CreatorInfoDeps = {}): Promise<AccountCheckResult> {
  const o = input.options as TiktokOptions;
  // Nothing creator info could refuse: spare the creator-info quota (20 requests a minute per token).
  const asks = o.privacy_level !== undefined || o.disable_comment === false || o.disable_duet === false || o.disable_stitch === false;
  if (!asks && !input.media.some((m) => m.kind === 'video' && m.durationSec != null)) return { issues: [] };
  let info: CreatorInfo;
  try {
    info = await fetchCreatorInfo(input.account, deps);
  } catch (err) {
    return { unavailable: `TikTok's creator info could not be read (${(err as Error).message})` };
  }
  return { issues: creatorInfoIssues(info, o, input.media, input.type !== 'video') };
}
