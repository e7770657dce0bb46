// The dashboard's speed, each figure beside a baseline measured in the same run and browser:
//   - first-load script: the gzipped JavaScript index.html loads (its script and module
//     preloads), against the 150 KB budget; the calendar chunk, loaded with that screen;
//   - time to interactive on loopback: navigation start to the first screen rendered with
//     its data (the app's `sp-interactive` mark), signed in; baseline: a blank page's load;
//   - calendar render of a month holding 2,000 posts: the app's `sp-calendar-render` measure
//     (events handed to FullCalendar until the next frame), baseline: the same empty month.
// Debian's Chromium through playwright-core; a real daemon on 127.0.0.1. Aims: script
// <= 150 KB gz, interactive <= 500 ms, calendar <= 300 ms. Medians of BENCH_RUNS (default 7).
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openAdmin } from '../../packages/daemon/src/admin/index';
import { resolveConfig } from '../../packages/daemon/src/config';
import { startDaemon } from '../../packages/daemon/src/daemon';
import { silentLogger } from '../../packages/daemon/src/util/logger';
import { launchChromium, type Browser, type Page } from '../../packages/dashboard/test/support/browser';
import { DIST, ensureDashboardBuilt } from '../../packages/dashboard/test/support/build';
import { tempDir } from './temp';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const POSTS = 2000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;

await ensureDashboardBuilt();

// 1. Script size of the first load.
const html = readFileSync(join(DIST, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g)].map((m) => m[1]!);
const gz = (rel: string) => gzipSync(readFileSync(join(DIST, rel)), { level: 9 }).length;
const firstLoad = scripts.reduce((n, s) => n + gz(s), 0);
const assets = readdirSync(join(DIST, 'assets'));
const calendarChunk = assets.filter((f) => /^calendar-.*\.js$/.test(f)).reduce((n, f) => n + gz(`assets/${f}`), 0);

const dir = tempDir();
const config = resolveConfig({ dataDir: dir.path, host: '127.0.0.1', port: 0, rateLimitsEnabled: false }, {});
const daemon = await startDaemon(config, { logger: silentLogger });
const admin = openAdmin(dir.path);
const key = admin.createKey({ email: 'bench@example.com' });
admin.addSandboxConnection('twitter', { email: key.email });
admin.setTimezone(key.email, 'Europe/Berlin');
const signin = () => `${daemon.url}/auth/link/${admin.createSigninLink({ email: key.email }).token}`;

// A blank page over loopback, for the baseline.
const blank = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>blank</title>'));
await new Promise<void>((r) => blank.listen(0, '127.0.0.1', r));
const blankUrl = `http://127.0.0.1:${(blank.address() as AddressInfo).port}/`;

// 2,000 posts in one month (next month, spread over its days and hours).
const now = new Date();
const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
const empty = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 4, 1));
const ymd = (d: Date) => d.toISOString().slice(0, 10);
const days = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
async function publish(i: number) {
  const day = String(1 + (i % days)).padStart(2, '0');
  const hour = String(6 + (i % 15)).padStart(2, '0');
  const res = await fetch(`${daemon.url}/api/agents/v1/content/publish`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key.api_key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ caption: `Post ${i} of the month`, platforms: ['twitter'], scheduled_for: `${ymd(month).slice(0, 8)}${day}T${hour}:${String(i % 60).padStart(2, '0')}:00` }),
  });
  if (!res.ok) throw new Error(`publish ${i}: ${res.status} ${await res.text()}`);
}
const t0 = performance.now();
for (let i = 0; i < POSTS; i += 8) await Promise.all(Array.from({ length: Math.min(8, POSTS - i) }, (_, k) => publish(i + k)));
console.log(`(stored ${POSTS} posts in ${ms(performance.now() - t0)})`);

let browser: Browser | undefined;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page: Page = await context.newPage();
  await page.goto(signin());
  await page.getByRole('navigation', { name: 'Main' }).waitFor();

  const loadBlank = async () => {
    const p = await context.newPage();
    await p.goto(blankUrl, { waitUntil: 'load' });
    const t = await p.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
    await p.close();
    return t;
  };
  const interactive = async () => {
    const p = await context.newPage();
    await p.goto(`${daemon.url}/posts`);
    const t = await p.waitForFunction(() => performance.getEntriesByName('sp-interactive')[0]?.startTime).then((h: { jsonValue(): Promise<unknown> }) => h.jsonValue() as Promise<number>);
    await p.close();
    return t;
  };
  const calendar = async (date: Date) => {
    const p = await context.newPage();
    await p.goto(`${daemon.url}/calendar?date=${ymd(date)}`);
    const t = await p.waitForFunction(() => performance.getEntriesByName('sp-calendar-render')[0]?.duration, undefined, { timeout: 60_000 }).then((h: { jsonValue(): Promise<unknown> }) => h.jsonValue() as Promise<number>);
    const shown = await p.locator('.fc-daygrid-day-events .fc-event, .fc-daygrid-more-link').count();
    await p.close();
    return { t, shown };
  };
  // Warm-up (caches, the calendar chunk), then the runs.
  await loadBlank();
  await interactive();
  await calendar(month);
  const blanks: number[] = [];
  const ttis: number[] = [];
  const cals: number[] = [];
  const bases: number[] = [];
  let shown = 0;
  for (let i = 0; i < RUNS; i++) {
    blanks.push(await loadBlank());
    ttis.push(await interactive());
    const c = await calendar(month);
    cals.push(c.t);
    shown = c.shown;
    bases.push((await calendar(empty)).t);
  }
  const b = median(blanks);
  const tti = median(ttis);
  const cal = median(cals);
  const base = median(bases);
  console.log(`first-load script (gzipped)     ${kb(firstLoad).padStart(10)}   budget 150 KB (${((firstLoad / (150 * 1024)) * 100).toFixed(0)} % of it); ${scripts.length} files`);
  console.log(`calendar chunk, on demand (gz)  ${kb(calendarChunk).padStart(10)}   first load + calendar ${kb(firstLoad + calendarChunk)}`);
  console.log(`blank page load (baseline)      ${ms(b).padStart(10)}`);
  console.log(`time to interactive (Posts)     ${ms(tti).padStart(10)}   ${(tti / b).toFixed(1)}x the blank page; aim <= 500 ms`);
  console.log(`calendar, empty month (base)    ${ms(base).padStart(10)}`);
  console.log(`calendar, month of ${POSTS} posts ${ms(cal).padStart(10)}   ${(cal / base).toFixed(1)}x the empty month; aim <= 300 ms (${shown} entries and "+more" links drawn)`);
  const ok = firstLoad <= 150 * 1024 && tti <= 500 && cal <= 300;
  console.log(ok ? 'every aim met' : 'an aim is missed');
  await context.close();
} finally {
  await browser?.close();
  blank.close();
  admin.close();
  await daemon.close();
  dir.remove();
}
