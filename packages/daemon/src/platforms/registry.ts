import { platformDescription, type Platform } from '@socialpub/core';
import type { PostAnalytics } from './post-analytics';
import type { PlatformAdapter } from './adapter';
import type { CommentsClient } from './conversations';
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

const modules: PlatformModule[] = [instagram, facebook, threads, twitter, tiktok, youtube, bluesky, mastodon, linkedin, pinterest];

/** Every platform the daemon publishes to: one line each (a module per core description, keyed by its id). */
export const PLATFORMS: readonly PlatformModule[] = modules;

/**
 * Adds the module of a platform registered in core (registerPlatform), e.g. a test's: its
 * adapter, simulator, connect flow and refresher join the daemon's like a built-in one's.
 */
export function registerPlatformModule(module: PlatformModule): void {
  const description = platformDescription(module.platform);
  if (!description) throw new Error(`platform ${module.platform} has no description in core: registerPlatform() it first`);
  if (module.limits !== description.info) throw new Error(`platform ${module.platform}: limits must be its description's info`);
  if (modules.some((m) => m.platform === module.platform)) throw new Error(`platform ${module.platform} already has a module`);
  modules.push(module);
}

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

/** The networks' comment clients (the inbox), or why socialpub does not read a network's comments. */
export function createCommentClients(config: PlatformsConfig = {}): Map<Platform, CommentsClient | { unsupported: string }> {
  return new Map(
    PLATFORMS.map((m) => {
      const name = platformDescription(m.platform)?.name ?? m.platform;
      const c = m.comments;
      if (!c) return [m.platform, { unsupported: `socialpub does not read ${name} comments yet` }];
      return [m.platform, c.supported ? c.create(config) : { unsupported: c.reason }];
    }),
  );
}

/** The platforms' readers of published posts' figures, where socialpub reads them. */
export function createAnalyticsReaders(config: PlatformsConfig = {}): Map<Platform, PostAnalytics> {
  return new Map(PLATFORMS.flatMap((m) => (m.analytics ? [[m.platform, m.analytics(config)] as const] : [])));
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
