import { ACCOUNT_LABEL_RULE, DEFAULT_KEY_SCOPE, networkOf, parseAccountKey, KEY_SCOPES, PLATFORMS, UNKNOWN_ZONE_MESSAGE, canonicalZone, formatInstant, isKeyScope, isPlatform, type ConnectionPause, type KeyScope, type Platform } from '@socialpub/core';
import { sandboxPasswordOf, saveSandboxConnection } from '../connect/sandbox-connection';
import { changeAccount, findAccount, isRefusal, labelOf, type AccountChange } from '../connect/account-changes';
import type { ConnectionInfo } from '../store/connections';
import { setUserZone, userZone } from '../jobs/user-zone';
import { readConfigFile, resolveDatabaseUrl } from '../config';
import { openDatabase } from '../store/database';
import { secureDataDir } from '../store/private-files';
import { createStore, type Store } from '../store/store';
import { pauseInfo } from '../store/platform-pauses';
import type { User } from '../store/users';
import { systemClock, type Clock } from '../util/clock';
import { SecretBox } from '../util/secrets';
import { join } from 'node:path';

/** A local-admin failure the CLI maps to an exit code and a message. */
export class AdminError extends Error {
  override name = 'AdminError';
  constructor(
    readonly code: 'not_found' | 'invalid' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

/** Used when no --user is given and the data dir has no user yet (or several). */
export const DEFAULT_EMAIL = 'owner@localhost';

export interface CreatedKey {
  api_key: string;
  key_id: string;
  user_id: string;
  email: string;
  /** What the key may do (a rotated key keeps its predecessor's). */
  scope: KeyScope;
}

export interface KeyListing {
  key_id: string;
  user_id: string;
  email: string;
  name: string | null;
  scope: KeyScope;
  prefix: string;
  status: 'active' | 'revoked' | 'rotated';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  replaced_by: string | null;
}

export interface ConnectionListing {
  connection_id: string;
  user_id: string;
  email: string;
  platform: Platform;
  /** The account's label (`twitter:brand` in platforms). */
  label: string;
  /** The account a bare network name means. */
  is_default: boolean;
  mode: 'live' | 'sandbox';
  status: 'active' | 'expired';
  status_reason: string | null;
  account_id: string | null;
  account_name: string | null;
  page_id: string | null;
  page_name: string | null;
  token_expires_at: string | null;
  updated_at: string;
  /** A platform's rate limit holding the connection back, and until when (null: not paused). */
  paused: ConnectionPause | null;
  /** pinterest: the account's boards (page_id is the one pins go to). */
  boards?: Array<{ id: string; name: string }>;
  /** sandbox: the connection's own password for the simulator's sign-in (null: made before passwords). */
  sandbox_password?: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : formatInstant(ms));
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface AdminOptions {
  clock?: Clock;
  /**
   * The PostgreSQL URL, when the daemon's database is PostgreSQL; by default what the daemon
   * itself would use: SOCIALPUB_DATABASE_URL, else the data dir's config.json `database_url`,
   * else the data dir's socialpub.db.
   */
  databaseUrl?: string | null;
}

/** The database the daemon over `dataDir` uses (its config.json and SOCIALPUB_DATABASE_URL; see AdminOptions). */
export function adminDatabase(dataDir: string, databaseUrl?: string | null, env: NodeJS.ProcessEnv = process.env): string {
  const url = resolveDatabaseUrl(databaseUrl ?? (env.SOCIALPUB_DATABASE_URL?.trim() || undefined) ?? readConfigFile(dataDir).database_url);
  return url ?? join(dataDir, 'socialpub.db');
}

/**
 * Local administration on the data dir — the self-hosted stand-in for the dashboard:
 * keys, sandbox connections, settings. Safe while the daemon runs (SQLite WAL, busy
 * timeout). Close it when done.
 */
export function openAdmin(dataDir: string, opts: AdminOptions = {}) {
  const clock = opts.clock ?? systemClock;
  secureDataDir(dataDir);
  const db = openDatabase(adminDatabase(dataDir, opts.databaseUrl));
  const secrets = SecretBox.fromKeyFile(join(dataDir, 'secret.key'));
  const store: Store = createStore(db, { secrets, clock });

  /** The user of an email; without one, the only user (or the default owner). */
  function userFor(email: string | undefined, create: boolean): User {
    if (email !== undefined) {
      if (!EMAIL.test(email.trim())) throw new AdminError('invalid', `not an email address: ${email}`);
      const found = store.users.findByEmail(email);
      if (found) return found;
      if (!create) throw new AdminError('not_found', `no user ${email}`);
      return store.users.ensure(email, clock.now()).user;
    }
    const users = store.users.list();
    if (users.length === 1) return users[0] as User;
    if (users.length > 1) throw new AdminError('invalid', `several users exist (${users.map((u) => u.email).join(', ')}); name one with --user`);
    if (!create) throw new AdminError('not_found', 'no user yet; create a key first (socialpub keys create)');
    return store.users.ensure(DEFAULT_EMAIL, clock.now()).user;
  }

  /** A user's settings as stored now. */
  const settingsOf = (user: User): UserSettings => ({
    email: user.email,
    user_id: user.id,
    approval_workflow: user.approvalWorkflow,
    agent_approval: user.agentApproval,
    timezone: userZone(store, user.id),
  });

  const emailOf = (userId: string) => store.users.get(userId)?.email ?? '';

  function keyListing(k: ReturnType<Store['apiKeys']['list']>[number]): KeyListing {
    return {
      key_id: k.id,
      user_id: k.userId,
      email: emailOf(k.userId),
      name: k.name,
      scope: k.scope,
      prefix: k.prefix,
      status: k.revokedAt === null ? 'active' : (k.revokedReason ?? 'revoked'),
      created_at: formatInstant(k.createdAt),
      last_used_at: iso(k.lastUsedAt),
      revoked_at: iso(k.revokedAt),
      replaced_by: k.replacedBy,
    };
  }

  function connectionListing(c: ReturnType<Store['connections']['list']>[number]): ConnectionListing {
    return {
      connection_id: c.id,
      user_id: c.userId,
      email: emailOf(c.userId),
      platform: c.platform,
      label: c.label,
      is_default: c.isDefault,
      mode: c.mode,
      status: c.status,
      status_reason: c.statusReason,
      account_id: c.accountId,
      account_name: c.accountName,
      page_id: c.pageId,
      page_name: c.pageName,
      token_expires_at: iso(c.tokenExpiresAt),
      updated_at: formatInstant(c.updatedAt),
      paused: pauseInfo(store.platformPauses.forConnection(c.userId, c.platform, clock.now(), c.id)),
      ...(Array.isArray(c.meta.boards) ? { boards: c.meta.boards as Array<{ id: string; name: string }> } : {}),
      ...(c.mode === 'sandbox' ? { sandbox_password: sandboxPasswordOf(store.credentials, c) } : {}),
    };
  }

  /** The user's account named `con_…`, network or network:label. */
  const accountNamed = (name: string, email: string | undefined): ConnectionInfo => {
    if (name.startsWith('con_')) {
      const found = store.connections.getById(name);
      if (!found) throw new AdminError('not_found', `no connection ${name}`);
      return found;
    }
    const ref = parseAccountKey(name);
    if (!ref) platformOf(networkOf(name));
    if (!ref) throw new AdminError('invalid', `${name}: ${ACCOUNT_LABEL_RULE}`);
    const user = userFor(email, false);
    const found = findAccount(store.connections, user.id, name);
    if (!found) throw new AdminError('not_found', ref.label === null ? `${user.email} has no ${ref.platform} connection` : `${user.email} has no ${ref.platform} account labelled ${ref.label}`);
    return found;
  };

  const platformOf = (name: string): Platform => {
    if (!isPlatform(name)) throw new AdminError('invalid', `unknown platform ${name} (one of: ${PLATFORMS.join(', ')})`);
    return name;
  };

  return {
    store,
    /**
     * A new key for the user (created if new), of `scope` (default full; docs/api.md "Key
     * scopes"). The full key is only in this answer; `keys list` shows the scope.
     */
    createKey(input: { email?: string; name?: string; scope?: string } = {}): CreatedKey {
      const scope = input.scope ?? DEFAULT_KEY_SCOPE;
      if (!isKeyScope(scope)) throw new AdminError('invalid', `unknown scope ${scope} (one of: ${KEY_SCOPES.join(', ')})`);
      return store.commits.durableBlocking(() => {
        const user = userFor(input.email, true);
        const { apiKey, info } = store.apiKeys.create(user.id, input.name ?? null, clock.now(), scope);
        return { api_key: apiKey, key_id: info.id, user_id: user.id, email: user.email, scope: info.scope };
      });
    },
    listKeys(input: { email?: string } = {}): KeyListing[] {
      const keys = input.email !== undefined ? store.apiKeys.list(userFor(input.email, false).id) : store.apiKeys.list();
      return keys.map(keyListing);
    },
    revokeKey(keyId: string): KeyListing {
      const key = store.apiKeys.get(keyId);
      if (!key) throw new AdminError('not_found', `no key ${keyId}`);
      if (key.revokedAt !== null) throw new AdminError('conflict', `key ${keyId} is already ${key.revokedReason ?? 'revoked'}`);
      store.apiKeys.revoke(keyId, clock.now());
      return keyListing(store.apiKeys.get(keyId) as NonNullable<typeof key>);
    },
    /** A new key replacing `keyId`; the old one stops working at once. */
    rotateKey(keyId: string): CreatedKey & { replaced: string } {
      const key = store.apiKeys.get(keyId);
      if (!key) throw new AdminError('not_found', `no key ${keyId}`);
      const fresh = store.apiKeys.rotate(keyId, clock.now());
      if (!fresh) throw new AdminError('conflict', `key ${keyId} is already ${key.revokedReason ?? 'revoked'}`);
      return { api_key: fresh.apiKey, key_id: fresh.info.id, user_id: key.userId, email: emailOf(key.userId), scope: fresh.info.scope, replaced: keyId };
    },
    /**
     * A one-time dashboard sign-in token for the user (created if new, as `keys create`
     * does): single use, 10 minutes; only its sha256 is stored. The CLI makes the link.
     */
    createSigninLink(input: { email?: string } = {}): { token: string; expires_at: string; user_id: string; email: string } {
      return store.commits.durableBlocking(() => {
        const user = userFor(input.email, true);
        const { token, expiresAt } = store.dashboardSessions.createSigninLink(user.id, clock.now());
        return { token, expires_at: formatInstant(expiresAt), user_id: user.id, email: user.email };
      });
    },
    /**
     * Records a sandbox connection (the platform simulator in the daemon); facebook gets a
     * sandbox page. With a label, the account of that label (a new one, or reconnected);
     * without, the network's default account.
     */
    addSandboxConnection(platformName: string, input: { email?: string; label?: string } = {}): ConnectionListing {
      const platform = platformOf(platformName);
      const label = labelOf(input.label);
      if (!label.ok) throw new AdminError('invalid', `--label ${input.label}: ${label.message}`);
      const user = userFor(input.email, true);
      const saved = saveSandboxConnection(store.connections, user.id, platform, clock.now(), label.label);
      return connectionListing(saved);
    },
    /** Renames an account and/or makes it its network's default; named by id, network (its default) or network:label. */
    updateConnection(name: string, change: AccountChange, input: { email?: string } = {}): ConnectionListing {
      const conn = accountNamed(name, input.email);
      const changed = changeAccount(store.connections, conn, change);
      if (isRefusal(changed)) throw new AdminError(changed.conflict ? 'conflict' : 'invalid', changed.message);
      return connectionListing(changed);
    },
    listConnections(input: { email?: string } = {}): ConnectionListing[] {
      const list = input.email !== undefined ? store.connections.listForUser(userFor(input.email, false).id) : store.connections.list();
      return list.map(connectionListing);
    },
    /**
     * Removes a connection, named by its id (con_…), by platform (its default account) or by
     * network:label (of the given or only user). When it was the default, the oldest other
     * account of the network becomes the default.
     */
    removeConnection(platformOrId: string, input: { email?: string } = {}): void {
      if (platformOrId.startsWith('con_')) {
        if (!store.connections.removeById(platformOrId)) throw new AdminError('not_found', `no connection ${platformOrId}`);
        return;
      }
      store.connections.removeById(accountNamed(platformOrId, input.email).id);
    },
    /** A user's settings as they are now. */
    settings(email: string | undefined): UserSettings {
      const user = userFor(email, false);
      return settingsOf(user);
    },
    setApprovalWorkflow(email: string | undefined, on: boolean): UserSettings {
      const user = userFor(email, false);
      store.users.setApprovalWorkflow(user.id, on);
      return { ...settingsOf(user), approval_workflow: on };
    },
    /** The user's time zone (an IANA name; null clears it, UTC): the default zone of their requests. */
    setTimezone(email: string | undefined, zone: string | null): UserSettings {
      const user = userFor(email, false);
      const canonical = zone === null ? null : canonicalZone(zone);
      if (zone !== null && canonical === null) throw new AdminError('invalid', `"${zone}" ${UNKNOWN_ZONE_MESSAGE}`);
      setUserZone(store, user.id, canonical);
      return { ...settingsOf(user), timezone: canonical };
    },
    /** agent-approval: jobs created through MCP wait in pending_approval for a person. */
    setAgentApproval(email: string | undefined, on: boolean): UserSettings {
      const user = userFor(email, false);
      store.users.setAgentApproval(user.id, on);
      return { ...settingsOf(user), agent_approval: on };
    },
    close(): void {
      store.commits.close();
      db.close();
    },
  };
}

export type Admin = ReturnType<typeof openAdmin>;

/** A user's settings as the admin commands show them. */
export interface UserSettings {
  email: string;
  user_id: string;
  approval_workflow: boolean;
  /** Jobs created through MCP wait in pending_approval for a person. */
  agent_approval: boolean;
  /** IANA zone, or null (UTC). */
  timezone: string | null;
}
