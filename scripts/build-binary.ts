/**
 * `pnpm build:binary`: the single executable `socialpub` (a Node single executable
 * application, https://nodejs.org/api/single-executable-applications.html) carrying the
 * CLI, the daemon and better-sqlite3's native addon. Nothing else is needed to run it:
 * no Node, no node_modules.
 *
 *   pnpm build:binary                       # dist/binary/socialpub for this machine
 *   pnpm build:binary --out /tmp/socialpub  # somewhere else
 *   pnpm build:binary --no-code-cache       # without V8's code cache (see bench/cli)
 *
 * Other platforms: the executable is the Node binary that runs this script with the app
 * injected, and the addon is better-sqlite3's prebuild for the same platform, so build on
 * each target (linux-x64, linux-arm64, linuxmusl-x64/arm64, darwin-x64/arm64,
 * win32-x64/arm64): `scripts/pnpm build:binary` there. To build for another platform here,
 * pass that platform's Node binary and target: `--node ./node-v24-darwin-arm64/bin/node
 * --target darwin-arm64` (the code cache is then left out: V8 must make it on the platform
 * that runs it). macOS needs the result signed (`codesign --sign - socialpub`, done here when
 * building on macOS); Windows writes socialpub.exe.
 *
 * Steps: bundle src/binary/sea-main.ts as split chunks, make each CommonJS (SEA runs
 * CommonJS) with V8's code cache for it, all embedded as assets that packages/cli/src/binary/sea-loader.ts
 * (the main script) compiles on first use; bundle better-sqlite3's JavaScript for the
 * checkpoint thread, take the platform's prebuilt addon, record their sha256 in a
 * manifest, make the blob (node --experimental-sea-config), copy the Node binary and
 * inject the blob with postject. `--no-code-cache` leaves out every code cache (the main
 * script's and the chunks').
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Script } from 'node:vm';
import { build } from 'esbuild';
import { buildCliChunks } from './cli-chunks';
import { DASHBOARD_DIST, dashboardBuildFiles } from './package-dashboard';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = join(root, 'packages', 'cli');
const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    node: { type: 'string' },
    target: { type: 'string' },
    'no-code-cache': { type: 'boolean', default: false },
  },
});

const requireFromCli = createRequire(join(cliDir, 'package.json'));
const sqliteDir = dirname(requireFromCli.resolve('better-sqlite3/package.json'));
const hostTarget = (): string => {
  const { getPrebuildPath } = requireFromCli(join(sqliteDir, 'lib', 'binding.js')) as { getPrebuildPath(): string | null };
  const prebuild = getPrebuildPath();
  if (!prebuild) throw new Error(`better-sqlite3 has no prebuilt addon for ${process.platform}-${process.arch}`);
  return prebuild.replace(/^.*[\\/]/, '').replace(/\.node$/, '');
};
const target = values.target ?? hostTarget();
const cross = values.node !== undefined && resolve(values.node) !== process.execPath;
const nodeBinary = values.node ? resolve(values.node) : process.execPath;
const useCodeCache = !values['no-code-cache'] && !cross;
const windows = target.startsWith('win32');
const out = resolve(values.out ?? join(root, 'dist', 'binary', windows ? 'socialpub.exe' : 'socialpub'));
const work = join(root, 'dist', 'binary', '.work');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(dirname(out), { recursive: true });

const started = performance.now();
const step = (what: string) => console.log(`${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s  ${what}`);

step(`bundling the CLI for ${target}`);
// The CLI as CommonJS chunks (scripts/cli-chunks.ts), each embedded as an asset with V8's
// code cache for it; packages/cli/src/binary/sea-loader.ts, the executable's main script, compiles a chunk
// only when it is first required. One script of everything would be compiled (or its cache
// deserialized) whole on every start: twice bare node's start-up for `--version` alone
// (docs/architecture.md, "Start-up").
const jsDir = join(work, 'js');
const jsAssets: Record<string, string> = {};
const chunks = await buildCliChunks({ entries: { 'sea-main': join(cliDir, 'src', 'binary', 'sea-main.ts') }, outDir: jsDir, target: 'node24' });
for (const name of chunks.files) {
  const file = join(jsDir, name);
  jsAssets[`js/${name}`] = file;
  if (useCodeCache) {
    // Exactly the source the loader compiles, or V8 refuses the cache.
    const script = new Script(readFileSync(file, 'utf8'), { filename: `socialpub:${name}` });
    writeFileSync(`${file}.cache`, script.createCachedData());
    jsAssets[`js/${name}.cache`] = `${file}.cache`;
  }
}
const main = join(work, 'sea-loader.cjs');
await build({
  entryPoints: [join(cliDir, 'src', 'binary', 'sea-loader.ts')],
  outfile: main,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  logLevel: 'warning',
  define: { __SOCIALPUB_ENTRY_CHUNK__: JSON.stringify(chunks.entries['sea-main']), __SOCIALPUB_BUILD_ID__: JSON.stringify(chunks.buildId), __SOCIALPUB_CHUNK_FILES__: JSON.stringify(chunks.fileOf) },
});

step('bundling better-sqlite3 for the checkpoint thread');
const moduleFile = join(work, 'better-sqlite3.cjs');
await build({ entryPoints: [join(sqliteDir, 'lib', 'index.js')], outfile: moduleFile, bundle: true, format: 'cjs', platform: 'node', target: 'node24', logLevel: 'warning' });
const addonFile = join(sqliteDir, 'prebuilds', `${target}.node`);
if (!existsSync(addonFile)) throw new Error(`better-sqlite3 has no prebuilt addon ${target}.node (have: ${join(sqliteDir, 'prebuilds')})`);

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const manifestFile = join(work, 'native-manifest.json');
writeFileSync(manifestFile, JSON.stringify({ 'better_sqlite3.node': sha256(addonFile), 'better-sqlite3.cjs': sha256(moduleFile) }));

// The dashboard's build: each file an asset `dashboard/<path>`, listed in a manifest the daemon reads (packages/daemon/src/http/dashboard/dashboard-files.ts).
const dashboard = dashboardBuildFiles();
const dashboardAssets: Record<string, string> = {};
if (dashboard.length > 0) {
  const manifest = join(work, 'dashboard-manifest.json');
  writeFileSync(manifest, JSON.stringify(dashboard));
  dashboardAssets['dashboard-manifest.json'] = manifest;
  for (const rel of dashboard) dashboardAssets[`dashboard/${rel}`] = join(DASHBOARD_DIST, ...rel.split('/'));
  step(`embedding the dashboard (${dashboard.length} files)`);
} else {
  console.warn(`no dashboard build at ${DASHBOARD_DIST}: the executable carries none (run pnpm --filter @socialpub/dashboard build first)`);
}

step(`making the blob (code cache: ${useCodeCache ? 'on' : 'off'})`);
const blob = join(work, 'sea-prep.blob');
const seaConfig = join(work, 'sea-config.json');
writeFileSync(
  seaConfig,
  JSON.stringify({
    main,
    output: blob,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache,
    assets: { ...jsAssets, ...dashboardAssets, 'better_sqlite3.node': addonFile, 'better-sqlite3.cjs': moduleFile, 'native-manifest.json': manifestFile },
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'inherit' });

step(`injecting it into a copy of ${nodeBinary}`);
rmSync(out, { force: true });
copyFileSync(nodeBinary, out);
chmodSync(out, 0o755);
const macos = target.startsWith('darwin');
if (macos && process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', out], { stdio: 'inherit' });
const postject = join(dirname(createRequire(import.meta.url).resolve('postject/package.json')), 'dist', 'cli.js');
const injected = spawnSync(
  process.execPath,
  [postject, out, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2', ...(macos ? ['--macho-segment-name', 'NODE_SEA'] : [])],
  { encoding: 'utf8' },
);
// LIEF (inside postject) warns about ELF note sections it does not name; harmless, and said for every section.
const noise = /^warning: Can't find string offset for section name/;
const said = injected.stderr.split('\n').filter((l) => l && !noise.test(l));
if (said.length) console.error(said.join('\n'));
if (injected.status !== 0) throw new Error(`postject failed (exit ${injected.status})`);
if (macos && process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', out], { stdio: 'inherit' });
rmSync(work, { recursive: true, force: true });
const size = readFileSync(out).length;
step(`${out} (${(size / 1024 / 1024).toFixed(1)} MB)`);
