/**
 * The main script of the single executable (scripts/build-binary.ts). The CLI is not one
 * big script here but the chunks of a split build (scripts/cli-chunks.ts), embedded as
 * assets (`js/<chunk>`) with the code cache V8 made for each when building
 * (`js/<chunk>.cache`), run by the same chunk loader as dist/cli.js
 * (src/loader/chunk-loader.ts): a chunk is compiled only when first required,
 * so a command pays for the code it runs and not for the daemon, the MCP server or prompts
 * (docs/architecture.md, "Start-up"). The caches made at the end of a command's run (which
 * hold the functions it ran, not only the top level) are kept under the user's cache dir,
 * `code-cache/sea-<Node version>-<arch>`; the built ones serve until then. Anything not a
 * chunk is a Node builtin. The entry chunk is sea-main-<hash>.js (sea-main.ts).
 */
import { cacheDir } from '../cache-dir';
import { createChunkLoader } from '../loader/chunk-loader';

/** The entry chunk (`sea-main-<hash>.js`), named by scripts/build-binary.ts. */
declare const __SOCIALPUB_ENTRY_CHUNK__: string;
/** A hash of the build's chunks: names the directory of their code caches. */
declare const __SOCIALPUB_BUILD_ID__: string;
/** The file holding each chunk that is not in a file of its own name (scripts/cli-chunks.ts). */
declare const __SOCIALPUB_CHUNK_FILES__: Record<string, string>;

const sea = process.getBuiltinModule('node:sea');

function asset(name: string): ArrayBuffer | undefined {
  try {
    return sea.getAsset(name);
  } catch {
    return undefined;
  }
}

const off = process.env.SOCIALPUB_CODE_CACHE === 'off';
const loader = createChunkLoader({
  source: {
    code(name) {
      const bytes = asset(`js/${name}`);
      return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
    },
    builtCache(name) {
      const bytes = off ? undefined : asset(`js/${name}.cache`);
      return bytes === undefined ? undefined : new Uint8Array(bytes);
    },
    filename: () => process.execPath,
    scriptName: (name) => `socialpub:${name}`,
    require(id) {
      const builtin = process.getBuiltinModule(id);
      if (builtin === undefined) throw new Error(`socialpub: the executable cannot load ${id}`);
      return builtin;
    },
  },
  cacheRoot: off ? undefined : process.getBuiltinModule('node:path').join(cacheDir(process.env), 'code-cache', `sea-${process.version}-${process.arch}-${__SOCIALPUB_BUILD_ID__}`),
  earlierRootsPrefix: `sea-${process.version}-${process.arch}-`,
  fileOf: __SOCIALPUB_CHUNK_FILES__,
  argv: process.argv.slice(2),
  trace: process.env.SOCIALPUB_TRACE_CHUNKS,
});
// At the end of the run, every function the command ran is compiled: what its cache should hold.
process.once('exit', loader.saveCaches);
loader.load(__SOCIALPUB_ENTRY_CHUNK__);
