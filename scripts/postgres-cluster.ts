/**
 * A throwaway PostgreSQL cluster on a free loopback port, for the test suites and the
 * benchmarks (issue 34): initdb into a temporary directory, pg_ctl start, and stop + delete
 * at the end. PostgreSQL refuses to run as root, so as root the cluster belongs to the
 * `postgres` user (Debian's package creates it) and its commands run through runuser.
 * Durability is off (fsync) because the cluster is thrown away; the benchmarks that compare
 * with SQLite say so. Fails with the reason when it cannot start: no test is skipped for it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** The cluster's data directory (postmaster.pid names the server process). */
  dataDir: string;
  stop(): void;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions[0]) return join(root, versions[0], 'bin');
  throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/initdb): apt-get install -y postgresql');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPostgresCluster(opts: { maxConnections?: number; durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'socialpub-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (cmd: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C']);
  } catch (e) {
    throw new Error(`initdb failed: ${(e as { stderr?: Buffer }).stderr?.toString() ?? e}`, { cause: e });
  }
  const settings = [
    '-c listen_addresses=127.0.0.1',
    `-k ${dir}`,
    `-c max_connections=${opts.maxConnections ?? 400}`,
    ...(opts.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ];
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', `-p ${port} ${settings.join(' ')}`, 'start']);
    } catch (e) {
      if (attempt < 2) continue;
      throw new Error(`PostgreSQL did not start: ${(e as { stderr?: Buffer }).stderr?.toString() ?? e}`, { cause: e });
    }
    let stopped = false;
    // A runner that exits without its teardown (killed by a timeout, an error) leaves no server behind.
    process.once('exit', () => stop());
    const stop = () => {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already gone
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dataDir: data,
      stop,
    };
  }
}
