import { SocialPub } from '@socialpub/sdk';
import { vi } from 'vitest';
import { eventLoopClock } from './fake-clock';
import { startFileServer, type FileServer } from './file-server';
import { startRealDaemon, type RealDaemon, type RealDaemonOptions } from './real-daemon';

export interface DaemonWithFiles {
  d: RealDaemon;
  files: FileServer;
  /** A client on an eventLoopClock: its waiting helpers poll at every turn of the event loop. */
  client: SocialPub;
}

/**
 * The real daemon next to a loopback file server it may fetch media from. Close both
 * (`d.close()`, `files.close()`) after the tests. Give the classes the waiting helpers poll
 * (scheduled, media_status) room in `opts.rateLimits`: the polls come with no time passing.
 */
export async function startDaemonWithFiles(opts: RealDaemonOptions): Promise<DaemonWithFiles> {
  // The file server is on loopback, which the daemon refuses unless private networks are allowed.
  vi.stubEnv('SOCIALPUB_MEDIA_ALLOW_PRIVATE', '1');
  const files = await startFileServer();
  let d: RealDaemon;
  try {
    d = await startRealDaemon(opts);
  } catch (error) {
    await files.close();
    throw error;
  } finally {
    vi.unstubAllEnvs();
  }
  return { d, files, client: new SocialPub({ baseUrl: d.url, apiKey: d.apiKey, clock: eventLoopClock() }) };
}
