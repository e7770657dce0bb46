import type { MediaStatus } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import type { SocialPubBackend } from '../src/backend';
import { waitForMedia, type ToolExtra } from '../src/wait-for-media';

const processing = (completed: number, total: number): MediaStatus => ({ success: true, task_id: 'task_1', status: 'processing', progress: { total, completed, failed: 0 } });
const completed = (total: number): MediaStatus => ({ success: true, task_id: 'task_1', status: 'completed', progress: { total, completed: total, failed: 0 }, files: [], failed: [] });

/** A backend whose media.status answers the given statuses in turn, and an extra recording notifications. */
function setup(statuses: MediaStatus[], progressToken?: string) {
  let i = 0;
  const backend = { media: { status: async () => statuses[Math.min(i++, statuses.length - 1)] as MediaStatus } } as unknown as SocialPubBackend;
  const sent: unknown[] = [];
  const extra = {
    signal: new AbortController().signal,
    _meta: progressToken ? { progressToken } : undefined,
    sendNotification: async (n: unknown) => void sent.push(n),
  } as unknown as ToolExtra;
  let now = 0;
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    now += ms;
  };
  return { backend, extra, sent, sleeps, clock: { now: () => now, sleep } };
}

describe('waitForMedia', () => {
  it('polls until the task settles, reporting growing progress once per change', async () => {
    const s = setup([processing(0, 2), processing(0, 2), processing(1, 2), completed(2)], 'tok');
    const done = await waitForMedia(s.backend, 'task_1', s.extra, { intervalMs: 500, sleep: s.clock.sleep, now: s.clock.now });
    expect(done.status).toBe('completed');
    expect(s.sleeps).toEqual([500, 500, 500]);
    expect(s.sent).toEqual([
      { method: 'notifications/progress', params: { progressToken: 'tok', progress: 0, total: 2, message: '0 of 2 files done' } },
      { method: 'notifications/progress', params: { progressToken: 'tok', progress: 1, total: 2, message: '1 of 2 files done' } },
      { method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 2, message: 'task completed' } },
    ]);
  });

  it('sends nothing when the client asked for no progress', async () => {
    const s = setup([processing(0, 1), completed(1)]);
    expect((await waitForMedia(s.backend, 'task_1', s.extra, { sleep: s.clock.sleep, now: s.clock.now })).status).toBe('completed');
    expect(s.sent).toEqual([]);
  });

  it('answers with the task still processing once the longest wait has passed', async () => {
    const s = setup([processing(0, 1)], 'tok');
    const r = await waitForMedia(s.backend, 'task_1', s.extra, { intervalMs: 1000, maxWaitMs: 3000, sleep: s.clock.sleep, now: s.clock.now });
    expect(r.status).toBe('processing');
    expect(s.sleeps).toEqual([1000, 1000, 1000]);
    expect(s.sent).toHaveLength(1);
  });
});
