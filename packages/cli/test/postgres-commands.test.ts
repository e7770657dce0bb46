import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@socialpub/daemon';
import { tempHome } from './helpers';

/**
 * The local commands over a data dir whose config.json names a PostgreSQL database (issue
 * 34, item 1): keys, connect --sandbox, connections and settings read and write PostgreSQL,
 * and no SQLite file appears in the data dir. The `postgres` project (vitest.config.ts postgresOnly).
 */
const home = tempHome();
afterAll(() => home.cleanup());

function schemaUrl(): string {
  const base = process.env.SOCIALPUB_TEST_POSTGRES_URL;
  if (!base) throw new Error('this suite runs in the postgres project (vitest.config.ts postgresOnly)');
  const u = new URL(base);
  u.searchParams.set('schema', `cli_${randomBytes(6).toString('hex')}`);
  return u.toString();
}

describe('local commands on PostgreSQL', () => {
  it('keys, connect --sandbox, connections and settings use the database config.json names, and make no SQLite file', async () => {
    const url = schemaUrl();
    mkdirSync(home.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(home.dataDir, 'config.json'), JSON.stringify({ database_url: url }), { mode: 0o600 });

    const key = await home.run('keys create --name pg --user pg@example.com --json');
    expect(key.code, key.stderr).toBe(0);
    const keyId = key.json<{ key_id: string }>().key_id;
    const connected = await home.run('connect twitter --sandbox --user pg@example.com --json');
    expect(connected.code, connected.stderr).toBe(0);
    const settings = await home.run('settings set approval-workflow on --user pg@example.com --json');
    expect(settings.code, settings.stderr).toBe(0);

    const keys = await home.run('keys list --json');
    expect(keys.code, keys.stderr).toBe(0);
    expect(JSON.stringify(keys.json())).toContain(keyId);
    const connections = await home.run('connections list --user pg@example.com --json');
    expect(connections.code, connections.stderr + connections.stdout).toBe(0);
    expect(JSON.stringify(connections.json())).toContain('"platform":"twitter"');
    const read = await home.run('settings get --user pg@example.com --json');
    expect(read.json<{ approval_workflow: boolean }>().approval_workflow).toBe(true);

    // What they wrote is in PostgreSQL, and the data dir holds no database file.
    const db = openDatabase(url);
    try {
      expect(db.prepare('SELECT id FROM api_keys').pluck().all()).toEqual([keyId]);
      expect(db.prepare("SELECT platform FROM connections WHERE mode = 'sandbox'").pluck().all()).toEqual(['twitter']);
      expect(db.prepare('SELECT approval_workflow FROM users WHERE email = ?').pluck().get('pg@example.com')).toBe(1);
    } finally {
      db.close();
    }
    expect(existsSync(join(home.dataDir, 'socialpub.db'))).toBe(false);
    expect(existsSync(join(home.dataDir, 'sandbox.db'))).toBe(false);
  });
});
