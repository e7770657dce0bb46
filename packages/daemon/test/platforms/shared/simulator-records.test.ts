import { describe, expect, it } from 'vitest';
import { keepLatest, KEPT_POSTS, SimulatorLog } from '../../../src/platforms/shared/sim/simulator-recorder';

describe("a simulator's in-memory records", () => {
  it('keep the latest entries, trimmed in steps, never more than a quarter over the bound', () => {
    const list: number[] = [];
    let longest = 0;
    for (let i = 0; i < 1_000; i++) {
      keepLatest(list, i, 100);
      longest = Math.max(longest, list.length);
    }
    expect(longest).toBe(125);
    expect(list.length).toBeGreaterThanOrEqual(100);
    // Always the newest, in order.
    expect(list.slice(-3)).toEqual([997, 998, 999]);
    expect(list).toEqual(Array.from({ length: list.length }, (_, k) => 1_000 - list.length + k));
  });

  it("do not grow with a long-running sandbox's history: posts are bounded too", () => {
    const log = new SimulatorLog();
    for (let i = 0; i < KEPT_POSTS + 2_600; i++) log.addPost({ platform: 'twitter', accountId: 'a', postId: String(i), postUrl: null, kind: 'tweet', body: {}, createdAt: i });
    expect(log.posts.length).toBeLessThanOrEqual(KEPT_POSTS * 1.25);
    expect(log.posts.length).toBeGreaterThanOrEqual(KEPT_POSTS);
    expect(log.posts.at(-1)!.postId).toBe(String(KEPT_POSTS + 2_599));
  });
});
