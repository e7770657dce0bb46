/**
 * Runs the CLI's chunks: the CommonJS files of one split build (scripts/cli-chunks.ts),
 * which require each other by './<name>'. Both forms start through it: dist/cli.js under
 * Node (loader/node-entry.ts, chunks beside it) and the single executable
 * (src/binary/sea-loader.ts, chunks as assets).
 *
 * Each chunk is compiled with vm.Script and V8's code cache for it. The cache is made at
 * the end of a run, after the command ran, so it holds every function the command
 * compiled, not only the top level (Node's own compile cache, `module.enableCompileCache`,
 * is made right after compiling, so the functions a command calls are compiled again on
 * every start: about a tenth of `schedule list --json`'s CPU). Caches are kept per command
 * (`schedule list --json` and `publish` run different code from the same chunks) under
 * the user's cache dir, in a directory named after the build, written once (missing, or refused by V8 after a Node upgrade) to a
 * temporary name and renamed, so concurrent starts never read half a file. A cache that
 * cannot be read or written is left out silently: it only makes starts slower.
 * SOCIALPUB_CODE_CACHE=off turns every code cache off (bench/cli measures with and without).
 */
import type { Script } from 'node:vm';

export interface ChunkSource {
  /**
   * The chunk's code, or undefined when there is no such chunk: a CommonJS module written as
   * a function of the usual module variables, `(function (exports, require, module,
   * __filename, __dirname) {…})`, by the build, so that the code the build makes a cache
   * for and the code compiled here are the very same text (V8 takes a cache for no other).
   */
  code(name: string): string | undefined;
  /** A code cache made when building, used when there is none of this machine's yet. */
  builtCache?(name: string): Uint8Array | undefined;
  /** The `__filename` the chunk sees (its file, or the executable). */
  filename(name: string): string;
  /** The name stack traces give the chunk; default its filename. */
  scriptName?(name: string): string;
  /** What a require of anything but a chunk resolves to (builtins, better-sqlite3). */
  require(id: string): unknown;
}

export interface LoaderOptions {
  source: ChunkSource;
  /**
   * Where this build's caches go (a directory per command under it); undefined: none kept.
   * Named after the build (its chunks' content), so no cache outlives the code it was made
   * for: V8 checks only a cache's source length.
   */
  cacheRoot: string | undefined;
  /** When cacheRoot is first made, directories beside it whose names start so (other builds) are removed if unused for a week. */
  earlierRootsPrefix?: string;
  /** The command line: names the cache set (see cacheKey). */
  argv: readonly string[];
  /** Appends every chunk loaded to this file (SOCIALPUB_TRACE_CHUNKS; test/startup-loads.test.ts). */
  trace?: string | undefined;
}

interface ChunkModule {
  exports: unknown;
}

/** How many cache sets (commands) one form keeps at most. */
const MAX_CACHE_SETS = 100;

/**
 * The cache set of a command line: its command words (`schedule.list`), and `.json` under
 * --json (JSON output runs other code than a table). A word is lower-case letters and
 * dashes; the first argument that is not (a job id, a caption) ends the name, so
 * arguments never name a set of their own.
 */
export function cacheKey(argv: readonly string[]): string {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-')) continue;
    if (words.length === 2 || !/^[a-z][a-z-]{0,23}$/.test(arg)) break;
    words.push(arg);
  }
  return `${words.join('.') || 'socialpub'}${argv.includes('--json') ? '.json' : ''}`;
}

export interface ChunkLoader {
  /** A chunk's exports, running it on first use. */
  load(name: string): unknown;
  /** Writes the caches this run made (the entries call it on exit, when every function the command ran is compiled). */
  saveCaches(): void;
}

/** Loads chunks by name; the first one loaded is the program's entry. */
export function createChunkLoader({ source, cacheRoot, earlierRootsPrefix, argv, trace }: LoaderOptions): ChunkLoader {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const vm = process.getBuiltinModule('node:vm');
  const loaded = new Map<string, ChunkModule>();
  const cacheDir = cacheRoot === undefined ? undefined : path.join(cacheRoot, cacheKey(argv));
  const toWrite: { name: string; script: Script }[] = [];

  const readCache = (name: string): Uint8Array | undefined => {
    if (cacheDir === undefined) return undefined;
    try {
      return fs.readFileSync(path.join(cacheDir, `${name}.cache`));
    } catch {
      return undefined;
    }
  };

  const load = (name: string): unknown => {
    const known = loaded.get(name);
    if (known) return known.exports;
    const code = source.code(name);
    if (code === undefined) throw new Error(`socialpub: no module ${name} (the build is incomplete: run scripts/pnpm build)`);
    if (trace) fs.appendFileSync(trace, `${name}\n`);
    const mine = readCache(name);
    const cachedData = mine ?? source.builtCache?.(name);
    const filename = source.filename(name);
    const script = new vm.Script(code, { filename: source.scriptName?.(name) ?? filename, ...(cachedData ? { cachedData } : {}) });
    if (cacheDir !== undefined && (mine === undefined || script.cachedDataRejected === true)) toWrite.push({ name, script });
    const module: ChunkModule = { exports: {} };
    loaded.set(name, module);
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(module.exports, module.exports, requireFromChunk, module, filename, path.dirname(filename));
    return module.exports;
  };

  const requireFromChunk = (id: string): unknown => (id.startsWith('./') ? load(id.slice(2)) : source.require(id));

  const saveCaches = () => {
    if (cacheDir === undefined || toWrite.length === 0) return;
    try {
      const root = cacheRoot as string;
      if (!fs.existsSync(root)) {
        fs.mkdirSync(root, { recursive: true, mode: 0o700 });
        const parent = path.dirname(root);
        // Another build's caches go once unused for a week (two installs of different versions may take turns).
        const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
        for (const other of earlierRootsPrefix ? fs.readdirSync(parent) : []) {
          const dir = path.join(parent, other);
          if (other.startsWith(earlierRootsPrefix as string) && dir !== root && fs.statSync(dir).mtimeMs < weekAgo) fs.rmSync(dir, { recursive: true, force: true });
        }
      }
      if (!fs.existsSync(cacheDir)) {
        // A bounded number of sets: a stray word (`socialpub frobnicate`) cannot grow the cache without end.
        if (fs.readdirSync(root).length >= MAX_CACHE_SETS) return;
        fs.mkdirSync(cacheDir, { mode: 0o700 });
      }
      for (const { name, script } of toWrite.splice(0)) {
        const file = path.join(cacheDir, `${name}.cache`);
        const temp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temp, file);
      }
    } catch {
      // A read-only or full disk: the next start compiles again.
    }
  };
  return { load, saveCaches };
}
