import type { ContentType, ErrorDetail, Platform, Warning } from '@socialpub/core';
import type { AccountAccess, PlatformAdapter, ValidationMedia } from '../platforms/adapter';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';

/** How long an account check may take before the request is accepted without it. */
export const ACCOUNT_CHECK_MS = 10_000;

export interface AccountCheckDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  adapters: Map<Platform, PlatformAdapter>;
  /** The simulator's base URL for a sandbox connection (the daemon's own); absent, sandbox accounts cannot be asked. */
  sandboxBaseUrl?: (platform: Platform, host: string) => string;
}

export interface AccountCheckRequest {
  /** A target's options are its `accountKey`'s (else its platform's); its account is its connection, else the one its label names, else the default. */
  targets: readonly { platform: Platform; type: ContentType; accountKey?: string; label?: string | null; connectionId?: string | null }[];
  media: ValidationMedia[];
  platformOptions: Readonly<Record<string, Record<string, unknown> | undefined>> | null | undefined;
}

/**
 * The user's connection as an adapter sees it while publishing: decrypted credentials,
 * token writes into the store, the live host or the daemon's simulator. Null when the user
 * has no active connection for the platform (the connection check reports that).
 */
function accessFor(deps: AccountCheckDeps, userId: string, target: AccountCheckRequest['targets'][number], signal: AbortSignal): AccountAccess | null {
  const platform = target.platform;
  const credentials = deps.store.credentials.credentialsFor(userId, platform, target.connectionId ?? null, target.label ?? null);
  if (!credentials) return null;
  return {
    credentials,
    saveTokens: (update) => Promise.resolve(deps.store.credentials.saveTokens(credentials.connectionId, update)),
    markConnectionExpired: (reason) => Promise.resolve(deps.store.credentials.markExpired(credentials.connectionId, reason)),
    baseUrl: (host) => {
      if (credentials.mode === 'live') return `https://${host}`;
      if (!deps.sandboxBaseUrl) throw new Error(`no ${platform} simulator is available for sandbox connections`);
      return deps.sandboxBaseUrl(platform, host);
    },
    clock: deps.clock,
    signal,
    log: deps.logger,
  };
}

/**
 * The rules that need the accounts themselves (the adapters' checkAccount, e.g. TikTok's
 * creator info), for each target whose platform has them, each detail naming its target.
 * An account that cannot be asked in time does not refuse the request: it becomes a
 * warning, and the platform's own check right before posting decides.
 */
export async function checkAccounts(deps: AccountCheckDeps, userId: string, request: AccountCheckRequest): Promise<{ issues: ErrorDetail[]; warnings: Warning[] }> {
  const issues: ErrorDetail[] = [];
  const warnings: Warning[] = [];
  const seen = new Set<string>();
  for (const t of request.targets) {
    const adapter = deps.adapters.get(t.platform);
    const accountKey = t.accountKey ?? t.platform;
    const key = `${accountKey}.${t.type}`;
    if (!adapter?.checkAccount || seen.has(key)) continue;
    seen.add(key);
    const account = accessFor(deps, userId, t, AbortSignal.timeout(ACCOUNT_CHECK_MS));
    if (!account) continue;
    const result = await adapter.checkAccount({ type: t.type, media: request.media, options: request.platformOptions?.[accountKey] ?? {}, account });
    if ('unavailable' in result) {
      deps.logger.warn('account check unavailable; the platform checks again before posting', { platform: t.platform, reason: result.unavailable });
      warnings.push({ path: `platform_options.${accountKey}`, code: 'account_check_unavailable', message: `${result.unavailable}; it is checked again right before posting` });
    } else {
      for (const d of result.issues) issues.push({ ...d, path: accountKey === t.platform ? d.path : d.path.replace(`platform_options.${t.platform}`, `platform_options.${accountKey}`), platform: t.platform, type: t.type });
    }
  }
  return { issues, warnings };
}
