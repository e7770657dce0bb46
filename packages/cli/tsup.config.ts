import { defineConfig } from 'tsup';
import { userlandPunycode } from '../../scripts/esbuild-punycode';
import { requireBuiltins } from '../../scripts/esbuild-require-builtins';
import { packageDashboard } from '../../scripts/package-dashboard';
import { packageDocs } from '../../scripts/package-docs';

/**
 * dist/cli.js: the npm package's `bin` (and what bin/socialpub runs in a checkout). Our
 * workspace packages (core, sdk, daemon) are inlined from their TypeScript sources (the
 * `@socialpub/source` condition), and so is every other dependency: one package with one
 * real dependency, better-sqlite3 (native: it finds its own prebuilt addon), and no
 * module resolution through node_modules at start-up. CommonJS dependencies get a
 * `require` from the banner. Commands are split into chunks loaded on first use, so
 * `--version` and `--help` stay fast.
 */
export default defineConfig((flags) => ({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  splitting: true,
  clean: true,
  // One line instead of a line per chunk (about a hundred); errors are still printed.
  silent: true,
  // The package's README links to these docs; the package carries them (docs/ here is a build output).
  async onSuccess() {
    packageDocs('.', ['cli.md', 'api.md', 'operations.md']);
    // The dashboard's build beside the bundle (dist/dashboard), which src/cli.ts serves from.
    packageDashboard(flags.outDir ?? 'dist');
    console.log('socialpub CLI built: packages/cli/dist/cli.js (commands in chunks loaded on use)');
  },
  dts: false,
  sourcemap: false,
  shims: false,
  noExternal: [/^(?!better-sqlite3$)/],
  external: ['better-sqlite3'],
  esbuildOptions(options) {
    options.conditions = ['@socialpub/source'];
    options.logOverride = { 'empty-import-meta': 'error' };
  },
  esbuildPlugins: [userlandPunycode],
  plugins: [requireBuiltins],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __socialpubCreateRequire } from 'node:module'; const require = __socialpubCreateRequire(import.meta.url);",
  },
}));
