import type { Platform } from '@socialpub/core';
import type { SocialPub } from '@socialpub/sdk';
import { CliError, EXIT, connectHint } from '../errors';

/**
 * Refuses, before any local file is uploaded, a publication the daemon would refuse for a
 * platform with no active connection: the upload (up to the size cap, and a media task the
 * sweeper later removes) would be made for nothing. The same code, message and exit code
 * as the daemon's refusal; one GET /platforms, made only when there is a file to upload.
 */
export async function requireConnections(client: SocialPub, platforms: readonly Platform[]): Promise<void> {
  const { platforms: info } = await client.platforms.list();
  const connection = new Map(info.map((p) => [p.platform, p.connection]));
  const missing = platforms.filter((p) => connection.get(p)?.status !== 'active');
  if (missing.length === 0) return;
  throw new CliError('platform_not_connected', `no active connection for ${missing.join(', ')}`, EXIT.auth, {
    hint: connectHint(missing),
    details: missing.map((p) => ({
      path: 'platforms',
      platform: p,
      message: connection.get(p) ? `the ${p} connection has expired; reconnect it` : `${p} is not connected`,
    })),
  });
}
