import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EVENT_DATA_SCHEMAS, EVENT_TYPES, EventSchema, eventComponentId, WEBHOOK_TEST_EVENT } from '../src/index';

describe('event schemas', () => {
  it('give every catalogue type its own data schema and envelope, and the union covers exactly those and webhook.test', () => {
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual([...EVENT_TYPES].sort());
    const types = EventSchema.options.map((o) => o.shape.type.value);
    expect(types.sort()).toEqual([...EVENT_TYPES, WEBHOOK_TEST_EVENT].sort());
    for (const o of EventSchema.options) {
      expect(o.meta()?.id).toBe(eventComponentId(o.shape.type.value));
      if (o.shape.type.value !== WEBHOOK_TEST_EVENT) expect(o.shape.data).toBe(EVENT_DATA_SCHEMAS[o.shape.type.value as keyof typeof EVENT_DATA_SCHEMAS]);
    }
    expect(eventComponentId('post.pending_approval')).toBe('PostPendingApprovalEvent');
  });

  it('refuses an event whose data does not fit its type, and keeps fields a later version adds', () => {
    const base = { id: 'evt_1', version: 1, timestamp: '2026-12-25T10:00:00.000Z', job_id: 'job_1' };
    const data = { target_id: 'tgt_1', platform: 'twitter', type: 'tweet', attempt: 1, started_at: '2026-12-25T10:00:00.000Z' };
    expect(EventSchema.safeParse({ ...base, type: 'target.publishing', data }).success).toBe(true);
    // The same data under another type lacks that type's fields.
    const wrong = EventSchema.safeParse({ ...base, type: 'target.published', data });
    expect(wrong.success).toBe(false);
    expect(z.prettifyError(wrong.error as z.ZodError)).toMatch(/data\.post_id/);
    expect(EventSchema.safeParse({ ...base, type: 'target.unknown', data }).success).toBe(false);
    const later = EventSchema.parse({ ...base, type: 'target.publishing', data: { ...data, lease_seconds: 30 } });
    expect(later.data).toMatchObject({ lease_seconds: 30 });
  });
});
