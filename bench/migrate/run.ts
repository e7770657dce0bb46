/**
 * `pnpm bench migrate`: how long `socialpub db migrate-to` takes to move a large SQLite data
 * dir into PostgreSQL (docs/scaling.md, "Moving up from SQLite"). Builds a data dir with
 * JOBS posts (2 targets each, an attempt per target, 4 events per post, a webhook message per
 * event) by SQL, starts a throwaway PostgreSQL cluster (scripts/postgres-cluster.ts, durable:
 * fsync on), and times migrateToPostgres: rows a second and the whole copy, checked counts
 * included. `--jobs=N` sets the size (default 50,000: 650,000 rows).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresCluster } from '../../scripts/postgres-cluster';
import { migrateToPostgres } from '../../packages/daemon/src/admin/migrate-to-postgres';
import { openDatabase } from '../../packages/daemon/src/store/database';

const jobs = Number(process.argv.find((a) => a.startsWith('--jobs='))?.slice(7) ?? 50_000);
const dir = mkdtempSync(join(tmpdir(), 'sp-bench-migrate-'));
const T0 = Date.UTC(2026, 10, 1);

function build(): number {
  const db = openDatabase(join(dir, 'socialpub.db'));
  db.transaction(() => {
    db.prepare("INSERT INTO users (id, email, created_at) VALUES ('usr_1', 'me@example.com', ?)").run(T0);
    db.prepare("INSERT INTO webhook_endpoints (id, user_id, url, event_types, secret_enc, created_at, updated_at) VALUES ('wh_1', 'usr_1', 'https://example.com/hook', '[\"*\"]', 'sealed', ?, ?)").run(T0, T0);
    const job = db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at, status) VALUES (?, 'usr_1', ?, '[\"twitter\",\"bluesky\"]', ?, ?, ?, ?)");
    const target = db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, attempts, post_id, updated_at) VALUES (?, ?, 'usr_1', ?, 'post', ?, ?, ?, ?, ?)");
    const attempt = db.prepare("INSERT INTO attempts (target_id, number, started_at, ended_at, outcome) VALUES (?, 1, ?, ?, 'published')");
    const event = db.prepare("INSERT INTO events (user_id, type, job_id, subject, data, created_at) VALUES ('usr_1', ?, ?, ?, '{}', ?)");
    for (let i = 0; i < jobs; i++) {
      const at = T0 + i * 1000;
      const done = i % 2 === 0;
      job.run(`job_${i}`, `post number ${i} with a caption of ordinary length, a link https://example.com/${i} and #tags`, at, at, at, done ? 'published' : 'scheduled');
      for (const p of ['twitter', 'bluesky']) {
        target.run(`tgt_${i}_${p}`, `job_${i}`, p, at, done ? 'published' : 'scheduled', done ? 1 : 0, done ? `post_${i}` : null, at);
        attempt.run(`tgt_${i}_${p}`, at, at + 300);
      }
      for (const type of ['post.accepted', 'target.publishing', 'target.published', 'post.finished']) event.run(type, `job_${i}`, `job_${i}`, at);
    }
  })();
  const rows = Number(db.prepare("SELECT (SELECT COUNT(*) FROM jobs) + (SELECT COUNT(*) FROM targets) + (SELECT COUNT(*) FROM attempts) + (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM webhook_messages)").pluck().get());
  db.close();
  return rows;
}

const started = performance.now();
const rows = build();
console.log(`built ${dir}/socialpub.db: ${jobs.toLocaleString('en')} posts, ${rows.toLocaleString('en')} rows, ${(statSync(join(dir, 'socialpub.db')).size / 1e6).toFixed(0)} MB (${((performance.now() - started) / 1000).toFixed(1)} s)`);
const cluster = await startPostgresCluster({ durable: true });
try {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const report = migrateToPostgres({ dataDir: dir, databaseUrl: cluster.url });
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  const copied = report.daemon.tables.reduce((n, x) => n + x.rows, 0);
  console.log(`migrate-to: ${copied.toLocaleString('en')} rows in ${seconds.toFixed(1)} s (${Math.round(copied / seconds).toLocaleString('en')} rows/s), this process's CPU ${((used.user + used.system) / 1e6).toFixed(1)} s`);
  for (const x of report.daemon.tables.filter((x) => x.rows > 0)) console.log(`  ${x.table.padEnd(18)} ${x.rows.toLocaleString('en')}`);
  console.log(`  sequences: ${report.daemon.sequences.map((s) => `${s.table}.${s.column} -> ${s.next}`).join(', ')}`);
} finally {
  cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
