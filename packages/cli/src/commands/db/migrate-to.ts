import type { Ctx } from '../../context';
import { CliError, EXIT } from '../../errors';
import { isAlive, readPid } from '../../local/daemon-files';
import { runningDaemon } from '../../local/daemon-process';

/**
 * `socialpub db migrate-to <url> [--use]` (docs/scaling.md "Moving up from SQLite"): copies
 * the data dir's SQLite database into an empty PostgreSQL database, checks every table's
 * count, and says what to change so the daemon runs on it. Refused while the data dir's
 * daemon runs: what it wrote after the copy began would be left behind.
 */
export async function dbMigrateTo(ctx: Ctx, { url, use }: { url: string; use: boolean }): Promise<void> {
  const dataDir = await ctx.dataDir();
  const running = await runningDaemon(dataDir);
  const pid = running?.pid ?? (await readPid(dataDir));
  if (pid !== null && isAlive(pid)) {
    throw new CliError('daemon_running', `the daemon of ${dataDir} is running (pid ${pid}${running ? `, ${running.url}` : ''}): stop it before copying its database`, EXIT.conflict, {
      hint: 'run `socialpub down` (or stop its service), then this command again',
    });
  }
  const { migrateToPostgres, readConfigFile } = await import('@socialpub/daemon');
  const current = readConfigFile(dataDir).database_url;
  if (current) ctx.log.warn(`${dataDir}/config.json already names a PostgreSQL database (database_url): socialpub.db holds what the data dir had before that`);
  // One synchronous copy (a spinner would not turn): the tables with rows as they go in, on stderr.
  ctx.log.info(`copying ${dataDir}/socialpub.db into PostgreSQL in one transaction…`);
  const report = migrateToPostgres({ dataDir, databaseUrl: url, use, onTable: (db, t) => t.rows > 0 && ctx.log.info(`  ${db === 'sandbox' ? 'sandbox: ' : ''}${t.table} ${t.rows}`) });
  const rows = (tables: { rows: number }[]) => tables.reduce((n, t) => n + t.rows, 0);
  const next = use
    ? [`database_url is written in ${report.configFile}: start the daemon (\`socialpub up\`) and it runs on PostgreSQL`]
    : [
        `start the daemon on it: \`socialpub up --database '<url>'\` (remembered in ${report.configFile} as database_url),`,
        '  or set database_url there yourself, or SOCIALPUB_DATABASE_URL in the daemon\'s environment',
      ];
  next.push(
    `keep ${dataDir}: its secret.key opens the copied connections' tokens, and it holds the prepared media`,
    'socialpub.db is left as it was; remove it once the daemon runs well on PostgreSQL',
  );
  ctx.log.result(
    {
      database: report.database,
      tables: report.daemon.tables,
      sequences: report.daemon.sequences,
      sandbox: report.sandbox,
      config_file: report.configFile,
      config_written: report.configWritten,
      next,
    },
    () => [
      `${ctx.log.green('✔')} copied ${rows(report.daemon.tables)} rows of ${report.daemon.tables.length} tables into ${report.database}; every table's count matches`,
      ...ctx.log.table(
        report.daemon.tables.filter((t) => t.rows > 0),
        [
          { header: 'TABLE', value: (t) => t.table },
          { header: 'ROWS', value: (t) => String(t.rows) },
        ],
        'every table was empty',
      ),
      ...(report.sandbox ? [`${ctx.log.green('✔')} copied ${rows(report.sandbox.tables)} rows of the simulators' sandbox.db into schema ${report.sandbox.schema}`] : []),
      ...(report.daemon.sequences.length > 0 ? [`new ids continue after the copied ones: ${report.daemon.sequences.map((s) => `${s.table}.${s.column} at ${s.next}`).join(', ')}`] : []),
      '',
      'next:',
      ...next.map((l) => `  ${l}`),
    ],
  );
}
