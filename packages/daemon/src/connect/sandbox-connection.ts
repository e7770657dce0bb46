import type { Platform } from '@socialpub/core';
import type { ConnectionInfo, ConnectionsRepository } from '../store/connections';
import { platformModule } from '../platforms/registry';
import { randomToken } from '../util/ids';

/**
 * Records a sandbox connection: the platform's simulator in the daemon, with a fresh
 * simulated account (and what the platform's module adds: for facebook, a sandbox page; for
 * pinterest, the simulated account's two boards, the first one chosen as `connect pinterest`
 * lists and picks). `socialpub connect --sandbox` and
 * POST /connections/sandbox both make them here.
 */
export function saveSandboxConnection(connections: Pick<ConnectionsRepository, 'save'>, userId: string, platform: Platform, now: number): ConnectionInfo {
  const suffix = randomToken(10);
  const module = platformModule(platform);
  const own = module?.sandboxAccount?.(suffix);
  return connections.save(userId, platform, {
    mode: 'sandbox',
    accountId: `sandbox_${platform}_${suffix}`,
    accountName: `Sandbox ${platform} account`,
    pageId: own?.pageId ?? null,
    pageName: own?.pageName ?? null,
    // The simulators tell connections apart by the account part of the token (sandboxAccountKey).
    secrets: { access_token: `sandbox_at_${suffix}.${randomToken(32)}`, refresh_token: `sandbox_rt_${suffix}.${randomToken(32)}` },
    tokenExpiresAt: now + 60 * 24 * 3_600_000,
    refreshExpiresAt: now + 365 * 24 * 3_600_000,
    tokenObtainedAt: now,
    meta: { sandbox: true, ...module?.sandboxMeta, ...own?.meta },
  });
}
