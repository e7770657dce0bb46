import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build, transform, type Plugin } from 'esbuild';
import type { RouteTable } from '../packages/core/src/routes/index';
import { userlandPunycode } from './esbuild-punycode';

/**
 * The CLI as CommonJS chunks of one split build, for packages/cli/src/loader/chunk-loader.ts:
 * the npm package's dist/ (scripts/build-cli.ts) and the single executable
 * (scripts/build-binary.ts). esbuild splits ESM only, so the split output is made
 * CommonJS chunk by chunk; `import()` of a chunk becomes its `require` in a promise, and
 * import.meta.url the chunk's own file. A command loads its own definition and action, not
 * the daemon, the MCP server or prompts (docs/architecture.md, "Start-up").
 */
/**
 * A chunk file as the chunk loader (packages/cli/src/loader/chunk-loader.ts) compiles it,
 * as it is: an object of CommonJS modules, each a function of the usual module variables.
 */
export function chunkFileText(modules: Record<string, string>): string {
  const entries = Object.entries(modules).map(([name, code]) => `${JSON.stringify(name)}: function (exports, require, module, __filename, __dirname) {${code}\n}`);
  return `({\n${entries.join(',\n')}\n})`;
}

const DYNAMIC_REQUIRE = /Promise\.resolve\(\)\.then\(\(\) => (?:__toESM\()?require\("\.\/([\w.-]+)"\)/g;
const ANY_REQUIRE = /require\("\.\/([\w.-]+)"\)/g;

/**
 * Which chunks share a file. esbuild makes a chunk of every set of entry points (each
 * `import()` is one) that share modules, so a command would load a dozen files of a few
 * KB each at start, each read, compiled and cached on its own. The chunks every start
 * loads (the entry's static requires, transitively) go in the entry's file; for each
 * `import()` those make (the CLI's main.ts), and level by level for the imports those make,
 * the chunks only it requires statically go in its file. A chunk several of those imports require (the SDK's client, which the daemon's
 * MCP backend also uses) is never put in one of their files, or a command would load
 * another's code: chunks required by the same set of imports share a file of their own.
 * A chunk's file is found through the map the loader is given, so any order of loading
 * stays right.
 */
function groupChunks(code: Map<string, string>, roots: string[]): Map<string, string[]> {
  const staticDeps = (name: string) => [...(code.get(name) ?? '').replace(DYNAMIC_REQUIRE, '').matchAll(ANY_REQUIRE)].map((m) => m[1] as string);
  const dynamicDeps = (name: string) => [...(code.get(name) ?? '').matchAll(DYNAMIC_REQUIRE)].map((m) => m[1] as string);
  const placed = new Set<string>();
  const files = new Map<string, string[]>();
  const closure = (root: string) => {
    const out: string[] = [];
    const visit = (name: string) => {
      if (placed.has(name) || out.includes(name) || !code.has(name)) return;
      out.push(name);
      for (const dep of staticDeps(name)) visit(dep);
    };
    visit(root);
    return out;
  };
  const place = (file: string, members: string[]) => {
    for (const m of members) placed.add(m);
    if (members.length) files.set(file, members);
  };
  for (const root of roots) {
    let frontier = closure(root);
    place(root, frontier);
    // The imports those chunks make, level by level (a command's own import() of its action).
    for (;;) {
      const targets = [...new Set(frontier.flatMap(dynamicDeps))].filter((t) => !placed.has(t) && code.has(t));
      if (targets.length === 0) break;
      // Which of those imports reach each chunk.
      const reachedBy = new Map<string, string[]>();
      for (const target of targets) for (const m of closure(target)) reachedBy.set(m, [...(reachedBy.get(m) ?? []), target]);
      for (const target of targets) place(target, closure(target).filter((m) => reachedBy.get(m)?.length === 1));
      const shared = new Map<string, string[]>();
      for (const [m, by] of reachedBy) if (!placed.has(m)) shared.set(by.join('\0'), [...(shared.get(by.join('\0')) ?? []), m]);
      for (const members of shared.values()) place(members[0] as string, members);
      frontier = [...reachedBy.keys()];
    }
  }
  for (const name of [...code.keys()].sort()) if (!placed.has(name)) place(name, closure(name));
  return files;
}

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

/** The fields of a route declaration the SDK's transport reads (`Transport.call`, and `path` for the event stream). */
export const SDK_ROUTE_FIELDS = ['name', 'method', 'path', 'root', 'auth', 'readOnly', 'idempotent'] as const;

/**
 * The SDK in the CLI reads core's route table for a call's method, path and retry safety,
 * but the table also holds every route's OpenAPI texts, parameter and body schemas and
 * errors (about 1,500 lines of object literals, built by `defineRoutes` on every start: a
 * millisecond of `schedule list --json`). The SDK's modules take `ROUTES` from a table of
 * those fields and each answer's schema keys instead, made here from core's own table
 * (their import of it from `@socialpub/core` is rewritten; everything else they import
 * from core is core's). The daemon and the MCP server in the same bundle import core
 * themselves and keep the whole table.
 */
export const lightRoutesForSdk: Plugin = {
  name: 'light-routes-for-sdk',
  setup(b) {
    const coreImport = /import \{([^}]*)\} from '@socialpub\/core';/;
    b.onLoad({ filter: /[\\/]packages[\\/]sdk[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const names = coreImport.exec(source)?.[1]?.split(',').map((n) => n.trim());
      if (!names?.includes('ROUTES')) return undefined;
      const rest = names.filter((n) => n !== 'ROUTES' && n !== '');
      const imports = `import { ROUTES } from 'socialpub:sdk-routes';${rest.length ? ` import { ${rest.join(', ')} } from '@socialpub/core';` : ''}`;
      return { contents: source.replace(coreImport, imports), loader: 'ts', resolveDir: dirname(args.path) };
    });
    b.onResolve({ filter: /^socialpub:sdk-routes$/ }, () => ({ path: 'sdk-routes', namespace: 'socialpub', sideEffects: false }));
    b.onLoad({ filter: /.*/, namespace: 'socialpub' }, async () => {
      const { ROUTES } = (await import('../packages/core/src/routes/index')) as { ROUTES: RouteTable };
      const light = Object.fromEntries(
        Object.entries(ROUTES).map(([name, decl]) => {
          const kept: Record<string, unknown> = {};
          for (const field of SDK_ROUTE_FIELDS) if (decl[field] !== undefined) kept[field] = decl[field];
          kept.responses = Object.fromEntries(Object.entries(decl.responses).map(([status, r]) => [status, { schema: r.schema }]));
          return [name, kept];
        }),
      );
      return { contents: `export const ROUTES = JSON.parse(${JSON.stringify(JSON.stringify(light))});\n`, loader: 'js' };
    });
  },
};

/**
 * commander's Option tells a variadic flag (`--tag <tag...>`) by a Unicode property regex,
 * `/\p{ID_Continue}\.\.\.[>\]]$/u`, tested for every option made: compiling it (once a
 * process) cost about a millisecond of every command's start, more than the rest of
 * building its options. The suffix is tested first, with a plain regex, so the Unicode one
 * is compiled only for a flag that ends in `...>` or `...]`: the same answer for every flag.
 */
export const cheapVariadicCheckInCommander: Plugin = {
  name: 'cheap-variadic-check-in-commander',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]option\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const slow = 'this.variadic = /\\p{ID_Continue}\\.\\.\\.[>\\]]$/u.test(flags);';
      if (!source.includes(slow)) throw new Error(`${args.path}: commander no longer tests variadic flags as expected; update scripts/cli-chunks.ts`);
      return { contents: source.replace(slow, 'this.variadic = /\\.\\.\\.[>\\]]$/.test(flags) && /\\p{ID_Continue}\\.\\.\\.[>\\]]$/u.test(flags);'), loader: 'js' };
    });
  },
};

export interface BuiltChunks {
  /** Every file written. */
  files: string[];
  /** The file holding each chunk that is not in a file of its own name. */
  fileOf: Record<string, string>;
  /** Each entry's chunk (`socialpub-<hash>.js`). */
  entries: Record<string, string>;
  /** A hash of every file's name and text as written: names the code caches of this build. */
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
    plugins: [userlandPunycode, lazyChildProcessInCommander, cheapVariadicCheckInCommander, lightRoutesForSdk],
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'error' },
    legalComments: 'none',
    // import.meta.url in bundled ESM code means "this file": the chunk (or, in the executable,
    // the executable). Made when read: most chunks never read it, and every start loads a dozen.
    define: { 'import.meta': '__socialpub_import_meta' },
    banner: { js: 'var __socialpub_import_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
  });
  mkdirSync(outDir, { recursive: true });
  const code = new Map<string, string>();
  for (const name of readdirSync(esmDir).filter((f) => f.endsWith('.js')).sort()) {
    // esbuild's `// <source path>` lines say which modules a chunk holds (test/startup-loads.test.ts
    // reads them); a transform keeps only legal comments, so they are made `//! <path>`.
    const esm = readFileSync(join(esmDir, name), 'utf8').replace(/^\/\/ ((?:\.\.\/|src\/)\S*)$/gm, '//! $1');
    const cjs = await transform(esm, {
      format: 'cjs',
      loader: 'js',
      platform: 'node',
      target,
      supported: { 'dynamic-import': false },
      legalComments: 'inline',
      logLevel: 'warning',
      logOverride: { 'empty-import-meta': 'error' },
    });
    code.set(name, cjs.code);
  }
  rmSync(esmDir, { recursive: true, force: true });
  const entryChunks: Record<string, string> = {};
  for (const [file, output] of Object.entries(built.metafile.outputs)) {
    const entry = Object.entries(entries).find(([, source]) => output.entryPoint !== undefined && resolve(output.entryPoint) === resolve(source));
    if (entry) entryChunks[entry[0]] = file.replace(/^.*[\\/]/, '');
  }
  for (const name of Object.keys(entries)) if (!entryChunks[name]) throw new Error(`scripts/cli-chunks.ts: no chunk for the entry ${name}`);

  const fileOf: Record<string, string> = {};
  const files: string[] = [];
  const hash = createHash('sha256');
  for (const [file, members] of groupChunks(code, Object.values(entryChunks))) {
    const text = chunkFileText(Object.fromEntries(members.map((m) => [m, code.get(m) as string])));
    writeFileSync(join(outDir, file), text);
    files.push(file);
    for (const m of members) if (m !== file) fileOf[m] = file;
    hash.update(`${file}\0${text}\0`);
  }
  return { files, fileOf, entries: entryChunks, buildId: hash.digest('hex').slice(0, 16) };
}
