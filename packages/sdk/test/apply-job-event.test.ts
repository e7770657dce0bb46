import { applyJobEvent, type Post, type SocialpubEvent, type Target } from '@socialpub/sdk';
import { describe, expect, it } from 'vitest';

// A post to ['twitter', 'twitter:brand']: two targets of one platform and type, told apart
// only by their ids (issue 39).
const target = (id: string, label: string): Target => ({
  target_id: id,
  platform: 'twitter',
  label,
  connection_id: `con_${label}`,
  type: 'tweet',
  scheduled_for: '2026-06-10T08:00:00.000Z',
  status: 'scheduled',
  attempts: 0,
  post_id: null,
  post_url: null,
  published_at: null,
  error: null,
});

const post = (targets: Target[]): Post =>
  ({ job_id: 'job_1', status: 'scheduled', caption: 'both', platforms: ['twitter', 'twitter:brand'], targets }) as unknown as Post;

const event = (type: string, data: Record<string, unknown>): SocialpubEvent =>
  ({ id: 'evt_1', type, job_id: 'job_1', timestamp: '2026-06-10T08:00:01.000Z', data }) as unknown as SocialpubEvent;

describe('applyJobEvent with two accounts of one network', () => {
  it("changes only the target the event's target_id names, not the other account's target of the same platform and type", () => {
    const before = post([target('tgt_default', 'default'), target('tgt_brand', 'brand')]);
    const published = applyJobEvent(
      before,
      event('target.published', {
        target_id: 'tgt_brand',
        platform: 'twitter',
        connection_id: 'con_brand',
        label: 'brand',
        type: 'tweet',
        attempt: 1,
        post_id: '42',
        post_url: 'https://x.example/42',
        published_at: '2026-06-10T08:00:01.000Z',
      }),
    );
    expect(published.targets.map((t) => [t.label, t.status, t.post_url])).toEqual([
      ['default', 'scheduled', null],
      ['brand', 'published', 'https://x.example/42'],
    ]);
    const retried = applyJobEvent(
      published,
      event('target.retrying', {
        target_id: 'tgt_default',
        platform: 'twitter',
        type: 'tweet',
        attempt: 1,
        error: { code: 'rate_limited', message: 'slow down', platform_code: '429' },
        next_attempt_at: '2026-06-10T08:15:00.000Z',
        reason: 'rate_limit',
      }),
    );
    expect(retried.targets.map((t) => [t.label, t.status, t.next_attempt_at ?? null])).toEqual([
      ['default', 'scheduled', '2026-06-10T08:15:00.000Z'],
      ['brand', 'published', null],
    ]);
    const finished = applyJobEvent(
      retried,
      event('post.finished', {
        job_id: 'job_1',
        status: 'partially_published',
        targets: [
          { target_id: 'tgt_default', platform: 'twitter', type: 'tweet', status: 'failed', post_id: null, post_url: null },
          { target_id: 'tgt_brand', platform: 'twitter', type: 'tweet', status: 'published', post_id: '42', post_url: 'https://x.example/42' },
        ],
      }),
    );
    expect(finished.targets.map((t) => [t.label, t.status])).toEqual([
      ['default', 'failed'],
      ['brand', 'published'],
    ]);
    expect(finished.status).toBe('partially_published');
  });

  it('matches by platform and type when the post read has no target ids (a daemon from before them)', () => {
    const { target_id: _a, ...old } = target('tgt_x', 'default');
    const before = post([old as Target]);
    const after = applyJobEvent(before, event('target.publishing', { target_id: 'tgt_x', platform: 'twitter', type: 'tweet', attempt: 1, started_at: '2026-06-10T08:00:00.000Z' }));
    expect(after.targets.map((t) => t.status)).toEqual(['publishing']);
  });
});
