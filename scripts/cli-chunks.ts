import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, transform, type Plugin } from 'esbuild';
import { userlandPunycode } from './esbuild-punycode';

/**
 * The CLI as CommonJS chunks of one split build, for packages/cli/src/loader/chunk-loader.ts:
 * the npm package's dist/ (scripts/build-cli.ts) and the single executable
 * (scripts/build-binary.ts). esbuild splits ESM only, so the split output is made
 * CommonJS chunk by chunk; `import()` of a chunk becomes its `require` in a promise, and
 * import.meta.url the chunk's own file. A command loads its own definition and action, not
 * the daemon, the MCP server or prompts (docs/architecture.md, "Start-up").
 */
/** How every chunk is written: packages/cli/src/loader/chunk-loader.ts compiles the file's text as it is. */
export const CHUNK_WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
export const CHUNK_WRAPPER_END = '\n})';

export interface ChunkBuild {
  /** Entry name (the chunk `<name>.js`) to its source. */
  entries: Record<string, string>;
  outDir: string;
  target: string;
  external?: string[];
}

/**
 * commander requires node:child_process at its top for executable subcommands (a
 * `git-style` command run as its own program), which the CLI has none of: loading it costs
 * every start a few modules (child_process, dgram, net's socket list). Bound on first use instead.
 */
export const lazyChildProcessInCommander: Plugin = {
  name: 'lazy-child-process-in-commander',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "import childProcess from 'node:child_process';";
      if (!source.includes(eager)) throw new Error(`${args.path}: commander no longer imports child_process as expected; update scripts/cli-chunks.ts`);
      return {
        contents: source.replace(eager, "const childProcess = { spawn: (...args) => process.getBuiltinModule('node:child_process').spawn(...args) };"),
        loader: 'js',
      };
    });
  },
};

export interface BuiltChunks {
  /** Every chunk's file name. */
  names: string[];
  /** Each entry's chunk (`socialpub-<hash>.js`). */
  entries: Record<string, string>;
  /** A hash of every chunk's name and text as written: names the code caches of this build. */
  buildId: string;
}

/**
 * Builds the chunks into outDir (CommonJS, `.js`) and returns their names. Every name
 * carries a hash of the chunk's content and of what it imports, entries too: the chunk
 * loader keeps code caches by file name, and V8 checks only a cache's source length.
 */
export async function buildCliChunks({ entries, outDir, target, external = [] }: ChunkBuild): Promise<BuiltChunks> {
  const esmDir = join(outDir, '.esm');
  rmSync(esmDir, { recursive: true, force: true });
  const built = await build({
    entryPoints: entries,
    outdir: esmDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    chunkNames: 'chunk-[hash]',
    entryNames: '[name]-[hash]',
    metafile: true,
    platform: 'node',
    target,
    external,
    conditions: ['@socialpub/source'],
    plugins: [userlandPunycode, lazyChildProcessInCommander],
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'error' },
    legalComments: 'none',
    // import.meta.url in bundled ESM code means "this file": the chunk (or, in the executable,
    // the executable). Made when read: most chunks never read it, and every start loads a dozen.
    define: { 'import.meta': '__socialpub_import_meta' },
    banner: { js: 'var __socialpub_import_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
  });
  mkdirSync(outDir, { recursive: true });
  const names: string[] = [];
  for (const name of readdirSync(esmDir).filter((f) => f.endsWith('.js'))) {
    // esbuild's `// <source path>` lines say which modules a chunk holds (test/startup-loads.test.ts
    // reads them); a transform keeps only legal comments, so they are made `//! <path>`.
    const esm = readFileSync(join(esmDir, name), 'utf8').replace(/^\/\/ ((?:\.\.\/|src\/)\S*)$/gm, '//! $1');
    const { code } = await transform(esm, {
      format: 'cjs',
      loader: 'js',
      platform: 'node',
      target,
      supported: { 'dynamic-import': false },
      legalComments: 'inline',
      logLevel: 'warning',
      logOverride: { 'empty-import-meta': 'error' },
    });
    // A function of the module variables, as the chunk loader compiles it (and the executable's build caches it).
    writeFileSync(join(outDir, name), `${CHUNK_WRAPPER_START}${code}${CHUNK_WRAPPER_END}`);
    names.push(name);
  }
  rmSync(esmDir, { recursive: true, force: true });
  const entryChunks: Record<string, string> = {};
  for (const [file, output] of Object.entries(built.metafile.outputs)) {
    const entry = Object.entries(entries).find(([, source]) => output.entryPoint !== undefined && resolve(output.entryPoint) === resolve(source));
    if (entry) entryChunks[entry[0]] = file.replace(/^.*[\\/]/, '');
  }
  for (const name of Object.keys(entries)) if (!entryChunks[name]) throw new Error(`scripts/cli-chunks.ts: no chunk for the entry ${name}`);
  const hash = createHash('sha256');
  for (const name of names.sort()) hash.update(`${name}\0`).update(readFileSync(join(outDir, name))).update('\0');
  return { names, entries: entryChunks, buildId: hash.digest('hex').slice(0, 16) };
}
