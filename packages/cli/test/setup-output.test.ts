import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What `scripts/setup` prints comes from `pnpm install`: pnpm warns about a cycle among
 * the workspace's packages ("There are cyclic workspace dependencies") and boxes an
 * "Ignored build scripts" notice for every installed package with an install script that
 * pnpm-workspace.yaml neither allows nor ignores. Both are decided by files checked here,
 * without running an install.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined> & { name: string };

/** A list under `key:` in pnpm-workspace.yaml (`  - name` lines, quotes dropped). */
function workspaceList(key: string): string[] {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = new RegExp(`^${key}:\\n((?:\\s+- .*\\n)+)`, 'm').exec(text);
  return block ? [...(block[1] as string).matchAll(/- ['"]?([^'"\n]+)['"]?/g)].map((m) => (m[1] as string).trim()) : [];
}

describe('scripts/setup prints no pnpm warnings', () => {
  it('the workspace packages depend on each other without a cycle (dependencies and devDependencies)', () => {
    const dirs = readdirSync(join(root, 'packages')).map((d) => join(root, 'packages', d)).concat(join(root, 'examples'));
    const graph = new Map<string, string[]>();
    for (const dir of dirs) {
      const m = manifest(dir);
      const deps = { ...m.dependencies, ...m.devDependencies, ...m.optionalDependencies, ...m.peerDependencies };
      graph.set(m.name, Object.entries(deps).filter(([, v]) => v.startsWith('workspace:')).map(([k]) => k));
    }
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) return void cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '));
      for (const dep of graph.get(name) ?? []) visit(dep, [...path, name]);
    };
    for (const name of graph.keys()) visit(name, []);
    expect(cycles).toEqual([]);
    // The root may depend on every package (nothing depends on the root): the tests' needs live there.
    expect(Object.keys(manifest(root).devDependencies ?? {})).toEqual(expect.arrayContaining(['@socialpub/daemon', '@socialpub/sdk']));
  });

  it('every installed package with an install script is allowed or ignored in pnpm-workspace.yaml', () => {
    const listed = new Set([...workspaceList('onlyBuiltDependencies'), ...workspaceList('ignoredBuiltDependencies')]);
    const store = join(root, 'node_modules', '.pnpm');
    const unlisted = new Set<string>();
    for (const entry of readdirSync(store)) {
      const modules = join(store, entry, 'node_modules');
      if (!existsSync(modules)) continue;
      for (const scope of readdirSync(modules)) {
        const names = scope.startsWith('@') ? readdirSync(join(modules, scope)).map((n) => `${scope}/${n}`) : [scope];
        for (const name of names) {
          const dir = join(modules, name);
          if (!existsSync(join(dir, 'package.json')) || !entry.startsWith(name.replace('/', '+') + '@')) continue;
          const scripts = manifest(dir).scripts ?? {};
          const builds = ['preinstall', 'install', 'postinstall'].some((s) => s in scripts) || existsSync(join(dir, 'binding.gyp'));
          if (builds && !listed.has(name)) unlisted.add(name);
        }
      }
    }
    expect([...unlisted].sort()).toEqual([]);
    expect(listed.has('@modelcontextprotocol/inspector')).toBe(true);
  });
});
