import { AuthenticationError } from '@socialpub/sdk';
import { describe, expect, it } from 'vitest';
import { EXIT, toFailure } from '../src/errors';

describe('mapping errors to exit codes', () => {
  it('maps the SDK refusing to send without a key to the auth exit code with a hint', () => {
    const err = new AuthenticationError({ code: 'missing_api_key', message: 'No API key: pass apiKey to new SocialPub() or set SOCIALPUB_API_KEY' });
    expect(err.status).toBeUndefined();
    expect(toFailure(err)).toEqual({
      exitCode: EXIT.auth,
      code: 'missing_api_key',
      message: err.message,
      hint: 'run `socialpub up` or set SOCIALPUB_API_KEY',
    });
    expect(EXIT.auth).toBe(3);
  });

  it('still maps a key the daemon refused (401) to the auth exit code with its own hint', () => {
    const err = new AuthenticationError({ status: 401, code: 'unauthorized', message: 'unknown key' });
    expect(toFailure(err)).toMatchObject({ exitCode: 3, code: 'unauthorized', hint: expect.stringContaining('socialpub auth validate') });
  });
});
