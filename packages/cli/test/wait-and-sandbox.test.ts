import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon({ connect: ['twitter', 'threads'] });

interface Post {
  job_id: string;
  status: string;
  targets: { platform: string; type: string; status: string; post_url: string | null; error: { code: string; message: string } | null }[];
}

describe('socialpub publish --wait', () => {
  it('follows the target to the simulator and prints the post URL on stdout', async () => {
    const r = await t.run('publish "hello from the wait test" -p twitter --now --wait');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^https:\/\/x\.com\/\S+\/status\/\d+$/);
    expect(r.stderr).toMatch(/✔ twitter\.tweet: published https:\/\/x\.com\//);
  });

  it('prints the finished job under --json', async () => {
    const r = await t.run('publish "json and wait" -p twitter,threads --now --wait --json');
    expect(r.code, r.stderr).toBe(0);
    const post = r.json<Post>();
    expect(post.status).toBe('published');
    expect(post.targets.map((x) => [x.platform, x.status])).toEqual([
      ['twitter', 'published'],
      ['threads', 'published'],
    ]);
    expect(post.targets.every((x) => x.post_url?.startsWith('https://'))).toBe(true);
  });

  it('exits 8 with the failed target and its reason when the platform refuses', async () => {
    // X refuses the same text twice (duplicate content): a permanent failure.
    expect((await t.run('publish "said once already" -p twitter --now --wait')).code).toBe(0);
    const human = await t.run('publish "said once already" -p twitter --now --wait');
    expect(human.code).toBe(8);
    expect(human.stderr).toMatch(/✖ twitter\.tweet: failed \(.+\)/);
    expect(human.stderr).toContain('error: 1 of 1 targets did not publish (twitter.tweet: failed)');
    const json = await t.run('publish "said once already" -p twitter --now --wait --json');
    expect(json.code).toBe(8);
    const body = json.json<{ error: { code: string; exit_code: number }; data: Post }>();
    expect(body.error).toMatchObject({ code: 'incomplete', exit_code: 8 });
    expect(body.data.status).toBe('failed');
    expect(body.data.targets[0]?.error?.message).toMatch(/duplicate/i);
  });
});

describe('socialpub sandbox posts', () => {
  it('lists what the simulators received, newest last, as a table and as JSON', async () => {
    const human = await t.run('sandbox posts');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^PLATFORM\s+KIND\s+POSTED\s+POST\s+TEXT/);
    expect(human.stdout).toMatch(/twitter\s+tweet\s+.+UTC\s+https:\/\/x\.com\/\S+\s+hello from the wait test/);
    const json = (await t.run('sandbox posts --json')).json<{ posts: { platform: string; post_url: string; body: Record<string, unknown> }[] }>();
    // Newest last: the first job's post, then the two of the twitter+threads job (published
    // side by side, so either may land first), then the one that X took of the three alike.
    expect(json.posts.map((p) => p.body.text)).toEqual(['hello from the wait test', 'json and wait', 'json and wait', 'said once already']);
    expect([json.posts[0]!.platform, json.posts[3]!.platform]).toEqual(['twitter', 'twitter']);
    expect(json.posts.slice(1, 3).map((p) => p.platform).sort()).toEqual(['threads', 'twitter']);
  });

  it('filters by platform, and says when a simulator received nothing', async () => {
    const threads = (await t.run('sandbox posts --platform threads --json')).json<{ posts: { platform: string }[] }>();
    expect(threads.posts.map((p) => p.platform)).toEqual(['threads']);
    expect((await t.run('sandbox posts --platform youtube')).stdout).toContain('the youtube simulator received nothing yet');
    expect((await t.run('sandbox posts --platform myspace')).code).toBe(2);
  });
});

describe('socialpub sandbox endpoints', () => {
  it('prints each simulated host with its http and https origins and the certificate to trust', async () => {
    const human = await t.run('sandbox endpoints');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^HOST\s+ORIGIN\s+HTTPS/);
    expect(human.stdout).toMatch(/api\.x\.com\s+http:\/\/127\.0\.0\.1:\d+\s+https:\/\/127\.0\.0\.1:\d+/);
    const json = (await t.run('sandbox endpoints --json')).json<{ endpoints: Record<string, string>; https_endpoints: Record<string, string>; ca_file: string }>();
    expect(Object.keys(json.https_endpoints).sort()).toEqual(Object.keys(json.endpoints).sort());
    expect(json.ca_file).toMatch(/sandbox-tls\/cert\.pem$/);
    expect(human.stdout).toContain(`NODE_EXTRA_CA_CERTS=${json.ca_file}`);
  });
});

describe('socialpub sandbox faults', () => {
  it('sets, shows and clears the caller\'s faults; a made-but-unanswered X post still ends as one published post', async () => {
    const set = await t.run('sandbox faults set twitter:unanswered=1 latency=20-40 --json');
    expect(set.code, set.stderr).toBe(0);
    expect(set.json<{ faults: unknown }>().faults).toEqual({ twitter: { unanswered: 1 }, all: { latency_ms: { min: 20, max: 40 } } });
    const human = await t.run('sandbox faults show');
    expect(human.stdout).toMatch(/you\s+twitter\s+100%/);
    expect(human.stdout).toMatch(/you\s+all\s+20-40 ms/);

    const text = `lost answer ${Date.now()}`;
    const r = await t.run(`publish "${text}" -p twitter --now --wait --json`);
    expect(r.code, r.stderr).toBe(0);
    const post = r.json<Post>();
    expect(post.targets.map((x) => x.status)).toEqual(['published']);
    const posts = (await t.run('sandbox posts --platform twitter --json')).json<{ posts: { post_url: string; body: Record<string, unknown> }[] }>().posts;
    const mine = posts.filter((p) => p.body.text === text);
    expect(mine).toHaveLength(1);
    expect(post.targets[0]!.post_url).toBe(mine[0]!.post_url);

    // Adding keeps what was there; clearing one platform keeps the rest.
    expect((await t.run('sandbox faults set threads:5xx=10% --json')).json<{ faults: Record<string, unknown> }>().faults).toEqual({
      twitter: { unanswered: 1 },
      all: { latency_ms: { min: 20, max: 40 } },
      threads: { server_error: 0.1 },
    });
    expect((await t.run('sandbox faults clear --platform twitter --json')).json<{ faults: Record<string, unknown> }>().faults).toEqual({
      all: { latency_ms: { min: 20, max: 40 } },
      threads: { server_error: 0.1 },
    });
    expect((await t.run('sandbox faults clear --json')).json<{ faults: Record<string, unknown> }>().faults).toEqual({});
    expect((await t.run('sandbox faults show')).stdout).toContain('no sandbox faults');

    const bad = await t.run('sandbox faults set twitter:429=2');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('a share must be 0 to 1');
    expect((await t.run('sandbox faults set myspace:reset=1')).code).toBe(2);
  }, 60_000);
});

// Last: the sandbox posts listed above are counted.
describe('socialpub publish -p', () => {
  it('takes -p more than once: each platform given is published, none silently dropped', async () => {
    const r = await t.run('publish "two -p flags" -p twitter -p threads --now --wait --json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Post>().targets.map((x) => [x.platform, x.status])).toEqual([
      ['twitter', 'published'],
      ['threads', 'published'],
    ]);
  });
});
