import type { Platform } from '@socialpub/core';
import { nonEmptySecrets, type CredentialsRow } from './credentials';
import type { Clock } from '../util/clock';
import type { SecretBox } from '../util/secrets';
import type { DB } from './database';
import { newId } from '../util/ids';

/** A connection without its secrets: safe to list, log and answer with. */
export interface ConnectionInfo {
  id: string;
  userId: string;
  platform: Platform;
  /** The account's name among the user's accounts of the network (`twitter:brand`); unique per user and network. */
  label: string;
  /** The account a bare network name in `platforms` means: one per user and network. */
  isDefault: boolean;
  mode: 'live' | 'sandbox';
  status: 'active' | 'expired';
  statusReason: string | null;
  accountId: string | null;
  accountName: string | null;
  pageId: string | null;
  pageName: string | null;
  tokenExpiresAt: number | null;
  refreshExpiresAt: number | null;
  tokenObtainedAt: number | null;
  meta: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export interface ConnectionInput {
  mode: 'live' | 'sandbox';
  accountId?: string | null;
  accountName?: string | null;
  pageId?: string | null;
  pageName?: string | null;
  secrets?: Record<string, string | undefined>;
  tokenExpiresAt?: number | null;
  refreshExpiresAt?: number | null;
  tokenObtainedAt?: number | null;
  meta?: Record<string, unknown>;
}

interface Row extends CredentialsRow {
  user_id: string;
  platform: Platform;
  label: string;
  is_default: number;
  status: 'active' | 'expired';
  status_reason: string | null;
  created_at: number;
  updated_at: number;
}

const toInfo = (r: Row): ConnectionInfo => ({
  id: r.id,
  userId: r.user_id,
  platform: r.platform,
  label: r.label,
  isDefault: r.is_default === 1,
  mode: r.mode,
  status: r.status,
  statusReason: r.status_reason,
  accountId: r.account_id,
  accountName: r.account_name,
  pageId: r.page_id,
  pageName: r.page_name,
  tokenExpiresAt: r.token_expires_at,
  refreshExpiresAt: r.refresh_expires_at,
  tokenObtainedAt: r.token_obtained_at,
  meta: JSON.parse(r.meta) as Record<string, unknown>,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;

/** The label an account gets when none is named (and the one migration 200 gave existing connections). */
export const DEFAULT_LABEL = 'default';

/**
 * A user's connections: several accounts per network, each with a label unique per user
 * and network, one of them the default (docs/api.md "Accounts"). Secrets are sealed here
 * with the SecretBox (AES-256-GCM, key file in the data dir) when a connection is saved, and
 * opened only by the credentials service (credentials.ts), which also renews and expires them.
 */
export function createConnectionsRepository(db: DB, box: SecretBox, clock: Clock) {
  const defaultOf = db.prepare<[string, string], Row>('SELECT * FROM connections WHERE user_id = ? AND platform = ? AND is_default = 1');
  const byLabel = db.prepare<[string, string, string], Row>('SELECT * FROM connections WHERE user_id = ? AND platform = ? AND label = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM connections WHERE id = ?');
  const byUser = db.prepare<[string], Row>('SELECT * FROM connections WHERE user_id = ? ORDER BY platform, is_default DESC, created_at, label');
  const all = db.prepare<[], Row>('SELECT * FROM connections ORDER BY user_id, platform, is_default DESC, created_at, label');
  const insert = db.prepare(
    `INSERT INTO connections (id, user_id, platform, label, is_default, mode, status, status_reason, account_id, account_name, page_id, page_name,
       secrets_enc, token_expires_at, refresh_expires_at, token_obtained_at, meta, created_at, updated_at)
     VALUES (@id, @userId, @platform, @label, @isDefault, @mode, 'active', NULL, @accountId, @accountName, @pageId, @pageName,
       @secretsEnc, @tokenExpiresAt, @refreshExpiresAt, @tokenObtainedAt, @meta, @now, @now)`,
  );
  const replace = db.prepare(
    `UPDATE connections SET mode = @mode, status = 'active', status_reason = NULL,
       account_id = @accountId, account_name = @accountName, page_id = @pageId,
       page_name = @pageName, secrets_enc = @secretsEnc, token_expires_at = @tokenExpiresAt,
       refresh_expires_at = @refreshExpiresAt, token_obtained_at = @tokenObtainedAt,
       meta = @meta, updated_at = @now WHERE id = @id`,
  );
  const selectPage = db.prepare('UPDATE connections SET page_id = ?, page_name = ?, updated_at = ? WHERE id = ?');
  const setLabel = db.prepare('UPDATE connections SET label = ?, updated_at = ? WHERE id = ?');
  const clearDefault = db.prepare('UPDATE connections SET is_default = 0, updated_at = ? WHERE user_id = ? AND platform = ? AND is_default = 1');
  const makeDefault = db.prepare('UPDATE connections SET is_default = 1, updated_at = ? WHERE id = ?');
  const deleteById = db.prepare('DELETE FROM connections WHERE id = ?');
  const oldestOf = db.prepare<[string, string], { id: string }>('SELECT id FROM connections WHERE user_id = ? AND platform = ? ORDER BY created_at, label LIMIT 1');

  const setDefault = db.transaction((id: string, now: number) => {
    const r = byId.get(id);
    if (!r || r.is_default === 1) return;
    clearDefault.run(now, r.user_id, r.platform);
    makeDefault.run(now, id);
  });
  // The default removed: the oldest remaining account of the network becomes the default.
  const remove = db.transaction((id: string, now: number): boolean => {
    const r = byId.get(id);
    if (!r) return false;
    deleteById.run(id);
    const next = r.is_default === 1 ? oldestOf.get(r.user_id, r.platform) : undefined;
    if (next) makeDefault.run(now, next.id);
    return true;
  });

  const save = db.transaction((userId: string, platform: Platform, input: ConnectionInput, label: string | null): string => {
    const now = clock.now();
    const existing = label === null ? (defaultOf.get(userId, platform) ?? byLabel.get(userId, platform, DEFAULT_LABEL)) : byLabel.get(userId, platform, label);
    const values = {
      mode: input.mode,
      accountId: input.accountId ?? null,
      accountName: input.accountName ?? null,
      pageId: input.pageId ?? null,
      pageName: input.pageName ?? null,
      secretsEnc: box.sealJson(nonEmptySecrets(input.secrets ?? {})),
      tokenExpiresAt: input.tokenExpiresAt ?? null,
      refreshExpiresAt: input.refreshExpiresAt ?? null,
      tokenObtainedAt: input.tokenObtainedAt ?? null,
      meta: JSON.stringify(input.meta ?? {}),
      now,
    };
    if (existing) {
      replace.run({ id: existing.id, ...values });
      return existing.id;
    }
    const id = newId('con');
    const first = defaultOf.get(userId, platform) === undefined;
    insert.run({ id, userId, platform, label: label ?? DEFAULT_LABEL, isDefault: first ? 1 : 0, ...values });
    return id;
  });

  return {
    /**
     * Connects an account: replaces the one labelled `label` (a reconnect), else adds it;
     * without a label, replaces the network's default account, else adds one labelled
     * `default`. The first account of a network is its default. It starts active.
     */
    save(userId: string, platform: Platform, input: ConnectionInput, label: string | null = null): ConnectionInfo {
      return toInfo(byId.get(save(userId, platform, input, label)) as Row);
    },
    /** The user's default account of `platform`, or null when none is connected. */
    get(userId: string, platform: Platform): ConnectionInfo | null {
      const r = defaultOf.get(userId, platform);
      return r ? toInfo(r) : null;
    },
    /** The account a `platforms` entry names: its label's, or the default for a bare network name (label null). */
    find(userId: string, platform: Platform, label: string | null): ConnectionInfo | null {
      const r = label === null ? defaultOf.get(userId, platform) : byLabel.get(userId, platform, label);
      return r ? toInfo(r) : null;
    },
    getById(connectionId: string): ConnectionInfo | null {
      const r = byId.get(connectionId);
      return r ? toInfo(r) : null;
    },
    listForUser(userId: string): ConnectionInfo[] {
      return byUser.all(userId).map(toInfo);
    },
    list(): ConnectionInfo[] {
      return all.all().map(toInfo);
    },
    selectPage(connectionId: string, page: { id: string; name: string | null }): void {
      selectPage.run(page.id, page.name, clock.now(), connectionId);
    },
    /** Renames an account; false when another account of the network has the label. */
    rename(connectionId: string, label: string): boolean {
      const r = byId.get(connectionId);
      if (!r) return false;
      const taken = byLabel.get(r.user_id, r.platform, label);
      if (taken && taken.id !== connectionId) return false;
      setLabel.run(label, clock.now(), connectionId);
      return true;
    },
    /** Makes an account its network's default (the one a bare network name means). */
    setDefault(connectionId: string): void {
      setDefault(connectionId, clock.now());
    },
    /** Removes the user's default account of `platform`. */
    remove(userId: string, platform: Platform): boolean {
      const r = defaultOf.get(userId, platform);
      return r ? remove(r.id, clock.now()) : false;
    },
    /** Removes one account; when it was the default, the oldest remaining account of the network becomes the default. */
    removeById(connectionId: string): boolean {
      return remove(connectionId, clock.now());
    },
  };
}
