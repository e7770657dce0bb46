import { createHash, createHmac } from 'node:crypto';
import type { DB } from './database';
import { newId, randomToken } from '../util/ids';

/** A sign-in link lives 10 minutes and works once. */
export const SIGNIN_LINK_TTL_MS = 10 * 60_000;
/** A session lives 12 hours after its last use (sliding). */
export const SESSION_TTL_MS = 12 * 3_600_000;
/** The expiry is pushed forward at most once a minute per session: a write per request would cost a write per read. */
const SLIDE_RESOLUTION_MS = 60_000;

/** 50 base36 characters: about 258 bits. */
const TOKEN_LENGTH = 50;
const SIGNIN_FORMAT = /^spl_[0-9a-z]{50}$/;
const SESSION_FORMAT = /^sps_[0-9a-z]{50}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface DashboardSession {
  id: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  /** The API key it was signed in with; null for the one-time link (`socialpub dashboard`). Revoking or rotating the key ends it. */
  keyId: string | null;
  /** The anti-CSRF token of the session: derived from the cookie's secret, never stored. */
  csrfToken: string;
}

interface SessionRow {
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  key_id: string | null;
}

/** An open session as Settings lists it (never its token). */
export interface OpenSession {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  keyId: string | null;
}

/** The CSRF token a session's cookie implies (HMAC of a fixed label under the cookie's token): only a holder of the cookie's value can compute it, and the page reads it from GET /auth/session. */
const csrfOf = (token: string) => createHmac('sha256', token).update('socialpub dashboard csrf').digest('base64url');

export type SigninConsume = { ok: true; userId: string } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

export type DashboardSessionsRepository = ReturnType<typeof createDashboardSessionsRepository>;

/** One-time sign-in links and the dashboard's sessions, both stored as sha256 of their token only. */
export function createDashboardSessionsRepository(db: DB) {
  const insertLink = db.prepare('INSERT INTO signin_links (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)');
  const linkByHash = db.prepare<[string], { user_id: string; expires_at: number; used_at: number | null }>(
    'SELECT user_id, expires_at, used_at FROM signin_links WHERE token_hash = ?',
  );
  const useLink = db.prepare('UPDATE signin_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL');
  const insertSession = db.prepare(
    'INSERT INTO dashboard_sessions (id, user_id, token_hash, created_at, expires_at, last_seen_at, key_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const sessionByHash = db.prepare<[string], SessionRow>('SELECT id, user_id, created_at, expires_at, last_seen_at, key_id FROM dashboard_sessions WHERE token_hash = ?');
  const sessionsOfUser = db.prepare<[string, number], SessionRow>(
    'SELECT id, user_id, created_at, expires_at, last_seen_at, key_id FROM dashboard_sessions WHERE user_id = ? AND expires_at > ? ORDER BY created_at, id',
  );
  const deleteById = db.prepare('DELETE FROM dashboard_sessions WHERE id = ? AND user_id = ?');
  const slide = db.prepare('UPDATE dashboard_sessions SET expires_at = ?, last_seen_at = ? WHERE id = ?');
  const deleteSession = db.prepare('DELETE FROM dashboard_sessions WHERE token_hash = ?');
  const expiryById = db.prepare<[string], { expires_at: number }>('SELECT expires_at FROM dashboard_sessions WHERE id = ?');
  const pruneSessions = db.prepare('DELETE FROM dashboard_sessions WHERE expires_at <= ?');
  // A used link is kept until it expires, so a second use says "used" rather than "unknown".
  const pruneLinks = db.prepare('DELETE FROM signin_links WHERE expires_at <= ?');

  return {
    /** A new one-time sign-in token for the user (the only copy is in the answer). */
    createSigninLink(userId: string, now: number): { token: string; expiresAt: number } {
      const token = `spl_${randomToken(TOKEN_LENGTH)}`;
      const expiresAt = now + SIGNIN_LINK_TTL_MS;
      insertLink.run(hashToken(token), userId, now, expiresAt);
      return { token, expiresAt };
    },
    /** Uses a sign-in token up: only the first call for a live token succeeds. Run it in a transaction with the session it opens. */
    consumeSigninLink(token: string, now: number): SigninConsume {
      if (!SIGNIN_FORMAT.test(token)) return { ok: false, reason: 'unknown' };
      const hash = hashToken(token);
      const row = linkByHash.get(hash);
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.used_at !== null) return { ok: false, reason: 'used' };
      if (now >= row.expires_at) return { ok: false, reason: 'expired' };
      if (useLink.run(now, hash).changes !== 1) return { ok: false, reason: 'used' };
      return { ok: true, userId: row.user_id };
    },
    /** A new session; `token` is the cookie's value (only its hash is stored); `keyId`: the API key it was signed in with, if any. */
    createSession(userId: string, now: number, keyId: string | null = null): { token: string; session: DashboardSession } {
      const token = `sps_${randomToken(TOKEN_LENGTH)}`;
      const id = newId('ses');
      const expiresAt = now + SESSION_TTL_MS;
      insertSession.run(id, userId, hashToken(token), now, expiresAt, now, keyId);
      return { token, session: { id, userId, createdAt: now, expiresAt, keyId, csrfToken: csrfOf(token) } };
    },
    /** The user's live sessions, oldest first. */
    listSessions(userId: string, now: number): OpenSession[] {
      return sessionsOfUser.all(userId, now).map((r) => ({ id: r.id, createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at, keyId: r.key_id }));
    },
    /** Ends one of the user's sessions by id (Settings); false when it is not the user's or already gone. */
    endSession(userId: string, id: string): boolean {
      return deleteById.run(id, userId).changes === 1;
    },
    /** The live session of a cookie value, its expiry slid forward; null when unknown or expired. */
    findSession(token: string, now: number): DashboardSession | null {
      if (!SESSION_FORMAT.test(token)) return null;
      const row = sessionByHash.get(hashToken(token));
      if (!row || now >= row.expires_at) return null;
      let expiresAt = row.expires_at;
      if (now - row.last_seen_at >= SLIDE_RESOLUTION_MS) {
        expiresAt = now + SESSION_TTL_MS;
        slide.run(expiresAt, now, row.id);
      }
      return { id: row.id, userId: row.user_id, createdAt: row.created_at, expiresAt, keyId: row.key_id, csrfToken: csrfOf(token) };
    },
    /** Whether a session (by id) still exists and has not expired: long requests (an SSE stream) ask again as they go. */
    isLive(id: string, now: number): boolean {
      const r = expiryById.get(id);
      return r !== undefined && now < r.expires_at;
    },
    /** Ends the session of a cookie value (sign-out). */
    deleteSession(token: string): boolean {
      return deleteSession.run(hashToken(token)).changes === 1;
    },
    /** Drops expired sessions and sign-in links. */
    prune(now: number): void {
      pruneSessions.run(now);
      pruneLinks.run(now);
    },
  };
}
