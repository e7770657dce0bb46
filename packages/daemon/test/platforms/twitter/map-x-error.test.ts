import { describe, expect, it } from 'vitest';
import { mapXError } from '../../../src/platforms/twitter/map-x-error';
import { describeXError, XApiError, XTransportError } from '../../../src/platforms/twitter/x-client';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, RateLimitedError, RetryableError } from '../../../src/platforms/errors';

const NOW = Date.UTC(2026, 11, 25, 9);

/** An X error as the client builds it from a real response body. */
function xError(status: number, body: unknown, headers: Record<string, string> = {}) {
  const { message, type } = describeXError(status, body, JSON.stringify(body));
  return new XApiError(status, message, body, headers, type);
}

describe('mapping X errors', () => {
  it('reads X\'s real duplicate body (type about:blank) as a permanent duplicate', () => {
    const err = mapXError(xError(403, { title: 'Forbidden', detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', status: 403 }), { now: NOW, creates: true, step: 'post' });
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.platformCode).toBe('duplicate-content');
    expect(err.message).toBe('X refused the post as duplicate content (an identical post already exists): You are not allowed to create a Tweet with duplicate content.');
  });

  it('reads the usage-capped problem as a rate limit until the reset header, else a day', () => {
    const body = { title: 'UsageCapExceeded', detail: 'Usage cap exceeded: Monthly product cap', type: 'https://api.x.com/2/problems/usage-capped', period: 'Monthly', scope: 'Product' };
    const withReset = mapXError(xError(429, body, { 'x-rate-limit-reset': String(NOW / 1000 + 600) }), { now: NOW, creates: true, step: 'post' });
    expect(withReset).toBeInstanceOf(RateLimitedError);
    expect((withReset as RateLimitedError).until).toBe(NOW + 600_000);
    expect((mapXError(xError(429, body), { now: NOW, creates: true, step: 'post' }) as RateLimitedError).until).toBe(NOW + 24 * 3600_000);
  });

  it('waits out a plain 429 until x-rate-limit-reset, or 15 minutes without one', () => {
    const body = { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 };
    expect((mapXError(xError(429, body, { 'x-rate-limit-reset': String(NOW / 1000 + 60) }), { now: NOW, creates: false, step: 'x' }) as RateLimitedError).until).toBe(NOW + 60_000);
    expect((mapXError(xError(429, body), { now: NOW, creates: false, step: 'x' }) as RateLimitedError).until).toBe(NOW + 15 * 60_000);
  });

  it('calls a lost answer to the publishing call unknown, and to any other call retryable', () => {
    const sent = new XTransportError('timeout', 'ETIMEDOUT', true);
    expect(mapXError(sent, { now: NOW, creates: true, step: 'post' })).toBeInstanceOf(OutcomeUnknownError);
    expect(mapXError(sent, { now: NOW, creates: false, step: 'media append' })).toBeInstanceOf(RetryableError);
    expect(mapXError(new XTransportError('refused', 'ECONNREFUSED', false), { now: NOW, creates: true, step: 'post' })).toBeInstanceOf(RetryableError);
  });

  it('keeps X\'s message for 401 and other refusals', () => {
    expect(mapXError(xError(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }), { now: NOW, creates: true, step: 'post' })).toBeInstanceOf(AuthExpiredError);
    const bad = mapXError(xError(400, { errors: [{ message: 'The Tweet contains an invalid URL.' }], title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.x.com/2/problems/invalid-request' }), { now: NOW, creates: true, step: 'post' });
    expect(bad).toBeInstanceOf(PermanentError);
    expect(bad.message).toBe('X post failed (400): One or more parameters to your request was invalid. The Tweet contains an invalid URL.');
    expect(bad.platformCode).toBe('https://api.x.com/2/problems/invalid-request');
  });
});
