#!/usr/bin/env node
// Fails when the packages' source (.ts and .tsx, every package: core, sdk, mcp, daemon, cli,
// dashboard) has an import circle. Type-only imports count too: a
// circle of types still ties two modules together (eslint's import-x/no-cycle skips them).
// Run by `pnpm lint`; arguments name the packages to check (default: all).
// Usage: node scripts/check-import-cycles.mjs [core daemon ...]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const packagesDir = join(root, 'packages');

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(p) && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `@socialpub/<name>` -> that package's src/index.ts, so circles across packages show too. */
const packageEntry = new Map();
const files = [];
const only = process.argv.slice(2);
for (const pkg of readdirSync(packagesDir)) {
  const src = join(packagesDir, pkg, 'src');
  if (!existsSync(src)) continue;
  const manifest = JSON.parse(readFileSync(join(packagesDir, pkg, 'package.json'), 'utf8'));
  if (existsSync(join(src, 'index.ts'))) packageEntry.set(manifest.name, join(src, 'index.ts'));
  if (only.length === 0 || only.includes(pkg)) files.push(...walk(src));
}

const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

function resolveSpecifier(from, spec) {
  if (packageEntry.has(spec)) return packageEntry.get(spec);
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

const graph = new Map();
for (const file of files) {
  const text = stripComments(readFileSync(file, 'utf8'));
  const deps = new Set();
  for (const m of text.matchAll(SPECIFIER)) {
    const target = resolveSpecifier(file, m[1] ?? m[2]);
    if (target && target !== file) deps.add(target);
  }
  graph.set(file, [...deps]);
}

// Tarjan's strongly connected components: every component of more than one module is a circle.
let index = 0;
const stack = [];
const info = new Map();
const circles = [];
function connect(v) {
  const node = { index, low: index, onStack: true };
  index++;
  info.set(v, node);
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    const seen = info.get(w);
    if (!seen) {
      connect(w);
      node.low = Math.min(node.low, info.get(w).low);
    } else if (seen.onStack) node.low = Math.min(node.low, seen.index);
  }
  if (node.low === node.index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) circles.push(component);
  }
}
for (const v of graph.keys()) if (!info.has(v)) connect(v);

/** One concrete loop through a component, for the message. */
function loopThrough(component) {
  const members = new Set(component);
  const start = component[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)) path.splice(1, 0, x);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

if (circles.length) {
  for (const c of circles) console.error(`import circle: ${loopThrough(c).map((f) => relative(root, f)).join(' -> ')}`);
  console.error(`${circles.length} import circle(s) in packages/*/src (type-only imports count); break them by moving the shared part down a layer.`);
  process.exit(1);
}
console.log(`no import circles in ${graph.size} modules`);
