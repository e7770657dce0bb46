import { createHash, timingSafeEqual } from 'node:crypto';
import { DEFAULT_KEY_SCOPE, type KeyScope } from '@socialpub/core';
import type { DB } from './database';
import { newId, randomToken } from '../util/ids';

/** `sp_<id>_<secret>`: the id finds the row, only sha256(secret) is stored. */
const KEY_FORMAT = /^sp_(key_[0-9a-z]{20})_([0-9a-z]{40})$/;
/** The key id of a well-formed key (`key_…`), else null: what failed authentication is counted by besides the address. */
export const apiKeyId = (presented: string): string | null => KEY_FORMAT.exec(presented)?.[1] ?? null;
const SECRET_LENGTH = 40; // ~206 bits of base36

export interface ApiKeyInfo {
  id: string;
  userId: string;
  name: string | null;
  /** What the key may do (core's key-scopes.ts); kept by a rotation. */
  scope: KeyScope;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  revokedReason: 'revoked' | 'rotated' | null;
  replacedBy: string | null;
}

interface KeyRow {
  id: string;
  user_id: string;
  name: string | null;
  scope: KeyScope;
  secret_hash: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  revoked_reason: 'revoked' | 'rotated' | null;
  replaced_by: string | null;
}

export type KeyCheck =
  | { ok: true; keyId: string; userId: string; scope: KeyScope }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'rotated' };

const toInfo = (r: KeyRow): ApiKeyInfo => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  revokedReason: r.revoked_reason,
  replacedBy: r.replaced_by,
});

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();

/** Writing last_used_at on every request would cost a write per read; once a minute per key is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;

export function createApiKeysRepository(db: DB) {
  const byId = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const byUser = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, id');
  const all = db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
  const insert = db.prepare(
    'INSERT INTO api_keys (id, user_id, name, scope, secret_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const revoke = db.prepare(
    'UPDATE api_keys SET revoked_at = ?, revoked_reason = ?, replaced_by = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  // A dashboard session opened with a key lives no longer than the key (migration 186).
  const endSessions = db.prepare('DELETE FROM dashboard_sessions WHERE key_id = ?');
  const lastTouched = new Map<string, number>();

  function create(userId: string, name: string | null, now: number, scope: KeyScope = DEFAULT_KEY_SCOPE): { apiKey: string; info: ApiKeyInfo } {
    const id = newId('key');
    const secret = randomToken(SECRET_LENGTH);
    const apiKey = `sp_${id}_${secret}`;
    const prefix = apiKey.slice(0, `sp_${id}_`.length + 4);
    insert.run(id, userId, name, scope, hashSecret(secret).toString('hex'), prefix, now);
    return { apiKey, info: toInfo(byId.get(id) as KeyRow) };
  }

  return {
    create,
    get(id: string): ApiKeyInfo | null {
      const r = byId.get(id);
      return r ? toInfo(r) : null;
    },
    list(userId?: string): ApiKeyInfo[] {
      return (userId ? byUser.all(userId) : all.all()).map(toInfo);
    },
    /** Marks a key dead and ends the dashboard sessions opened with it. Returns false when it was unknown or already dead. */
    revoke(id: string, now: number): boolean {
      return db
        .transaction(() => {
          if (revoke.run(now, 'revoked', null, id).changes !== 1) return false;
          endSessions.run(id);
          return true;
        })
        .immediate();
    },
    /** A new key for the same user, name and scope; the old one dies in the same transaction. */
    rotate(id: string, now: number): { apiKey: string; info: ApiKeyInfo } | null {
      return db
        .transaction(() => {
          const old = byId.get(id);
          if (!old || old.revoked_at !== null) return null;
          const fresh = create(old.user_id, old.name, now, old.scope);
          revoke.run(now, 'rotated', fresh.info.id, id);
          endSessions.run(id);
          return fresh;
        })
        .immediate();
    },
    /**
     * Checks a presented key. The secret is compared in constant time; a revoked or
     * rotated key is only reported as such when its secret matched, so the answer
     * reveals nothing to someone who merely guesses ids.
     */
    verify(presented: string, now: number): KeyCheck {
      const m = KEY_FORMAT.exec(presented);
      if (!m) return { ok: false, reason: 'malformed' };
      const row = byId.get(m[1] as string);
      const given = hashSecret(m[2] as string);
      const stored = row ? Buffer.from(row.secret_hash, 'hex') : Buffer.alloc(given.length);
      const equal = stored.length === given.length && timingSafeEqual(stored, given);
      if (!row || !equal) return { ok: false, reason: 'unknown' };
      if (row.revoked_at !== null) return { ok: false, reason: row.revoked_reason === 'rotated' ? 'rotated' : 'revoked' };
      const last = lastTouched.get(row.id) ?? row.last_used_at ?? 0;
      if (now - last >= LAST_USED_RESOLUTION_MS) {
        touch.run(now, row.id);
        lastTouched.set(row.id, now);
      }
      return { ok: true, keyId: row.id, userId: row.user_id, scope: row.scope };
    },
  };
}
