import { describe, expect, it } from 'vitest';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { PermanentError } from '../../src/platforms/errors';
import { createLogger } from '../../src/util/logger';
import { redactUrlSecrets } from '../../src/util/redact-url';
import { T0, useWorlds } from '../scheduler/harness';

const world = useWorlds();

const SECRETS = ['AKIAEXAMPLE', 'FwoGZXIvYXdzEXAMPLETOKEN', 'deadbeefsignature', 'googsig123', 'azuresig456', 'hunter2', 'cfsig789', 'ossak', 'v2sig'];
const SIGNED = [
  'https://bucket.s3.amazonaws.com/a.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=FwoGZXIvYXdzEXAMPLETOKEN&X-Amz-SignedHeaders=host&X-Amz-Signature=deadbeefsignature',
  'https://storage.googleapis.com/b/a.jpg?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=AKIAEXAMPLE&X-Goog-Signature=googsig123',
  'https://acct.blob.core.windows.net/c/a.jpg?sv=2024-01-01&se=2026-01-01&sp=r&sig=azuresig456',
  'https://user:hunter2@files.example.com/a.jpg',
  'https://d111.cloudfront.net/a.jpg?Expires=1&Signature=cfsig789&Key-Pair-Id=K2EXAMPLE',
  'https://b.oss-cn-hangzhou.aliyuncs.com/a.jpg?OSSAccessKeyId=ossak&Expires=1&Signature=v2sig',
];

describe('redactUrlSecrets', () => {
  it.each(SIGNED)('takes every signing parameter and the userinfo out of %s, keeping the rest', (url) => {
    const out = redactUrlSecrets(`could not fetch ${url}: 403`);
    for (const s of SECRETS) expect(out).not.toContain(s);
    expect(out).toMatch(/^could not fetch https:\/\/\S+ 403$/);
    expect(out).toContain('[redacted]');
  });

  it('keeps parameters that are no secret, and the host and path', () => {
    const out = redactUrlSecrets(SIGNED[0]!);
    expect(out).toContain('https://bucket.s3.amazonaws.com/a.jpg?');
    expect(out).toContain('X-Amz-Expires=900');
    expect(out).toContain('X-Amz-Credential=[redacted]');
    expect(redactUrlSecrets('https://user:hunter2@files.example.com/a.jpg')).toBe('https://[redacted]@files.example.com/a.jpg');
  });

  it('takes OAuth authorization codes and verifiers out of callback URLs, keeping state', () => {
    expect(redactUrlSecrets('GET http://127.0.0.1:8080/callback?state=s1&code=4%2F0AbCdEf')).toBe('GET http://127.0.0.1:8080/callback?state=s1&code=[redacted]');
    expect(redactUrlSecrets('http://127.0.0.1/cb?oauth_token=rt1&oauth_verifier=v9')).toBe('http://127.0.0.1/cb?oauth_token=[redacted]&oauth_verifier=[redacted]');
  });
});

describe('signed media URLs in publishing errors', () => {
  it('are redacted in the target error and in the log line', async () => {
    const lines: string[] = [];
    const adapter: PlatformAdapter = {
      platform: 'twitter',
      validate: () => [],
      publish: async () => {
        throw new PermanentError(`media ${SIGNED.join(' and ')} could not be fetched`);
      },
      reconcile: async () => ({ state: 'unknown', reason: 'not used' }),
    };
    const w = world({ publisher: { adapters: new Map([['twitter', adapter]]), log: createLogger({ level: 'debug', write: (l) => lines.push(l) }) } });
    const id = w.add({ due: T0 });
    await w.start();
    const row = w.row(id);
    expect(row.status).toBe('failed');
    expect(String(row.error_message)).toContain('X-Amz-Signature=[redacted]');
    const warn = lines.find((l) => l.includes('target attempt ended'));
    expect(warn).toContain('[redacted]');
    for (const s of SECRETS) {
      expect(String(row.error_message)).not.toContain(s);
      expect(lines.join('\n')).not.toContain(s);
    }
  });
});
