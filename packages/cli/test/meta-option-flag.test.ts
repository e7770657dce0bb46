import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptionFlags } from '../src/option-input';
import { startTestDaemon } from './daemon-harness';

const err = (values: string[]) => {
  try {
    parseOptionFlags(values, ['instagram', 'facebook', 'threads']);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('--option for instagram, facebook and threads', () => {
  it('types lists, JSON lists of objects, either-or fields, numbers, switches and text', () => {
    expect(
      parseOptionFlags(
        [
          'instagram.collaborators=natgeo, nasa',
          'instagram.user_tags=[{"username":"natgeo","x":0.5,"y":0.25,"media_index":1}]',
          'instagram.alt_text=["A pier",null]',
          'instagram.thumb_offset=1500',
          'instagram.share_to_feed=false',
          'instagram.location_id=110843418940484',
          'facebook.link=https://example.com/a?b=c',
          'threads.reply_control=mentioned_only',
          'threads.topic_tag=Launch Day',
        ],
        ['instagram', 'facebook', 'threads'],
      ),
    ).toEqual({
      instagram: {
        collaborators: ['natgeo', 'nasa'],
        user_tags: [{ username: 'natgeo', x: 0.5, y: 0.25, media_index: 1 }],
        alt_text: ['A pier', null],
        thumb_offset: 1500,
        share_to_feed: false,
        location_id: '110843418940484',
      },
      facebook: { link: 'https://example.com/a?b=c' },
      threads: { reply_control: 'mentioned_only', topic_tag: 'Launch Day' },
    });
    // A list may come as JSON too; an alt text is text unless it is a JSON list.
    expect(parseOptionFlags(['instagram.collaborators=["a","b"]', 'instagram.alt_text=[draft] a pier'], ['instagram'])).toEqual({ instagram: { collaborators: ['a', 'b'], alt_text: '[draft] a pier' } });
  });

  it('refuses a list of objects that is not JSON, naming the shape', () => {
    expect(err(['instagram.user_tags=natgeo'])).toBe(`--option instagram.user_tags takes JSON here, e.g. instagram.user_tags='[{"username":"natgeo","x":0.5,"y":0.5}]'`);
    expect(err(['instagram.thumb_offset=1.5s'])).toBe('--option instagram.thumb_offset takes a whole number, not "1.5s"');
    expect(err(['threads.poll=x'])).toBe('--option threads.poll: threads has no option "poll" (options: reply_control, topic_tag, link_attachment, quote_post_id)');
  });
});

describe('socialpub publish --option for the Meta platforms against a daemon', () => {
  let t: Awaited<ReturnType<typeof startTestDaemon>>;
  beforeAll(async () => {
    t = await startTestDaemon();
    t.connect('instagram', 'threads', 'twitter');
  });
  afterAll(async () => {
    await t.stop();
  });
  const at = () => new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  it('sends collaborators and user tags as platform_options, shown by schedule show', async () => {
    const r = await t.run([
      'publish', 'Team day', '-p', 'instagram,threads', '--media', 'https://cdn.example.com/a.jpg', '--at', at(),
      '--option', 'instagram.collaborators=natgeo,nasa', '--option', 'instagram.user_tags=[{"username":"natgeo","x":0.5,"y":0.5}]',
      '--option', 'threads.reply_control=accounts_you_follow', '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = r.json<{ job_id: string }>().job_id;
    const shown = (await t.run(`schedule show ${id} --json`)).json<{ platform_options: unknown }>();
    expect(shown.platform_options).toEqual({
      instagram: { collaborators: ['natgeo', 'nasa'], user_tags: [{ username: 'natgeo', x: 0.5, y: 0.5 }] },
      threads: { reply_control: 'accounts_you_follow' },
    });
  });

  it("names the flag in the daemon's refusal (exit 2)", async () => {
    const r = await t.run(['publish', 'x', '-p', 'instagram', '--media', 'https://cdn.example.com/a.jpg', '--at', at(), '--option', 'instagram.collaborators=a,b,c,d', '--json']);
    expect(r.code).toBe(2);
    const e = r.json<{ error: { details: { path: string; flag?: string }[] } }>().error;
    expect(e.details).toContainEqual(expect.objectContaining({ path: 'platform_options.instagram.collaborators', flag: '--option instagram.collaborators' }));
  });

  it('socialpub sandbox posts shows the options the simulator received', async () => {
    const r = await t.run(['publish', 'Options in the sandbox', '-p', 'threads', '--now', '--wait', '--option', 'threads.topic_tag=Launch', '--option', 'threads.reply_control=mentioned_only']);
    expect(r.code, r.stderr).toBe(0);
    const human = await t.run('sandbox posts --platform threads');
    expect(human.stdout).toMatch(/^PLATFORM\s+KIND\s+POSTED\s+POST\s+TEXT\s+OPTIONS/);
    expect(human.stdout).toMatch(/threads\s+text\s+.+Options in the sandbox\s+reply_control=mentioned_only topic_tag=Launch/);
    const json = (await t.run('sandbox posts --platform threads --json')).json<{ posts: { body: { options: unknown } }[] }>();
    expect(json.posts.at(-1)!.body.options).toEqual({ reply_control: 'mentioned_only', topic_tag: 'Launch' });
  });

  it("socialpub sandbox posts shows an X post's poll and reply settings (X's own field names)", async () => {
    const r = await t.run(['publish', 'Tabs or spaces?', '-p', 'twitter', '--now', '--wait', '--option', 'twitter.poll.options=Tabs,Spaces', '--option', 'twitter.poll.duration_minutes=60', '--option', 'twitter.reply_settings=following']);
    expect(r.code, r.stderr).toBe(0);
    const human = await t.run('sandbox posts --platform twitter');
    expect(human.stdout).toMatch(/twitter\s+tweet\s+.+Tabs or spaces\?\s+poll=\{"options":\["Tabs","Spaces"\],"duration_minutes":60\}/);
    const wide = await t.run('sandbox posts --platform twitter --json');
    expect(wide.json<{ posts: { body: Record<string, unknown> }[] }>().posts.at(-1)!.body).toMatchObject({ reply_settings: 'following', poll: { options: ['Tabs', 'Spaces'], duration_minutes: 60 } });
  });
});
