import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock';
import { useTempDirs } from '../support/temp-dirs';
import { holdHorizon, openSimulatorPair, othersSettled, type SandboxApp, type SimulatorPair } from './support/simulator-pair';

/**
 * Several daemons over one PostgreSQL database, each with its own simulators: a sandbox
 * connection's first calls can reach two daemons at the same moment, each before it has
 * caught up on the other's writes. The connection must still be one simulated account
 * (docs/platforms/simulators.md "Several daemons, one sandbox world"): the second daemon's
 * simulator finds the key taken in the database and acts as the first one's account.
 *
 * "Before it has caught up" is made exact here: a transaction held open on another
 * connection keeps every simulator's catch-up horizon below A's writes (they are caught up
 * on only once every transaction begun before them has ended, store/sandbox-store.ts), so B
 * answers from what it held before A made the account, as a daemon racing A would. A's
 * writes are committed before B's call (two stores in one thread cannot wait on each other).
 */

const tempDir = useTempDirs();
const clock = new ManualClock();
let pair: SimulatorPair;
let a: SandboxApp;
let b: SandboxApp;

beforeAll(async () => {
  pair = await openSimulatorPair(tempDir('sp-shared-accounts-'), clock);
  ({ a, b } = pair);
});
afterAll(() => pair.close());

interface Case {
  name: string;
  path: string;
  /** The account the answer names, and how it shows it (handle, username). */
  account: (body: Record<string, unknown>) => [id: unknown, shown: unknown];
  /** Where the simulator keeps its accounts (sandbox_state simulator and kind). */
  records: [simulator: string, kind: string];
}

const cases: Case[] = [
  { name: 'X', path: '/api.x.com/2/users/me', account: (r) => [(r.data as Record<string, unknown>).id, (r.data as Record<string, unknown>).username], records: ['x', 'users'] },
  { name: 'Mastodon', path: '/mastodon.social/api/v1/accounts/verify_credentials', account: (r) => [r.id, r.username], records: ['mastodon', 'accounts'] },
  { name: 'Bluesky', path: '/bsky.social/xrpc/com.atproto.server.getSession', account: (r) => [r.did, r.handle], records: ['bluesky', 'accounts'] },
  { name: 'YouTube', path: '/www.googleapis.com/youtube/v3/channels?part=snippet&mine=true', account: (r) => [(r.items as Array<Record<string, unknown>>)[0]!.id, ((r.items as Array<Record<string, unknown>>)[0]!.snippet as Record<string, unknown>).title], records: ['youtube', 'channels'] },
  { name: 'TikTok', path: '/open.tiktokapis.com/v2/user/info/?fields=open_id,display_name', account: (r) => [((r.data as Record<string, unknown>).user as Record<string, unknown>).open_id, ((r.data as Record<string, unknown>).user as Record<string, unknown>).display_name], records: ['tiktok', 'creators'] },
  { name: 'LinkedIn', path: '/api.linkedin.com/v2/userinfo', account: (r) => [r.sub, r.name], records: ['linkedin', 'members'] },
];

async function me(app: typeof a, c: Case, token: string): Promise<[unknown, unknown]> {
  const res = await app.request(c.path, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return c.account(body);
}

describe("sandbox accounts with several daemons' simulators over one PostgreSQL database", () => {
  it.each(cases)("$name: a new connection's first calls at two daemons, neither having seen the other's, make one account", async (c) => {
    const token = `sandbox_at_race${c.name.toLowerCase()}.secret`;
    const accounts = () => pair.first.db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM sandbox_state WHERE simulator = ? AND kind = ? AND removed = 0').get(...c.records)!.n;
    const before = Number(accounts());
    const held = holdHorizon(pair.holder);
    let viaA: [unknown, unknown];
    let viaB: [unknown, unknown];
    try {
      viaA = await me(a, c, token);
      // B has not caught up on A's account (the horizon is held): it meets the connection as new.
      viaB = await me(b, c, token);
    } finally {
      held.release();
    }
    expect(viaB).toEqual(viaA);
    expect(typeof viaA[0]).toBe('string');
    // One account made, not two with the last one written naming the connection.
    expect(Number(accounts())).toBe(before + 1);
    // Once everything has settled, both still answer that one account.
    await othersSettled(pair.probe);
    expect(await me(a, c, token)).toEqual(viaA);
    expect(await me(b, c, token)).toEqual(viaA);
  });
});
