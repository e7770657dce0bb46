import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock';
import { useTempDirs } from '../support/temp-dirs';
import { holdHorizon, openSimulatorPair, type SandboxApp, type SimulatorPair } from './support/simulator-pair';

/**
 * Several daemons over one PostgreSQL database, each with its own simulators: the calls of
 * one sandbox connection spread over them count against one rate window, as on the one
 * platform (docs/platforms/simulators.md "Several daemons, one sandbox world"). The calls
 * alternate between two simulator processes (two stores, two sandbox apps) while a
 * transaction held open elsewhere keeps each one's catch-up horizon below the other's
 * writes: what each held in memory would have let twice the limit through.
 */

const tempDir = useTempDirs();
const clock = new ManualClock();
let pair: SimulatorPair;
let a: SandboxApp;
let b: SandboxApp;

beforeAll(async () => {
  pair = await openSimulatorPair(tempDir('sp-shared-windows-'), clock);
  ({ a, b } = pair);
});
afterAll(() => pair.close());

/** Runs `fn` with every simulator's catch-up horizon held where it is. */
async function withHorizonHeld<T>(fn: () => Promise<T>): Promise<T> {
  const held = holdHorizon(pair.holder);
  try {
    return await fn();
  } finally {
    held.release();
  }
}

interface Case {
  name: string;
  limit: number;
  /** The window's length: after it, calls are let through again. */
  windowMs: number;
  call: (app: typeof a) => Response | Promise<Response>;
  /** The rate-limit header that counts down (its value after each allowed call: limit - calls so far). */
  remaining?: string;
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const cases: Case[] = [
  {
    name: "X's 15-minute window (deleting a post, 50 per user)",
    limit: 50,
    windowMs: 15 * 60_000,
    call: (app) => app.request('/api.x.com/2/tweets/1990000000000099999', { method: 'DELETE', headers: { authorization: 'Bearer sandbox_at_windowsx.secret' } }),
    remaining: 'x-rate-limit-remaining',
  },
  {
    name: "TikTok's minute (creator_info, 20 per creator)",
    limit: 20,
    windowMs: 60_000,
    call: (app) => app.request('/open.tiktokapis.com/v2/post/publish/creator_info/query/', { method: 'POST', headers: { authorization: 'Bearer sandbox_at_windowstt.secret', 'content-type': 'application/json; charset=UTF-8' } }),
  },
  {
    name: "Bluesky's createSession (30 per 5 minutes per identifier)",
    limit: 30,
    windowMs: 5 * 60_000,
    call: (app) => app.request('/bsky.social/xrpc/com.atproto.server.createSession', json({ identifier: 'windows.bsky.social', password: 'not-the-password' })),
    remaining: 'ratelimit-remaining',
  },
];

describe("rate windows with several daemons' simulators over one PostgreSQL database", () => {
  it.each(cases)('$name: calls alternating between two daemons are let through up to the limit together, not each', async (c) => {
    const calls = c.limit + 10;
    const statuses = await withHorizonHeld(async () => {
      const seen: Array<{ via: 'A' | 'B'; status: number; remaining: string | null }> = [];
      for (let i = 0; i < calls; i++) {
        const via = i % 2 === 0 ? 'A' : 'B';
        const res = await c.call(via === 'A' ? a : b);
        await res.arrayBuffer();
        seen.push({ via, status: res.status, remaining: c.remaining ? res.headers.get(c.remaining) : null });
      }
      return seen;
    });
    const allowed = statuses.filter((s) => s.status !== 429);
    expect(allowed).toHaveLength(c.limit);
    // The first `limit` calls, whichever daemon took them; every later one refused.
    expect(statuses.slice(0, c.limit).every((s) => s.status !== 429)).toBe(true);
    expect(statuses.slice(c.limit).map((s) => s.status)).toEqual(Array.from({ length: calls - c.limit }, () => 429));
    // One count, down through both daemons.
    if (c.remaining) expect(allowed.map((s) => Number(s.remaining))).toEqual(Array.from({ length: c.limit }, (_, i) => c.limit - 1 - i));

    // The window ended: let through again, at either daemon.
    await clock.advance(c.windowMs);
    expect((await c.call(b)).status).not.toBe(429);
    expect((await c.call(a)).status).not.toBe(429);
  });
});
