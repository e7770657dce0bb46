/**
 * A CommonJS chunk of the executable as a function of the usual module variables. One
 * definition for scripts/build-binary.ts (which makes each chunk's code cache) and
 * scripts/sea-loader.ts (which compiles the chunk): V8 takes a cache only for the very same source.
 */
export function chunkWrapper(code: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${code}\n})`;
}
