import { describe, expect, it } from 'vitest';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, RateLimitedError, RetryableError } from '../../../src/platforms/errors';
import { classifyGraphError } from '../../../src/platforms/meta/classify-error';
import { GraphApiError, GraphTransportError, type GraphErrorBody } from '../../../src/platforms/meta/graph-client';

const NOW = Date.UTC(2026, 11, 25, 9, 0, 0);
const graph = (e: Partial<GraphErrorBody> & { code: number }, status = 400, headers: Record<string, string> = {}) =>
  new GraphApiError(status, { message: 'msg', type: 'OAuthException', fbtrace_id: 'AbC', ...e }, headers);
const classify = (err: unknown, publishing = false) => classifyGraphError(err, { now: NOW, publishing, label: 'Instagram' });

describe('Graph error mapping', () => {
  it('keeps the platform message, code, subcode and fbtrace_id', () => {
    const err = classify(graph({ code: 36003, error_subcode: 2207009, message: 'The aspect ratio is not supported.' }));
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toBe('Instagram: The aspect ratio is not supported. (code 36003, subcode 2207009, fbtrace_id AbC)');
    expect(err.platformCode).toBe('36003/2207009');
  });

  it('treats expired, invalid and revoked tokens as auth errors', () => {
    for (const e of [{ code: 190, error_subcode: 463 }, { code: 190, error_subcode: 460 }, { code: 102 }, { code: 100, message: 'REVOKED_ACCESS_TOKEN' }]) {
      expect(classify(graph(e))).toBeInstanceOf(AuthExpiredError);
    }
  });

  it('rate-limits throttling until the regain estimate of X-Business-Use-Case-Usage', () => {
    const header = JSON.stringify({ '1784': [{ type: 'instagram', call_count: 100, estimated_time_to_regain_access: 7 }] });
    const err = classify(graph({ code: 4 }, 400, { 'x-business-use-case-usage': header }));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).until).toBe(NOW + 7 * 60_000);
    expect((classify(graph({ code: 17 })) as RateLimitedError).until).toBe(NOW + 15 * 60_000);
    expect((classify(graph({ code: 9, error_subcode: 2207042 })) as RateLimitedError).until).toBe(NOW + 86_400_000);
  });

  it('retries transient errors, but calls a lost or transient answer to a publishing call unknown', () => {
    expect(classify(graph({ code: 2, is_transient: true }, 503))).toBeInstanceOf(RetryableError);
    expect(classify(graph({ code: 2, is_transient: true }, 503), true)).toBeInstanceOf(OutcomeUnknownError);
    expect(classify(new GraphTransportError('timeout', 'ETIMEDOUT'))).toBeInstanceOf(RetryableError);
    expect(classify(new GraphTransportError('timeout', 'ETIMEDOUT'), true)).toBeInstanceOf(OutcomeUnknownError);
  });

  it('waits on not-ready media and remakes expired containers', () => {
    expect((classify(graph({ code: 9007, error_subcode: 2207027 })) as RetryableError).after).toBe(60_000);
    expect(classify(graph({ code: 24, error_subcode: 2207008 }))).toBeInstanceOf(RetryableError);
    expect(classify(graph({ code: 506 }))).toBeInstanceOf(PermanentError);
  });
});
