import { describe, expect, it } from 'vitest';
import { replyIdempotencyKey } from '../src/reply-idempotency-key';

describe('replyIdempotencyKey', () => {
  it('is the same for the same comment and text, and another for another text or comment', () => {
    const key = replyIdempotencyKey('cli', 'inb_abc123', 'Thanks!');
    expect(key).toBe(replyIdempotencyKey('cli', 'inb_abc123', 'Thanks!'));
    expect(key).toMatch(/^cli-inb_abc123-[0-9a-z]+$/);
    expect(replyIdempotencyKey('cli', 'inb_abc123', 'Thanks!!')).not.toBe(key);
    expect(replyIdempotencyKey('cli', 'inb_abc124', 'Thanks!')).not.toBe(key);
    expect(replyIdempotencyKey('dash', 'inb_abc123', 'Thanks!')).toBe(key.replace(/^cli-/, 'dash-'));
  });

  it('stays a valid Idempotency-Key (visible ASCII) whatever id it is given', () => {
    expect(replyIdempotencyKey('cli', 'not an id é', 'Thanks!')).toMatch(/^cli-[0-9a-z]+-[0-9a-z]+$/);
  });
});
