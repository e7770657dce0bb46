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
 * The CLI config file (conf: atomic writes, mode 0600 because it holds an API key).
 * Lives in the platform's config dir (~/.config/socialpub/config.json on Linux), or in
 * $SOCIALPUB_CONFIG_DIR — which the tests point at a temp dir.
 */
export class CliConfig {
  private constructor(private readonly store: Conf<ConfigValues>) {}

  static async open(io: Io): Promise<CliConfig> {
    const { default: ConfStore } = await import('conf');
    const cwd = io.env.SOCIALPUB_CONFIG_DIR;
    const store = new ConfStore<ConfigValues>({
      projectName: 'socialpub',
      projectSuffix: '',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      ...(cwd ? { cwd } : {}),
    });
    return new CliConfig(store);
  }

  get path(): string {
    return this.store.path;
  }

  get(key: ConfigKey): string | undefined {
    return this.store.get(key);
  }

  all(): ConfigValues {
    return { ...this.store.store };
  }

  set(key: string, value: string): void {
    if (!isConfigKey(key)) throw new UsageError(`unknown config key "${key}" (known: ${CONFIG_KEYS.join(', ')})`);
    this.store.set(key, value);
  }

  unset(key: string): void {
    if (!isConfigKey(key)) throw new UsageError(`unknown config key "${key}" (known: ${CONFIG_KEYS.join(', ')})`);
    this.store.delete(key);
  }
}
