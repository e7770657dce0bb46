import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

// The start-up rule of docs/architecture.md ("Start-up"): a command that makes one request
// loads neither zod nor core's schemas, nor got (the CLI's client sends with node:http),
// nor the time zone library (only a human rendering needs it), nor the definitions of
// other commands. Checked on the built bundle, which is what users run: the chunk loader
// names every chunk it loads in SOCIALPUB_TRACE_CHUNKS (src/loader/chunk-loader.ts).
const bundle = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'socialpub-startup-loads-'));

const t = useTestDaemon({ connect: ['twitter'] });
beforeAll(() => {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`scripts/pnpm build\` before the tests (CI does)`);
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Runs the bundle; returns the command's output and the chunks it loaded. */
async function loads(name: string, args: string[]) {
  const log = join(work, `${name}.log`);
  const r = await execa(process.execPath, [bundle, ...args], { env: { ...process.env, ...t.env, SOCIALPUB_TRACE_CHUNKS: log }, extendEnv: false, reject: false });
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((name) => name !== '')
    .map((name) => join(dirname(bundle), name));
  return { r, files, text: files.map((f) => readFileSync(f, 'utf8')).join('\n') };
}

describe('what a one-request command loads', () => {
  const markers = {
    zod: /node_modules\/\.pnpm\/zod@/,
    "core's schemas": /\/\/!? \.\.\/core\/src\/schemas\//,
    got: /node_modules\/\.pnpm\/got@/,
    'temporal-polyfill': /node_modules\/\.pnpm\/temporal-polyfill@/,
    'another command': /\/\/!? src\/commands\/(publish|up|connect)\.command\.ts/,
    // The SDK takes a table of what its calls read (scripts/cli-chunks.ts, lightRoutesForSdk); the daemon keeps the whole one.
    "the route table's OpenAPI texts": /Health of the daemon and its scheduler/,
  };

  it.each(Object.entries(markers))('the marker of %s is in the bundle (so its absence below means something)', (_name, marker) => {
    const dist = dirname(bundle);
    const chunks = readdirSync(dist).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dist, f), 'utf8'));
    expect(chunks.some((c) => marker.test(c))).toBe(true);
  });

  for (const [name, args] of [
    ['schedule-list', ['schedule', 'list', '--json']],
    ['auth-validate', ['auth', 'validate', '--json']],
    ['platforms', ['platforms', '--json']],
    ['status', ['status', 'job_doesnotexist', '--json']],
    ['schedule-show', ['schedule', 'show', 'job_doesnotexist', '--json']],
  ] as const) {
    it(`${args.join(' ')} answers without loading zod, core's schemas, got, temporal-polyfill, other commands or the route table's texts`, async () => {
      const { r, files, text } = await loads(name, [...args]);
      // status (or show) of an unknown job: the daemon's 404, reported as the one JSON document (exit 4).
      const unknownJob = name === 'status' || name === 'schedule-show';
      expect(r.exitCode, r.stderr).toBe(unknownJob ? 4 : 0);
      expect((JSON.parse(r.stdout) as { success?: boolean }).success).toBe(unknownJob ? false : undefined);
      expect(files.length).toBeGreaterThan(3);
      for (const [what, marker] of Object.entries(markers)) expect(text, what).not.toMatch(marker);
    });
  }
});

describe('the reads run without commander (src/quick-read.ts)', () => {
  const commander = /node_modules\/\.pnpm\/commander@/;
  const definition = /\/\/!? src\/(commands\/[\w-]+\.command|program|main)\.ts/;

  it('the markers of commander and of the command definitions are in the bundle', () => {
    const dist = dirname(bundle);
    const chunks = readdirSync(dist).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dist, f), 'utf8'));
    expect(chunks.some((c) => commander.test(c))).toBe(true);
    expect(chunks.some((c) => definition.test(c))).toBe(true);
  });

  for (const [name, args] of [
    ['quick-schedule-list', ['schedule', 'list', '--json']],
    ['quick-schedule-list-table', ['schedule', 'list', '--limit', '5', '--no-color']],
    ['quick-status', ['status', 'job_doesnotexist', '--json']],
    ['quick-schedule-show', ['schedule', 'show', 'job_doesnotexist', '--json']],
  ] as const) {
    it(`${args.join(' ')} loads neither commander nor a command definition`, async () => {
      const { r, text } = await loads(name, [...args]);
      expect(r.exitCode, r.stderr).toBe(name === 'quick-status' || name === 'quick-schedule-show' ? 4 : 0);
      expect(text).not.toMatch(commander);
      expect(text).not.toMatch(definition);
    });
  }

  it('--help of the same command loads commander (anything unusual is left to it)', async () => {
    const { r, text } = await loads('quick-help', ['schedule', 'list', '--help']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('--status <status>');
    expect(text).toMatch(commander);
  });
});

describe('the builtins a one-request command loads', () => {
  it('schedule list --json, output to a pipe, reaches the daemon without node:http (its sender writes on a node:net socket) or node:tty', async () => {
    // Preloaded: writes the builtins the process loaded, once it ends.
    const preload = join(work, 'module-list.cjs');
    const list = join(work, 'modules.json');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));`);
    const r = await execa(process.execPath, ['--require', preload, bundle, 'schedule', 'list', '--json'], { env: { ...process.env, ...t.env }, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Array.isArray((JSON.parse(r.stdout) as { posts?: unknown }).posts)).toBe(true);
    const modules = JSON.parse(readFileSync(list, 'utf8')) as string[];
    expect(modules).toContain('NativeModule net');
    expect(modules).not.toContain('NativeModule http');
    expect(modules).not.toContain('NativeModule _http_client');
    // Whether a person is at a terminal is asked of stderr first (src/io.ts): a pipe needs no node:tty.
    expect(modules).not.toContain('NativeModule tty');
  });
});
