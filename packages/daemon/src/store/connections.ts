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
  status: 'active' | 'expired';
  status_reason: string | null;
  created_at: number;
  updated_at: number;
}

const toInfo = (r: Row): ConnectionInfo => ({
  id: r.id,
  userId: r.user_id,
  platform: r.platform,
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

/**
 * A user's connection per platform. Secrets are sealed here with the SecretBox (AES-256-GCM,
 * key file in the data dir) when a connection is saved, and opened only by the credentials
 * service (credentials.ts), which also renews and expires them.
 */
export function createConnectionsRepository(db: DB, box: SecretBox, clock: Clock) {
  const byUserPlatform = db.prepare<[string, string], Row>('SELECT * FROM connections WHERE user_id = ? AND platform = ?');
  const byId = db.prepare<[string], Row>('SELECT * FROM connections WHERE id = ?');
  const byUser = db.prepare<[string], Row>('SELECT * FROM connections WHERE user_id = ? ORDER BY platform');
  const all = db.prepare<[], Row>('SELECT * FROM connections ORDER BY user_id, platform');
  const upsert = db.prepare(
    `INSERT INTO connections (id, user_id, platform, mode, status, status_reason, account_id, account_name, page_id, page_name,
       secrets_enc, token_expires_at, refresh_expires_at, token_obtained_at, meta, created_at, updated_at)
     VALUES (@id, @userId, @platform, @mode, 'active', NULL, @accountId, @accountName, @pageId, @pageName,
       @secretsEnc, @tokenExpiresAt, @refreshExpiresAt, @tokenObtainedAt, @meta, @now, @now)
     ON CONFLICT (user_id, platform) DO UPDATE SET mode = excluded.mode, status = 'active', status_reason = NULL,
       account_id = excluded.account_id, account_name = excluded.account_name, page_id = excluded.page_id,
       page_name = excluded.page_name, secrets_enc = excluded.secrets_enc, token_expires_at = excluded.token_expires_at,
       refresh_expires_at = excluded.refresh_expires_at, token_obtained_at = excluded.token_obtained_at,
       meta = excluded.meta, updated_at = excluded.updated_at`,
  );
  const selectPage = db.prepare('UPDATE connections SET page_id = ?, page_name = ?, updated_at = ? WHERE id = ?');
  const removeOne = db.prepare('DELETE FROM connections WHERE user_id = ? AND platform = ?');
  const removeById = db.prepare('DELETE FROM connections WHERE id = ?');

  return {
    /** Creates or replaces the user's connection to `platform` (one per platform); it starts active. */
    save(userId: string, platform: Platform, input: ConnectionInput): ConnectionInfo {
      const now = clock.now();
      const existing = byUserPlatform.get(userId, platform);
      const id = existing?.id ?? newId('con');
      upsert.run({
        id,
        userId,
        platform,
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
      });
      return toInfo(byId.get(id) as Row);
    },
    get(userId: string, platform: Platform): ConnectionInfo | null {
      const r = byUserPlatform.get(userId, platform);
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
    remove(userId: string, platform: Platform): boolean {
      return removeOne.run(userId, platform).changes === 1;
    },
    removeById(connectionId: string): boolean {
      return removeById.run(connectionId).changes === 1;
    },
  };
}
