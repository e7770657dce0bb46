import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../cache-dir';
import type { SqliteDriver } from '@socialpub/daemon/sqlite-driver';

/** Names of the assets scripts/build-binary.mjs embeds in the single executable. */
export const ASSETS = {
  /** better-sqlite3's prebuilt addon for the executable's platform. */
  addon: 'better_sqlite3.node',
  /** better-sqlite3's JavaScript as one CommonJS file, for the checkpoint thread. */
  module: 'better-sqlite3.cjs',
  /** { "better_sqlite3.node": sha256, "better-sqlite3.cjs": sha256 }, written at build time. */
  manifest: 'native-manifest.json',
} as const;

export interface AssetSource {
  get(name: string): Uint8Array;
}

/** The executable's own assets (node:sea), loaded only when first asked. */
export const seaAssets: AssetSource = {
  get(name) {
    const require = process.getBuiltinModule('node:sea');
    return new Uint8Array(require.getAsset(name));
  },
};

export { cacheDir } from '../cache-dir';

// node:crypto when first needed: every start of the executable loads this module (sea-main.ts).
const sha256 = (bytes: Uint8Array) => process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');

/**
 * Writes `name` under `dir` unless a file with the expected checksum is already there.
 * Written to a temporary name and renamed, so a crash or a concurrent start never leaves
 * a half-written addon where another process would load it.
 */
function materialize(dir: string, name: string, expected: string, assets: AssetSource): string {
  const path = join(dir, name);
  try {
    if (sha256(readFileSync(path)) === expected) return path;
  } catch {
    // not there yet
  }
  const bytes = assets.get(name);
  const actual = sha256(bytes);
  if (actual !== expected) throw new Error(`socialpub: the embedded ${name} is damaged (sha256 ${actual}, expected ${expected}); download the executable again`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, bytes, { mode: 0o600 });
  renameSync(temp, path);
  return path;
}

export interface UnpackedNative {
  addonPath: string;
  modulePath: string;
}

/**
 * Unpacks the addon and better-sqlite3's JavaScript into
 * `<cache>/native/<sha256 of the addon, 16 hex digits>/`: once per build of the addon, and
 * again only if a file there no longer has its checksum.
 */
export function unpackNative(env: NodeJS.ProcessEnv, assets: AssetSource = seaAssets): UnpackedNative {
  const manifest = JSON.parse(new TextDecoder().decode(assets.get(ASSETS.manifest))) as Record<string, string>;
  const addonSum = manifest[ASSETS.addon];
  const moduleSum = manifest[ASSETS.module];
  if (!addonSum || !moduleSum) throw new Error('socialpub: the executable has no native manifest; rebuild it with pnpm build:binary');
  const dir = join(cacheDir(env), 'native', addonSum.slice(0, 16));
  return { addonPath: materialize(dir, ASSETS.addon, addonSum, assets), modulePath: materialize(dir, ASSETS.module, moduleSum, assets) };
}

/** The daemon's better-sqlite3 inside the single executable: unpacked, then loaded with process.dlopen. */
export function embeddedSqliteDriver(env: NodeJS.ProcessEnv, assets: AssetSource = seaAssets): SqliteDriver {
  const { addonPath, modulePath } = unpackNative(env, assets);
  const addon = { exports: {} as object };
  process.dlopen(addon, addonPath);
  return { nativeBinding: addon.exports, nativeBindingPath: addonPath, module: modulePath };
}
