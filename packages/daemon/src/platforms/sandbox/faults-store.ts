import { SandboxFaultsSchema, type SandboxFaults } from '@socialpub/core';
import type { DB } from '../../store/database';

/** A user's own sandbox faults: settings, scope the user's id (PUT /sandbox/faults). */
export const SANDBOX_FAULTS_KEY = 'sandbox_faults';

const statements = new WeakMap<DB, { get: { get(scope: string, key: string): { value: string } | undefined } }>();

/**
 * The faults a user set for their sandbox connections ({} when none). Read on every
 * simulated call of theirs (one indexed row), so a change applies to the next call, also
 * in the simulator process, which reads the same database file.
 */
export function readUserSandboxFaults(db: DB, userId: string): SandboxFaults {
  let s = statements.get(db);
  if (!s) {
    s = { get: db.prepare<[string, string], { value: string }>('SELECT value FROM settings WHERE scope = ? AND key = ?') };
    statements.set(db, s);
  }
  const row = s.get.get(userId, SANDBOX_FAULTS_KEY);
  if (!row) return {};
  // Written only through the schema; anything else (a hand edit) counts as none rather than failing calls.
  const parsed = SandboxFaultsSchema.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : {};
}
