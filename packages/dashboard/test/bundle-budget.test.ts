import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST, ensureDashboardBuilt } from './support/build';

/** The first load's script budget (docs/dashboard.md "Speed"; bench/dashboard measures the same way). */
const BUDGET = 150 * 1024;
const gz = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

beforeAll(async () => {
  await ensureDashboardBuilt();
}, 120_000);

describe('the dashboard bundle', () => {
  it('keeps the first load within its budget, with the chart library (uPlot) in a chunk of its own that only the charts load', () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const firstLoad = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g)].map((m) => m[1]!);
    const assets = readdirSync(join(DIST, 'assets'));
    const charts = assets.filter((f) => /^charts-.*\.js$/.test(f));
    expect(charts).toHaveLength(1);
    // uPlot is in that chunk, and in no file of the first load.
    expect(readFileSync(join(DIST, 'assets', charts[0]!), 'utf8')).toContain('u-legend');
    for (const f of firstLoad) expect(readFileSync(join(DIST, f), 'utf8'), f).not.toContain('u-legend');
    expect(firstLoad.map((f) => f.replace(/^assets\//, ''))).not.toContain(charts[0]);
    const first = firstLoad.reduce((n, f) => n + gz(f), 0);
    expect(first).toBeLessThanOrEqual(BUDGET);
    // Even with the charts' chunk the Analytics screen stays within the same budget.
    expect(first + gz(`assets/${charts[0]}`)).toBeLessThanOrEqual(BUDGET);
    expect(gz(`assets/${charts[0]}`)).toBeLessThan(30 * 1024);
  });
});
