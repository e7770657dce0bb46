import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { API_PREFIX } from '@socialpub/core';
import type { Ctx } from '../context';
import { withAdmin } from '../local/admin';
import { CliError, EXIT } from '../errors';
import { runningDaemon, startBackground, type StartFlags } from '../local/daemon-process';
import { daemonPaths } from '../local/daemon-files';
import { maskKey } from './config';

/**
 * `socialpub up`: from nothing to a running daemon and a working key. First run: creates
 * the data dir, the user and a key, starts the daemon in the background, saves base URL
 * and key in the CLI config. Later runs: report it is already running (and repair the
 * saved key if it no longer works).
 */
export async function up(ctx: Ctx, flags: StartFlags & { user?: string | undefined }): Promise<void> {
  const dataDir = await ctx.dataDir();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const config = await ctx.config();

  let state = await runningDaemon(dataDir);
  const alreadyRunning = state !== null;
  if (state && flags.database) await refuseOtherDatabase(dataDir, state, flags.database);
  // Said before the daemon starts on PostgreSQL: the data dir's SQLite data does not come along.
  const leftBehind = !state && flags.database ? await sqliteLeftBehind(dataDir, flags.database) : null;
  if (leftBehind) {
    ctx.log.warn(
      `${leftBehind} holds this data dir's posts, keys and connections on SQLite: they stay there, and the daemon starts on PostgreSQL without them. ` +
        'To bring them along: `socialpub down`, `socialpub db migrate-to <url> --use` into an empty database (or a new ?schema=: this one now holds the new daemon\'s key), then `socialpub up`',
    );
  }
  if (!state) {
    const spinner = (await ctx.spinner()).start('starting the daemon');
    try {
      const started = await startBackground(ctx.io, dataDir, flags);
      state = { ...started, health: {} };
      spinner.succeed(`daemon running at ${started.url} (pid ${started.pid})`);
    } catch (err) {
      spinner.fail('the daemon did not start');
      throw err;
    }
  }

  // The key in use (flag, env or config) if the daemon accepts it; otherwise a new one, saved.
  const current = ctx.opts.apiKey ?? ctx.io.env.SOCIALPUB_API_KEY ?? config.get('api-key');
  let keyCreated = false;
  let email: string | null = current ? await whoseKey(state.url, current) : null;
  let key = current;
  if (!email) {
    const created = await withAdmin(dataDir, (admin) => admin.createKey({ ...(flags.user ? { email: flags.user } : {}), name: 'socialpub up' }));
    key = created.api_key;
    email = created.email;
    keyCreated = true;
    await config.set('api-key', key as string);
  }
  await config.set('base-url', state.url);
  await config.set('data-dir', dataDir);

  const data = {
    already_running: alreadyRunning,
    url: state.url,
    pid: state.pid,
    data_dir: dataDir,
    user: email,
    key_created: keyCreated,
    key_prefix: maskKey(key as string),
    config_path: config.path,
    log: daemonPaths(dataDir).log,
    // Added: the SQLite database `--database` left behind (the warning above), else null.
    sqlite_left_behind: leftBehind,
  };
  ctx.log.result(data, () => [
    alreadyRunning ? `${ctx.log.green('✔')} socialpub is already running at ${state.url} (pid ${state.pid})` : `${ctx.log.green('✔')} socialpub is up at ${state.url}`,
    ...ctx.log.fields([
      ['data dir', dataDir],
      ['user', email as string],
      ['key', `${maskKey(key as string)} ${keyCreated ? 'created and ' : ''}saved in ${config.path}`],
      ['log', daemonPaths(dataDir).log],
    ]),
    '',
    ctx.log.bold('Next:'),
    `  socialpub connect twitter --sandbox            ${ctx.log.dim('# a simulated account, no sign-up')}`,
    `  socialpub publish "hello" -p twitter --now --wait`,
    `  socialpub schedule list`,
    `  socialpub down                                 ${ctx.log.dim('# stop the daemon')}`,
  ]);
}

/** The key's user email, or null when the daemon refuses it. */
async function whoseKey(url: string, key: string): Promise<string | null> {
  try {
    const res = await fetch(`${url}${API_PREFIX}/auth/validate`, { method: 'POST', headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(5000) });
    if (!res.ok) return null;
    const body = (await res.json()) as { user?: { email?: string } };
    return body.user?.email ?? null;
  } catch {
    return null;
  }
}

/**
 * The data dir's SQLite database when `up --database URL` moves the data dir onto PostgreSQL
 * from it (socialpub.db exists and config.json does not already name that URL: a data dir
 * already moved is not warned about again), else null. Its data is not copied: only
 * `socialpub db migrate-to` does that (docs/scaling.md "Moving up from SQLite").
 */
async function sqliteLeftBehind(dataDir: string, url: string): Promise<string | null> {
  const { readConfigFile } = await import('@socialpub/daemon');
  if (readConfigFile(dataDir).database_url === url) return null;
  const file = join(dataDir, 'socialpub.db');
  return existsSync(file) ? file : null;
}

/**
 * `up --database URL` with the data dir's daemon already running: it keeps the database it
 * started on, so a URL it does not use is refused (exit 5) rather than reported as running
 * — a newcomer switching to PostgreSQL was told "already running" and went on writing to
 * SQLite. The same URL (the one config.json remembers, on a daemon on PostgreSQL) is fine.
 */
async function refuseOtherDatabase(dataDir: string, state: { pid: number; url: string; health: Record<string, unknown> }, url: string): Promise<void> {
  const kind = (state.health.database as { kind?: string } | undefined)?.kind;
  const { readConfigFile } = await import('@socialpub/daemon');
  if (kind === 'postgres' && readConfigFile(dataDir).database_url === url) return;
  const on = kind === 'sqlite' ? 'SQLite (socialpub.db in the data dir)' : 'another database';
  throw new CliError('daemon_running', `the daemon of ${dataDir} is already running (pid ${state.pid}, ${state.url}) on ${on}: --database was not applied`, EXIT.conflict, {
    hint: 'stop it with `socialpub down`, then run this command again; `socialpub db migrate-to <url>` in between copies its posts, keys and connections into PostgreSQL',
  });
}
