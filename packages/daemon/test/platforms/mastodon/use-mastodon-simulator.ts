import { afterEach, beforeEach, expect } from 'vitest';
import { createMastodonSimulator, MASTODON_HOST, type MastodonSimulator, type MastodonSimulatorOptions } from '../../../src/platforms/mastodon/sim/simulator';
import { RecordingClock, serveSimulators, type SimServer } from '../shared/harness';
import { checkTraffic } from './openapi-check';

export interface MastodonWorld {
  clock: RecordingClock;
  sim: MastodonSimulator;
  server: SimServer;
}

/**
 * Per test: a fresh clock, Mastodon simulator and loopback server; `take` receives them.
 * With `openApi`, every request and answer of the test must agree with Mastodon's
 * OpenAPI description (mastodon.openapi.json).
 */
export function useMastodonSimulator(take: (world: MastodonWorld) => void, opts: { openApi?: boolean; sim?: Partial<MastodonSimulatorOptions> } = {}): void {
  let world: MastodonWorld;
  beforeEach(async () => {
    const clock = new RecordingClock();
    const sim = createMastodonSimulator({ clock, ...opts.sim });
    world = { clock, sim, server: await serveSimulators([{ host: MASTODON_HOST, app: sim.app }]) };
    take(world);
  });
  afterEach(() => world.server.close());
  if (opts.openApi) afterEach(() => expect(checkTraffic(world.sim.log.requests)).toEqual([]));
}
