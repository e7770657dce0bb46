/**
 * The main script of the single executable (scripts/build-binary.ts). The CLI is not one
 * big script here but the chunks of a split build, embedded as assets (`js/<chunk>`), each
 * with V8's code cache for it (`js/<chunk>.cache`): a chunk is compiled only when first
 * required, from its cache, so a command pays for the code it runs and not for the daemon,
 * the MCP server or prompts (docs/architecture.md, "Start-up"). Chunks are CommonJS and
 * require each other by './name'; anything else is a Node builtin. The entry chunk is
 * sea-main.js (packages/cli/src/binary/sea-main.ts).
 */
import { chunkWrapper } from './sea-chunk-wrapper';

interface ChunkModule {
  exports: unknown;
}

const sea = process.getBuiltinModule('node:sea');
const vm = process.getBuiltinModule('node:vm');
const loaded = new Map<string, ChunkModule>();
const filename = process.execPath;
const dir = process.getBuiltinModule('node:path').dirname(filename);

function asset(name: string): ArrayBuffer | undefined {
  try {
    return sea.getAsset(name);
  } catch {
    return undefined;
  }
}

function load(name: string): unknown {
  const known = loaded.get(name);
  if (known) return known.exports;
  const source = asset(`js/${name}`);
  if (source === undefined) throw new Error(`socialpub: the executable has no module ${name}`);
  const cache = asset(`js/${name}.cache`);
  const script = new vm.Script(chunkWrapper(new TextDecoder().decode(source)), {
    filename: `socialpub:${name}`,
    ...(cache ? { cachedData: new Uint8Array(cache) } : {}),
  });
  const module: ChunkModule = { exports: {} };
  loaded.set(name, module);
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, requireFromChunk, module, filename, dir);
  return module.exports;
}

function requireFromChunk(id: string): unknown {
  if (id.startsWith('./')) return load(id.slice(2));
  const builtin = process.getBuiltinModule(id);
  if (builtin === undefined) throw new Error(`socialpub: the executable cannot load ${id}`);
  return builtin;
}

load('sea-main.js');
