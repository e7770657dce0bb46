import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from './adapter';
import { createFacebookAdapter } from './facebook/adapter';
import { createInstagramAdapter } from './instagram/adapter';
import { createThreadsAdapter } from './threads/adapter';
import { createTiktokAdapter } from './tiktok/adapter';
import { createTwitterAdapter } from './twitter/adapter';
import { createYoutubeAdapter } from './youtube/adapter';

/** Collaborators an adapter factory may use. */
export interface AdapterDeps {
  /** Graph API version for the Meta platforms (default env SOCIALPUB_GRAPH_VERSION, else v25.0). */
  graphVersion?: string;
  /** Instagram hashtags per caption (default 5; env SOCIALPUB_INSTAGRAM_MAX_HASHTAGS). */
  instagramMaxHashtags?: number;
}

type AdapterFactory = (deps: AdapterDeps) => PlatformAdapter;

/**
 * The real adapters, one per platform. Each platform folder adds its factory here.
 * (Filled in by the platform issues: instagram, facebook, threads, twitter, tiktok, youtube.)
 */
const FACTORIES: Partial<Record<Platform, AdapterFactory>> = {
  instagram: (deps) =>
    createInstagramAdapter({
      graphVersion: deps.graphVersion ?? process.env.SOCIALPUB_GRAPH_VERSION,
      maxHashtags: deps.instagramMaxHashtags ?? (Number(process.env.SOCIALPUB_INSTAGRAM_MAX_HASHTAGS) || undefined),
    }),
  facebook: (deps) => createFacebookAdapter({ graphVersion: deps.graphVersion ?? process.env.SOCIALPUB_GRAPH_VERSION }),
  threads: () => createThreadsAdapter(),
  twitter: () => createTwitterAdapter(),
  tiktok: () => createTiktokAdapter(),
  youtube: () => createYoutubeAdapter(),
};

export function createAdapters(deps: AdapterDeps = {}): Map<Platform, PlatformAdapter> {
  const out = new Map<Platform, PlatformAdapter>();
  for (const [platform, factory] of Object.entries(FACTORIES) as [Platform, AdapterFactory][]) out.set(platform, factory(deps));
  return out;
}
