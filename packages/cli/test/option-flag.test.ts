import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptionFlags } from '../src/option-input';
import { startTestDaemon } from './daemon-harness';

describe('--option platform.field=value', () => {
  it('types each value from the field\'s core schema', () => {
    expect(
      parseOptionFlags(
        ['youtube.title=Launch = day', 'youtube.tags=launch, dev ,', 'youtube.made_for_kids=false', 'tiktok.video_cover_timestamp_ms=1500', 'tiktok.privacy_level=SELF_ONLY'],
        ['youtube', 'tiktok'],
      ),
    ).toEqual({ youtube: { title: 'Launch = day', tags: ['launch', 'dev'], made_for_kids: false }, tiktok: { video_cover_timestamp_ms: 1500, privacy_level: 'SELF_ONLY' } });
  });

  it('refuses malformed flags, unknown platforms and fields, and wrongly typed values', () => {
    const err = (values: string[]) => {
      try {
        parseOptionFlags(values, ['youtube', 'tiktok', 'twitter']);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(err(['title=x'])).toBe('--option "title=x" must look like youtube.title="My video"');
    expect(err(['myspace.title=x'])).toBe('--option myspace.title: myspace has no options (platforms with options: youtube, tiktok, instagram, facebook, threads, twitter, bluesky, mastodon, linkedin, pinterest)');
    expect(err(['youtube.thumbnail=x'])).toBe(
      '--option youtube.thumbnail: youtube has no option "thumbnail" (options: title, description, privacy_status, tags, category_id, made_for_kids, notify_subscribers, thumbnail_url, playlist_id)',
    );
    expect(err(['tiktok.disable_duet=yes'])).toBe('--option tiktok.disable_duet takes true or false, not "yes"');
    expect(err(['tiktok.video_cover_timestamp_ms=1.5s'])).toBe('--option tiktok.video_cover_timestamp_ms takes a whole number, not "1.5s"');
    expect(parseOptionFlags([], ['youtube'])).toEqual({});
    expect(err(['twitter.poll=a,b'])).toBe(`--option twitter.poll takes JSON here, e.g. twitter.poll='{"…":"…"}'`);
    expect(err(['twitter.poll.votes=3'])).toBe('--option twitter.poll.votes: twitter.poll has no option "votes" (options: options, duration_minutes)');
    expect(err(['twitter.reply_settings.x=1'])).toBe('--option twitter.reply_settings.x: twitter.reply_settings has no fields');
    expect(err(['twitter.poll.options=["a",'])).toBe(`--option twitter.poll.options takes JSON here, e.g. twitter.poll.options='["a","b"]'`);
  });

  it('builds nested options (an X poll) from dotted names; a list item with a comma is written as a JSON array', () => {
    expect(
      parseOptionFlags(
        ['twitter.poll.options=Tabs, Spaces,Both', 'twitter.poll.duration_minutes=1440', 'twitter.reply_settings=following', 'twitter.quote_tweet_id=1990000000000000001'],
        ['twitter'],
      ),
    ).toEqual({ twitter: { poll: { options: ['Tabs', 'Spaces', 'Both'], duration_minutes: 1440 }, reply_settings: 'following', quote_tweet_id: '1990000000000000001' } });
    expect(parseOptionFlags(['twitter.poll.options=["Yes, now","No, later"]'], ['twitter'])).toEqual({ twitter: { poll: { options: ['Yes, now', 'No, later'] } } });
    expect(parseOptionFlags(['twitter.poll={"options":["a","b"],"duration_minutes":5}'], ['twitter'])).toEqual({ twitter: { poll: { options: ['a', 'b'], duration_minutes: 5 } } });
  });
});

describe('socialpub publish --option against a daemon', () => {
  let t: Awaited<ReturnType<typeof startTestDaemon>>;
  beforeAll(async () => {
    t = await startTestDaemon();
    t.connect('youtube', 'tiktok');
  });
  afterAll(async () => {
    await t.stop();
  });
  const at = () => new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  it('sends the options as platform_options, shown by schedule show', async () => {
    const r = await t.run([
      'publish', 'Launch day', '-p', 'youtube,tiktok', '--media', 'https://cdn.example.com/v.mp4', '--at', at(),
      '--option', 'youtube.title=The full story', '--option', 'youtube.privacy_status=unlisted', '--option', 'tiktok.disable_comment=true', '--json',
    ]);
    expect(r.code).toBe(0);
    const id = r.json<{ job_id: string }>().job_id;
    const shown = (await t.run(`schedule show ${id} --json`)).json<{ platform_options: unknown }>();
    expect(shown.platform_options).toEqual({ youtube: { title: 'The full story', privacy_status: 'unlisted' }, tiktok: { disable_comment: true } });
  });

  it("names the flag in the daemon's refusal of an option (exit 2)", async () => {
    const r = await t.run(['publish', 'x', '-p', 'youtube', '--media', 'https://cdn.example.com/v.mp4', '--at', at(), '--option', `youtube.title=${'x'.repeat(101)}`, '--json']);
    expect(r.code).toBe(2);
    const err = r.json<{ error: { details: { path: string; flag?: string }[] } }>().error;
    expect(err.details).toContainEqual(expect.objectContaining({ path: 'platform_options.youtube.title', flag: '--option youtube.title' }));
  });

  it('sends an X poll built from --option flags; a one-option poll is the daemon\'s 400 naming the field (exit 2)', async () => {
    t.connect('twitter');
    const r = await t.run(['publish', 'Tabs or spaces?', '-p', 'twitter', '--at', at(), '--option', 'twitter.poll.options=Tabs,Spaces', '--option', 'twitter.poll.duration_minutes=60', '--option', 'twitter.reply_settings=following', '--json']);
    expect(r.code).toBe(0);
    const shown = (await t.run(`schedule show ${r.json<{ job_id: string }>().job_id} --json`)).json<{ platform_options: unknown }>();
    expect(shown.platform_options).toEqual({ twitter: { poll: { options: ['Tabs', 'Spaces'], duration_minutes: 60 }, reply_settings: 'following' } });
    const bad = await t.run(['publish', 'One?', '-p', 'twitter', '--at', at(), '--option', 'twitter.poll.options=Only', '--option', 'twitter.poll.duration_minutes=60', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json<{ error: { details: { path: string }[] } }>().error.details.map((d) => d.path)).toContain('platform_options.twitter.poll.options');
  });
});
