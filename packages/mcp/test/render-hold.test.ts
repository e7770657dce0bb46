import type { Post } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { postLine } from '../src/render';

const target = {
  platform: 'twitter' as const,
  type: 'tweet',
  scheduled_for: '2026-12-25T10:00:00.000Z',
  status: 'scheduled' as const,
  attempts: 1,
  post_id: null,
  post_url: null,
  published_at: null,
  error: { code: 'platform_error', message: 'X rate limit reached: Too Many Requests', platform_code: null },
};
const post = (t: Post['targets'][number]) => ({ job_id: 'job_1', status: 'scheduled', source: 'mcp', targets: [t] }) as unknown as Post;

describe("get_post's text", () => {
  it('says what holds a target and until when', () => {
    const held = { ...target, next_attempt_at: '2026-12-25T10:15:00.000Z', hold: { reason: 'rate_limit' as const, message: 'X rate limit reached', platform_code: null, applies_to: 'connection' as const } };
    expect(postLine(post(held))).toContain("waiting for the platform's rate limit until 2026-12-25T10:15:00.000Z");
    expect(postLine(post({ ...target, next_attempt_at: null, hold: null }))).not.toContain('waiting');
  });
});
