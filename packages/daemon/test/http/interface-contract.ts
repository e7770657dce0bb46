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
import { expect } from 'vitest';
import type { z } from 'zod';

/** A daemon as the contract sees it: requests with a user's key under the API prefix, and /healthz. */
export interface ContractTarget {
  /** A JSON request to `path` (under the API prefix) with the user's key. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  health(): Promise<Response>;
}

/** Every answer the handlers build conforms (strictly: no extra fields) to its core schema, which the SDK and OpenAPI use too. */
async function conforms(res: Response, schema: z.ZodType, status = 200) {
  expect(res.status).toBe(status);
  const body = await res.json();
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${JSON.stringify(body)}\n${parsed.error.message}`);
  expect(parsed.data).toEqual(body);
}

/**
 * The interface contract: every endpoint of the interface (spec/interface.md) answers in
 * its core schema — publish, validate, list, get, edit, approve, cancel, platforms,
 * health, and the error body. The user must have instagram and twitter connected. Run by
 * http/contract.test.ts against the app, and by cluster/two-daemons.test.ts against each
 * of two daemons over one PostgreSQL database while the other publishes.
 * `at`: the post's time and the time it is moved to (ISO), after the daemon's now.
 */
export async function checkInterfaceContract(d: ContractTarget, at: { scheduledFor: string; movedTo: string }): Promise<void> {
  await conforms(await d.call('POST', '/auth/validate'), AuthValidateResponseSchema);
  const body = {
    caption: 'c',
    platforms: ['instagram', 'twitter'],
    platform_types: { instagram: ['story', 'feed'] },
    media_urls: ['https://cdn.example.com/a.jpg'],
    scheduled_for: at.scheduledFor,
    type_schedule: { story: '+0h', feed: '+1h' },
    require_approval: true,
  };
  const published = await d.call('POST', '/content/publish', body);
  const { job_id } = (await published.clone().json()) as { job_id: string };
  await conforms(published, PublishResultSchema);
  await conforms(await d.call('POST', '/content/validate', body), ValidateResultSchema);
  await conforms(await d.call('POST', '/content/validate', { platforms: [] }), ValidateResultSchema);
  await conforms(await d.call('GET', '/content/scheduled'), ListResponseSchema);
  await conforms(await d.call('GET', `/content/scheduled?job_id=${job_id}`), GetResponseSchema);
  await conforms(await d.call('PATCH', `/content/scheduled?job_id=${job_id}`, { scheduled_for: at.movedTo }), UpdateResponseSchema);
  await conforms(await d.call('POST', `/content/scheduled/approve?job_id=${job_id}`), UpdateResponseSchema);
  await conforms(await d.call('DELETE', `/content/scheduled?job_id=${job_id}`), CancelResponseSchema);
  await conforms(await d.call('GET', '/platforms'), PlatformsResponseSchema);
  await conforms(await d.health(), HealthResponseSchema);
  await conforms(await d.call('DELETE', '/content/scheduled?job_id=job_nope'), ErrorBodySchema, 404);
  await conforms(await d.call('POST', '/content/publish', { caption: 1 }), ErrorBodySchema, 400);
}
