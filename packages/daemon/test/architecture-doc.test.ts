import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/store/database';

/**
 * docs/architecture.md stays true to the tree: every source folder of every package is
 * named in it (as its path under the package's src/, ending in a slash, e.g.
 * `http/middleware/`), and every table of a migrated database is in its Storage section
 * (and its table names no table that is not there).
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

function folders(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [relative(base, join(dir, e.name)), ...folders(join(dir, e.name), base)]);
}

function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${title}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The tables of a database every migration has run on. */
function tables(): string[] {
  const db = openDatabase(':memory:');
  try {
    return db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('docs/architecture.md', () => {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

  it('covers the six packages', () => {
    expect(packages.sort()).toEqual(['cli', 'core', 'daemon', 'dashboard', 'mcp', 'sdk']);
    for (const pkg of packages) expect(doc, pkg).toContain(`packages/${pkg}/src/`);
  });

  it.each(['cli', 'core', 'daemon', 'dashboard', 'mcp', 'sdk'])('names every source folder of %s', (pkg) => {
    const src = join(root, 'packages', pkg, 'src');
    const missing = folders(src).filter((rel) => !doc.includes(`${rel.split('\\').join('/')}/`));
    expect(missing).toEqual([]);
  });

  it('describes every database table in its Storage section', () => {
    const storage = section('Storage');
    const live = tables();
    // What the migrations hold today (a new table must be added here and to the document).
    expect(live.length).toBeGreaterThanOrEqual(20);
    const missing = live.filter((t) => !new RegExp(`(^|[^a-z_])${t}([^a-z_]|$)`, 'm').test(storage));
    expect(missing).toEqual([]);
    // And names no table that is not there.
    const rows = [...storage.matchAll(/^\| ([a-z_, ]+) \|/gm)].flatMap((m) => (m[1] as string).split(',').map((t) => t.trim()));
    expect(rows.filter((t) => t !== 'table' && !live.includes(t))).toEqual([]);
  });
});
