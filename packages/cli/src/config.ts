import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import type { Io } from './io';
import { UsageError } from './errors';

/** Settings the CLI remembers between runs, named like the flags that override them. */
export const CONFIG_KEYS = ['base-url', 'api-key', 'data-dir'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type ConfigValues = Partial<Record<ConfigKey, string>>;

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

/**
 * Where the config lives: $SOCIALPUB_CONFIG_DIR (the tests' temp dir), else the
 * platform's config dir — ~/.config/socialpub (or $XDG_CONFIG_HOME/socialpub) on Linux,
 * ~/Library/Preferences/socialpub on macOS, %APPDATA%\socialpub\Config on Windows.
 */
export function configDir(env: Io['env']): string {
  if (env.SOCIALPUB_CONFIG_DIR) return env.SOCIALPUB_CONFIG_DIR;
  const home = env.HOME ?? process.getBuiltinModule('node:os').homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'socialpub');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'socialpub', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'socialpub');
}

/**
 * The CLI config file, config.json in configDir(). Written through conf (atomic writes,
 * mode 0600 because it holds an API key); read directly, because loading conf (and its
 * JSON-schema validator) costs about 100 ms that every command would otherwise pay.
 */
export class CliConfig {
  private store: Conf<ConfigValues> | undefined;

  private constructor(
    private readonly dir: string,
    private values: ConfigValues,
  ) {}

  static async open(io: Io): Promise<CliConfig> {
    const dir = configDir(io.env);
    let values: ConfigValues = {};
    try {
      // Read at once: a few hundred bytes, and node:fs/promises would load ten more modules on every start.
      const parsed = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object') values = parsed as ConfigValues;
    } catch {
      // Missing or unreadable: nothing saved yet (the first write replaces it).
    }
    return new CliConfig(dir, values);
  }

  get path(): string {
    return join(this.dir, 'config.json');
  }

  get(key: ConfigKey): string | undefined {
    const v = this.values[key];
    return typeof v === 'string' ? v : undefined;
  }

  all(): ConfigValues {
    return Object.fromEntries(CONFIG_KEYS.filter((k) => this.get(k) !== undefined).map((k) => [k, this.get(k)]));
  }

  async set(key: string, value: string): Promise<void> {
    if (!isConfigKey(key)) throw new UsageError(`unknown config key "${key}" (known: ${CONFIG_KEYS.join(', ')})`);
    const store = await this.writer();
    store.set(key, value);
    this.values = { ...store.store };
  }

  async unset(key: string): Promise<void> {
    if (!isConfigKey(key)) throw new UsageError(`unknown config key "${key}" (known: ${CONFIG_KEYS.join(', ')})`);
    const store = await this.writer();
    store.delete(key);
    this.values = { ...store.store };
  }

  private async writer(): Promise<Conf<ConfigValues>> {
    if (!this.store) {
      const { default: ConfStore } = await import('conf');
      this.store = new ConfStore<ConfigValues>({ cwd: this.dir, configName: 'config', configFileMode: 0o600, accessPropertiesByDotNotation: false });
    }
    return this.store;
  }
}
