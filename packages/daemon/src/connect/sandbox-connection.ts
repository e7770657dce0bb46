import type { Platform } from '@socialpub/core';
import type { ConnectionInfo, ConnectionsRepository } from '../store/connections';
import type { CredentialsService } from '../store/credentials';
import { platformModule } from '../platforms/registry';
import { sandboxAccountId } from '../platforms/sandbox';
import { newSandboxPassword, SANDBOX_PASSWORD_DIGEST, SANDBOX_PASSWORD_SECRET, sandboxPasswordDigest } from '../platforms/shared/sandbox-password';
import { randomToken } from '../util/ids';

/**
 * Records a sandbox connection: the platform's simulator in the daemon, with a fresh
 * simulated account (and what the platform's module adds: for facebook, a sandbox page; for
 * pinterest, the simulated account's two boards, the first one chosen as `connect pinterest`
 * lists and picks). `socialpub connect --sandbox` and
 * POST /connections/sandbox both make them here. Each gets its own sandbox password
 * (platforms/shared/sandbox-password.ts): sealed with the tokens for its owner to read, its
 * sha256 in meta for the simulators' sign-in.
 * Each is its own simulated account, so two labels of one network are two accounts
 * (docs/api.md "Accounts"); `label` null replaces the network's default account (else
 * adds one labelled `default`).
 */
export function saveSandboxConnection(connections: Pick<ConnectionsRepository, 'save'>, userId: string, platform: Platform, now: number, label: string | null = null): ConnectionInfo {
  const suffix = randomToken(10);
  const module = platformModule(platform);
  const own = module?.sandboxAccount?.(suffix);
  const password = newSandboxPassword();
  return connections.save(userId, platform, {
    mode: 'sandbox',
    accountId: sandboxAccountId(platform, suffix),
    // Two sandbox accounts of one network read apart by name too (`connections list`, the connect answer).
    accountName: label !== null && label !== 'default' ? `Sandbox ${platform} account (${label})` : `Sandbox ${platform} account`,
    pageId: own?.pageId ?? null,
    pageName: own?.pageName ?? null,
    // The simulators tell connections apart by the account part of the token (sandboxAccountKey).
    secrets: { access_token: `sandbox_at_${suffix}.${randomToken(32)}`, refresh_token: `sandbox_rt_${suffix}.${randomToken(32)}`, [SANDBOX_PASSWORD_SECRET]: password },
    tokenExpiresAt: now + 60 * 24 * 3_600_000,
    refreshExpiresAt: now + 365 * 24 * 3_600_000,
    tokenObtainedAt: now,
    meta: { sandbox: true, ...module?.sandboxMeta, ...own?.meta, [SANDBOX_PASSWORD_DIGEST]: sandboxPasswordDigest(password) },
  }, label);
}

/**
 * The sandbox password of a sandbox connection, for its owner's eyes (the API's connection
 * object, `socialpub connect --sandbox`, `connections list`); null for a live connection or
 * one made before sandbox passwords.
 */
export function sandboxPasswordOf(credentials: Pick<CredentialsService, 'credentialsById'>, connection: Pick<ConnectionInfo, 'id' | 'mode'>): string | null {
  if (connection.mode !== 'sandbox') return null;
  return credentials.credentialsById(connection.id)?.secrets[SANDBOX_PASSWORD_SECRET] ?? null;
}
