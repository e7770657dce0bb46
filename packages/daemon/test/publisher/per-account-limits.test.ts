import { describe, expect, it } from 'vitest';
import { ConnectionGate } from '../../src/publisher/connection-gate';
import { PauseBook } from '../../src/publisher/pause-book';
import { openTestDatabase } from '../support/store-dialects';
import { createPlatformPausesRepository } from '../../src/store/platform-pauses';

/** Rate windows, concurrency caps and pauses are per account, as the networks count them (issue 39). */

const task = (id: string, connectionId: string | null) => ({ id, userId: 'u', platform: 'twitter' as const, connectionId });

describe('per-account limits in the publisher', () => {
  it('gives each account of a platform its own concurrency lane', () => {
    const gate = new ConnectionGate<ReturnType<typeof task>>({ perConnection: 1, perPlatform: () => 10, global: 10 });
    expect(gate.push(task('a1', 'con_a')).map((t) => t.id)).toEqual(['a1']);
    expect(gate.push(task('a2', 'con_a')).map((t) => t.id)).toEqual([]);
    // The brand account is another lane: its task starts while con_a is at its cap.
    expect(gate.push(task('b1', 'con_b')).map((t) => t.id)).toEqual(['b1']);
    expect([gate.runningOf('u', 'twitter', 'con_a'), gate.runningOf('u', 'twitter', 'con_b')]).toEqual([1, 1]);
    // A pause of con_a hands back its waiting task and leaves con_b's lane alone.
    expect(gate.drainConnection('u', 'twitter', 'con_a').map((t) => t.id)).toEqual(['a2']);
    expect(gate.drainConnection('u', 'twitter', 'con_b')).toEqual([]);
  });

  it("pauses one account for its own limit, not the user's other accounts of the platform; an app-wide limit pauses all", () => {
    const db = openTestDatabase(':memory:');
    const store = createPlatformPausesRepository(db);
    const book = new PauseBook(store);
    const limit = { platform: 'twitter' as const, userId: 'u', appliesTo: 'connection' as const, until: 5_000, reason: 'X rate limit reached', platformCode: '88' };
    expect(book.pause({ ...limit, connectionId: 'con_brand' }, 1_000)).toBe(true);
    expect(book.pausedUntil('u', 'twitter', 1_000, 'con_brand')).toBe(5_000);
    expect(book.pausedUntil('u', 'twitter', 1_000, 'con_main')).toBeNull();
    // Shown on that account only (GET /connections, connections list).
    expect(store.forConnection('u', 'twitter', 1_000, 'con_brand')).toMatchObject({ connectionId: 'con_brand', until: 5_000 });
    expect(store.forConnection('u', 'twitter', 1_000, 'con_main')).toBeNull();
    // Survives a reload from the store, still per account.
    const again = new PauseBook(store);
    again.load(1_000);
    expect([again.pausedUntil('u', 'twitter', 1_000, 'con_brand'), again.pausedUntil('u', 'twitter', 1_000, 'con_main')]).toEqual([5_000, null]);
    // The platform's app limit holds every account.
    book.pause({ ...limit, appliesTo: 'app', connectionId: 'con_brand', until: 9_000 }, 1_000);
    expect(book.pausedUntil('u', 'twitter', 1_000, 'con_main')).toBe(9_000);
  });

  it('holds every account of the platform for a pause recorded before accounts had labels', () => {
    const db = openTestDatabase(':memory:');
    const store = createPlatformPausesRepository(db);
    store.set({ platform: 'twitter', userId: 'u', until: 5_000, reason: 'old', platformCode: null }, 0);
    const book = new PauseBook(store);
    book.load(1_000);
    expect([book.pausedUntil('u', 'twitter', 1_000, 'con_a'), book.pausedUntil('u', 'twitter', 1_000, 'con_b'), book.pausedUntil('u', 'twitter', 1_000)]).toEqual([5_000, 5_000, 5_000]);
    expect(store.forConnection('u', 'twitter', 1_000, 'con_a')).toMatchObject({ until: 5_000, connectionId: null });
  });
});
