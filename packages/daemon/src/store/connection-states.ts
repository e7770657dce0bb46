import type { Platform } from '@socialpub/core';
import type { CredentialsRow } from './credentials';
import type { DB } from './database';
import { CREDENTIALS_COLUMNS } from './credentials';

/** The state of the account a target goes out through: missing (removed, or never connected), active or expired. */
export interface ConnectionState {
  state: 'missing' | 'active' | 'expired';
  reason: string | null;
}

/** What names a target's account: its connection, else the label of its `platforms` entry, else the network's default. */
export interface AccountRef {
  userId: string;
  platform: Platform;
  connectionId: string | null;
  label: string | null;
}

/** One target's account as the batch read it: its state, and its credentials row (secrets sealed; null when missing). */
export interface AccountRead {
  connection: ConnectionState;
  credentials: CredentialsRow | null;
}

interface Row extends CredentialsRow {
  user_id: string;
  platform: string;
  label: string;
  is_default: number;
  status: 'active' | 'expired';
  status_reason: string | null;
}

/**
 * The connection states and credentials of many targets' accounts in one statement: the
 * connections of their users, matched here as `TargetQueue.connectionState` and
 * `CredentialsService.credentialsFor` match one (by id, else label, else the default). A
 * claimed batch reads them together, rather than two round trips a target on PostgreSQL.
 * The secrets stay sealed: store/credentials.ts opens them when an attempt needs them.
 */
export function createConnectionStates(db: DB) {
  const ofUsers = db.prepare<[string], Row>(
    `SELECT ${CREDENTIALS_COLUMNS}, user_id, platform, label, is_default, status, status_reason FROM connections WHERE user_id IN (SELECT value FROM json_each(?))`,
  );
  return (refs: readonly AccountRef[]): AccountRead[] => {
    if (refs.length === 0) return [];
    const byUser = new Map<string, Row[]>();
    for (const r of ofUsers.all(JSON.stringify([...new Set(refs.map((t) => t.userId))]))) {
      const list = byUser.get(r.user_id);
      if (list) list.push(r);
      else byUser.set(r.user_id, [r]);
    }
    return refs.map((t) => {
      const rows = (byUser.get(t.userId) ?? []).filter((r) => r.platform === t.platform);
      const r =
        t.connectionId !== null ? rows.find((c) => c.id === t.connectionId) : t.label !== null ? rows.find((c) => c.label === t.label) : rows.find((c) => c.is_default === 1);
      if (!r) return { connection: { state: 'missing', reason: null }, credentials: null };
      const { id, mode, account_id, account_name, page_id, page_name, secrets_enc, token_expires_at, refresh_expires_at, token_obtained_at, meta } = r;
      return {
        connection: { state: r.status, reason: r.status_reason },
        credentials: { id, mode, account_id, account_name, page_id, page_name, secrets_enc, token_expires_at, refresh_expires_at, token_obtained_at, meta },
      };
    });
  };
}
