/**
 * `pnpm --filter socialpub build` (packages/cli): the npm package's dist/.
 *
 *   dist/cli.js        the `bin` (packages/cli/src/loader/node-entry.ts), CommonJS on its own
 *   dist/socialpub-<hash>.js  the CLI (src/cli.ts), and chunk-<hash>.js, the chunks it
 *                      loads on use (scripts/cli-chunks.ts), CommonJS run by the chunk loader
 *   dist/package.json  { "type": "commonjs" }: the package is ESM, these files are not
 *   dist/dashboard/    the dashboard's build, which src/cli.ts serves from (its own
 *                      package.json says `"type": "module"`: its scripts are ESM)
 *   docs/              the documents the README links to
 *
 * Our workspace packages (core, sdk, daemon) are inlined from their TypeScript sources (the
 * `@socialpub/source` condition), and so is every other dependency: one package with one
 * real dependency, better-sqlite3 (native: it finds its own prebuilt addon), and no module
 * resolution through node_modules at start-up. `--out-dir <dir>` builds elsewhere.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { buildCliChunks } from './cli-chunks';
import { packageDashboard } from './package-dashboard';
import { packageDocs } from './package-docs';

const cliDir = resolve(fileURLToPath(new URL('../packages/cli', import.meta.url)));
const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
const outDir = resolve(values['out-dir'] ?? join(cliDir, 'dist'));

// Never a stale chunk of an earlier build beside the new ones.
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const chunks = await buildCliChunks({ entries: { socialpub: join(cliDir, 'src', 'cli.ts') }, outDir, target: 'node22', external: ['better-sqlite3'] });
await build({
  entryPoints: [join(cliDir, 'src', 'loader', 'node-entry.ts')],
  outfile: join(outDir, 'cli.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  logLevel: 'warning',
  legalComments: 'none',
  banner: { js: '#!/usr/bin/env node' },
  // The chunk to start with (socialpub-<hash>.js).
  define: { __SOCIALPUB_ENTRY_CHUNK__: JSON.stringify(chunks.entries.socialpub), __SOCIALPUB_BUILD_ID__: JSON.stringify(chunks.buildId), __SOCIALPUB_CHUNK_FILES__: JSON.stringify(chunks.fileOf) },
});
chmodSync(join(outDir, 'cli.js'), 0o755);
writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
// The package's README links to these docs; the package carries them (docs/ there is a build output).
packageDocs(cliDir, ['cli.md', 'api.md', 'operations.md']);
// The dashboard's scripts are ESM (for the browser); said so beneath dist/'s CommonJS, for the tools that read it (publint).
if (packageDashboard(outDir) > 0) writeFileSync(join(outDir, 'dashboard', 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
console.log('socialpub CLI built: packages/cli/dist/cli.js (commands in chunks loaded on use)');
