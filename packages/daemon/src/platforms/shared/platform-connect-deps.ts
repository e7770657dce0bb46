import type { Got } from 'got';
import type { Platform } from '@socialpub/core';
import type { ConnectionInfo, ConnectionInput } from '../../store/connections';
import type { Clock } from '../../util/clock';

/** What a platform's own connect flow (connect.ts in its folder) needs from the daemon. */
export interface PlatformConnectDeps {
  connections: { save(userId: string, platform: Platform, input: ConnectionInput): ConnectionInfo };
  clock?: Clock;
  /** Host -> base URL; default `https://<host>` (tests point it at the simulator). */
  baseUrl?: (host: string) => string;
  http?: Got;
}
