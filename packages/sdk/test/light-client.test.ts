import { vi } from 'vitest';
import type * as Sdk from '@socialpub/sdk';

// The CLI's client (`@socialpub/sdk/client`, src/light-client.ts) sends with node:http
// instead of got. It must behave exactly as the SDK does, so the SDK's own suites run here
// a second time with `SocialPub` replaced by it: same requests, answers, errors (HTTPError
// as cause included), time-outs, aborts, retries and uploads.
vi.mock('@socialpub/sdk', async (importOriginal) => {
  const sdk = await importOriginal<typeof Sdk>();
  const { SocialPub } = await import('@socialpub/sdk/client');
  return { ...sdk, SocialPub };
});

await import('./errors.test');
await import('./retries.test');
await import('./resources.test');
await import('./upload.test');

const { describe, expect, it } = await import('vitest');
describe('the suites above ran with the light client', () => {
  it('SocialPub is the node:http one', async () => {
    const { SocialPub } = await import('@socialpub/sdk');
    const light = await import('../src/light-client');
    expect(SocialPub).toBe(light.SocialPub);
  });
});
