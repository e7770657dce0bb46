import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@socialpub/daemon';
import { endDaemon, tempHome } from './helpers';

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

/** Starts `socialpub daemon run --port 0` in this process on `h`'s data dir; resolves once it is ready, with its URL (from its ready log line). */
async function runDaemon(h: ReturnType<typeof tempHome>) {
  const stop = new AbortController();
  let ready!: (url: string) => void;
  const url = new Promise<string>((resolve) => (ready = resolve));
  const done = h.run('daemon run --port 0', {
    stop: stop.signal,
    onStderr: (all) => {
      const line = all.split('\n').find((l) => l.includes('"msg":"socialpub daemon ready"'));
      if (line) ready((JSON.parse(line) as { url: string }).url);
    },
  });
  return { url: await Promise.race([url, done.then((r) => Promise.reject(new Error(`daemon run ended (exit ${r.code}): ${r.stderr}`)))]), stop: () => (stop.abort('SIGTERM'), done) };
}

describe('several daemons on one data dir', () => {
  it('starts a second `daemon run` on the data dir of a running one when the database is PostgreSQL (the systemd units of deploy/); daemon.json keeps naming the first', async () => {
    const h = tempHome();
    mkdirSync(h.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(h.dataDir, 'config.json'), JSON.stringify({ database_url: schemaUrl() }), { mode: 0o600 });
    const state = () => JSON.parse(readFileSync(join(h.dataDir, 'daemon.json'), 'utf8')) as { url: string };
    const first = await runDaemon(h);
    let firstStopped = false;
    try {
      expect(state().url).toBe(first.url);
      const second = await runDaemon(h);
      try {
        expect(second.url).not.toBe(first.url);
        // Both serve, and each sees the other alive in the shared database.
        for (const url of [first.url, second.url]) {
          const health = (await (await fetch(`${url}/healthz`)).json()) as { database: { kind: string }; daemons: { url: string }[] };
          expect(health.database.kind).toBe('postgres');
          expect(health.daemons.map((d) => d.url).sort()).toEqual([first.url, second.url].sort());
        }
        expect(state().url).toBe(first.url);
        // `daemon status` lists both, the second aligned under the first.
        const status = await h.run('daemon status');
        expect(status.code, status.stderr).toBe(0);
        const listed = status.stdout.split('\n').filter((l) => /http:\/\/127\.0\.0\.1:\d+ \(/.test(l) && !l.startsWith('daemon:'));
        expect(listed.map((l) => l.replace(/ \(.*$/, ''))).toEqual([`daemons:   ${first.url}`, `           ${second.url}`]);
      } finally {
        expect((await second.stop()).code).toBe(0);
      }
      // The second leaves the first's record alone.
      expect(state().url).toBe(first.url);
      firstStopped = true;
      expect((await first.stop()).code).toBe(0);
    } finally {
      if (!firstStopped) await first.stop();
    }
    expect(existsSync(join(h.dataDir, 'daemon.json'))).toBe(false);
    h.cleanup();
  }, 60_000);
});

describe('up --database on a data dir with SQLite data', () => {
  it('says before starting that the SQLite data stays behind and how to bring it along (db migrate-to), then starts on PostgreSQL; a second up says nothing', async () => {
    const h = tempHome();
    try {
      // SQLite data: a key made on the data dir before any database was named.
      const key = await h.run('keys create --name before --user sqlite@example.com --json');
      expect(key.code, key.stderr).toBe(0);
      const sqlite = join(h.dataDir, 'socialpub.db');
      expect(existsSync(sqlite)).toBe(true);

      const url = schemaUrl();
      const r = await h.run(['up', '--port', '0', '--database', url, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const warning = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      expect(warning).toEqual([
        `warning: ${sqlite} holds this data dir's posts, keys and connections on SQLite: they stay there, and the daemon starts on PostgreSQL without them. ` +
          "To bring them along: `socialpub down`, `socialpub db migrate-to <url> --use` into an empty database (or a new ?schema=: this one now holds the new daemon's key), then `socialpub up`",
      ]);
      // Not refused: the daemon runs on PostgreSQL, and says which SQLite file it left.
      const up = r.json<{ already_running: boolean; sqlite_left_behind: string | null; user: string }>();
      expect(up).toMatchObject({ already_running: false, sqlite_left_behind: sqlite, user: 'owner@localhost' });
      const status = await h.run('daemon status --json');
      expect(status.json<{ health: { database?: { kind: string } } }>().health.database?.kind).toBe('postgres');
      const db = openDatabase(url);
      try {
        expect(db.prepare('SELECT email FROM users').pluck().all()).toEqual(['owner@localhost']);
      } finally {
        db.close();
      }

      // The same URL again (config.json remembers it): no warning.
      const again = await h.run(['up', '--database', url, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('warning:');
      expect(again.json<{ sqlite_left_behind: string | null }>().sqlite_left_behind).toBeNull();
    } finally {
      await endDaemon(h.dataDir, () => h.run('down'));
      h.cleanup();
    }
  }, 60_000); // spawns the daemon from its sources (tsx): slow on a loaded machine
});
