import type { Got } from 'got';
import type { ConnectionInfo, ConnectionInput } from '../../store/connections';
import type { Clock } from '../../util/clock';

/** What the X, TikTok, YouTube and Mastodon connect flows need from the daemon. */
export interface PlatformConnectDeps {
  connections: { save(userId: string, platform: 'twitter' | 'tiktok' | 'youtube' | 'mastodon' | 'linkedin' | 'pinterest', input: ConnectionInput): ConnectionInfo };
  clock?: Clock;
  /** Host -> base URL; default `https://<host>` (tests point it at the simulator). */
  baseUrl?: (host: string) => string;
  http?: Got;
}
