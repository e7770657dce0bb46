import { createRequire } from 'node:module';

/**
 * Where better-sqlite3's pieces come from. Normally from node_modules: its JavaScript is
 * imported (or bundled) as usual and finds its own prebuilt addon. The single executable
 * has no node_modules: it writes the embedded addon and a bundle of better-sqlite3's
 * JavaScript to a cache directory and says so here before the daemon opens a database.
 */
export interface SqliteDriver {
  /** The addon, already loaded (`process.dlopen`), for connections of this thread. */
  nativeBinding?: object;
  /** Path of the addon file, for connections the checkpoint thread opens. */
  nativeBindingPath?: string;
  /** A CommonJS module exporting better-sqlite3's Database, loadable by `require` in a worker. */
  module?: string;
}

let provide: () => SqliteDriver = () => ({});
let driver: SqliteDriver | undefined;

/**
 * Says where better-sqlite3 comes from. `load` runs once, when the first database opens,
 * so a command that never opens one never pays for writing or loading the addon.
 */
export function useSqliteDriver(load: () => SqliteDriver): void {
  provide = load;
  driver = undefined;
}

function current(): SqliteDriver {
  driver ??= provide();
  return driver;
}

/** Options to pass to `new Database()` of this thread. */
export function databaseOptions(): { nativeBinding?: object } {
  const { nativeBinding } = current();
  return nativeBinding ? { nativeBinding } : {};
}

/** What the checkpoint thread requires, and the addon path it passes to `new Database()`. */
export function workerDriver(): { module: string; nativeBinding: string | null } {
  const driver = current();
  return {
    module: driver.module ?? createRequire(import.meta.url).resolve('better-sqlite3'),
    nativeBinding: driver.nativeBindingPath ?? null,
  };
}
