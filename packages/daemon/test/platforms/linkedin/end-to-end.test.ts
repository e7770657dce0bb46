import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { SandboxDeps, Simulator } from '../../../src/platforms/platform-module';
import { simulators } from '../../../src/platforms/registry';
import { sandboxPostRemoval, sandboxPostSink } from '../../../src/platforms/shared/sim/sandbox-post-sink';
import { linkedinSandbox } from '../../../src/platforms/linkedin/sim/sandbox';
import { createLinkedinSimulator, LINKEDIN_API_HOST, LINKEDIN_WWW_HOST, type LinkedinSimulator } from '../../../src/platforms/linkedin/sim/simulator';
import { defaultVersion, monthVersion } from '../../../src/platforms/linkedin/api-version';
import { useCleanups } from '../../support/cleanups';
import { advanceUntil, JPEG, prepareMedia, publish, serveSamples, settled, startSandboxDaemon, targetsOf } from '../../support/sandbox-daemon';
import { listSandboxPosts } from '../../support/sandbox-records';

const defer = useCleanups();

/** The daemon's simulators with the LinkedIn one kept at hand (to retire versions, read its state). */
function reachableLinkedin() {
  let sim!: LinkedinSimulator;
  const factory = (deps: SandboxDeps): Simulator => {
    sim = createLinkedinSimulator({ clock: deps.clock, onPost: sandboxPostSink(deps.store), onRemove: sandboxPostRemoval(deps.store), processingMs: 2_000 });
    const app = new Hono();
    app.route(`/${LINKEDIN_API_HOST}`, sim.api);
    app.route(`/${LINKEDIN_WWW_HOST}`, sim.www);
    return { hosts: [LINKEDIN_API_HOST, LINKEDIN_WWW_HOST], app };
  };
  return { factories: [...simulators().filter((f) => f !== linkedinSandbox), factory], sim: () => sim };
}

describe('LinkedIn through the daemon and its sandbox', () => {
  it('publishes an image post whose reserved characters come out exactly as written, then takes it down', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['linkedin'] });
    const image = await prepareMedia(w, `${await serveSamples(defer)}/photo.jpg`);
    const caption = 'Q3 (final) [draft→done] {ok} <b> @team | ~50% _not_ *bold* #results \\o/ # of wins';
    const job = await publish(w, { caption, platforms: ['linkedin'], media_urls: [image], publish_now: true });
    await advanceUntil(w.clock, settled(w, job), 300);
    const [t] = targetsOf(w, job);
    expect(t).toMatchObject({ platform: 'linkedin', status: 'published', error_message: null });
    const [post] = listSandboxPosts(w.db, { platform: 'linkedin' });
    expect(post!.postId).toBe(t!.post_id);
    expect(t!.post_url).toBe(`https://www.linkedin.com/feed/update/${t!.post_id}/`);
    expect(post!.body.text).toBe(caption);
    expect(post!.body.media).toEqual([expect.objectContaining({ kind: 'image', type: 'image/jpeg', bytes: JPEG.length })]);

    const down = await w.call('POST', `/content/scheduled/unpublish?job_id=${job}`);
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect((down.body.targets as Array<Record<string, unknown>>).map((x) => [x.platform, x.result, x.status])).toEqual([['linkedin', 'removed', 'removed']]);
    expect(listSandboxPosts(w.db, { platform: 'linkedin' })[0]!.removedAt).toBe(w.clock.now());
  }, 60_000);

  it('publishes scheduled, staggered and approved posts at their times, as an organization with a first comment', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['linkedin', 'twitter'] });
    const at = new Date(w.clock.now() + 3_600_000).toISOString();
    // The sandbox connection is a simulated member of its own, administering the next two organizations the simulator makes
    // (the simulator's default member has the first two).
    const org = '90000003';

    const staggered = await publish(w, {
      caption: 'Staggered: X first, LinkedIn an hour later',
      platforms: ['twitter', 'linkedin'],
      scheduled_for: at,
      type_schedule: { linkedin: '+1h' },
      first_comment: { linkedin: 'More in the comments' },
      platform_options: { linkedin: { organization: org } },
    });
    const approved = await publish(w, { caption: 'Needs a yes first', platforms: ['linkedin'], scheduled_for: at, require_approval: true });
    expect(targetsOf(w, approved)[0]!.status).toBe('pending_approval');
    expect((await w.call('POST', `/content/scheduled/approve?job_id=${approved}`)).status).toBe(200);

    await w.clock.advance(3_600_000 - 5_000);
    await advanceUntil(w.clock, () => targetsOf(w, staggered).some((t) => t.status === 'published') && settled(w, approved)(), 120);
    expect(targetsOf(w, staggered).map((r) => [r.platform, r.status])).toEqual([['linkedin', 'scheduled'], ['twitter', 'published']]);
    await w.clock.advance(3_600_000 - 60_000);
    await advanceUntil(w.clock, settled(w, staggered), 180);
    const rows = targetsOf(w, staggered);
    expect(rows.map((r) => [r.platform, r.status])).toEqual([['linkedin', 'published'], ['twitter', 'published']]);
    const li = rows.find((r) => r.platform === 'linkedin')!;
    const x = rows.find((r) => r.platform === 'twitter')!;
    expect(li.published_at! - x.published_at!).toBeGreaterThanOrEqual(3_600_000 - 10_000);
    expect(targetsOf(w, approved)[0]!.status).toBe('published');
    const made = listSandboxPosts(w.db, { platform: 'linkedin' });
    expect(made.map((p) => [p.body.text, p.accountId?.startsWith('urn:li:organization:') ? 'organization' : 'member'])).toEqual([
      ['Needs a yes first', 'member'],
      ['Staggered: X first, LinkedIn an hour later', 'organization'],
    ]);
    expect(made[1]!.accountId).toBe(`urn:li:organization:${org}`);
    const got = await w.call('GET', `/content/scheduled?job_id=${staggered}`);
    const target = (got.body.post as { targets: Array<{ platform: string; comment?: { id?: string } | null }> }).targets.find((t) => t.platform === 'linkedin')!;
    expect(target.comment?.id).toMatch(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
  }, 120_000);

  it('refuses bad input with a 400 naming the field and stores nothing', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['linkedin'] });
    const jobs = () => (w.db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n;
    const refused = async (body: Record<string, unknown>) => {
      const res = await w.call('POST', '/content/publish', { platforms: ['linkedin'], publish_now: true, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return ((res.body.error as { details: Array<{ path: string; message: string }> }).details ?? []).map((d) => [d.path, d.message]);
    };
    expect(await refused({ caption: 'x'.repeat(3001) })).toEqual([['caption', expect.stringMatching(/3001.*3000|3000.*3001/)]]);
    expect(await refused({ caption: 'hello', platform_options: { linkedin: { organization: '123' } } })).toEqual([['platform_options.linkedin.organization', expect.stringContaining('does not administer organization 123')]]);
    expect(await refused({ caption: 'hello', platform_options: { linkedin: { organization: 'acme' } } })).toEqual([['platform_options.linkedin.organization', expect.stringContaining('organization id')]]);
    expect(await refused({ caption: 'hello', platform_options: { linkedin: { visibility: 'FRIENDS' } } }).then((d) => d.map(([p]) => p))).toEqual(['platform_options.linkedin.visibility']);
    expect(await refused({ caption: 'Deck', platform_types: { linkedin: ['document'] }, media_urls: ['https://example.com/deck.pdf'] }).then((d) => d.map(([p]) => p))).toContain('platform_options.linkedin.document_title');
    expect(await refused({ caption: 'Hi @Acme', platform_options: { linkedin: { mentions: [{ name: 'Globex', organization: '1' }] } } })).toEqual([['platform_options.linkedin.mentions.0.name', 'the caption has no "@Globex" to turn into this mention']]);
    expect(jobs()).toBe(0);
    expect(listSandboxPosts(w.db)).toEqual([]);
  }, 60_000);

  it('follows the simulator to the next active version when the default retires (426), no post lost, and GET /platforms shows it', async () => {
    const reach = reachableLinkedin();
    const w = await startSandboxDaemon(defer, { platforms: ['linkedin'], simulators: reach.factories });
    const before = await w.call('GET', '/platforms');
    const entry = () => (before.body.platforms as Array<{ platform: string; api_version?: unknown }>).find((p) => p.platform === 'linkedin')!;
    expect(entry().api_version).toEqual({ version: defaultVersion(w.clock.now()), source: 'default', setting: 'SOCIALPUB_LINKEDIN_VERSION', previous: null, changed_at: null });
    expect((before.body.platforms as Array<{ platform: string; api_version?: unknown }>).find((p) => p.platform === 'twitter')!.api_version).toBeUndefined();

    const old = defaultVersion(w.clock.now());
    reach.sim().retireThrough(old);
    const job = await publish(w, { caption: 'Version day', platforms: ['linkedin'], publish_now: true });
    await advanceUntil(w.clock, settled(w, job), 120);
    expect(targetsOf(w, job)[0]).toMatchObject({ status: 'published', error_message: null });
    expect(listSandboxPosts(w.db, { platform: 'linkedin' }).map((p) => p.body.text)).toEqual(['Version day']);
    const after = await w.call('GET', '/platforms');
    const shown = (after.body.platforms as Array<{ platform: string; api_version?: Record<string, unknown> }>).find((p) => p.platform === 'linkedin')!.api_version;
    expect(shown).toMatchObject({ version: monthVersion(w.clock.now(), 1), source: 'stepped_forward', previous: old });
  }, 60_000);
});
