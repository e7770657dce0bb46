import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectYoutube } from '../../../src/platforms/youtube/connect';
import { createYoutubeSimulator, GOOGLE_OAUTH_HOST, type YoutubeSimulator } from '../../../src/platforms/youtube/sim/simulator';
import { ManualClock } from '../../../src/util/clock';
import { fakeConnections, fakeIO, serveSimulators, type SimServer } from '../shared/harness';

let clock: ManualClock;
let sim: YoutubeSimulator;
let server: SimServer;
const baseUrl = (h: string) => server.baseUrl(h === 'accounts.google.com' ? GOOGLE_OAUTH_HOST : h);

beforeEach(async () => {
  clock = new ManualClock();
  sim = createYoutubeSimulator({ clock });
  server = await serveSimulators(sim.apps);
});
afterEach(() => server.close());

describe('socialpub connect youtube', () => {
  it('asks Google for offline access with PKCE on any loopback port and stores the channel', async () => {
    const io = fakeIO(['gc-1.apps.googleusercontent.com', 'gs-1']);
    const connections = fakeConnections();
    await connectYoutube({ userId: 'usr_1', privacyStatus: 'unlisted' }, io, { connections, clock, baseUrl });
    const authorize = new URL(io.opened[0]!);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      access_type: 'offline',
      prompt: 'consent',
      scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
      code_challenge_method: 'S256',
    });
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(connections.saved[0]!.input).toMatchObject({
      accountId: sim.channel.id,
      accountName: 'Sandbox YouTube',
      tokenExpiresAt: clock.now() + 3599_000,
      meta: { privacy_status: 'unlisted' },
    });
    expect(connections.saved[0]!.input.secrets!.refresh_token).toMatch(/^1\/\/sim-/);
  });
});
