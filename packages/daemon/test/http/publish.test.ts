import { describe, expect, it } from 'vitest';
import { createAdapters } from '../../src/platforms/registry';
import { API, errorOf, harness } from './harness';

const PUBLISH = `${API}/content/publish`;
type Result = {
  success: boolean;
  job_id: string;
  status: string;
  scheduled_for: string | null;
  platforms: string[];
  message: string;
  targets: { platform: string; type: string; scheduled_for: string; status: string }[];
};

const scheduled = (extra: Record<string, unknown> = {}) => ({ caption: 'hello', platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00Z', ...extra });

async function publishOk(h: ReturnType<typeof harness>, body: unknown, headers?: Record<string, string>): Promise<Result> {
  const res = await h.call('POST', PUBLISH, { body, headers });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as Result;
}

async function expect400(h: ReturnType<typeof harness>, body: unknown, path: string | RegExp) {
  const res = await h.call('POST', PUBLISH, { body });
  expect(res.status).toBe(400);
  const e = await errorOf(res);
  expect(e.code).toBe('invalid_request');
  expect(e.details?.map((d) => d.path).some((p) => (typeof path === 'string' ? p === path : path.test(p)))).toBe(true);
  return e;
}

describe('POST /content/publish: timing', () => {
  it('staggers content types from the base: story +0h and feed +1h at base 10:00 give 10:00 and 11:00', async () => {
    const h = harness();
    h.connect(['instagram']);
    const r = await publishOk(h, {
      caption: 'launch',
      platforms: ['instagram'],
      platform_types: { instagram: ['story', 'feed'] },
      media_urls: ['https://cdn.example.com/a.jpg'],
      scheduled_for: '2026-12-25T10:00:00Z',
      type_schedule: { story: '+0h', feed: '+1h' },
    });
    expect(r.status).toBe('scheduled');
    expect(r.scheduled_for).toBe('2026-12-25T10:00:00.000Z');
    // Each target names the account it goes through (issue 39): the only, default one here.
    expect(r.targets).toEqual([
      { platform: 'instagram', label: 'default', connection_id: expect.stringMatching(/^con_/), type: 'story', scheduled_for: '2026-12-25T10:00:00.000Z', status: 'scheduled' },
      { platform: 'instagram', label: 'default', connection_id: expect.stringMatching(/^con_/), type: 'feed', scheduled_for: '2026-12-25T11:00:00.000Z', status: 'scheduled' },
    ]);
  });

  it('takes absolute times and platform.type keys, the most specific key winning', async () => {
    const h = harness();
    h.connect(['instagram', 'facebook', 'twitter']);
    const r = await publishOk(h, {
      caption: 'x',
      platforms: ['instagram', 'facebook', 'twitter'],
      platform_types: { instagram: ['story', 'feed'], facebook: ['story'] },
      media_urls: ['https://cdn.example.com/a.jpg'],
      scheduled_for: '2026-12-25T10:00:00Z',
      type_schedule: { story: '+30m', 'instagram.story': '2026-12-26T08:15:00+01:00', twitter: '+2h15m' },
    });
    const when = Object.fromEntries(r.targets.map((t) => [`${t.platform}.${t.type}`, t.scheduled_for]));
    expect(when).toEqual({
      'instagram.story': '2026-12-26T07:15:00.000Z',
      'instagram.feed': '2026-12-25T10:00:00.000Z',
      'facebook.story': '2026-12-25T10:30:00.000Z',
      'twitter.tweet': '2026-12-25T12:15:00.000Z',
    });
  });

  it('publishes now: due at once, scheduled_for null, status publishing', async () => {
    const h = harness();
    h.connect(['twitter']);
    const r = await publishOk(h, { caption: 'now', platforms: ['twitter'], publish_now: true });
    expect(r.status).toBe('publishing');
    expect(r.scheduled_for).toBeNull();
    expect(r.targets[0]!.scheduled_for).toBe(new Date(h.clock.now()).toISOString());
  });

  it('accepts a base up to 60 s in the past (due now) and refuses one further back', async () => {
    const h = harness();
    h.connect(['twitter']);
    const ok = await publishOk(h, scheduled({ scheduled_for: new Date(h.clock.now() - 60_000).toISOString() }));
    expect(ok.status).toBe('scheduled');
    await expect400(h, scheduled({ scheduled_for: new Date(h.clock.now() - 61_000).toISOString() }), 'scheduled_for');
  });

  it('answers 400 for neither publish_now nor scheduled_for, and for both', async () => {
    const h = harness();
    await expect400(h, { caption: 'x', platforms: ['twitter'] }, 'scheduled_for');
    await expect400(h, scheduled({ publish_now: true }), 'scheduled_for');
  });

  it('answers 400 for type_schedule with publish_now', async () => {
    const h = harness();
    await expect400(h, { caption: 'x', platforms: ['twitter'], publish_now: true, type_schedule: { tweet: '+1h' } }, 'type_schedule');
  });

  it('answers 400 for a date without zone, a date alone, an impossible date, and prose', async () => {
    const h = harness();
    for (const v of ['2026-12-25T10:00:00', '2026-12-25', '2026-02-30T10:00:00Z', 'tomorrow at ten']) {
      await expect400(h, scheduled({ scheduled_for: v }), 'scheduled_for');
    }
  });

  it('answers 400 for a type_schedule key that matches no target, and for a malformed offset', async () => {
    const h = harness();
    await expect400(h, scheduled({ type_schedule: { story: '+1h' } }), 'type_schedule.story');
    await expect400(h, scheduled({ type_schedule: { tweet: '1h' } }), 'type_schedule.tweet');
    await expect400(h, scheduled({ type_schedule: { tweet: '+8761h' } }), 'type_schedule.tweet');
  });
});

describe('POST /content/publish: fields', () => {
  it('answers 400 when caption is missing or empty', async () => {
    const h = harness();
    const e = await expect400(h, { platforms: ['twitter'], publish_now: true }, 'caption');
    expect(e.message).toMatch(/caption/);
    await expect400(h, { caption: '   ', platforms: ['twitter'], publish_now: true }, 'caption');
  });

  it('answers 400 when platforms is missing, empty, unknown or repeated', async () => {
    const h = harness();
    await expect400(h, { caption: 'x', publish_now: true }, 'platforms');
    await expect400(h, { caption: 'x', platforms: [], publish_now: true }, 'platforms');
    await expect400(h, { caption: 'x', platforms: ['myspace'], publish_now: true }, /^platforms/);
    await expect400(h, { caption: 'x', platforms: ['twitter', 'twitter'], publish_now: true }, 'platforms.1');
  });

  it('answers 400 for a wrong type of a known field', async () => {
    const h = harness();
    await expect400(h, { caption: 42, platforms: ['twitter'], publish_now: true }, 'caption');
    await expect400(h, { caption: 'x', platforms: 'twitter', publish_now: true }, 'platforms');
    await expect400(h, { caption: 'x', platforms: ['twitter'], publish_now: 'yes' }, 'publish_now');
  });

  it('ignores unknown fields', async () => {
    const h = harness();
    h.connect(['twitter']);
    const r = await publishOk(h, scheduled({ colour: 'blue', nested: { a: 1 } }));
    expect(r.success).toBe(true);
  });

  it('answers 400 for captions or types of platforms not in the request, and names the allowed types', async () => {
    const h = harness();
    await expect400(h, scheduled({ platform_captions: { threads: 'x' } }), 'platform_captions.threads');
    const e = await expect400(h, scheduled({ platforms: ['instagram'], platform_types: { instagram: ['tweet'] } }), 'platform_types.instagram.0');
    expect(e.details![0]!.message).toContain('feed, story, reels');
  });

  it('answers 400 for more than 10 media_urls and for a URL that is not http(s)', async () => {
    const h = harness();
    const urls = Array.from({ length: 11 }, (_, i) => `https://cdn.example.com/${i}.jpg`);
    await expect400(h, scheduled({ media_urls: urls }), 'media_urls');
    await expect400(h, scheduled({ media_urls: ['ftp://example.com/a.jpg'] }), 'media_urls.0');
  });

  it('answers 400 for a media URL with a user name or password, as /media/prepare does, and stores nothing', async () => {
    const h = harness();
    h.connect(['twitter']);
    for (const url of ['http://u:p@cdn.example.com/x.jpg', 'https://u@cdn.example.com/x.jpg', 'https://:p@cdn.example.com/x.jpg']) {
      const e = await expect400(h, scheduled({ media_urls: ['https://cdn.example.com/ok.jpg', url] }), 'media_urls.1');
      expect(e.message).toBe('media_urls.1: URLs with a user name or password are not accepted');
      expect(JSON.stringify(e)).not.toContain(':p@');
    }
    expect(h.db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 0 });
  });

  it('checks platform rules: media a type needs, caption length per platform caption', async () => {
    const h = harness();
    h.connect(['instagram', 'twitter']);
    const story = await expect400(h, scheduled({ platforms: ['instagram'], platform_types: { instagram: ['story'] } }), 'media_urls');
    expect(story.message).toMatch(/instagram story needs at least 1/);
    await expect400(h, scheduled({ platform_captions: { twitter: 'x'.repeat(281) } }), 'platform_captions.twitter');
    const video = await expect400(h, scheduled({ platforms: ['instagram'], platform_types: { instagram: ['reels'] }, media_urls: ['https://cdn.example.com/a.png'] }), 'media_urls.0');
    expect(video.message).toMatch(/video/);
  });

  it('uses the platform caption over the default caption for the length rule', async () => {
    const h = harness();
    h.connect(['twitter']);
    const r = await publishOk(h, scheduled({ caption: 'y'.repeat(400), platforms: ['twitter'], platform_captions: { twitter: 'short' } }));
    expect(r.success).toBe(true);
  });
});

describe('POST /content/publish: platform rules with the real adapters', () => {
  it('says each problem once, in the adapter\'s words, on the field the caption came from', async () => {
    const h = harness({ deps: { adapters: createAdapters() } });
    h.connect(['instagram', 'threads']);
    const feed = await expect400(h, scheduled({ platforms: ['instagram'] }), 'media_urls');
    expect(feed.details?.filter((d) => d.path === 'media_urls')).toHaveLength(1);
    expect(feed.details?.[0]?.message).toMatch(/Instagram feed takes at least 1 media item/);
    // The default caption is too long for threads: the problem points at `caption`, not at a platform caption that was never sent.
    const long = await expect400(h, scheduled({ platforms: ['threads'], caption: 'z'.repeat(501) }), 'caption');
    expect(long.details?.map((d) => d.path)).toEqual(['caption']);
    expect(long.details?.[0]?.message).toMatch(/Threads posts may have at most 500 characters/);
  });
});

describe('POST /content/publish: connections', () => {
  it('answers 403 platform_not_connected naming the missing platforms', async () => {
    const h = harness();
    h.connect(['twitter']);
    const res = await h.call('POST', PUBLISH, { body: scheduled({ platforms: ['twitter', 'instagram', 'threads'], media_urls: ['https://cdn.example.com/a.jpg'] }) });
    expect(res.status).toBe(403);
    const e = await errorOf(res);
    expect(e.code).toBe('platform_not_connected');
    expect(e.details!.map((d) => (d as unknown as { platform: string }).platform)).toEqual(['instagram', 'threads']);
    expect(e.message).toContain('instagram');
  });

  it('counts an expired connection as not connected', async () => {
    const h = harness();
    h.connect(['twitter']);
    h.store.credentials.markExpired(h.store.connections.get(h.user.id, 'twitter')!.id, 'refresh failed');
    const res = await h.call('POST', PUBLISH, { body: scheduled() });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('platform_not_connected');
  });

  it('answers 403 facebook_page_not_selected for facebook without a page', async () => {
    const h = harness();
    h.store.connections.save(h.user.id, 'facebook', { mode: 'sandbox', accountId: 'me' });
    const res = await h.call('POST', PUBLISH, { body: scheduled({ platforms: ['facebook'] }) });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('facebook_page_not_selected');
  });

  it('does not see another user\'s connections', async () => {
    const h = harness();
    const other = h.addUser('other@example.com');
    h.connect(['twitter'], other.user.id);
    expect((await h.call('POST', PUBLISH, { body: scheduled() })).status).toBe(403);
  });
});

describe('POST /content/publish: storing', () => {
  it('stores the job and its targets before answering, then tells the scheduler', async () => {
    const h = harness();
    h.connect(['twitter', 'threads']);
    const r = await publishOk(h, scheduled({ platforms: ['twitter', 'threads'] }));
    const job = h.store.jobs.get(r.job_id)!;
    expect(job.targets.map((t) => `${t.platform}.${t.type}.${t.status}`)).toEqual(['twitter.tweet.scheduled', 'threads.post.scheduled']);
    expect(h.scheduler.changed).toEqual([job.targets.map((t) => t.id)]);
    expect(r.job_id).toMatch(/^job_[0-9a-z]+$/);
  });

  it('holds the job for approval when require_approval is true, also for publish_now', async () => {
    const h = harness();
    h.connect(['twitter']);
    const r = await publishOk(h, { caption: 'x', platforms: ['twitter'], publish_now: true, require_approval: true });
    expect(r.status).toBe('pending_approval');
    expect(r.targets.map((t) => t.status)).toEqual(['pending_approval']);
  });

  it('holds the job for approval when the user\'s approval workflow is on', async () => {
    const h = harness();
    h.connect(['twitter']);
    h.store.users.setApprovalWorkflow(h.user.id, true);
    const r = await publishOk(h, scheduled());
    expect(r.status).toBe('pending_approval');
  });
});

describe('POST /content/publish: Idempotency-Key', () => {
  it('replays the first answer for the same key and body, creating nothing', async () => {
    const h = harness();
    h.connect(['twitter']);
    const first = await h.call('POST', PUBLISH, { body: scheduled(), headers: { 'Idempotency-Key': 'k-1' } });
    const firstBody = await first.json();
    // Same body, other key order and spacing.
    const again = await h.call('POST', PUBLISH, {
      body: ` { "scheduled_for": "2026-12-25T10:00:00Z", "platforms": ["twitter"], "caption": "hello" } `,
      headers: { 'Idempotency-Key': 'k-1' },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(h.store.jobs.list(h.user.id, { status: 'all', limit: 10, after: null }).jobs).toHaveLength(1);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    const h = harness();
    h.connect(['twitter']);
    await h.call('POST', PUBLISH, { body: scheduled(), headers: { 'Idempotency-Key': 'k-2' } });
    const res = await h.call('POST', PUBLISH, { body: scheduled({ caption: 'other' }), headers: { 'Idempotency-Key': 'k-2' } });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('idempotency_conflict');
  });

  it('scopes keys to the user', async () => {
    const h = harness();
    const other = h.addUser('other@example.com');
    h.connect(['twitter']);
    h.connect(['twitter'], other.user.id);
    const a = await publishOk(h, scheduled(), { 'Idempotency-Key': 'shared' });
    const b = await publishOk(h, scheduled(), { 'Idempotency-Key': 'shared', 'X-API-Key': other.key });
    expect(a.job_id).not.toBe(b.job_id);
  });

  it('forgets a key after 24 hours', async () => {
    const h = harness();
    h.connect(['twitter']);
    const a = await publishOk(h, scheduled({ scheduled_for: '2026-12-28T10:00:00Z' }), { 'Idempotency-Key': 'day' });
    await h.clock.advance(24 * 3_600_000 + 1);
    const b = await publishOk(h, scheduled({ scheduled_for: '2026-12-28T10:00:00Z' }), { 'Idempotency-Key': 'day' });
    expect(b.job_id).not.toBe(a.job_id);
  });

  it('does not keep a refused answer, so the same key works once the problem is fixed', async () => {
    const h = harness();
    const refused = await h.call('POST', PUBLISH, { body: scheduled(), headers: { 'Idempotency-Key': 'retry-me' } });
    expect(refused.status).toBe(403);
    h.connect(['twitter']);
    const ok = await h.call('POST', PUBLISH, { body: scheduled(), headers: { 'Idempotency-Key': 'retry-me' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('answers 400 for an Idempotency-Key that is too long', async () => {
    const h = harness();
    const res = await h.call('POST', PUBLISH, { body: scheduled(), headers: { 'Idempotency-Key': 'k'.repeat(256) } });
    expect(res.status).toBe(400);
  });
});

describe('request bodies', () => {
  it('answers 413 for an 11 MB body with a Content-Length, without reading it', async () => {
    const h = harness();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        pulled++;
        ctrl.enqueue(new Uint8Array(64 * 1024));
        if (pulled * 64 * 1024 > 11 * 1024 * 1024) ctrl.close();
      },
    });
    const res = await h.app.request(PUBLISH, {
      method: 'POST',
      headers: { 'X-API-Key': h.key, 'Content-Type': 'application/json', 'Content-Length': String(11 * 1024 * 1024) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('payload_too_large');
    expect(pulled).toBeLessThan(5);
  });

  it('answers 413 for a streamed 11 MB body, stopping at the limit', async () => {
    const h = harness();
    let sent = 0;
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent >= 11 * 1024 * 1024) return ctrl.close();
        sent += chunk.length;
        ctrl.enqueue(chunk);
      },
    });
    const res = await h.app.request(PUBLISH, {
      method: 'POST',
      headers: { 'X-API-Key': h.key, 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(11 * 1024 * 1024);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const h = harness();
    const res = await h.call('POST', PUBLISH, { body: 'caption=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect((await errorOf(res)).code).toBe('unsupported_media_type');
  });

  it('answers 400 for malformed JSON and for JSON that is not an object', async () => {
    const h = harness();
    for (const raw of ['{"caption": ', '[1,2]', '"text"', 'null']) {
      const res = await h.call('POST', PUBLISH, { body: raw });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
  });
});
