import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';

/**
 * The Inbox screen in Chromium (issue 37): a reader's comment on a published Mastodon status
 * shows with its post; a second one arrives live; an MCP agent's reply waits for approval and
 * goes out once when a person approves it here; a reply written in place goes out once.
 */
let browser: Browser;
let d: DashboardDaemon;
let mastodon: string;

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['mastodon'], agentApproval: true })]);
  mastodon = `${d.url}/sandbox/mastodon.social`;
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

/** A reader's reply (the simulator's test tokens are its own @sandbox account, not the connection's). */
async function readerReplies(statusId: string, text: string): Promise<string> {
  const res = await fetch(`${mastodon}/api/v1/statuses`, { method: 'POST', headers: { authorization: 'Bearer sandbox-dashboard-reader', 'content-type': 'application/json' }, body: JSON.stringify({ status: text, in_reply_to_id: statusId }) });
  return ((await res.json()) as { id: string }).id;
}
const repliesUnder = async (statusId: string): Promise<string[]> =>
  ((await (await fetch(`${mastodon}/api/v1/statuses/${statusId}/context`, { headers: { authorization: 'Bearer sandbox-dashboard-reader' } })).json()) as { descendants: { content: string; in_reply_to_id: string }[] }).descendants
    .filter((s) => s.in_reply_to_id === statusId)
    .map((s) => s.content);

describe('the inbox', () => {
  it("lists comments with their post, live; an agent's reply goes out once after approval on Review, another is declined in the Inbox; a reply in place goes out once", { timeout: 60_000 }, async () => {
    const job = await d.sdk.content.publish({ caption: 'Ask us anything', platforms: ['mastodon'], publish_now: true });
    await expect.poll(async () => (await d.sdk.scheduled.get(job.job_id)).post.status, { timeout: 20_000, interval: 100 }).toBe('published');
    const statusId = (await d.sdk.scheduled.get(job.job_id)).post.targets[0]!.post_id!;
    const first = await readerReplies(statusId, 'Does it <b>escape</b> HTML?');
    await d.sdk.inbox.refresh();

    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    const firstCard = page.getByRole('article').filter({ hasText: 'Does it <b>escape</b> HTML?' });
    await firstCard.waitFor();
    // The author's words as text, the post it answers named.
    expect(await firstCard.locator('b').count()).toBe(0);
    expect(await firstCard.getByRole('link', { name: `the post ${job.job_id}` }).count()).toBe(1);
    expect(await page.getByText('1 unread').count()).toBe(1);

    // A second comment arrives while the screen is open: comment.received brings it.
    await readerReplies(statusId, 'And the dashboard?');
    await d.sdk.inbox.refresh();
    const secondCard = page.getByRole('article').filter({ hasText: 'And the dashboard?' });
    await secondCard.waitFor();

    // An agent replies to both through MCP: held for approval (agent-approval is on).
    const items = (await d.sdk.inbox.list()).items;
    const firstItem = items.find((i) => i.comment_id === first)!;
    const secondItem = items.find((i) => i.comment_id !== first)!;
    const agent = await d.mcp();
    for (const [it, text] of [[firstItem, 'Yes: as text, always.'], [secondItem, 'Drafted, but not what we want.']] as const) {
      const held = (await agent.callTool({ name: 'reply_to_comment', arguments: { id: it.id, text } })) as CallToolResult;
      expect((held.structuredContent as { reply: { state: string } }).reply.state).toBe('pending_approval');
    }
    await agent.close();
    // Review lists the held replies beside the posts; approved there, the first goes out once.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Review' }).click();
    const heldCard = page.getByRole('article', { name: 'Reply to @sandbox' }).filter({ hasText: 'Yes: as text, always.' });
    await heldCard.getByText('Does it <b>escape</b> HTML?').waitFor();
    await screenshot(page, 'review-held-reply');
    await heldCard.getByRole('button', { name: 'Approve reply' }).click();
    await page.getByRole('status').filter({ hasText: /Approved reply rpl_\w+: it is sent once/ }).waitFor();
    await expect.poll(() => repliesUnder(first), { timeout: 10_000, interval: 100 }).toEqual(['<p>Yes: as text, always.</p>']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await firstCard.getByText('sent', { exact: true }).waitFor();
    // The second is declined in the Inbox: nothing is sent.
    await secondCard.getByRole('button', { name: 'Decline reply' }).click();
    await secondCard.getByText('rejected', { exact: true }).waitFor();
    expect(await repliesUnder(secondItem.comment_id)).toEqual([]);

    // A reply written in place, sent with a double click: one reply.
    await secondCard.getByLabel('Reply to @sandbox').fill('Yes, there is an Inbox screen.');
    await secondCard.getByRole('button', { name: 'Send reply' }).dblclick();
    const second = secondItem.comment_id;
    await expect.poll(() => repliesUnder(second), { timeout: 10_000, interval: 100 }).toEqual(['<p>Yes, there is an Inbox screen.</p>']);
    await secondCard.getByText('replied', { exact: true }).waitFor();
    expect(await repliesUnder(first)).toHaveLength(1);

    // Our first reply deleted from the network in place: gone there, marked deleted here.
    await firstCard.getByRole('button', { name: 'Delete reply from Mastodon' }).click();
    await page.getByRole('status').filter({ hasText: /Deleted reply rpl_\w+ from Mastodon/ }).waitFor();
    expect(await repliesUnder(first)).toEqual([]);
    await firstCard.getByText('deleted', { exact: true }).waitFor();

    await screenshot(page, 'inbox');
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(w.csp).toEqual([]);
    await context.close();
  });
});
