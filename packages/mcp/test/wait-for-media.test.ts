import type { MediaStatus, SocialpubEvent } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import type { EventFollowParams, SocialPubBackend } from '../src/backend';
import { waitForMedia, type ToolExtra } from '../src/wait-for-media';

const processing = (completed: number, total: number): MediaStatus => ({ success: true, task_id: 'task_1', status: 'processing', progress: { total, completed, failed: 0 } });
const completed = (total: number): MediaStatus => ({ success: true, task_id: 'task_1', status: 'completed', progress: { total, completed: total, failed: 0 }, files: [], failed: [] });
const ended = (taskId: string, type = 'media.task_completed') => ({ id: 'evt_1', type, data: { task_id: taskId, status: 'completed' } }) as unknown as SocialpubEvent;

/**
 * A backend whose media.status answers the given statuses in turn and whose event stream
 * opens at once and then yields what the test pushes; an extra recording notifications.
 */
function setup(statuses: MediaStatus[], progressToken?: string) {
  let i = 0;
  const reads: number[] = [];
  const pushed: SocialpubEvent[] = [];
  let wake: (() => void) | null = null;
  const asked: EventFollowParams[] = [];
  const backend = {
    media: {
      status: async () => {
        reads.push(i);
        return statuses[Math.min(i++, statuses.length - 1)] as MediaStatus;
      },
    },
    events: {
      async *stream(params: EventFollowParams) {
        asked.push(params);
        params.onOpen?.();
        while (!params.signal?.aborted) {
          const e = pushed.shift();
          if (e) yield e;
          else await new Promise<void>((r) => (wake = r));
        }
      },
    },
  } as unknown as SocialPubBackend;
  const push = (e: SocialpubEvent) => {
    pushed.push(e);
    wake?.();
  };
  const sent: unknown[] = [];
  const extra = {
    signal: new AbortController().signal,
    _meta: progressToken ? { progressToken } : undefined,
    sendNotification: async (n: unknown) => void sent.push(n),
  } as unknown as ToolExtra;
  let fire: (() => void) | null = null;
  // The longest wait ends only when the test says so.
  const sleep = (_ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      fire = resolve;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { backend, extra, sent, reads, asked, push, sleep, timeOut: () => fire?.() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('waitForMedia', () => {
  it("reads the task once the stream is open and once its end event comes, whatever else passes by", async () => {
    const s = setup([processing(0, 2), completed(2)], 'tok');
    const waiting = waitForMedia(s.backend, 'task_1', s.extra, { sleep: s.sleep });
    await tick();
    expect(s.reads).toHaveLength(1);
    expect(s.asked[0]?.types).toEqual(['media.task_completed', 'media.task_failed']);
    s.push(ended('task_other'));
    await tick();
    expect(s.reads).toHaveLength(1);
    s.push(ended('task_1'));
    const done = await waiting;
    expect(done.status).toBe('completed');
    expect(s.reads).toHaveLength(2);
    expect(s.sent).toEqual([
      { method: 'notifications/progress', params: { progressToken: 'tok', progress: 0, total: 2, message: '0 of 2 files done' } },
      { method: 'notifications/progress', params: { progressToken: 'tok', progress: 2, total: 2, message: 'task completed' } },
    ]);
  });

  it('answers at once, with one read, when the task has already ended', async () => {
    const s = setup([completed(1)]);
    expect((await waitForMedia(s.backend, 'task_1', s.extra, { sleep: s.sleep })).status).toBe('completed');
    expect(s.reads).toHaveLength(1);
    expect(s.sent).toEqual([]);
  });

  it('answers with the task still processing, read once more, once the longest wait has passed', async () => {
    const s = setup([processing(0, 1), processing(0, 1)], 'tok');
    const waiting = waitForMedia(s.backend, 'task_1', s.extra, { maxWaitMs: 3000, sleep: s.sleep });
    await tick();
    s.timeOut();
    const r = await waiting;
    expect(r.status).toBe('processing');
    expect(s.reads).toHaveLength(2);
    expect(s.sent).toHaveLength(1);
  });
});
