import type { DB } from './database';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface IdempotencyRecord {
  bodyHash: string;
  status: number;
  response: string;
  createdAt: number;
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;

/** First answers to requests that carried an Idempotency-Key, per user and route, for 24 h. */
export function createIdempotencyRepository(db: DB) {
  const get = db.prepare<[string, string, string], { body_hash: string; status: number; response: string; created_at: number }>(
    'SELECT body_hash, status, response, created_at FROM idempotency_keys WHERE user_id = ? AND route = ? AND key = ?',
  );
  // A record older than 24 h no longer binds its key, so a new request may take it over; a
  // live one is never replaced: the insert then changes nothing (another daemon answered
  // the same key first, between this one's look-up and its commit).
  const put = db.prepare(
    `INSERT INTO idempotency_keys (user_id, route, key, body_hash, status, response, created_at) VALUES (@userId, @route, @key, @bodyHash, @status, @response, @createdAt)
     ON CONFLICT (user_id, route, key) DO UPDATE SET body_hash = excluded.body_hash, status = excluded.status, response = excluded.response, created_at = excluded.created_at
     WHERE idempotency_keys.created_at <= @expiredBefore`,
  );
  const prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  return {
    /** The live record for this key, or null (none, or older than 24 h). */
    find(userId: string, route: string, key: string, now: number): IdempotencyRecord | null {
      const r = get.get(userId, route, key);
      if (!r || r.created_at <= now - IDEMPOTENCY_TTL_MS) return null;
      return { bodyHash: r.body_hash, status: r.status, response: r.response, createdAt: r.created_at };
    },
    /** Stores the answer to a key; false when a live record of it exists already (nothing written). */
    save(userId: string, route: string, key: string, rec: IdempotencyRecord): boolean {
      return put.run({ userId, route, key, ...rec, expiredBefore: rec.createdAt - IDEMPOTENCY_TTL_MS }).changes === 1;
    },
    prune(now: number): number {
      return prune.run(now - IDEMPOTENCY_TTL_MS).changes;
    },
  };
}
