import type { DB } from './database';

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

/** Key/value settings, per user or 'global'. Values are JSON. */
export function createSettingsRepository(db: DB) {
  const get = db.prepare<[string, string], { value: string }>('SELECT value FROM settings WHERE scope = ? AND key = ?');
  const set = db.prepare(
    'INSERT INTO settings (scope, key, value) VALUES (?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value',
  );
  const del = db.prepare('DELETE FROM settings WHERE scope = ? AND key = ?');
  return {
    get<T>(scope: string, key: string): T | null {
      const r = get.get(scope, key);
      return r ? (JSON.parse(r.value) as T) : null;
    },
    set(scope: string, key: string, value: unknown): void {
      set.run(scope, key, JSON.stringify(value));
    },
    delete(scope: string, key: string): void {
      del.run(scope, key);
    },
  };
}
