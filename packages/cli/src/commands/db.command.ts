import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub db migrate-to <url>`: the data dir's database moved to PostgreSQL (local admin). */
export function defineDb(program: Program, kit: Kit): void {
  const db = examples(program.command('db').description("the data dir's database (local admin)"), ['socialpub db migrate-to postgres://socialpub@db.internal/socialpub --use']);
  examples(
    db
      .command('migrate-to')
      .description("copy the data dir's SQLite database (and the simulators' sandbox.db) into an empty PostgreSQL database; the daemon must be stopped")
      .argument('<url>', 'postgres://user:password@host:port/database (?schema=name for a schema other than public); the password may come from PGPASSWORD instead')
      .option('--use', "also write database_url into the data dir's config.json, so the next start runs on PostgreSQL")
      .action(async (url, o) => (await import('./db/migrate-to')).dbMigrateTo(kit.ctx(), { url, use: o.use === true })),
    ['socialpub db migrate-to postgres://socialpub@127.0.0.1/socialpub', 'socialpub db migrate-to "postgres://socialpub@db.internal/socialpub?schema=acme" --use --json'],
  );
}
