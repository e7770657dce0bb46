import type { DB } from './database';

/** A saved Compose form (the dashboard's draft): its content as the JSON text it was given. */
export interface Draft {
  id: string;
  userId: string;
  content: string;
  createdAt: number;
  updatedAt: number;
}

interface DraftRow {
  id: string;
  user_id: string;
  content: string;
  created_at: number;
  updated_at: number;
}

const toDraft = (r: DraftRow): Draft => ({ id: r.id, userId: r.user_id, content: r.content, createdAt: r.created_at, updatedAt: r.updated_at });

export type DraftsRepository = ReturnType<typeof createDraftsRepository>;

/** Drafts (migration 230): one user's, newest change first; every write is fenced on the owner. */
export function createDraftsRepository(db: DB) {
  const insert = db.prepare('INSERT INTO drafts (id, user_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const update = db.prepare<[string, number, string, string], DraftRow>(
    'UPDATE drafts SET content = ?, updated_at = ? WHERE id = ? AND user_id = ? RETURNING id, user_id, content, created_at, updated_at',
  );
  const remove = db.prepare('DELETE FROM drafts WHERE id = ? AND user_id = ?');
  const list = db.prepare<[string, number], DraftRow>('SELECT id, user_id, content, created_at, updated_at FROM drafts WHERE user_id = ? ORDER BY updated_at DESC, id DESC LIMIT ?');
  const count = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM drafts WHERE user_id = ?');
  return {
    create(draft: Draft): Draft {
      insert.run(draft.id, draft.userId, draft.content, draft.createdAt, draft.updatedAt);
      return draft;
    },
    /** The user's draft with new content, or null when the user has no such draft. */
    update(userId: string, id: string, content: string, now: number): Draft | null {
      const row = update.get(content, now, id, userId);
      return row ? toDraft(row) : null;
    },
    /** Whether the user had that draft. */
    remove(userId: string, id: string): boolean {
      return remove.run(id, userId).changes === 1;
    },
    list(userId: string, limit: number): Draft[] {
      return list.all(userId, limit).map(toDraft);
    },
    count(userId: string): number {
      // PostgreSQL answers COUNT(*) as a BIGINT string.
      return Number(count.get(userId)?.n ?? 0);
    },
  };
}
