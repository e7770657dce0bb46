import { afterEach, beforeEach, expect } from 'vitest';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { createTwitterSimulator, X_HOST, type TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import { RecordingClock, serveSimulators, type SimServer } from '../shared/harness';
import { checkTraffic } from './openapi-check';

export interface XSimulatorWorld {
  clock: RecordingClock;
  sim: TwitterSimulator;
  server: SimServer;
}

/**
 * Per test: a fresh clock, X simulator and loopback server, and no remembered token
 * refreshes; `take` receives them (assign them to the file's own variables). With
 * `openApi`, every request and answer of the test must agree with X's OpenAPI description.
 */
export function useXSimulator(take: (world: XSimulatorWorld) => void, opts: { openApi?: boolean } = {}): void {
  let world: XSimulatorWorld;
  beforeEach(async () => {
    const clock = new RecordingClock();
    const sim = createTwitterSimulator({ clock });
    world = { clock, sim, server: await serveSimulators([{ host: X_HOST, app: sim.app }]) };
    forgetRefreshes();
    take(world);
  });
  afterEach(() => world.server.close());
  if (opts.openApi) afterEach(() => expect(checkTraffic(world.sim.log.requests)).toEqual([]));
}
