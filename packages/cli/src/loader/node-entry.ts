/**
 * dist/cli.js, the npm package's `bin` (and what bin/socialpub runs in a checkout): starts
 * the CLI's chunks beside it (socialpub-<hash>.js first, from src/cli.ts) through the chunk
 * loader, with their code caches kept under the user's cache dir (`code-cache/node-<Node
 * version>-<arch>`). Bundled on its own as CommonJS: nothing here goes through Node's
 * module loader but this file.
 */
import { cacheDir } from '../cache-dir';
import { createChunkLoader } from './chunk-loader';

/** The entry chunk (`socialpub-<hash>.js`), named by scripts/build-cli.ts. */
declare const __SOCIALPUB_ENTRY_CHUNK__: string;
/** A hash of the build's chunks: names the directory of their code caches. */
declare const __SOCIALPUB_BUILD_ID__: string;
/** The file holding each chunk that is not in a file of its own name (scripts/cli-chunks.ts). */
declare const __SOCIALPUB_CHUNK_FILES__: Record<string, string>;

const path = process.getBuiltinModule('node:path');
const dir = __dirname;
let requireOutside: NodeJS.Require | undefined;

const loader = createChunkLoader({
  source: {
    code(name) {
      try {
        return process.getBuiltinModule('node:fs').readFileSync(path.join(dir, name), 'utf8');
      } catch {
        return undefined;
      }
    },
    filename: (name) => path.join(dir, name),
    require(id) {
      const builtin = id.startsWith('node:') || !id.includes('/') ? process.getBuiltinModule(id) : undefined;
      if (builtin !== undefined) return builtin;
      requireOutside ??= process.getBuiltinModule('node:module').createRequire(__filename);
      return requireOutside(id);
    },
  },
  cacheRoot: process.env.SOCIALPUB_CODE_CACHE === 'off' ? undefined : path.join(cacheDir(process.env), 'code-cache', `node-${process.version}-${process.arch}-${__SOCIALPUB_BUILD_ID__}`),
  earlierRootsPrefix: `node-${process.version}-${process.arch}-`,
  fileOf: __SOCIALPUB_CHUNK_FILES__,
  argv: process.argv.slice(2),
  trace: process.env.SOCIALPUB_TRACE_CHUNKS,
});
// At the end of the run, every function the command ran is compiled: what its cache should hold.
process.once('exit', loader.saveCaches);
loader.load(__SOCIALPUB_ENTRY_CHUNK__);
