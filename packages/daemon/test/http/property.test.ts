import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API, harness, type Harness } from './harness';

/**
 * Generated bodies and query strings across the endpoints: whatever arrives, the answer is
 * never a 500, and every error carries the one error body. 1,250 runs per endpoint x 8
 * endpoints = 10,000 requests.
 */
const RUNS = 1250;

const PLATFORM = fc.constantFrom('instagram', 'facebook', 'twitter', 'threads', 'tiktok', 'youtube', 'myspace', '', 'TWITTER');
const TYPE = fc.constantFrom('feed', 'story', 'reels', 'tweet', 'post', 'video', 'shorts', 'instagram.story', 'twitter', 'nope');
const TIME = fc.oneof(
  fc.constantFrom('2026-12-25T10:00:00Z', '2026-12-25T10:00:00+01:00', '2026-02-30T10:00:00Z', '2026-12-25', '2026-12-25T10:00:00', '+1h', '+0h', '+1h30m', '+8761h', ''),
  fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.string(),
);
const ANY = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }));

const publishLike = fc.record(
  {
    caption: fc.oneof(fc.string(), ANY),
    platforms: fc.oneof(fc.array(PLATFORM, { maxLength: 4 }), ANY),
    platform_captions: fc.oneof(fc.dictionary(PLATFORM, fc.string()), ANY),
    platform_types: fc.oneof(fc.dictionary(PLATFORM, fc.array(TYPE, { maxLength: 3 })), ANY),
    media_urls: fc.oneof(fc.array(fc.oneof(fc.webUrl(), fc.string()), { maxLength: 12 }), ANY),
    publish_now: fc.oneof(fc.boolean(), ANY),
    scheduled_for: fc.oneof(TIME, ANY),
    type_schedule: fc.oneof(fc.dictionary(TYPE, TIME), ANY),
    require_approval: fc.oneof(fc.boolean(), ANY),
    extra: ANY,
  },
  { requiredKeys: [] },
);
/** Close to valid, so the generated requests also reach the platform rules and the store. */
const nearlyValid = fc.record({
  caption: fc.string({ minLength: 1, maxLength: 300 }).map((c) => `x${c}`),
  platforms: fc.subarray(['twitter', 'threads', 'facebook'], { minLength: 1 }),
  publish_now: fc.constant(true),
  media_urls: fc.option(fc.array(fc.webUrl(), { maxLength: 3 }), { nil: undefined }),
  require_approval: fc.option(fc.boolean(), { nil: undefined }),
});
const patchLike = fc.record(
  { scheduled_for: fc.oneof(TIME, ANY), caption: ANY, platform_captions: fc.oneof(fc.dictionary(PLATFORM, fc.string()), ANY), type_schedule: fc.oneof(fc.dictionary(TYPE, TIME), ANY) },
  { requiredKeys: [] },
);

/** A body as raw text: structured, arbitrary JSON, or not JSON at all. */
const body = (structured: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: structured.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.json() },
    { weight: 1, arbitrary: fc.string() },
  );
const contentType = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=utf-8', '') });

const query = (jobIds: string[]) =>
  fc
    .dictionary(
      fc.oneof(fc.constantFrom('job_id', 'status', 'limit', 'cursor'), fc.string({ maxLength: 5 })),
      fc.oneof(fc.constantFrom(...jobIds, 'all', 'scheduled', 'pending_approval', '50', '0', '-1', '201', 'abc', 'bm9wZQ', 'job_x'), fc.string()),
      { maxKeys: 4 },
    )
    .map((d) => new URLSearchParams(d).toString());

async function assertSane(res: Response) {
  expect(res.status).not.toBe(500);
  expect(res.status).toBeLessThan(500);
  const text = await res.text();
  if (res.status >= 400) {
    const parsed = JSON.parse(text) as { success: boolean; error: { code: string; message: string } };
    expect(parsed.success).toBe(false);
    expect(typeof parsed.error.code).toBe('string');
    expect(typeof parsed.error.message).toBe('string');
  }
}

function setup(): { h: Harness; jobIds: string[] } {
  const h = harness({ config: { rateLimitsEnabled: false } });
  h.connect(['instagram', 'facebook', 'twitter', 'threads', 'tiktok', 'youtube']);
  const other = h.addUser('other@example.com');
  h.connect(['twitter'], other.user.id);
  const jobIds: string[] = [];
  const mk = (userId: string, status: string) => {
    const id = `job_prop${String(jobIds.length).padStart(16, '0')}`;
    h.store.jobs.create(
      { id, userId, caption: 'c', platforms: ['twitter'], platformCaptions: {}, platformTypes: { twitter: ['tweet'] }, mediaUrls: [], publishNow: false, scheduledFor: h.clock.now() + 3_600_000, typeSchedule: {}, requireApproval: false, sortAt: h.clock.now() + 3_600_000, createdAt: h.clock.now() },
      [{ id: `tgt_${id}`, platform: 'twitter', type: 'tweet', scheduleKey: null, dueAt: h.clock.now() + 3_600_000, status: status as 'scheduled' }],
    );
    jobIds.push(id);
  };
  for (const s of ['scheduled', 'pending_approval', 'published', 'cancelled', 'publishing']) mk(h.user.id, s);
  mk(other.user.id, 'scheduled');
  return { h, jobIds };
}

describe('generated requests never produce a 500', () => {
  const { h, jobIds } = setup();

  for (const path of ['/content/publish', '/content/validate']) {
    it(`POST ${path} answers every generated body with a 2xx or the error body`, async () => {
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(fc.oneof(body(publishLike), nearlyValid.map((v) => JSON.stringify(v))), contentType, async (raw, type) => {
          const res = await h.call('POST', `${API}${path}`, { raw, headers: type ? { 'Content-Type': type } : {} });
          if (res.status === 200) accepted++;
          await assertSane(res);
        }),
        { numRuns: RUNS },
      );
      expect(accepted).toBeGreaterThan(RUNS / 20);
    });
  }

  it('GET /content/scheduled answers every generated query string', async () => {
    await fc.assert(
      fc.asyncProperty(query(jobIds), async (qs) => {
        await assertSane(await h.call('GET', `${API}/content/scheduled?${qs}`));
      }),
      { numRuns: RUNS },
    );
  });

  it('PATCH /content/scheduled answers every generated body and query string', async () => {
    await fc.assert(
      fc.asyncProperty(query(jobIds), body(patchLike), async (qs, raw) => {
        await assertSane(await h.call('PATCH', `${API}/content/scheduled?${qs}`, { raw, headers: { 'Content-Type': 'application/json' } }));
      }),
      { numRuns: RUNS },
    );
  });

  for (const [method, path] of [['DELETE', '/content/scheduled'], ['POST', '/content/scheduled/approve'], ['POST', '/content/scheduled/reject']] as const) {
    it(`${method} ${path} answers every generated query string and body`, async () => {
      await fc.assert(
        fc.asyncProperty(query(jobIds), fc.option(fc.json()), async (qs, raw) => {
          await assertSane(await h.call(method, `${API}${path}?${qs}`, raw === null ? {} : { raw, headers: { 'Content-Type': 'application/json' } }));
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('POST /auth/validate and GET /platforms answer every generated body and key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(fc.json()), fc.option(fc.string()), fc.boolean(), async (raw, key, which) => {
        const headers: Record<string, string> = key === null ? {} : { 'X-API-Key': key.replace(/[^\x21-\x7e]/g, '') };
        const res = which
          ? await h.call('POST', `${API}/auth/validate`, { raw: raw ?? undefined, headers })
          : await h.call('GET', `${API}/platforms?${new URLSearchParams({ q: raw ?? '' }).toString()}`, { headers });
        await assertSane(res);
      }),
      { numRuns: RUNS },
    );
  });
});
