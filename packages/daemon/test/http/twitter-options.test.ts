import { describe, expect, it } from 'vitest';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter';
import { API, errorOf, harness, type Harness } from './harness';

const PUBLISH = `${API}/content/publish`;
const VALIDATE = `${API}/content/validate`;
const SCHEDULED = `${API}/content/scheduled`;

const tweet = (twitter: unknown, extra: Record<string, unknown> = {}) => ({
  caption: 'Which one ships first?',
  platforms: ['twitter'],
  scheduled_for: '2026-12-25T10:00:00Z',
  platform_options: { twitter },
  ...extra,
});

function setup(): Harness {
  const h = harness({ deps: { adapters: new Map([['twitter', createTwitterAdapter()]]) } });
  h.connect(['twitter']);
  return h;
}

async function refusal(h: Harness, method: string, path: string, body: unknown) {
  const res = await h.call(method, path, { body });
  expect(res.status).toBe(400);
  const e = await errorOf(res);
  expect(e.code).toBe('invalid_request');
  return (e.details ?? []).map((d) => [d.path, d.message]);
}

const BAD: [string, unknown, string, RegExp][] = [
  ['one poll option', { poll: { options: ['only'], duration_minutes: 60 } }, 'platform_options.twitter.poll.options', /2 to 4 options/],
  ['five poll options', { poll: { options: ['a', 'b', 'c', 'd', 'e'], duration_minutes: 60 } }, 'platform_options.twitter.poll.options', /2 to 4 options/],
  ['a 26-character option', { poll: { options: ['x'.repeat(26), 'b'], duration_minutes: 60 } }, 'platform_options.twitter.poll.options.0', /at most 25 characters/],
  ['an empty option', { poll: { options: ['  ', 'b'], duration_minutes: 60 } }, 'platform_options.twitter.poll.options.0', /must not be empty/],
  ['a 4-minute poll', { poll: { options: ['a', 'b'], duration_minutes: 4 } }, 'platform_options.twitter.poll.duration_minutes', /at least 5 minutes/],
  ['a poll past 7 days', { poll: { options: ['a', 'b'], duration_minutes: 10_081 } }, 'platform_options.twitter.poll.duration_minutes', /at most 7 days/],
  ['a fractional duration', { poll: { options: ['a', 'b'], duration_minutes: 7.5 } }, 'platform_options.twitter.poll.duration_minutes', /whole number/],
  ['a poll without duration', { poll: { options: ['a', 'b'] } }, 'platform_options.twitter.poll.duration_minutes', /./],
  ['an unknown poll field', { poll: { options: ['a', 'b'], duration_minutes: 5, votes: 3 } }, 'platform_options.twitter.poll.votes', /"votes" is not a known field of platform_options.twitter.poll/],
  ['an unknown reply setting', { reply_settings: 'nobody' }, 'platform_options.twitter.reply_settings', /./],
  ['a non-numeric quote id', { quote_tweet_id: 'https://x.com/a/status/1' }, 'platform_options.twitter.quote_tweet_id', /1 to 19 digits/],
  ['a 20-digit quote id', { quote_tweet_id: '1'.repeat(20) }, 'platform_options.twitter.quote_tweet_id', /1 to 19 digits/],
  ['a poll with a quote', { poll: { options: ['a', 'b'], duration_minutes: 5 }, quote_tweet_id: '123' }, 'platform_options.twitter.poll', /cannot quote/],
  ['an unknown option', { community_id: '1' }, 'platform_options.twitter.community_id', /"community_id" is not a known field of platform_options.twitter/],
];

describe('platform_options.twitter', () => {
  it('accepts every option and stores it as given', async () => {
    const h = setup();
    const twitter = { reply_settings: 'mentionedUsers', poll: { options: ['Tabs', 'Spaces', '🙂 either'], duration_minutes: 1440 } };
    const res = await h.call('POST', PUBLISH, { body: tweet(twitter) });
    expect(res.status).toBe(200);
    const { job_id } = (await res.json()) as { job_id: string };
    const got = await h.call('GET', `${SCHEDULED}?job_id=${job_id}`);
    expect(((await got.json()) as { post: { platform_options: unknown } }).post.platform_options).toEqual({ twitter });
    const quote = await h.call('POST', PUBLISH, { body: tweet({ quote_tweet_id: '1990000000000000000', reply_settings: 'everyone' }, { caption: 'quoting' }) });
    expect(quote.status).toBe(200);
  });

  it.each(BAD)('refuses %s with a 400 naming the field, on publish and on validate', async (_name, twitter, path, message) => {
    const h = setup();
    const details = await refusal(h, 'POST', PUBLISH, tweet(twitter));
    expect(details.find(([p]) => p === path)?.[1]).toMatch(message);
    const res = await h.call('POST', VALIDATE, { body: tweet(twitter) });
    const v = (await res.json()) as { valid: boolean; errors: { path: string }[] };
    expect(v.valid).toBe(false);
    expect(v.errors.map((e) => e.path)).toContain(path);
    expect(h.store.jobs.list(h.user.id, { status: 'all', limit: 10, after: null }).jobs).toEqual([]);
  });

  it.each(BAD)('refuses %s in PATCH with a 400 naming the field and keeps the stored options', async (_name, twitter, path) => {
    const h = setup();
    const res = await h.call('POST', PUBLISH, { body: tweet({ reply_settings: 'following' }) });
    const { job_id } = (await res.json()) as { job_id: string };
    const details = await refusal(h, 'PATCH', `${SCHEDULED}?job_id=${job_id}`, { platform_options: { twitter } });
    expect(details.map(([p]) => p)).toContain(path);
    const got = await h.call('GET', `${SCHEDULED}?job_id=${job_id}`);
    expect(((await got.json()) as { post: { platform_options: unknown } }).post.platform_options).toEqual({ twitter: { reply_settings: 'following' } });
  });

  it('refuses a poll on a post with media (publish, validate and a PATCH adding the poll)', async () => {
    const h = setup();
    const poll = { options: ['a', 'b'], duration_minutes: 30 };
    const media = { media_urls: ['https://cdn.example.com/a.png'] };
    const details = await refusal(h, 'POST', PUBLISH, tweet({ poll }, media));
    expect(details).toContainEqual(['platform_options.twitter.poll', expect.stringMatching(/poll takes no media/)]);
    const v = (await (await h.call('POST', VALIDATE, { body: tweet({ poll }, media) })).json()) as { errors: { path: string }[] };
    expect(v.errors.map((e) => e.path)).toEqual(['platform_options.twitter.poll']);

    const ok = await h.call('POST', PUBLISH, { body: tweet({}, media) });
    expect(ok.status).toBe(200);
    const { job_id } = (await ok.json()) as { job_id: string };
    expect(await refusal(h, 'PATCH', `${SCHEDULED}?job_id=${job_id}`, { platform_options: { twitter: { poll } } })).toEqual([
      ['platform_options.twitter.poll', expect.stringMatching(/poll takes no media/)],
    ]);
    // Without media the same poll is fine.
    expect((await h.call('POST', PUBLISH, { body: tweet({ poll }, { caption: 'a poll' }) })).status).toBe(200);
  });
});
