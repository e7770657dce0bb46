import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { gradientPng } from './support/png';
import { testNow } from './support/test-time';

/**
 * Issue 38, item 1's previews as each network will show them, in Chromium against a real
 * daemon: an Instagram story without its caption, a Pin at 2:3, an X poll as a poll, a
 * thread's replies with their media, the first comment under the post (one preview
 * component per network, src/platforms/).
 */
let browser: Browser;
let d: DashboardDaemon;

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['instagram', 'pinterest', 'twitter', 'mastodon'], agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const inDays = (n: number) => new Date(testNow().getTime() + n * 86_400_000).toISOString();

/** A real JPEG of that size (Instagram stories take JPEG only), encoded by Chromium from a canvas. */
async function jpeg(width: number, height: number): Promise<Buffer> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const b64 = await page.evaluate(([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w!;
      canvas.height = h!;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#d2691e';
      g.fillRect(0, 0, w!, h!);
      return canvas.toDataURL('image/jpeg').split(',')[1]!;
    }, [width, height]);
    return Buffer.from(b64, 'base64');
  } finally {
    await context.close();
  }
}

async function uploaded(name: string, bytes: Buffer): Promise<string> {
  const type = name.endsWith('.jpg') ? 'image/jpeg' : 'image/png';
  const res = await fetch(`${d.url}/api/agents/v1/media/upload?filename=${encodeURIComponent(name)}`, { method: 'POST', headers: { 'X-API-Key': d.key.api_key, 'Content-Type': type }, body: new Uint8Array(bytes) });
  const body = (await res.json()) as { status: string; files: { prepared_url: string }[] };
  expect(body.status).toBe('completed');
  return body.files[0]!.prepared_url;
}

async function reviewPage(): Promise<{ page: Page; w: ReturnType<typeof watch>; close(): Promise<void> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const w = watch(page);
  await d.signIn(page);
  await page.goto(`${d.url}/review`);
  return { page, w, close: () => context.close() };
}

describe('previews as each network shows the post', () => {
  it('shows an Instagram story without its caption and a Pin at 2:3', async () => {
    const image = await uploaded('tall.jpg', await jpeg(400, 600));
    const caption = 'Autumn collection, in stores Friday';
    // Instagram pulls media from a public URL (this daemon has none): the story names a file elsewhere.
    const story1 = await d.sdk.content.publish({
      caption,
      platforms: ['instagram'],
      platform_types: { instagram: ['story'] },
      media_urls: ['https://cdn.example.com/autumn.jpg'],
      scheduled_for: inDays(3),
      require_approval: true,
    });
    const pin1 = await d.sdk.content.publish({ caption, platforms: ['pinterest'], media_urls: [image], scheduled_for: inDays(3), require_approval: true });
    const { page, w, close } = await reviewPage();
    const story = page.getByRole('article', { name: `Post ${story1.job_id}` }).getByRole('region', { name: 'Instagram preview' });
    await story.getByText(/^No caption on the story/).waitFor();
    // The caption is not drawn on the story (it would not be published there), nor counted.
    expect(await story.textContent()).not.toContain(caption);
    expect(await story.getByText(/characters/).count()).toBe(0);
    expect(await story.getByRole('group', { name: 'Instagram story media' }).locator('figcaption').textContent()).toBe('9:16 story');

    const pin = page.getByRole('article', { name: `Post ${pin1.job_id}` }).getByRole('region', { name: 'Pinterest preview' });
    await pin.getByText(caption).waitFor();
    expect(await pin.locator('figcaption').textContent()).toBe('2:3 Pin');
    expect(await pin.textContent()).not.toContain('1:1');
    const box = (await pin.getByRole('img', { name: 'image tall.jpg' }).boundingBox())!;
    expect(box.height / box.width).toBeCloseTo(1.5, 1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.csp).toEqual([]);
    await close();
    await d.sdk.scheduled.cancel(story1.job_id);
    await d.sdk.scheduled.cancel(pin1.job_id);
  });

  it('draws an X poll as a poll, the thread with its media and the first comment under the post', async () => {
    const image = await uploaded('chart.png', gradientPng(320, 180));
    const { job_id } = await d.sdk.content.publish({
      caption: 'Which do you drink in the morning?',
      platforms: ['twitter', 'mastodon'],
      platform_options: {
        twitter: { poll: { options: ['Tea', 'Coffee'], duration_minutes: 1440 } },
        mastodon: { spoiler_text: 'Hot drinks', poll: { options: ['Tea', 'Coffee', 'Neither'], expires_in: 3600, multiple: true } },
      },
      thread: { twitter: [{ caption: 'Last year coffee won 60 to 40.', media_urls: [image] }] },
      first_comment: { twitter: 'Results on Friday' },
      scheduled_for: inDays(3),
      require_approval: true,
    });
    const { page, w, close } = await reviewPage();
    const card = page.getByRole('article', { name: `Post ${job_id}` });
    const x = card.getByRole('region', { name: 'X preview' });
    const poll = x.getByRole('list', { name: 'Poll' });
    await poll.getByText('Coffee').waitFor();
    expect(await poll.getByRole('listitem').allTextContents()).toEqual(['Tea', 'Coffee']);
    await x.getByText('Open for 1 day').waitFor();
    // Never the request's JSON.
    expect(await card.textContent()).not.toMatch(/[{}"]|duration_minutes|options:/);

    const thread = x.getByRole('region', { name: 'Thread on X' });
    await thread.getByText('Last year coffee won 60 to 40.').waitFor();
    await thread.getByRole('img', { name: 'image chart.png' }).waitFor();
    expect(await thread.textContent()).not.toContain('(+1 media)');
    await thread.getByText(/of 280 characters/).waitFor();

    const comment = x.getByRole('region', { name: 'First comment on X' });
    await comment.getByText('Results on Friday').waitFor();
    // Under the post: after its text and its poll in the card.
    const order = await x.evaluate((el) => {
      const text = el.querySelector('.caption-text')!;
      const c = el.querySelector('.first-comment')!;
      return (text.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    });
    expect(order).toBe(true);

    // Mastodon: the content warning first, the text folded behind it; its poll allows several choices.
    const m = card.getByRole('region', { name: 'Mastodon preview' });
    await m.getByText('Content warning: Hot drinks').waitFor();
    await m.getByText('Neither').waitFor();
    expect(await m.getByText('Which do you drink in the morning?').isVisible()).toBe(false);
    expect(await m.getByRole('list', { name: 'Poll' }).getByRole('listitem').allTextContents()).toEqual(['Tea', 'Coffee', 'Neither']);
    await m.getByText('Several choices allowed · Open for 1 hour').waitFor();
    expect(await m.getByRole('region', { name: 'First comment on Mastodon' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.csp).toEqual([]);
    expect(w.errors).toEqual([]);
    await close();
    await d.sdk.scheduled.cancel(job_id);
  });
});
