import { describe, expect, it } from 'vitest';
import { createLogger, redact } from '../../src/util/logger';

describe('logger', () => {
  it('writes one JSON object per line with time, level and message', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), now: () => Date.UTC(2026, 0, 1), level: 'info' });
    log.debug('hidden');
    log.info('hello', { n: 1 });
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ time: '2026-01-01T00:00:00.000Z', level: 'info', msg: 'hello', n: 1 }]);
  });

  it('redacts secrets by field name and API keys and bearer tokens inside text', () => {
    const key = 'sp_key_abcdefghij0123456789_' + 'z'.repeat(40);
    expect(redact({ access_token: 'at', nested: { client_secret: 's', ok: 'fine' }, msg: `used ${key}`, header: 'Bearer abc.def' })).toEqual({
      access_token: '[redacted]',
      nested: { client_secret: '[redacted]', ok: 'fine' },
      msg: 'used sp_key_abcdefghij0123456789_[redacted]',
      header: 'Bearer [redacted]',
    });
    expect(redact('https://x/cb?code=1&access_token=secret&b=2')).toBe('https://x/cb?code=[redacted]&access_token=[redacted]&b=2');
  });
});
