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
   * A chunk file's text, or undefined when there is no such file: the build writes an
   * object of CommonJS modules (scripts/cli-chunks.ts, `chunkFileText`), `({"chunk-X.js":
   * function (exports, require, module, __filename, __dirname) {…}, …})`, compiled here as
   * it is, so the text the executable's build makes a cache for is the very text compiled
   * (V8 takes a cache for no other).
   */
  code(file: string): string | undefined;
  /** A code cache made when building, used when there is none of this machine's yet. */
  builtCache?(file: string): Uint8Array | undefined;
  /** The `__filename` a file's chunks see (the file, or the executable). */
  filename(file: string): string;
  /** The name stack traces give the file; default its filename. */
  scriptName?(file: string): string;
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
  /** The file holding each chunk that is not in a file of its own name. */
  fileOf?: Readonly<Record<string, string>>;
  /** The command line: names the cache set (see cacheKey). */
  argv: readonly string[];
  /** Appends every chunk file loaded to this file (SOCIALPUB_TRACE_CHUNKS; test/startup-loads.test.ts). */
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

/** Loads chunks by name (each from its file, compiled once); the first one loaded is the program's entry. */
export function createChunkLoader({ source, cacheRoot, earlierRootsPrefix, fileOf = {}, argv, trace }: LoaderOptions): ChunkLoader {
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

  type Define = (this: unknown, ...args: unknown[]) => void;
  const definitions = new Map<string, { define: Define; filename: string }>();

  /** Compiles and runs a chunk file: its chunks become known, none of them runs yet. */
  const loadFile = (file: string): void => {
    const code = source.code(file);
    if (code === undefined) return;
    if (trace) fs.appendFileSync(trace, `${file}\n`);
    const mine = readCache(file);
    const cachedData = mine ?? source.builtCache?.(file);
    const filename = source.filename(file);
    const script = new vm.Script(code, { filename: source.scriptName?.(file) ?? filename, ...(cachedData ? { cachedData } : {}) });
    if (cacheDir !== undefined && (mine === undefined || script.cachedDataRejected === true)) toWrite.push({ name: file, script });
    for (const [name, define] of Object.entries(script.runInThisContext() as Record<string, Define>)) definitions.set(name, { define, filename });
  };

  const load = (name: string): unknown => {
    const known = loaded.get(name);
    if (known) return known.exports;
    if (!definitions.has(name)) loadFile(fileOf[name] ?? name);
    const chunk = definitions.get(name);
    if (chunk === undefined) throw new Error(`socialpub: no module ${name} (the build is incomplete: run scripts/pnpm build)`);
    const module: ChunkModule = { exports: {} };
    loaded.set(name, module);
    chunk.define.call(module.exports, module.exports, requireFromChunk, module, chunk.filename, path.dirname(chunk.filename));
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
