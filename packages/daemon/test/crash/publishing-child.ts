/**
 * What the crash tests' daemon children share: their arguments, the real scheduler and
 * publisher over the SQLite file (checkpoints group-committed, as in the daemon, so a kill
 * can land between a commit and its fsync), the "ready" line the test waits for, and a
 * clean stop on SIGTERM. Each *-child.ts keeps only its adapters, credentials and media.
 */
import { statSync } from 'node:fs';
import type { Platform } from '@socialpub/core';
import type { Credentials, MediaItem } from '../../src/platforms/adapter';
import type { ConnectionSource } from '../../src/publisher/connection-source';
import { createPublishing, type PublishingDeps } from '../../src/publisher/create-publishing';
import type { MediaResolver } from '../../src/ports/media';
import { createCommits } from '../../src/store/commits';
import { openDatabase, type DB } from '../../src/store/database';
import { createTargetQueue } from '../../src/store/target-queue';
import { systemClock } from '../../src/util/clock';

/** The child's arguments (after the script), all required; `usage` names them when one is missing. */
export function childArgs(script: string, names: readonly string[]): string[] {
  const args = process.argv.slice(2, 2 + names.length);
  if (args.length < names.length || args.some((a) => !a)) throw new Error(`usage: ${script} ${names.map((n) => `<${n}>`).join(' ')}`);
  return args;
}

/** The scheduler and publisher settings of a child posting to a simulator the test serves at `simUrl`. */
export function simulatorTimings(simUrl: string): Pick<PublishingDeps, 'scheduler' | 'publisher'> {
  return {
    scheduler: { sweepMs: 200 },
    publisher: { concurrency: 2, connectionConcurrency: 2, leaseMs: 1_500, sweepMs: 200, sandboxBaseUrl: (_platform, host) => `${simUrl}/${host}` },
  };
}

/** Media URLs resolve to the image file, or, given a video file, a URL ending in .mp4 to it. */
export function mediaFiles(imagePath: string, videoPath?: string): MediaResolver {
  return {
    resolve: async (_user, urls) =>
      urls.map((url): MediaItem => {
        const video = videoPath !== undefined && url.endsWith('.mp4');
        const path = video ? videoPath : imagePath;
        return { url, kind: video ? 'video' : 'image', mimeType: video ? 'video/mp4' : 'image/jpeg', size: statSync(path).size, publicUrl: null, path, sha256: null };
      }),
  };
}

/** Connections that only give credentials (tokens are never saved, connections never marked expired). */
export function credentialsOnly(credentialsFor: (userId: string, platform: Platform) => Credentials | null): ConnectionSource {
  return { credentialsFor, saveTokens: () => {}, markExpired: () => {} };
}

/** No media: the children that post text only. */
export const noMedia: MediaResolver = { resolve: async () => [] };

/**
 * Starts the real scheduler and publisher over `db` (or the SQLite file at that path),
 * prints "ready", and on SIGTERM stops them (2 s for attempts in flight), runs `onStop`,
 * closes the database and exits 0.
 */
export async function runPublishingChild(db: DB | string, deps: Omit<PublishingDeps, 'queue' | 'commits' | 'clock'>, onStop?: () => void): Promise<void> {
  const database = typeof db === 'string' ? openDatabase(db) : db;
  const publishing = createPublishing({ ...deps, queue: createTargetQueue(database), commits: createCommits(database), clock: systemClock });
  await publishing.start();
  process.stdout.write('ready\n');
  process.on('SIGTERM', () => {
    void publishing.stop(2_000).then(() => {
      onStop?.();
      database.close();
      process.exit(0);
    });
  });
}
