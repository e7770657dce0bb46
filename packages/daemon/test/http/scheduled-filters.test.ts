import { describe, expect, it } from 'vitest';
import { API, errorOf, harness, type Harness } from './harness';

/**
 * GET /content/scheduled's narrowing filters (issue 38, item 5: the dashboard's search and
 * filters in Review and Posts): network, a target's status (a partly failed post is found by
 * target_status=failed), source, text, and a time range; they combine with status and paging.
 */
const SCHEDULED = `${API}/content/scheduled`;
// The harness clock is 2026-12-25 09:00 UTC: days from the 26th on are ahead of it.
const at = (day: number, hour = 10) => new Date(Date.UTC(2026, 11, day + 10, hour)).toISOString();

async function publish(h: Harness, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const res = await h.call('POST', `${API}/content/publish`, { body, headers });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

async function ids(h: Harness, query: string): Promise<string[]> {
  const res = await h.call('GET', `${SCHEDULED}${query}`);
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return ((await res.json()) as { posts: { job_id: string }[] }).posts.map((p) => p.job_id);
}

describe('GET /content/scheduled filters', () => {
  it('narrows by network, text (any case, % and _ taken literally, or the job id), source and time range', async () => {
    const h = harness();
    h.connect(['twitter', 'threads']);
    const a = await publish(h, { caption: 'Spring SALE starts Monday', platforms: ['twitter'], scheduled_for: at(20) });
    const b = await publish(h, { caption: 'Hello', platform_captions: { threads: 'Our spring sale, on Threads' }, platforms: ['twitter', 'threads'], scheduled_for: at(22) });
    const c = await publish(h, { caption: '100% cotton_shirts', platforms: ['threads'], scheduled_for: at(24) }, { 'X-SocialPub-Source': 'cli' });

    expect(await ids(h, '?platform=threads')).toEqual([b, c]);
    expect(await ids(h, '?q=spring%20sale')).toEqual([a, b]);
    expect(await ids(h, '?q=SPRING&platform=twitter')).toEqual([a, b]);
    expect(await ids(h, '?q=0%25%20c')).toEqual([c]);
    expect(await ids(h, '?q=n_s')).toEqual([c]);
    expect(await ids(h, '?q=1_0')).toEqual([]);
    expect(await ids(h, `?q=${b}`)).toEqual([b]);
    expect(await ids(h, '?source=cli')).toEqual([c]);
    expect(await ids(h, `?from=${at(21)}&to=${at(24)}`)).toEqual([b]);
    expect(await ids(h, `?from=${at(21)}&limit=1`)).toEqual([b]);
    // Paging through a filtered list keeps the filter.
    const first = (await (await h.call('GET', `${SCHEDULED}?platform=threads&limit=1`)).json()) as { next_cursor: string };
    expect(await ids(h, `?platform=threads&limit=1&cursor=${first.next_cursor}`)).toEqual([c]);
    expect(await ids(h, '?status=scheduled&platform=twitter&q=hello')).toEqual([b]);
    expect(await ids(h, '?status=cancelled&platform=twitter')).toEqual([]);
  });

  it('finds a partly failed post with target_status=failed, which status=failed misses', async () => {
    const h = harness();
    h.connect(['twitter', 'threads']);
    const partly = await publish(h, { caption: 'Two networks', platforms: ['twitter', 'threads'], scheduled_for: at(20) });
    const whole = await publish(h, { caption: 'One network', platforms: ['twitter'], scheduled_for: at(21) });
    await publish(h, { caption: 'Fine', platforms: ['twitter'], scheduled_for: at(22) });
    h.db.prepare("UPDATE targets SET status = 'published' WHERE job_id = ? AND platform = 'threads'").run(partly);
    h.db.prepare("UPDATE targets SET status = 'failed' WHERE job_id = ? AND platform = 'twitter'").run(partly);
    h.db.prepare("UPDATE targets SET status = 'failed' WHERE job_id = ?").run(whole);
    expect(await ids(h, '?status=failed')).toEqual([whole]);
    expect(await ids(h, '?status=partially_published')).toEqual([partly]);
    expect(await ids(h, '?target_status=failed')).toEqual([partly, whole]);
  });

  it('answers 400 for an unknown network, target status or source, an empty or long q, and a time without a zone', async () => {
    const h = harness();
    for (const q of ['?platform=myspace', '?target_status=done', '?source=fax', '?q=', `?q=${'x'.repeat(201)}`, '?from=2026-12-20T10:00', '?to=tomorrow']) {
      const res = await h.call('GET', `${SCHEDULED}${q}`);
      expect(res.status, q).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
  });
});
