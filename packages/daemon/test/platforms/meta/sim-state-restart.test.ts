import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MetaSimulator } from '../../../src/platforms/meta/sim/simulator';
import { openDatabase, type DB } from '../../../src/store/database';
import { ManualClock } from '../../../src/util/clock';
import { sandboxStore } from '../../support/sandbox-records';

/**
 * Issue 15, deliverable 4 for the Meta simulator: its state in SQLite, so a restart (a new
 * simulator over the same database) continues where it stopped: a video container still
 * processing finishes and publishes, the 24 h publishing quota counts what came before,
 * tokens issued before still work and ids never repeat.
 */

let db: DB;
let clock: ManualClock;
beforeEach(() => {
  db = openDatabase(':memory:');
  clock = new ManualClock();
});
afterEach(() => db.close());

const TOKEN = 'sandbox_at_metarestart.secret';
const start = () => new MetaSimulator({ clock, store: sandboxStore(db), config: { imageProcessingMs: 0, videoProcessingMs: 60_000 } });

async function graph(sim: MetaSimulator, method: string, path: string): Promise<Record<string, unknown>> {
  const res = await sim.app.request(`http://127.0.0.1/graph.instagram.com/v23.0${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
  return (await res.json()) as Record<string, unknown>;
}

describe('Meta simulator state across a restart', () => {
  it('continues a processing video container, the quota window, issued tokens and the id sequence', async () => {
    const first = start();
    const ig = (await graph(first, 'GET', '/me?fields=id')).id as string;
    const image = (await graph(first, 'POST', `/${ig}/media?image_url=https://example.com/a.jpg&caption=one`)).id as string;
    const published = (await graph(first, 'POST', `/${ig}/media_publish?creation_id=${image}`)).id as string;
    const reel = (await graph(first, 'POST', `/${ig}/media?media_type=REELS&video_url=https://example.com/v.mp4&caption=two`)).id as string;
    expect((await graph(first, 'GET', `/${reel}?fields=status_code`)).status_code).toBe('IN_PROGRESS');
    const issued = first.state.issueToken({ token: 'IGQVJissued', platform: 'instagram', kind: 'ig_user', accountId: ig, expiresAt: null, longLived: true });
    first.state.flush();

    const second = start();
    expect((await graph(second, 'GET', `/${published}?fields=caption`)).caption).toBe('one');
    expect((await graph(second, 'GET', `/${reel}?fields=status_code`)).status_code).toBe('IN_PROGRESS');
    await clock.advance(60_000);
    expect((await graph(second, 'GET', `/${reel}?fields=status_code`)).status_code).toBe('FINISHED');
    const reelMedia = (await graph(second, 'POST', `/${ig}/media_publish?creation_id=${reel}`)).id as string;
    expect([published, image, reel]).not.toContain(reelMedia);
    expect((await graph(second, 'GET', `/${ig}/content_publishing_limit?fields=quota_usage`)).data).toEqual([{ quota_usage: 2 }]);
    expect(second.state.tokens.get(issued.token)).toMatchObject({ accountId: ig, revoked: false });
    // The container was published once; publishing it again is refused as before the restart.
    expect(((await graph(second, 'POST', `/${ig}/media_publish?creation_id=${image}`)).error as { code: number }).code).toBeGreaterThan(0);
  });
});
