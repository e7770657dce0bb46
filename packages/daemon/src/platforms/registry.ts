import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from './adapter';
import { bluesky } from './bluesky';
import { facebook } from './facebook';
import { instagram } from './instagram';
import { linkedin } from './linkedin';
import { mastodon } from './mastodon';
import { pinterest } from './pinterest';
import type { PlatformModule, PlatformsConfig, SimulatorFactory } from './platform-module';
import type { PostRemover } from './remove-post';
import type { TokenRefresher } from './shared/token-env';
import { threads } from './threads';
import { tiktok } from './tiktok';
import { twitter } from './twitter';
import { youtube } from './youtube';

/** Every platform the daemon publishes to: one line each. */
export const PLATFORMS: readonly PlatformModule[] = [instagram, facebook, threads, twitter, tiktok, youtube, bluesky, mastodon, linkedin, pinterest];

export function platformModule(platform: Platform): PlatformModule | undefined {
  return PLATFORMS.find((m) => m.platform === platform);
}

/** The real adapters, one per platform. */
export function createAdapters(config: PlatformsConfig = {}): Map<Platform, PlatformAdapter> {
  return new Map(PLATFORMS.map((m) => [m.platform, m.createAdapter(config)]));
}

/** The platforms' take-down support: a remover where the API deletes posts, else the reason it cannot. */
export function createRemovers(config: PlatformsConfig = {}): Map<Platform, PostRemover | { unsupported: string }> {
  return new Map(PLATFORMS.map((m) => [m.platform, m.deletion.supported ? m.deletion.createRemover(config) : { unsupported: m.deletion.reason }]));
}

/** The simulators to serve for sandbox connections, each once (Meta's three platforms share one). */
export function simulators(): SimulatorFactory[] {
  return [...new Set(PLATFORMS.map((m) => m.simulator))];
}

/** The platforms a simulator stands in for (the Meta one: instagram, facebook, threads). */
export function simulatedPlatforms(factory: SimulatorFactory): Platform[] {
  return PLATFORMS.filter((m) => m.simulator === factory).map((m) => m.platform);
}

/** The token refreshers of the platforms that have one (the background TokenRefreshLoop's list). */
export function tokenRefreshers(): TokenRefresher[] {
  return PLATFORMS.flatMap((m) => (m.refresher ? [m.refresher] : []));
}
