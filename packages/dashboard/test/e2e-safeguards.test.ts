import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { gradientPng } from './support/png';
import { testNow } from './support/test-time';
import { recordMp4 } from './support/video';

/**
 * Issue 38's "nothing lost, nothing doubled, no accidents, names people read" in Chromium
 * against a real daemon: a refused caption edit keeps its text, a double click on Schedule
 * makes one post, Take down / Remove connection ask first (dismissing changes nothing), a
 * pending video plays in its preview, an image opens at full size, and no screen says
 * "Linkedin", "Tiktok", "Youtube" or a counter's internal name.
 */
let browser: Browser;
let d: DashboardDaemon;
const ZONE = 'Europe/Berlin';
const NETWORKS = ['twitter', 'threads', 'linkedin', 'tiktok', 'youtube', 'bluesky'];

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: NETWORKS, zone: ZONE, agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const inDays = (n: number) => new Date(testNow().getTime() + n * 86_400_000);
const ymd = (date: Date) => date.toISOString().slice(0, 10);

async function signedIn(): Promise<{ page: Page; close(): Promise<void>; w: ReturnType<typeof watch> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const w = watch(page);
  await d.signIn(page);
  return { page, w, close: () => context.close() };
}

/** Uploads bytes through POST /media/upload with the key; answers the prepared file's URL. */
async function uploaded(name: string, type: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`${d.url}/api/agents/v1/media/upload?filename=${encodeURIComponent(name)}`, { method: 'POST', headers: { 'X-API-Key': d.key.api_key, 'Content-Type': type }, body: new Uint8Array(bytes) });
  const body = (await res.json()) as { status: string; files: { prepared_url: string }[] };
  expect(res.status).toBeLessThan(300);
  expect(body.status).toBe('completed');
  return body.files[0]!.prepared_url;
}

async function postsWithCaption(caption: string) {
  const all = [];
  for await (const p of d.sdk.scheduled.list({ status: 'all', limit: 200 })) if (p.caption === caption) all.push(p);
  return all;
}

describe('nothing lost, nothing doubled', () => {
  it('keeps the typed text in the editor when the server refuses a caption edit, and says why', async () => {
    const r = await d.sdk.content.publish({ caption: 'Keep my words', platforms: ['twitter'], scheduled_for: inDays(3).toISOString(), require_approval: true });
    const { page, close } = await signedIn();
    await page.goto(`${d.url}/review`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    await card.getByRole('button', { name: 'Edit X caption' }).click();
    const typed = `A long thought that X will not take. ${'word '.repeat(60)}`.trim();
    await card.getByLabel('Caption for X').fill(typed);
    await card.getByRole('button', { name: 'Save caption' }).click();
    const why = card.getByRole('alert').filter({ hasText: 'Not saved' });
    await why.waitFor();
    expect(await why.textContent()).toMatch(/280/);
    // The editor is still open, with every character typed.
    expect(await card.getByLabel('Caption for X').inputValue()).toBe(typed);
    expect((await d.sdk.scheduled.get(r.job_id)).post.platform_captions).toEqual({});
    // Fixed and saved again: the editor closes.
    await card.getByLabel('Caption for X').fill('Short enough now');
    await card.getByRole('button', { name: 'Save caption' }).click();
    await page.getByRole('status').filter({ hasText: `Updated ${r.job_id}` }).waitFor();
    expect((await d.sdk.scheduled.get(r.job_id)).post.platform_captions).toEqual({ twitter: 'Short enough now' });
    await d.sdk.scheduled.cancel(r.job_id);
    await close();
  });

  it("edits the caption of another account's target (twitter:brand) and saves it for that account only", async () => {
    await d.sdk.connections.connectSandbox({ platform: 'twitter', label: 'brand' });
    const r = await d.sdk.content.publish({ caption: 'One post, two X accounts', platforms: ['twitter', 'twitter:brand'], scheduled_for: inDays(3).toISOString(), require_approval: true });
    const { page, close, w } = await signedIn();
    await page.goto(`${d.url}/review`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    // Named as the page names the account elsewhere, never the request's key.
    await card.getByRole('button', { name: 'Edit X (brand) caption' }).click();
    await card.getByLabel('Caption for X (brand)').fill('The brand says it its way');
    await card.getByText('25 of 280 characters', { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Save caption' }).click();
    await page.getByRole('status').filter({ hasText: `Updated ${r.job_id}` }).waitFor();
    expect((await d.sdk.scheduled.get(r.job_id)).post.platform_captions).toEqual({ 'twitter:brand': 'The brand says it its way' });
    expect(w.errors).toEqual([]);
    await d.sdk.scheduled.cancel(r.job_id);
    await close();
  });

  it('composes one post to two accounts of X (X and X (brand)), with a caption of its own for the brand', async () => {
    await d.sdk.connections.connectSandbox({ platform: 'twitter', label: 'brand' });
    const { page, close, w } = await signedIn();
    await page.goto(`${d.url}/compose`);
    const caption = `Two accounts ${randomUUID().slice(0, 8)}`;
    await page.getByRole('checkbox', { name: 'X', exact: true }).check();
    await page.getByRole('checkbox', { name: 'X (brand)', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill(caption);
    await page.getByLabel('Caption for X (brand) (empty: the caption above)').fill(`${caption}, says the brand`);
    await page.getByLabel(/^Time \(/).fill(`${ymd(inDays(4))}T11:30`);
    await page.getByRole('status').filter({ hasText: 'Ready: 2 targets.' }).waitFor();
    // A preview per account, named as the account.
    await page.getByRole('region', { name: 'X (brand) preview' }).getByText(`${caption}, says the brand`).waitFor();
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('status').filter({ hasText: /Scheduled for .* on X, X \(brand\) \(job_/ }).waitFor();
    const [made] = await postsWithCaption(caption);
    expect(made!.platforms).toEqual(['twitter', 'twitter:brand']);
    expect(made!.platform_captions).toEqual({ 'twitter:brand': `${caption}, says the brand` });
    expect(made!.targets.map((t) => t.label)).toEqual(['default', 'brand']);
    expect(w.errors).toEqual([]);
    await d.sdk.scheduled.cancel(made!.job_id);
    await close();
  });

  it('makes one post from a double click on Schedule, and turns the form into "Scheduled — view it"', async () => {
    const { page, close, w } = await signedIn();
    await page.goto(`${d.url}/compose`);
    // A caption no other post of this daemon has (not a date: the tests' clock is pinned).
    const caption = `Double click test ${randomUUID().slice(0, 8)}`;
    await page.getByRole('checkbox', { name: 'X', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill(caption);
    const day = ymd(inDays(4));
    await page.getByLabel(/^Time \(/).fill(`${day}T10:30`);
    await page.getByRole('status').filter({ hasText: 'Ready: 1 target.' }).waitFor();
    await page.getByRole('button', { name: 'Schedule' }).dblclick();
    await page.getByRole('heading', { name: 'Scheduled' }).waitFor();
    const made = page.getByRole('status').filter({ hasText: /Scheduled for .* on X \(job_/ });
    await made.waitFor();
    // Nothing left to press twice.
    expect(await page.getByRole('button', { name: 'Schedule' }).count()).toBe(0);
    const posts = await postsWithCaption(caption);
    expect(posts).toHaveLength(1);
    expect(await made.textContent()).toContain(posts[0]!.job_id);
    expect(await seriousViolations(page)).toEqual([]);
    // View it: the calendar at the post's day shows it.
    await page.getByRole('link', { name: 'View it in the calendar' }).click();
    await page.waitForURL(new RegExp(`/calendar\\?date=${day}$`));
    await page.locator('.fc-event', { hasText: caption }).first().waitFor();
    // Compose another: an empty form.
    await page.getByRole('link', { name: 'Compose' }).click();
    expect(await page.getByLabel('Caption', { exact: true }).inputValue()).toBe('');
    expect(await postsWithCaption(caption)).toHaveLength(1);
    expect(w.errors).toEqual([]);
    await d.sdk.scheduled.cancel(posts[0]!.job_id);
    await close();
  });
});

describe('asks first', () => {
  it('asks before Cancel, naming what will not be published; dismissing keeps the post scheduled', async () => {
    const r = await d.sdk.content.publish({ caption: 'Cancel me, but only if I say so', platforms: ['twitter', 'linkedin'], scheduled_for: inDays(6).toISOString() });
    const { page, close, w } = await signedIn();
    await page.goto(`${d.url}/posts`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    await card.getByRole('button', { name: 'Cancel' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Cancel this post?' });
    await ask.waitFor();
    expect(await ask.textContent()).toMatch(/X post \(.+\), LinkedIn post \(.+\) will not be published/);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it scheduled');
    expect(await seriousViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Keep it scheduled' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('scheduled');
    // Confirmed: cancelled.
    await card.getByRole('button', { name: 'Cancel' }).click();
    await ask.getByRole('button', { name: 'Cancel the post' }).click();
    await ask.waitFor({ state: 'hidden' });
    await vi.waitFor(async () => expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('cancelled'), { timeout: 5_000, interval: 100 });
    expect(w.dialogs).toEqual([]);
    expect(w.errors).toEqual([]);
    await close();
  });

  it('asks before Take down; dismissing leaves the post up', async () => {
    const r = await d.sdk.content.publish({ caption: 'Live and staying', platforms: ['twitter'], publish_now: true });
    await vi.waitFor(async () => expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('published'), { timeout: 15_000, interval: 200 });
    const { page, close, w } = await signedIn();
    await page.goto(`${d.url}/posts`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    await card.getByRole('button', { name: 'Take down' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Take down this post?' });
    await ask.waitFor();
    expect(await ask.textContent()).toContain('This deletes the post from X post');
    // The safe choice has the focus.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it up');
    expect(await seriousViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Keep it up' }).click();
    await ask.waitFor({ state: 'hidden' });
    // Escape dismisses too.
    await card.getByRole('button', { name: 'Take down' }).click();
    await ask.waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'hidden' });
    const post = (await d.sdk.scheduled.get(r.job_id)).post;
    expect(post.status).toBe('published');
    expect(post.targets[0]!.removal ?? null).toBeNull();
    expect(await card.getByRole('button', { name: 'Take down' }).isEnabled()).toBe(true);
    expect(w.dialogs).toEqual([]);
    await close();
  });

  it('says how many posts are scheduled on a connection before removing it; dismissing keeps it', async () => {
    const one = await d.sdk.content.publish({ caption: 'Bluesky one', platforms: ['bluesky'], scheduled_for: inDays(2).toISOString() });
    const two = await d.sdk.content.publish({ caption: 'Bluesky two', platforms: ['bluesky', 'twitter'], scheduled_for: inDays(5).toISOString(), require_approval: true });
    const { page, close } = await signedIn();
    await page.goto(`${d.url}/connections`);
    await page.getByRole('listitem').filter({ hasText: 'Bluesky' }).getByRole('button', { name: 'Remove Bluesky' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Remove the Bluesky connection?' });
    await ask.waitFor();
    const text = (await ask.textContent())!;
    expect(text).toContain('2 posts are scheduled on Bluesky.');
    expect(text).toContain('They are not cancelled');
    expect(text).toContain('they fail for Bluesky with "not connected"');
    expect(await seriousViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Keep the connection' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect((await d.sdk.platforms.list()).platforms.find((p) => p.platform === 'bluesky')?.connection).toMatchObject({ status: 'active' });
    expect((await d.sdk.scheduled.get(one.job_id)).post.status).toBe('scheduled');
    expect((await d.sdk.scheduled.get(two.job_id)).post.status).toBe('pending_approval');
    for (const id of [one.job_id, two.job_id]) await d.sdk.scheduled.cancel(id);
    await close();
  });
});

describe('previews', () => {
  it('plays a pending video in its preview, with controls', async () => {
    const clip = await uploaded('clip.mp4', 'video/mp4', await recordMp4(browser));
    const r = await d.sdk.content.publish({ caption: 'Watch this', platforms: ['twitter'], media_urls: [clip], scheduled_for: inDays(2).toISOString(), require_approval: true });
    const { page, close } = await signedIn();
    await page.goto(`${d.url}/review`);
    const video = page.getByRole('article', { name: `Post ${r.job_id}` }).locator('video').first();
    await video.waitFor();
    expect(await video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(true);
    const src = await video.evaluate((v: HTMLVideoElement) => v.currentSrc || v.src);
    const res = await page.request.get(src);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^video\//);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);
    expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
    await d.sdk.scheduled.cancel(r.job_id);
    await close();
  });

  it('opens an image preview at full size', async () => {
    const image = await uploaded('wide photo.png', 'image/png', gradientPng(900, 300));
    const r = await d.sdk.content.publish({ caption: 'See it whole', platforms: ['twitter'], media_urls: [image], scheduled_for: inDays(2).toISOString(), require_approval: true });
    const { page, close } = await signedIn();
    await page.goto(`${d.url}/review`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    await card.getByRole('button', { name: /open at full size/ }).first().click();
    const full = page.getByRole('dialog', { name: /at full size$/ });
    await full.waitFor();
    const img = full.getByRole('img');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(900);
    expect(await img.evaluate((i: HTMLImageElement) => Math.round(i.getBoundingClientRect().width))).toBe(900);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await full.waitFor({ state: 'hidden' });
    await d.sdk.scheduled.cancel(r.job_id);
    await close();
  });
});

describe('names people read', () => {
  it('never says "Linkedin", "Tiktok", "Youtube", "Twitter Tweet" or a counter\'s internal name', async () => {
    const when = inDays(3);
    const r = await d.sdk.content.publish({
      caption: 'Everywhere at once 👋 https://example.com/a #names',
      platforms: ['twitter', 'threads', 'linkedin', 'bluesky'],
      scheduled_for: when.toISOString(),
      require_approval: true,
    });
    const { page, close } = await signedIn();
    const WRONG = /Linkedin|Tiktok|Youtube|Twitter Tweet|x-weighted|threads-utf8-emoji|utf16|graphemes|\d+ \/ \d+/;
    const seen: string[] = [];
    const check = async (what: string) => {
      const text = await page.evaluate(() => document.body.innerText);
      seen.push(what);
      expect(text, what).not.toMatch(WRONG);
    };
    await page.goto(`${d.url}/review`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    await card.getByRole('region', { name: 'LinkedIn preview' }).waitFor();
    expect(await card.getByRole('region', { name: 'X preview' }).locator('.counter').first().textContent()).toMatch(/^\d+ of 280 characters/);
    await check('review');
    await page.goto(`${d.url}/calendar?date=${ymd(when)}`);
    await page.locator('.fc-event', { hasText: 'Everywhere at once' }).first().waitFor();
    expect(await page.locator('.fc-event', { hasText: 'Everywhere at once' }).first().textContent()).toContain('LinkedIn');
    await check('calendar');
    await page.goto(`${d.url}/compose`);
    for (const name of ['X', 'Threads', 'LinkedIn', 'TikTok', 'YouTube', 'Bluesky']) await page.getByRole('checkbox', { name, exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill('Counted in words');
    await page.getByRole('region', { name: 'TikTok preview' }).waitFor();
    // The previews follow the caption as it is typed: wait for the counter to catch up (CI saw "0 of").
    await expect.poll(() => page.getByRole('region', { name: 'YouTube preview' }).locator('.counter').first().textContent()).toBe('16 of 5,000 characters (an accented letter counts as 2, an emoji as 4)');
    await check('compose');
    for (const path of ['/posts', '/connections', '/settings']) {
      await page.goto(`${d.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await check(path);
    }
    expect(seen).toHaveLength(6);
    await d.sdk.scheduled.cancel(r.job_id);
    await close();
  });
});
