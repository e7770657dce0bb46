import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LAYERS, layerProblems, layerZones } from '../../../scripts/layers.mjs';

/**
 * The layer lists of scripts/layers.mjs cover every folder and root file of every package's
 * src/ (so eslint's zones leave none out), and the check `pnpm lint` runs
 * (scripts/check-layers.mjs) fails when one is missing.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A workspace with one package whose src/ holds these entries. */
function workspace(entries: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'sp-layers-'));
  temps.push(dir);
  const src = join(dir, 'packages', 'demo', 'src');
  mkdirSync(src, { recursive: true });
  for (const e of entries) {
    if (e.endsWith('.ts')) writeFileSync(join(src, e), 'export {};\n');
    else mkdirSync(join(src, e));
  }
  return dir;
}

describe('layers', () => {
  it('put every entry of every package in exactly one layer', () => {
    expect(layerProblems(root)).toEqual([]);
    expect(Object.keys(LAYERS).sort()).toEqual(['cli', 'core', 'daemon', 'dashboard', 'mcp', 'sdk']);
  });

  it('names a source folder that is in no layer, a layer entry that is gone, and a package with none', () => {
    const dir = workspace(['util', 'index.ts', 'newfolder']);
    expect(layerProblems(dir, { demo: [['util'], ['index.ts']] })).toEqual(['packages/demo/src/newfolder is in no layer: add it to scripts/layers.mjs (and docs/architecture.md)']);
    expect(layerProblems(dir, { demo: [['util', 'gone'], ['index.ts', 'newfolder']] })).toEqual(['packages/demo/src/gone is in a layer but does not exist']);
    expect(layerProblems(dir, { demo: [['util', 'newfolder'], ['index.ts', 'util']] })).toEqual(['packages/demo/src/util is in two layers']);
    expect(layerProblems(dir, {})).toEqual(['packages/demo/src has no layers in scripts/layers.mjs']);
  });

  it('forbid each layer every layer above it', () => {
    const zones = layerZones('.');
    const of = (target: string) => zones.find((z) => z.target.includes(target));
    expect(of('./packages/daemon/src/net')?.from).toEqual(expect.arrayContaining(['./packages/daemon/src/media', './packages/daemon/src/events', './packages/daemon/src/platforms']));
    expect(of('./packages/daemon/src/net')?.from).not.toContain('./packages/daemon/src/util');
    expect(of('./packages/daemon/src/ports')?.from).toContain('./packages/daemon/src/media');
    expect(of('./packages/daemon/src/http')?.from).toEqual(['./packages/daemon/src/create-media.ts', './packages/daemon/src/compose.ts', './packages/daemon/src/daemon.ts', './packages/daemon/src/index.ts']);
    // The top layer of each package has no zone of its own: nothing is above it.
    expect(zones.some((z) => z.target.includes('./packages/daemon/src/index.ts'))).toBe(false);
  });
});
