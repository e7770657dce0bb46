import { createHash } from 'node:crypto';
import type { ReviewDecisionKind } from '@socialpub/core';
import type { DB } from './database';
import { newId, randomToken } from '../util/ids';

/** 43 base36 characters: about 222 bits; the token is the link's only secret. */
const TOKEN_LENGTH = 43;
const TOKEN_FORMAT = /^[0-9a-z]{43}$/;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ReviewLink {
  id: string;
  userId: string;
  jobIds: string[];
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface ReviewDecision {
  jobId: string;
  decision: ReviewDecisionKind;
  comment: string | null;
  decidedAt: number;
}

interface LinkRow {
  id: string;
  user_id: string;
  job_ids: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

const toLink = (r: LinkRow): ReviewLink => ({
  id: r.id,
  userId: r.user_id,
  jobIds: JSON.parse(r.job_ids) as string[],
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

export type ReviewLinkLookup = { ok: true; link: ReviewLink } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

export type ReviewLinksRepository = ReturnType<typeof createReviewLinksRepository>;

/** Review links (a token, stored as its sha256, granting the approve/reject decision on some jobs) and the decisions made through them. */
export function createReviewLinksRepository(db: DB) {
  const insert = db.prepare('INSERT INTO review_links (id, user_id, token_hash, job_ids, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)');
  const byId = db.prepare<[string], LinkRow>('SELECT id, user_id, job_ids, created_at, expires_at, revoked_at FROM review_links WHERE id = ?');
  const byHash = db.prepare<[string], LinkRow>('SELECT id, user_id, job_ids, created_at, expires_at, revoked_at FROM review_links WHERE token_hash = ?');
  // Keyset pages in the list's order (created_at, id descending): the rows after the cursor's.
  const byUserPage = db.prepare<[string, number, number, string, number], LinkRow>(
    'SELECT id, user_id, job_ids, created_at, expires_at, revoked_at FROM review_links WHERE user_id = ? AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const revoke = db.prepare('UPDATE review_links SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const insertDecision = db.prepare('INSERT INTO review_link_decisions (link_id, job_id, decision, comment, decided_at) VALUES (?, ?, ?, ?, ?)');
  const decisionsOf = db.prepare<[string], { job_id: string; decision: ReviewDecisionKind; comment: string | null; decided_at: number }>(
    'SELECT job_id, decision, comment, decided_at FROM review_link_decisions WHERE link_id = ? ORDER BY id',
  );

  return {
    /** A new link over `jobIds` (the token is only in the answer). */
    create(userId: string, jobIds: readonly string[], now: number, expiresAt: number): { token: string; link: ReviewLink } {
      const token = randomToken(TOKEN_LENGTH);
      const id = newId('rvl');
      insert.run(id, userId, hashToken(token), JSON.stringify(jobIds), now, expiresAt);
      return { token, link: toLink(byId.get(id) as LinkRow) };
    },
    get(id: string): ReviewLink | null {
      const r = byId.get(id);
      return r ? toLink(r) : null;
    },
    /** The user's links, newest first: `limit` of them after the link `after` (a link of this user), or null when `after` is not one. */
    list(userId: string, limit = Number.MAX_SAFE_INTEGER, after?: string): ReviewLink[] | null {
      if (after === undefined) return byUserPage.all(userId, Number.MAX_SAFE_INTEGER, 0, '', limit).map(toLink);
      const from = byId.get(after);
      if (!from || from.user_id !== userId) return null;
      return byUserPage.all(userId, from.created_at, from.created_at, from.id, limit).map(toLink);
    },
    /** The link a token opens, if it is still good at `now`. */
    open(token: string, now: number): ReviewLinkLookup {
      if (!TOKEN_FORMAT.test(token)) return { ok: false, reason: 'unknown' };
      const r = byHash.get(hashToken(token));
      if (!r) return { ok: false, reason: 'unknown' };
      if (r.revoked_at !== null) return { ok: false, reason: 'revoked' };
      if (now >= r.expires_at) return { ok: false, reason: 'expired' };
      return { ok: true, link: toLink(r) };
    },
    /** Ends a link. False when unknown or already revoked. */
    revoke(id: string, now: number): boolean {
      return revoke.run(now, id).changes === 1;
    },
    recordDecision(linkId: string, decision: ReviewDecision): void {
      insertDecision.run(linkId, decision.jobId, decision.decision, decision.comment, decision.decidedAt);
    },
    decisions(linkId: string): ReviewDecision[] {
      return decisionsOf.all(linkId).map((d) => ({ jobId: d.job_id, decision: d.decision, comment: d.comment, decidedAt: d.decided_at }));
    },
  };
}
