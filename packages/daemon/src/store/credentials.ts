import type { Platform } from '@socialpub/core';
import type { Clock } from '../util/clock';
import type { SecretBox } from '../util/secrets';
import type { DB } from './database';
import { createOutboxWriter, type StoredData } from './outbox';

/** A connection's credentials as adapters, refreshers and the publisher see them (secrets decrypted). */
export interface Credentials {
  connectionId: string;
  mode: 'live' | 'sandbox';
  accountId: string | null;
  accountName: string | null;
  pageId: string | null;
  pageName: string | null;
  /** Decrypted secrets: access_token, refresh_token, app credentials... per platform. */
  secrets: Record<string, string | undefined>;
  tokenExpiresAt: number | null;
  refreshExpiresAt: number | null;
  tokenObtainedAt: number | null;
  meta: Record<string, unknown>;
}

/** New tokens for a connection, stored atomically (access and rotated refresh token together). */
export interface TokenUpdate {
  secrets: Record<string, string | undefined>;
  tokenExpiresAt?: number | null;
  refreshExpiresAt?: number | null;
  tokenObtainedAt?: number | null;
}

/** Drops empty values, so that a missing or empty token never replaces a stored one. */
export function nonEmptySecrets(secrets: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secrets)) if (typeof v === 'string' && v !== '') out[k] = v;
  return out;
}

/** The columns of a connections row the credentials are read from (store/connections.ts's row adds the rest). */
export interface CredentialsRow {
  id: string;
  mode: 'live' | 'sandbox';
  account_id: string | null;
  account_name: string | null;
  page_id: string | null;
  page_name: string | null;
  secrets_enc: string | null;
  token_expires_at: number | null;
  refresh_expires_at: number | null;
  token_obtained_at: number | null;
  meta: string;
}

/** The columns of `CredentialsRow`, as a SELECT list. */
export const CREDENTIALS_COLUMNS = 'id, mode, account_id, account_name, page_id, page_name, secrets_enc, token_expires_at, refresh_expires_at, token_obtained_at, meta';

export type CredentialsService = ReturnType<typeof createCredentialsService>;

/**
 * The one way to a connection's secrets (`store.credentials`): it opens them (the
 * SecretBox, AES-256-GCM, key file in the data dir), stores renewed tokens sealed, and marks
 * a connection expired when they stop working. store/connections.ts seals secrets when a
 * connection is saved and never opens them. Who calls it (docs/security.md):
 * - the publisher: publish-attempt.ts and reconcile-attempt.ts open a target's connection,
 *   and an adapter's saveTokens/markConnectionExpired land here (build-context.ts);
 * - the token refresher (connect/token-refresher.ts), through daemon.ts;
 * - take-downs (jobs/takedown.ts) and the account checks at acceptance
 *   (jobs/account-checks.ts, http/routes/tiktok-creator-info.ts), through
 *   platforms/connection-call.ts for the writes;
 * - GET /sandbox/posts (http/routes/sandbox-posts.ts), for the sandbox token that tells
 *   which simulated posts are the user's.
 */
export function createCredentialsService(db: DB, box: SecretBox, clock: Clock) {
  const columns = CREDENTIALS_COLUMNS;
  const byUserPlatform = db.prepare<[string, string], CredentialsRow>(`SELECT ${columns} FROM connections WHERE user_id = ? AND platform = ? AND is_default = 1`);
  const ofAccount = db.prepare<[string, string, string], CredentialsRow>(`SELECT ${columns} FROM connections WHERE id = ? AND user_id = ? AND platform = ?`);
  const byLabel = db.prepare<[string, string, string], CredentialsRow>(`SELECT ${columns} FROM connections WHERE user_id = ? AND platform = ? AND label = ?`);
  const byId = db.prepare<[string], CredentialsRow>(`SELECT ${columns} FROM connections WHERE id = ?`);
  const writeTokens = db.prepare(
    `UPDATE connections SET secrets_enc = @secretsEnc, token_expires_at = @tokenExpiresAt, refresh_expires_at = @refreshExpiresAt,
       token_obtained_at = @tokenObtainedAt, status = 'active', status_reason = NULL, updated_at = @now WHERE id = @id`,
  );
  const expire = db.prepare<[string, number, string], { user_id: string; platform: Platform; label: string; status_reason: string | null; updated_at: number }>(
    "UPDATE connections SET status = 'expired', status_reason = ?, updated_at = ? WHERE id = ? RETURNING user_id, platform, label, status_reason, updated_at",
  );
  const statusOf = db.prepare<[string], { status: string }>('SELECT status FROM connections WHERE id = ?');
  const outbox = createOutboxWriter(db);
  // active -> expired reports connection.expired in the same transaction (an expired one marked again reports nothing).
  const markExpired = db.transaction((connectionId: string, reason: string, now: number) => {
    const was = statusOf.get(connectionId)?.status;
    const r = expire.get(reason, now, connectionId);
    if (!r || was !== 'active') return;
    const data: StoredData<'connection.expired'> = { connection_id: connectionId, platform: r.platform, label: r.label, reason: r.status_reason };
    outbox.append({ userId: r.user_id, type: 'connection.expired', subject: connectionId, data, at: r.updated_at });
  });

  const open = (r: CredentialsRow): Record<string, string | undefined> =>
    r.secrets_enc ? box.openJson<Record<string, string | undefined>>(r.secrets_enc) : {};

  const credentials = (r: CredentialsRow): Credentials => ({
    connectionId: r.id,
    mode: r.mode,
    accountId: r.account_id,
    accountName: r.account_name,
    pageId: r.page_id,
    pageName: r.page_name,
    secrets: open(r),
    tokenExpiresAt: r.token_expires_at,
    refreshExpiresAt: r.refresh_expires_at,
    tokenObtainedAt: r.token_obtained_at,
    meta: JSON.parse(r.meta) as Record<string, unknown>,
  });

  return {
    /**
     * Decrypted credentials of the user's account of `platform`: the connection a target
     * names (`connectionId`, when it is still the user's account of that network); without
     * one, the account labelled `label`, else the network's default (targets accepted
     * before migration 200); null when there is none.
     */
    credentialsFor(userId: string, platform: Platform, connectionId: string | null = null, label: string | null = null): Credentials | null {
      const r =
        connectionId !== null ? ofAccount.get(connectionId, userId, platform) : label !== null ? byLabel.get(userId, platform, label) : byUserPlatform.get(userId, platform);
      return r ? credentials(r) : null;
    },
    /**
     * The credentials of a row read elsewhere with its secrets sealed: a claimed batch's
     * accounts, read in the claim's transaction (store/connection-states.ts), so the
     * publisher does not read each target's connection again.
     */
    credentialsOf(row: CredentialsRow): Credentials {
      return credentials(row);
    },
    credentialsById(connectionId: string): Credentials | null {
      const r = byId.get(connectionId);
      return r ? credentials(r) : null;
    },
    /**
     * Stores refreshed tokens in one transaction: the new access token and a rotated refresh
     * token land together. An empty or missing value never overwrites a stored one (some
     * platforms answer a refresh without a new refresh token). The connection becomes active.
     */
    saveTokens(connectionId: string, update: TokenUpdate): void {
      const now = clock.now();
      db.transaction(() => {
        const r = byId.get(connectionId);
        if (!r) throw new Error(`no connection ${connectionId}`);
        const merged = { ...nonEmptySecrets(open(r)), ...nonEmptySecrets(update.secrets) };
        writeTokens.run({
          id: connectionId,
          secretsEnc: box.sealJson(merged),
          tokenExpiresAt: update.tokenExpiresAt === undefined ? r.token_expires_at : update.tokenExpiresAt,
          refreshExpiresAt: update.refreshExpiresAt === undefined ? r.refresh_expires_at : update.refreshExpiresAt,
          tokenObtainedAt: update.tokenObtainedAt === undefined ? now : update.tokenObtainedAt,
          now,
        });
      }).immediate();
    },
    /** A refresh failed for good: publishing treats the platform as not connected until it is reconnected. */
    markExpired(connectionId: string, reason: string): void {
      markExpired(connectionId, reason, clock.now());
    },
  };
}
