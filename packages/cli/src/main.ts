import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { Io } from './io';
import { Ctx, type GlobalOptions } from './context';
import { EXIT, toFailure, type Failure } from './errors';
import { Logger } from './ui/logger';
import { VERSION } from './version';

type Action = (ctx: Ctx, args: string[], opts: Record<string, unknown>) => Promise<void>;

const collect = (value: string, previous: string[] = []) => [...previous, value];

function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/**
 * Builds the whole command tree. Definitions are cheap (commander only); each action
 * `import()`s its command module, so `socialpub --help` never loads the SDK, the daemon,
 * prompts or spinners.
 */
export function buildProgram(io: Io): Command {
  const act =
    (fn: Action) =>
    async (...raw: unknown[]) => {
      const command = raw.at(-1) as Command;
      const opts = command.optsWithGlobals<Record<string, unknown>>();
      const ctx = new Ctx(io, globalsFrom(opts));
      await fn(ctx, raw.slice(0, -2).flat() as string[], opts);
    };

  const program = new Command('socialpub')
    .description('Self-hosted social publishing: run the daemon, connect accounts, publish and schedule.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--json', 'print data only, as JSON (errors too)')
    .option('--base-url <url>', 'daemon address (env SOCIALPUB_BASE_URL)')
    .option('--api-key <key>', 'API key (env SOCIALPUB_API_KEY)')
    .option('--data-dir <dir>', 'data directory for local admin and the daemon (env SOCIALPUB_HOME)')
    .option('--no-color', 'no colours (also NO_COLOR=1)')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Usage errors are printed by runCli (human or JSON), not by commander.
      outputError: () => undefined,
    });
  examples(program, [
    './scripts/setup && bin/socialpub up',
    'socialpub connect twitter --sandbox',
    'socialpub publish "hello" -p twitter --now --wait',
    'socialpub schedule list --json | jq ".posts[].job_id"',
  ]);
  program.addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 error, 2 usage, 3 auth, 4 not found, 5 conflict, 6 rate limited,\n' +
      '7 daemon unreachable, 8 finished but not everything succeeded, 130 interrupted.\n' +
      'Docs: docs/cli.md\n',
  );

  // ---- daemon lifecycle ------------------------------------------------------------
  const hostPort = (c: Command) =>
    c
      .option('--host <host>', 'address to listen on (env SOCIALPUB_HOST; default 127.0.0.1)')
      .option('--port <port>', 'port to listen on, 0 for any free one (env SOCIALPUB_PORT; default 8787)', parsePort)
      .option('--public-url <url>', 'public base URL for prepared media (env SOCIALPUB_PUBLIC_URL)');

  examples(
    hostPort(program.command('up').description('first run: create the data dir, a user and a key, start the daemon, save the key'))
      .option('--user <email>', 'email of the user the key belongs to (default: the only user, or owner@localhost)')
      .action(act(async (ctx, _a, o) => (await import('./commands/up')).up(ctx, daemonFlags(o, true)))),
    ['socialpub up', 'socialpub up --port 9000 --data-dir ./data'],
  );
  examples(
    program
      .command('down')
      .description('stop the background daemon')
      .action(act(async (ctx) => (await import('./commands/daemon/stop')).daemonStop(ctx))),
    ['socialpub down'],
  );

  const daemon = program.command('daemon').description('start, stop, inspect or run the daemon');
  examples(
    hostPort(daemon.command('start').description('start the daemon in the background')).action(
      act(async (ctx, _a, o) => (await import('./commands/daemon/start')).daemonStart(ctx, daemonFlags(o, false))),
    ),
    ['socialpub daemon start', 'socialpub daemon start --port 9000'],
  );
  examples(
    daemon
      .command('stop')
      .description('stop the background daemon (SIGTERM, then SIGKILL after 10 s)')
      .action(act(async (ctx) => (await import('./commands/daemon/stop')).daemonStop(ctx))),
    ['socialpub daemon stop'],
  );
  examples(
    daemon
      .command('status')
      .description('is it running, where, and how is its scheduler')
      .action(act(async (ctx) => (await import('./commands/daemon/status')).daemonStatus(ctx))),
    ['socialpub daemon status', 'socialpub daemon status --json'],
  );
  examples(
    daemon
      .command('logs')
      .description("print the background daemon's log")
      .option('-n, --lines <n>', 'last N lines', parseCount, 50)
      .option('-f, --follow', 'keep printing new lines until Ctrl-C')
      .action(
        act(async (ctx, _a, o) => (await import('./commands/daemon/logs')).daemonLogs(ctx, { lines: o.lines as number, follow: Boolean(o.follow) })),
      ),
    ['socialpub daemon logs -n 100', 'socialpub daemon logs --follow'],
  );
  examples(
    hostPort(daemon.command('run').description('run the daemon in the foreground (logs to stderr; Ctrl-C stops it cleanly)'))
      .option('--behind-proxy', 'listen on a non-loopback address behind a TLS proxy (requires X-Forwarded-Proto: https)')
      .option('--tls-cert <file>', 'TLS certificate (for a non-loopback address)')
      .option('--tls-key <file>', 'TLS private key')
      .action(act(async (ctx, _a, o) => (await import('./commands/daemon/run')).daemonRun(ctx, daemonFlags(o, false)))),
    ['socialpub daemon run', 'socialpub daemon run --host 0.0.0.0 --port 443 --tls-cert cert.pem --tls-key key.pem'],
  );

  // ---- local admin -----------------------------------------------------------------
  const keys = program.command('keys').description('API keys (local admin on the data dir)');
  examples(
    keys
      .command('create')
      .description('create a key (and the user, if new); the full key is printed once')
      .option('--user <email>', 'the user the key belongs to (default: the only user, or owner@localhost)')
      .option('--name <name>', 'a label for the key')
      .action(act(async (ctx, _a, o) => (await import('./commands/keys/create')).keysCreate(ctx, { user: o.user as string | undefined, name: o.name as string | undefined }))),
    ['socialpub keys create', 'socialpub keys create --user ana@example.com --name laptop --json'],
  );
  examples(
    keys
      .command('list')
      .description('list keys (never the secrets)')
      .option('--user <email>', 'only this user')
      .action(act(async (ctx, _a, o) => (await import('./commands/keys/list')).keysList(ctx, { user: o.user as string | undefined }))),
    ['socialpub keys list', 'socialpub keys list --json'],
  );
  examples(
    keys
      .command('revoke')
      .description('revoke a key: it is refused from now on')
      .argument('<key_id>', 'the key id (key_…)')
      .action(act(async (ctx, [id]) => (await import('./commands/keys/revoke')).keysRevoke(ctx, { keyId: id as string }))),
    ['socialpub keys revoke key_abc123'],
  );
  examples(
    keys
      .command('rotate')
      .description('replace a key with a new one; the old one stops working at once')
      .argument('<key_id>', 'the key id (key_…)')
      .option('--save', 'also save the new key in the CLI config')
      .action(act(async (ctx, [id], o) => (await import('./commands/keys/rotate')).keysRotate(ctx, { keyId: id as string, save: Boolean(o.save) }))),
    ['socialpub keys rotate key_abc123 --save'],
  );

  examples(
    program
      .command('connect')
      .description('connect a platform account: a sandbox (simulator) or the real platform through OAuth')
      .argument('<platform>', 'instagram, facebook, twitter, threads, tiktok or youtube')
      .option('--sandbox', "connect the platform's simulator served by the daemon")
      .option('--user <email>', 'the user the connection belongs to (default: the only user)')
      .option('--client-id <id>', 'live: your app id / client id / client key (prompted when missing)')
      .option('--client-secret <secret>', 'live: your app secret / client secret (prompted when missing)')
      .option('--redirect-uri <uri>', 'live: the redirect URI registered in your app (default http://localhost:8765/callback or http://127.0.0.1:8765/callback)')
      .option('--page <id>', 'facebook (and instagram via facebook): the page to publish to (asked when several)')
      .option('--login <kind>', 'instagram: instagram (Instagram Login, default) or facebook (through a Facebook page)')
      .option('--consumer-key <key>', 'twitter OAuth 1.0a: the app API key')
      .option('--consumer-secret <secret>', 'twitter OAuth 1.0a: the app API key secret')
      .option('--access-token <token>', 'twitter OAuth 1.0a: your access token')
      .option('--access-secret <secret>', 'twitter OAuth 1.0a: your access token secret')
      .option('--no-browser', 'print the authorization URL instead of opening a browser')
      .action(
        act(async (ctx, [platform], o) =>
          (await import('./commands/connect')).connect(ctx, {
            platform: platform as string,
            sandbox: Boolean(o.sandbox),
            user: o.user as string | undefined,
            clientId: o.clientId as string | undefined,
            clientSecret: o.clientSecret as string | undefined,
            page: o.page as string | undefined,
            login: o.login as string | undefined,
            redirectUri: o.redirectUri as string | undefined,
            consumerKey: o.consumerKey as string | undefined,
            consumerSecret: o.consumerSecret as string | undefined,
            accessToken: o.accessToken as string | undefined,
            accessSecret: o.accessSecret as string | undefined,
            browser: o.browser !== false,
          }),
        ),
      ),
    [
      'socialpub connect twitter --sandbox',
      'socialpub connect facebook --sandbox --user ana@example.com',
      'socialpub connect instagram --client-id 123456 --client-secret s3cr3t',
      'socialpub connect twitter --consumer-key K --consumer-secret S --access-token T --access-secret TS',
    ],
  );
  const connections = program.command('connections').description('platform connections (local admin)');
  examples(
    connections
      .command('list')
      .description('list connections with their mode, account and status')
      .option('--user <email>', 'the user (default: the only user)')
      .action(act(async (ctx, _a, o) => (await import('./commands/connections/list')).connectionsList(ctx, { user: o.user as string | undefined }))),
    ['socialpub connections list', 'socialpub connections list --json'],
  );
  examples(
    connections
      .command('remove')
      .description('remove the connection to a platform')
      .argument('<platform>', 'the platform')
      .option('--user <email>', 'the user (default: the only user)')
      .action(
        act(async (ctx, [platform], o) => (await import('./commands/connections/remove')).connectionsRemove(ctx, { platform: platform as string, user: o.user as string | undefined })),
      ),
    ['socialpub connections remove twitter'],
  );

  const settings = program.command('settings').description("a user's settings (local admin)");
  examples(
    settings
      .command('set')
      .description('change a setting: approval-workflow on|off holds every new job for approval')
      .argument('<name>', 'approval-workflow')
      .argument('<value>', 'on or off')
      .option('--user <email>', 'the user (default: the only user)')
      .action(
        act(async (ctx, [name, value], o) =>
          (await import('./commands/settings/set')).settingsSet(ctx, { name: name as string, value: value as string, user: o.user as string | undefined }),
        ),
      ),
    ['socialpub settings set approval-workflow on', 'socialpub settings set approval-workflow off --user ana@example.com'],
  );

  const sandbox = program.command('sandbox').description('what the platform simulators received');
  examples(
    sandbox
      .command('posts')
      .description('list posts the simulators received (the dry-run view)')
      .option('--platform <platform>', 'only this platform')
      .action(act(async (ctx, _a, o) => (await import('./commands/sandbox/posts')).sandboxPosts(ctx, { platform: o.platform as string | undefined }))),
    ['socialpub sandbox posts', 'socialpub sandbox posts --platform twitter --json'],
  );
  examples(
    sandbox
      .command('endpoints')
      .description("each simulated host's own loopback origin, for pointing a platform's own client at the simulator")
      .action(act(async (ctx) => (await import('./commands/sandbox/endpoints')).sandboxEndpoints(ctx))),
    ['socialpub sandbox endpoints', 'socialpub sandbox endpoints --json'],
  );

  // ---- publishing (through the SDK) ---------------------------------------------------
  examples(
    program
      .command('publish')
      .description('publish now or schedule; asks for what is missing when run in a terminal')
      .argument('[caption]', 'the caption (default for every platform)')
      .option('-p, --platforms <list>', 'comma-separated platforms, e.g. instagram,twitter')
      .option('--caption-for <platform=text>', 'a caption for one platform (repeatable)', collect)
      .option('--type <platform=types>', 'content types for a platform, e.g. instagram=story,feed (repeatable)', collect)
      .option('--media <url|file>', 'a media URL or a local file (repeatable)', collect)
      .option('--now', 'publish now')
      .option('--at <time>', 'when: ISO time (2026-12-25T10:00:00Z; no zone = local time) or +30m/+2h from now')
      .option('--offset <key=when>', 'per type/platform time: story=+0h, feed=+1h, instagram.story=<ISO> (repeatable)', collect)
      .option('--require-approval', 'hold the job until `schedule approve`')
      .option('--wait', 'follow every target to its end and print post URLs')
      .option('-y, --yes', 'do not ask for confirmation')
      .option('--idempotency-key <key>', 'make retries of this command create one job')
      .action(
        act(async (ctx, [caption], o) =>
          (await import('./commands/publish')).publish(ctx, {
            caption: caption as string | undefined,
            platforms: o.platforms as string | undefined,
            captionFor: (o.captionFor as string[] | undefined) ?? [],
            type: (o.type as string[] | undefined) ?? [],
            media: (o.media as string[] | undefined) ?? [],
            now: Boolean(o.now),
            at: o.at as string | undefined,
            offset: (o.offset as string[] | undefined) ?? [],
            requireApproval: Boolean(o.requireApproval),
            wait: Boolean(o.wait),
            yes: Boolean(o.yes),
            idempotencyKey: o.idempotencyKey as string | undefined,
          }),
        ),
      ),
    [
      'socialpub publish "hello" -p twitter --now --wait',
      'socialpub publish "Launch!" -p instagram,twitter --media ./photo.jpg --at 2026-12-25T10:00:00Z',
      'socialpub publish "Story then feed" -p instagram --type instagram=story,feed --media https://example.com/a.jpg --at +1h --offset feed=+1h',
      'socialpub publish        # in a terminal: asks for everything',
    ],
  );

  const schedule = program.command('schedule').description('scheduled and past jobs');
  examples(
    schedule
      .command('list')
      .description('list jobs by time as a table')
      .option('--status <status>', 'all, pending_approval, scheduled, publishing, published, partially_published, failed, cancelled, needs_review', 'all')
      .option('--limit <n>', 'at most N jobs (default 50)', parseCount)
      .option('--all', 'every job, however many')
      .option('--cursor <cursor>', 'continue after a previous listing (its next_cursor)')
      .action(
        act(async (ctx, _a, o) =>
          (await import('./commands/schedule/list')).scheduleList(ctx, {
            status: o.status as string,
            limit: o.limit as number | undefined,
            all: Boolean(o.all),
            cursor: o.cursor as string | undefined,
          }),
        ),
      ),
    ['socialpub schedule list', 'socialpub schedule list --status scheduled --json', 'socialpub schedule list --all --json | jq ".posts | length"'],
  );
  examples(
    schedule
      .command('show')
      .description('one job with every target')
      .argument('<job_id>', 'the job id (job_…)')
      .action(act(async (ctx, [id]) => (await import('./commands/schedule/show')).scheduleShow(ctx, { jobId: id as string }))),
    ['socialpub schedule show job_abc123'],
  );
  examples(
    schedule
      .command('retime')
      .description('move a job: offsets follow the new time, absolute times stay')
      .argument('<job_id>', 'the job id')
      .option('--at <time>', 'the new time (ISO, or +30m/+2h from now)')
      .option('--offset <key=when>', 'replace the per type/platform times (repeatable)', collect)
      .action(
        act(async (ctx, [id], o) =>
          (await import('./commands/schedule/retime')).scheduleRetime(ctx, { jobId: id as string, at: o.at as string | undefined, offset: (o.offset as string[] | undefined) ?? [] }),
        ),
      ),
    ['socialpub schedule retime job_abc123 --at 2026-12-26T09:00:00Z', 'socialpub schedule retime job_abc123 --at +2h'],
  );
  for (const [name, description] of [
    ['cancel', 'cancel every target not yet started'],
    ['approve', 'approve a job held for approval'],
    ['reject', 'reject a job held for approval (its targets are cancelled)'],
  ] as const) {
    examples(
      schedule
        .command(name)
        .description(description)
        .argument('<job_id>', 'the job id')
        .action(act(async (ctx, [id]) => (await import('./commands/schedule/transition')).scheduleTransition(ctx, { action: name, jobId: id as string }))),
      [`socialpub schedule ${name} job_abc123`],
    );
  }

  examples(
    program
      .command('prepare')
      .description('prepare media for publishing: links (Dropbox, Google Drive, OneDrive, buckets, direct) are fetched by the daemon, local files uploaded to it')
      .argument('<url|file...>', '1 to 10 links, and/or local files')
      .option('--wait', 'wait until every file is prepared or refused')
      .action(act(async (ctx, urls, o) => (await import('./commands/prepare')).prepare(ctx, { urls, wait: Boolean(o.wait) }))),
    ['socialpub prepare https://www.dropbox.com/s/abc/photo.jpg?dl=0 --wait', 'socialpub prepare s3://bucket/clip.mp4 --json', 'socialpub prepare ./clip.mp4 ./cover.jpg --json'],
  );
  examples(
    program
      .command('status')
      .description('status of a job (job_…) or a media task (task_…)')
      .argument('<id>', 'a job id or a task id')
      .action(act(async (ctx, [id]) => (await import('./commands/status')).status(ctx, { id: id as string }))),
    ['socialpub status job_abc123', 'socialpub status task_abc123 --json'],
  );

  const auth = program.command('auth').description('the API key in use');
  const whoami = async (ctx: Ctx) => (await import('./commands/auth/validate')).authValidate(ctx);
  examples(auth.command('validate').description('check the key and show whose it is').action(act(whoami)), ['socialpub auth validate']);
  examples(program.command('whoami').description('same as `auth validate`').action(act(whoami)), ['socialpub whoami --json']);

  examples(
    program
      .command('platforms')
      .description('platforms, their content types and limits, and your connections')
      .action(act(async (ctx) => (await import('./commands/platforms')).platforms(ctx))),
    ['socialpub platforms', 'socialpub platforms --json'],
  );

  const config = program.command('config').description('the CLI config file (base-url, api-key, data-dir)');
  examples(
    config
      .command('get')
      .description('print one setting, or all (the key is masked unless asked for by name)')
      .argument('[key]', 'base-url, api-key or data-dir')
      .action(act(async (ctx, [key]) => (await import('./commands/config')).configGet(ctx, { key }))),
    ['socialpub config get', 'socialpub config get base-url'],
  );
  examples(
    config
      .command('set')
      .description('save a setting')
      .argument('<key>', 'base-url, api-key or data-dir')
      .argument('<value>', 'the value')
      .action(act(async (ctx, [key, value]) => (await import('./commands/config')).configSet(ctx, { key: key as string, value: value as string }))),
    ['socialpub config set base-url http://127.0.0.1:9000'],
  );
  examples(
    config
      .command('unset')
      .description('forget a setting')
      .argument('<key>', 'base-url, api-key or data-dir')
      .action(act(async (ctx, [key]) => (await import('./commands/config')).configUnset(ctx, { key: key as string }))),
    ['socialpub config unset api-key'],
  );
  examples(
    config
      .command('path')
      .description('print where the config file is')
      .action(act(async (ctx) => (await import('./commands/config')).configPath(ctx))),
    ['socialpub config path'],
  );

  examples(
    program
      .command('completion')
      .description('print a shell completion script')
      .argument('<shell>', 'bash, zsh or fish')
      .action(act(async (ctx, [shell]) => (await import('./commands/completion')).completion(ctx, { shell: shell as string, program }))),
    [
      'socialpub completion bash > ~/.local/share/bash-completion/completions/socialpub',
      'socialpub completion zsh > "${fpath[1]}/_socialpub"',
      'socialpub completion fish > ~/.config/fish/completions/socialpub.fish',
    ],
  );

  return program;
}

export interface DaemonFlags {
  host?: string | undefined;
  port?: number | undefined;
  publicUrl?: string;
  user?: string;
  behindProxy?: boolean;
  tlsCert?: string;
  tlsKey?: string;
}

function daemonFlags(o: Record<string, unknown>, withUser: boolean): DaemonFlags {
  return {
    host: o.host as string | undefined,
    port: o.port as number | undefined,
    publicUrl: o.publicUrl as string | undefined,
    ...(withUser && o.user ? { user: o.user as string } : {}),
    behindProxy: Boolean(o.behindProxy),
    tlsCert: o.tlsCert as string | undefined,
    tlsKey: o.tlsKey as string | undefined,
  };
}

function globalsFrom(o: Record<string, unknown>): GlobalOptions {
  return {
    json: Boolean(o.json),
    color: o.color !== false,
    baseUrl: o.baseUrl as string | undefined,
    apiKey: o.apiKey as string | undefined,
    dataDir: o.dataDir as string | undefined,
  };
}

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

function parseCount(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return n;
}


/**
 * Runs one command line in-process and returns its exit code. The only place that
 * turns errors into exit codes and error output (JSON under --json).
 */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    let failure: Failure;
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') {
        // A group called without a subcommand: commander printed its help on stderr.
        return EXIT.usage;
      }
      failure = { exitCode: EXIT.usage, code: 'usage', message: err.message.replace(/^error: /, ''), hint: 'see `socialpub <command> --help`' };
    } else {
      failure = toFailure(err);
    }
    const color = !argv.includes('--no-color');
    const log = new Logger({ io, json, color });
    if (json) {
      log.data({
        success: false,
        error: {
          code: failure.code,
          message: failure.message,
          ...(failure.hint ? { hint: failure.hint } : {}),
          ...(failure.details ? { details: failure.details } : {}),
          ...(failure.retryAfter !== undefined ? { retry_after: failure.retryAfter } : {}),
          ...(failure.requestId ? { request_id: failure.requestId } : {}),
          exit_code: failure.exitCode,
        },
        ...(failure.data !== undefined ? { data: failure.data } : {}),
      });
    } else {
      log.error(failure.message, failure.hint);
      for (const d of failure.details ?? []) {
        const detail = d as { path?: string; message?: string };
        const line = `${detail.path ? `${detail.path}: ` : ''}${detail.message ?? JSON.stringify(d)}`;
        // The daemon's message is its first problem; say it once.
        if (line !== failure.message) io.stderr.write(`  - ${line}\n`);
      }
    }
    return failure.exitCode;
  }
}
