import { describe, expect, it } from 'vitest';
import { clockTime, perWindow, rateLimitedMessage, waitWords, withRetryTime } from '../src/rate-limited';

const NOW = Date.UTC(2026, 11, 25, 15, 17, 0);

describe('how a 429 is said (issue 35)', () => {
  it('names the class, its limit and window, and the wait in words', () => {
    expect(rateLimitedMessage('scheduled-content', 100, 3_600_000, 1_492)).toBe('rate limited (scheduled-content: 100 an hour); try again in 25 min');
    expect(rateLimitedMessage('authentication', 10, 60_000, 42)).toBe('rate limited (authentication: 10 a minute); try again in 42 s');
    expect(perWindow(600_000)).toBe('per 10 minutes');
    expect(perWindow(86_400_000)).toBe('a day');
    expect(perWindow(90_000)).toBe('per 90 s');
    expect(waitWords(0)).toBe('1 s');
    expect(waitWords(60)).toBe('1 min');
    expect(waitWords(61)).toBe('2 min');
    expect(waitWords(7_500)).toBe('2 h 5 min');
  });

  it('adds the time to try again at, in the reader’s zone, with the day when it is not today there', () => {
    const message = 'rate limited (scheduled-content: 100 an hour); try again in 25 min';
    expect(withRetryTime(message, 1_500, NOW, 'UTC')).toBe(`${message} (at 15:42)`);
    expect(withRetryTime(message, 1_500, NOW, 'Asia/Kolkata')).toBe(`${message} (at 21:12)`);
    expect(clockTime(Date.UTC(2026, 11, 26, 0, 10), NOW, 'UTC')).toBe('26 Dec 00:10');
    // The word of a message already said is not said twice, nor the time.
    expect(withRetryTime(`error: ${message} (at 15:42)`, 1_500, NOW, 'UTC')).toBe(`${message} (at 15:42)`);
    expect(withRetryTime('slow down', undefined, NOW, 'UTC')).toBe('slow down');
  });
});
