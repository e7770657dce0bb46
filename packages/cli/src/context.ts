import { join, resolve } from 'node:path';
import type { SocialPub } from '@socialpub/sdk';
import type { Io } from './io';
import { CliError, EXIT } from './errors';
import { CliConfig } from './config';
import { Logger } from './ui/logger';
import { Prompts } from './ui/prompts';
import { createSpinner, type Spinner } from './ui/spinner';
import { readDaemonState } from './local/daemon-files';

/** The flags every command accepts. */
export interface GlobalOptions {
  json: boolean;
  color: boolean;
  baseUrl?: string;
  apiKey?: string;
  dataDir?: string;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** `sp_<id>_<secret>` as the daemon reads it (`sp_key_…_…` today), without spaces. */
const API_KEY_SHAPE = /^sp_\w+_\w+$/;

/**
 * What a command receives: output, prompts, and settings resolved flags > environment >
 * config file > defaults. Heavy things (conf, the SDK) load on first use only.
 */
export class Ctx {
  readonly log: Logger;
  readonly prompts: Prompts;
  private configPromise: Promise<CliConfig> | undefined;
  private clientPromise: Promise<SocialPub> | undefined;

  constructor(
    readonly io: Io,
    readonly opts: GlobalOptions,
  ) {
    this.log = new Logger({ io, json: opts.json, color: opts.color });
    this.prompts = new Prompts(io, io.interactive && !opts.json);
  }

  spinner(): Promise<Spinner> {
    return createSpinner(this.io, { json: this.opts.json, color: this.log.colorOnStderr });
  }

  config(): Promise<CliConfig> {
    this.configPromise ??= CliConfig.open(this.io);
    return this.configPromise;
  }

  /** --data-dir, else $SOCIALPUB_HOME, else the config's data-dir, else ~/.local/share/socialpub. */
  async dataDir(): Promise<string> {
    const fromFlagOrEnv = this.opts.dataDir ?? nonEmpty(this.io.env.SOCIALPUB_HOME);
    if (fromFlagOrEnv) return resolve(this.io.cwd, fromFlagOrEnv);
    const fromConfig = (await this.config()).get('data-dir');
    if (fromConfig) return resolve(this.io.cwd, fromConfig);
    const xdg = nonEmpty(this.io.env.XDG_DATA_HOME);
    return xdg ? join(xdg, 'socialpub') : join(this.io.env.HOME ?? process.getBuiltinModule('node:os').homedir(), '.local', 'share', 'socialpub');
  }

  /** --base-url, $SOCIALPUB_BASE_URL, the config, the daemon running on the data dir, or the default. */
  async baseUrl(): Promise<string> {
    const explicit = this.opts.baseUrl ?? nonEmpty(this.io.env.SOCIALPUB_BASE_URL) ?? (await this.config()).get('base-url');
    if (explicit) return explicit.replace(/\/+$/, '');
    const state = await readDaemonState(await this.dataDir());
    return state?.url ?? DEFAULT_BASE_URL;
  }

  /**
   * Where a command that reads data reads it (docs/cli.md "Which daemon"): `{local: dataDir}`
   * when the data dir is the data of the daemon the CLI talks to (no daemon named, or the one
   * named is the one running on the data dir, as after `socialpub up`), else `{api: true}`:
   * a daemon named by --base-url/--api-key (or their environment variables, or the config's
   * base-url) whose data is elsewhere is asked through its API. Creates nothing.
   */
  async readsFrom(): Promise<{ local: string } | { api: true }> {
    const keyNamed = this.opts.apiKey !== undefined || nonEmpty(this.io.env.SOCIALPUB_API_KEY) !== undefined;
    const urlNamed = this.opts.baseUrl ?? nonEmpty(this.io.env.SOCIALPUB_BASE_URL) ?? (await this.config()).get('base-url');
    const dataDir = await this.dataDir();
    if (!keyNamed && !urlNamed) return { local: dataDir };
    // A key given for this run speaks for its user: the daemon answers what that user may see.
    if (keyNamed) return { api: true };
    const state = await readDaemonState(dataDir);
    return state && sameOrigin(state.url, urlNamed as string) ? { local: dataDir } : { api: true };
  }

  /**
   * Where the local admin's reads (`keys list`, `connections list`, `settings get`) read
   * (docs/cli.md "Which daemon"): the data dir when no daemon is named, when the data dir is
   * named for the run (--data-dir, SOCIALPUB_HOME: the one to administer), or when the daemon
   * named is the one running on it (daemon.json names the same origin, as after `socialpub
   * up`); else the daemon named, through its API (the key's user's keys, accounts and
   * settings). Unlike readsFrom, a key given for the run does not by itself send them to the
   * API: on the daemon's own data dir they are the machine owner's view of every user.
   */
  async adminReadsFrom(): Promise<{ local: string } | { api: true }> {
    const keyNamed = this.opts.apiKey !== undefined || nonEmpty(this.io.env.SOCIALPUB_API_KEY) !== undefined;
    const urlNamed = this.opts.baseUrl ?? nonEmpty(this.io.env.SOCIALPUB_BASE_URL) ?? (await this.config()).get('base-url');
    const dataDir = await this.dataDir();
    if (!keyNamed && !urlNamed) return { local: dataDir };
    if (this.opts.dataDir !== undefined || nonEmpty(this.io.env.SOCIALPUB_HOME) !== undefined) return { local: dataDir };
    const state = await readDaemonState(dataDir);
    return state && sameOrigin(state.url, await this.baseUrl()) ? { local: dataDir } : { api: true };
  }

  async apiKey(): Promise<string> {
    const env = nonEmpty(this.io.env.SOCIALPUB_API_KEY);
    const [key, from] = this.opts.apiKey !== undefined ? [this.opts.apiKey, '--api-key'] : env ? [env, 'SOCIALPUB_API_KEY'] : [(await this.config()).get('api-key'), 'the config (api-key)'];
    if (!key) {
      throw new CliError('unauthorized', 'no API key: pass --api-key, set SOCIALPUB_API_KEY, or save one in the config', EXIT.auth, {
        hint: 'run `socialpub up` (it creates and saves one), or `socialpub keys create`',
      });
    }
    // The shape the daemon checks first (sp_<id>_<secret>); said here in the terms the user
    // gave it, not in the request headers the daemon sees.
    if (!API_KEY_SHAPE.test(key)) {
      throw new CliError('unauthorized', `the API key from ${from} is malformed: a key looks like sp_key_<id>_<secret>`, EXIT.auth, {
        hint: '`socialpub keys create` makes one (`socialpub up` makes and saves one)',
      });
    }
    return key;
  }

  /** The SDK client for the resolved base URL and key. */
  client(): Promise<SocialPub> {
    this.clientPromise ??= (async () => {
      const [{ createClient }, baseUrl, apiKey] = await Promise.all([import('./sdk-client'), this.baseUrl(), this.apiKey()]);
      // A person is waiting: one retry (a refused connection is reported within a second),
      // a Retry-After of up to 10 s waited out, a longer one reported with its time (exit 6).
      return createClient({ baseUrl, apiKey, maxRetries: 1, maxRetryAfter: 10_000, timeout: 30_000, headers: { 'X-SocialPub-Source': 'cli' } });
    })();
    return this.clientPromise;
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function nonEmpty(v: string | undefined): string | undefined {
  return v && v.trim() ? v : undefined;
}
