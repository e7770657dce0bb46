import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sandboxDbPath } from '@socialpub/daemon';
import { clearDaemonState, writeDaemonState } from '../src/local/daemon-files';
import { startTestDaemon, type TestDaemon } from './daemon-harness';

/** `socialpub db migrate-to` over a data dir a real daemon wrote (the `postgres` project: vitest.config.ts postgresOnly). */
let t: TestDaemon;
let url: string;
beforeAll(async () => {
  const base = process.env.SOCIALPUB_TEST_POSTGRES_URL;
  if (!base) throw new Error('this suite runs in the postgres project (vitest.config.ts postgresOnly)');
  const u = new URL(base);
  u.searchParams.set('schema', `cli_${randomBytes(6).toString('hex')}`);
  url = u.toString();
  t = await startTestDaemon();
  t.connect('twitter');
});
afterAll(async () => {
  await t.stop();
});

describe('socialpub db migrate-to', () => {
  it('refuses while the data dir’s daemon runs, then copies once it is stopped, and --use points the data dir at PostgreSQL', async () => {
    const published = await t.run(['publish', 'moved along', '-p', 'twitter', '--now', '--wait', '--json']);
    expect(published.code, published.stderr).toBe(0);
    const { job_id: jobId } = published.json<{ job_id: string }>();
    // The daemon of this data dir, as `socialpub up` records it.
    await writeDaemonState({ pid: process.pid, url: t.daemon.url, host: '127.0.0.1', port: t.daemon.port, started_at: new Date(0).toISOString(), data_dir: t.dataDir });
    const refused = await t.run(['db', 'migrate-to', url, '--json']);
    expect(refused.code).toBe(5);
    expect(refused.json<{ error: { code: string; message: string; hint: string } }>().error).toEqual({
      code: 'daemon_running',
      message: `the daemon of ${t.dataDir} is running (pid ${process.pid}, ${t.daemon.url}): stop it before copying its database`,
      hint: 'run `socialpub down` (or stop its service), then this command again',
      exit_code: 5,
    });

    await t.daemon.close();
    await clearDaemonState(t.dataDir, process.pid);
    const r = await t.run(['db', 'migrate-to', url, '--use']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^✔ copied \d+ rows of \d+ tables into postgres:\/\/.*; every table's count matches/);
    expect(r.stdout).toMatch(/^jobs\s+1$/m);
    expect(r.stdout).toMatch(/^api_keys\s+1$/m);
    expect(r.stdout).toContain(`database_url is written in ${join(t.dataDir, 'config.json')}`);
    expect(r.stderr).toContain('copying');
    expect((JSON.parse(readFileSync(join(t.dataDir, 'config.json'), 'utf8')) as { database_url: string }).database_url).toBe(url);

    // Every admin command follows config.json now: the key is on PostgreSQL, and the simulators' post in its sandbox schema.
    const keys = await t.run(['keys', 'list', '--json']);
    expect(keys.json<{ keys: { key_id: string }[] }>().keys.map((k) => k.key_id)).toEqual([t.key.key_id]);
    const sandbox = openDatabase(sandboxDbPath(t.dataDir, url));
    expect(sandbox.prepare("SELECT body FROM sandbox_posts WHERE platform = 'twitter'").pluck().all().join()).toContain('moved along');
    sandbox.close();
    const daemonDb = openDatabase(url);
    expect(daemonDb.prepare('SELECT status FROM jobs WHERE id = ?').pluck().get(jobId)).toBe('published');
    daemonDb.close();

    const again = await t.run(['db', 'migrate-to', url, '--json']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('config.json already names a PostgreSQL database (database_url): socialpub.db holds what the data dir had before that');
    expect(again.json<{ error: { message: string } }>().error.message).toMatch(/^the PostgreSQL database already holds socialpub data \(rows in api_keys, attempts, connections, /);
  });

  it('refuses what is not a PostgreSQL URL (exit 2)', async () => {
    const r = await t.run(['db', 'migrate-to', 'sqlite:///tmp/x.db', '--json']);
    expect(r.code).toBe(2);
    expect(r.json<{ error: { message: string } }>().error.message).toContain('the database URL must start with postgres://');
  });
});
