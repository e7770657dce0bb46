#!/usr/bin/env node
// Fails when a file or folder directly under a package's src/ is in no layer of
// scripts/layers.mjs (so the lint's layer zones would not cover it), or a layer names one
// that is gone. Run by `pnpm lint`.
import { dirname, resolve } from 'node:path';
import { LAYERS, layerProblems } from './layers.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const problems = layerProblems(root);
if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`${problems.length} layer problem(s): every entry of packages/*/src belongs to exactly one layer.`);
  process.exit(1);
}
const entries = Object.values(LAYERS).reduce((n, layers) => n + layers.flat().length, 0);
console.log(`every entry of packages/*/src in a layer (${entries} entries, ${Object.keys(LAYERS).length} packages)`);
