import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';

/**
 * `punycode` is both a deprecated Node builtin and a userland package (twitter-text
 * depends on the latter); esbuild would bind the bare name to the builtin, which prints a
 * deprecation warning on every run. This binds it to the package the importer has.
 * Used by the CLI's chunks (scripts/cli-chunks.ts: the npm package and the single executable).
 */
export const userlandPunycode: Plugin = {
  name: 'userland-punycode',
  setup(build) {
    build.onResolve({ filter: /^punycode$/ }, (args) => {
      if (!args.importer) return undefined;
      try {
        return { path: createRequire(args.importer).resolve('punycode/') };
      } catch {
        return undefined;
      }
    });
  },
};
