import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';

/**
 * One ESM bundle for bin/socialpub. Our workspace packages (core, sdk, daemon) are
 * inlined from their TypeScript sources (the `@socialpub/source` condition), so the CLI
 * runs without building them first. The CLI's own dependencies stay external (they are
 * installed beside it; better-sqlite3 is native); anything else the daemon pulls in is
 * bundled, with a `require` for the CommonJS ones. Commands are split into chunks and
 * loaded on first use, so `--version` and `--help` stay fast.
 *
 * `punycode` is both a deprecated Node builtin and a userland package (twitter-text
 * depends on the latter); esbuild would bind the bare name to the builtin, which prints a
 * deprecation warning on every run. The plugin binds it to the package the importer has.
 */
export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  splitting: true,
  clean: true,
  // One line instead of a line per chunk (about a hundred); errors are still printed.
  silent: true,
  async onSuccess() {
    console.log('socialpub CLI built: packages/cli/dist/cli.js (commands in chunks loaded on use)');
  },
  dts: false,
  sourcemap: false,
  shims: false,
  noExternal: [/^@socialpub\//],
  esbuildOptions(options) {
    options.conditions = ['@socialpub/source'];
  },
  esbuildPlugins: [
    {
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
    },
  ],
  banner: {
    js: "import { createRequire as __socialpubCreateRequire } from 'node:module'; const require = __socialpubCreateRequire(import.meta.url);",
  },
});
