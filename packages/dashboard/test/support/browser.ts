import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { testClock } from './test-time';

export type { Browser, Page };

/**
 * Debian's Chromium driven by playwright-core (no browser is ever downloaded). One browser
 * per test file; a fresh context (its own cookies and storage) per person. Playwright gives
 * each launch a fresh temporary profile directory.
 */
export const CHROMIUM = process.env.SOCIALPUB_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** What a page did that a test must see: CSP refusals, script errors, dialogs (an `alert` from injected markup). */
export interface Watch {
  csp: string[];
  errors: string[];
  dialogs: string[];
}

/**
 * A person's browser: its own cookies and storage, Berlin's time zone, and its clock
 * installed at the tests' "now" (support/test-time.ts; `opts.now` for a test whose daemon
 * runs on a clock of its own), flowing from there.
 */
export async function newContext(browser: Browser, opts: { width?: number; dark?: boolean; now?: number } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: 900 },
    colorScheme: opts.dark ? 'dark' : 'light',
    timezoneId: 'Europe/Berlin',
    locale: 'en-GB',
  });
  await context.clock.install({ time: opts.now ?? testClock.now() });
  // Fail with Playwright's own message well before the test's timeout.
  context.setDefaultTimeout(10_000);
  return context;
}

export function watch(page: Page): Watch {
  const w: Watch = { csp: [], errors: [], dialogs: [] };
  page.on('console', (m) => {
    const t = m.text();
    if (/Content Security Policy/i.test(t)) w.csp.push(t);
    else if (m.type() === 'error' && !/Failed to load resource/.test(t)) w.errors.push(t);
  });
  page.on('pageerror', (e) => w.errors.push(String(e)));
  page.on('dialog', (d) => {
    w.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return w;
}

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. axe is evaluated
 * through the DevTools protocol (not an inline script, which the page's CSP refuses).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string; failureSummary?: string }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} ${n.failureSummary ?? ''}`.trim()) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const SHOTS = fileURLToPath(new URL('../../../../docs/dashboard/', import.meta.url));

/**
 * A screenshot for docs/dashboard.md: taken when missing, or every time with
 * SOCIALPUB_DOC_SCREENSHOTS=1 (so an ordinary test run leaves the checkout unchanged).
 */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  const path = join(SHOTS, `${name}.png`);
  if (existsSync(path) && !process.env.SOCIALPUB_DOC_SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path, fullPage });
}

/**
 * Elements reaching past the viewport's right edge, so that the page scrolls sideways
 * (leaves only; content of a box that scrolls on its own, like a wide table's, is fine).
 */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll('body *')) {
      if (inScroller(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right > innerWidth + 0.5 && r.width > 0 && !el.querySelector('*')) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${Math.round(r.right)}px: ${(el.textContent ?? '').slice(0, 40)}`);
    }
    return out.slice(0, 8);
  });
}
