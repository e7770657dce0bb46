import type { DB } from './database';
import { newUserId } from '../util/ids';

export interface User {
  id: string;
  email: string;
  approvalWorkflow: boolean;
  /** Jobs created through MCP wait for a person's approval (default on for new users). */
  agentApproval: boolean;
  createdAt: number;
}

interface UserRow {
  id: string;
  email: string;
  approval_workflow: number;
  agent_approval: number;
  created_at: number;
}

const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  approvalWorkflow: r.approval_workflow === 1,
  agentApproval: r.agent_approval === 1,
  createdAt: r.created_at,
});

export type UsersRepository = ReturnType<typeof createUsersRepository>;

/** Users: a UUID, an email (unique, case-insensitive) and the approval-workflow setting. */
export function createUsersRepository(db: DB) {
  const byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE lower(email) = lower(?)');
  const all = db.prepare<[], UserRow>('SELECT * FROM users ORDER BY created_at, email');
  const insert = db.prepare('INSERT INTO users (id, email, approval_workflow, created_at) VALUES (?, ?, 0, ?)');
  const setApproval = db.prepare('UPDATE users SET approval_workflow = ? WHERE id = ?');
  const setAgentApproval = db.prepare('UPDATE users SET agent_approval = ? WHERE id = ?');

  return {
    get(id: string): User | null {
      const r = byId.get(id);
      return r ? toUser(r) : null;
    },
    findByEmail(email: string): User | null {
      const r = byEmail.get(email.trim());
      return r ? toUser(r) : null;
    },
    list(): User[] {
      return all.all().map(toUser);
    },
    /** The user with this email, created on first use. */
    ensure(email: string, now: number): { user: User; created: boolean } {
      const normalized = email.trim();
      const existing = byEmail.get(normalized);
      if (existing) return { user: toUser(existing), created: false };
      const id = newUserId();
      insert.run(id, normalized, now);
      return { user: toUser(byId.get(id) as UserRow), created: true };
    },
    setApprovalWorkflow(userId: string, on: boolean): void {
      setApproval.run(on ? 1 : 0, userId);
    },
    setAgentApproval(userId: string, on: boolean): void {
      setAgentApproval.run(on ? 1 : 0, userId);
    },
  };
}
