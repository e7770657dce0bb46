/**
 * Where socialpub keeps what it can make again (the executable's native addon, the code
 * caches of src/loader/chunk-loader.ts): $SOCIALPUB_CACHE_DIR, else
 * $XDG_CACHE_HOME/socialpub or ~/.cache/socialpub on Linux, ~/Library/Caches/socialpub
 * on macOS, %LOCALAPPDATA%\socialpub\Cache on Windows. Builtins from
 * process.getBuiltinModule: every start runs this before anything else is loaded.
 */
export function cacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.SOCIALPUB_CACHE_DIR) return env.SOCIALPUB_CACHE_DIR;
  const { join } = process.getBuiltinModule('node:path');
  const home = env.HOME || process.getBuiltinModule('node:os').homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'socialpub');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'socialpub', 'Cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'socialpub');
}
