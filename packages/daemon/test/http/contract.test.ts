import {
  AuthValidateResponseSchema,
  CancelResponseSchema,
  ErrorBodySchema,
  GetResponseSchema,
  HealthResponseSchema,
  ListResponseSchema,
  PlatformsResponseSchema,
  PublishResultSchema,
  UpdateResponseSchema,
  ValidateResultSchema,
} from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API, harness } from './harness';

/** Every answer the handlers build conforms (strictly: no extra fields) to its core schema, which the SDK and OpenAPI use too. */
async function conforms(res: Response, schema: z.ZodType, status = 200) {
  expect(res.status).toBe(status);
  const body = await res.json();
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${JSON.stringify(body)}\n${parsed.error.message}`);
  expect(parsed.data).toEqual(body);
}

describe('responses match the core schemas', () => {
  it('for every endpoint of the interface', async () => {
    const h = harness();
    h.connect(['instagram', 'twitter', 'facebook']);
    await conforms(await h.call('POST', `${API}/auth/validate`), AuthValidateResponseSchema);
    const body = {
      caption: 'c',
      platforms: ['instagram', 'twitter'],
      platform_types: { instagram: ['story', 'feed'] },
      media_urls: ['https://cdn.example.com/a.jpg'],
      scheduled_for: '2026-12-25T10:00:00Z',
      type_schedule: { story: '+0h', feed: '+1h' },
      require_approval: true,
    };
    const published = await h.call('POST', `${API}/content/publish`, { body });
    const { job_id } = (await published.clone().json()) as { job_id: string };
    await conforms(published, PublishResultSchema);
    await conforms(await h.call('POST', `${API}/content/validate`, { body }), ValidateResultSchema);
    await conforms(await h.call('POST', `${API}/content/validate`, { body: { platforms: [] } }), ValidateResultSchema);
    await conforms(await h.call('GET', `${API}/content/scheduled`), ListResponseSchema);
    await conforms(await h.call('GET', `${API}/content/scheduled?job_id=${job_id}`), GetResponseSchema);
    await conforms(await h.call('PATCH', `${API}/content/scheduled?job_id=${job_id}`, { body: { scheduled_for: '2026-12-25T12:00:00Z' } }), UpdateResponseSchema);
    await conforms(await h.call('POST', `${API}/content/scheduled/approve?job_id=${job_id}`), UpdateResponseSchema);
    await conforms(await h.call('DELETE', `${API}/content/scheduled?job_id=${job_id}`), CancelResponseSchema);
    await conforms(await h.call('GET', `${API}/platforms`), PlatformsResponseSchema);
    await conforms(await h.app.request('/healthz'), HealthResponseSchema);
    await conforms(await h.call('DELETE', `${API}/content/scheduled?job_id=job_nope`), ErrorBodySchema, 404);
    await conforms(await h.call('POST', `${API}/content/publish`, { body: { caption: 1 } }), ErrorBodySchema, 400);
  });
});
