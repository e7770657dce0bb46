import type { Got } from 'got';
import type { Platform } from '@socialpub/core';
import type { ConnectionInfo, ConnectionInput } from '../../store/connections';
import type { Clock } from '../../util/clock';

/** What a platform's own connect flow (connect.ts in its folder) needs from the daemon. */
export interface PlatformConnectDeps {
  connections: {
    /** `label` absent: the label the connect was asked for (connectLive). */
    save(userId: string, platform: Platform, input: ConnectionInput, label?: string | null): ConnectionInfo;
    /** The user's accounts, for the labels of a connect that makes several (choice-labels.ts). */
    listForUser?(userId: string): readonly ConnectionInfo[];
  };
  clock?: Clock;
  /** Host -> base URL; default `https://<host>` (tests point it at the simulator). */
  baseUrl?: (host: string) => string;
  http?: Got;
}
