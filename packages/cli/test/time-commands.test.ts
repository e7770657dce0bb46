import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon({ connect: ['twitter', 'threads'] });

interface Published {
  job_id: string;
  scheduled_for: string | null;
  timezone: string;
  scheduled_local: string | null;
  queue_slot: string | null;
  series_id: string | null;
  warnings: { code: string; platform: string }[];
}

describe('socialpub settings timezone', () => {
  it('sets, shows and clears the user zone', async () => {
    expect((await t.run('settings set timezone mars/olympus')).code).toBe(2);
    const set = await t.run('settings set timezone america/new_york --json');
    expect(set.json<{ timezone: string }>().timezone).toBe('America/New_York');
    expect((await t.run('settings get timezone')).stdout.trim()).toBe('America/New_York');
    expect((await t.run('settings')).stdout).toMatch(/timezone:\s+America\/New_York/);
  });
});

describe('socialpub publish --tz / --repeat / --queue', () => {
  it('reads --at as a wall time in --tz; human output in the post zone, --json in UTC', async () => {
    const r = await t.run(['publish', 'standup', '-p', 'threads', '--at', '2027-03-14 03:30', '--tz', 'Europe/Berlin', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const job = r.json<Published>();
    expect(job).toMatchObject({ scheduled_for: '2027-03-14T02:30:00.000Z', timezone: 'Europe/Berlin', scheduled_local: '2027-03-14T03:30:00' });
    const show = await t.run(['schedule', 'show', job.job_id]);
    expect(show.stdout).toMatch(/scheduled for:\s+2027-03-14 03:30 Europe\/Berlin/);
    expect(show.stdout).toMatch(/threads\s+post\s+2027-03-14 03:30 Europe\/Berlin/);
    const moved = await t.run(['schedule', 'retime', job.job_id, '--tz', 'Asia/Tokyo', '--json']);
    expect(moved.json<Published>()).toMatchObject({ scheduled_for: '2027-03-13T18:30:00.000Z', timezone: 'Asia/Tokyo', scheduled_local: '2027-03-14T03:30:00' });
  });

  it('refuses a wall time in a spring-forward gap with the nearest valid times', async () => {
    const r = await t.run(['publish', 'gap', '-p', 'threads', '--at', '2027-03-14 02:30', '--tz', 'America/New_York']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('does not exist in America/New_York: clocks jump from 02:00 to 03:00');
    expect(r.stderr).toContain('2027-03-14T01:59:00-05:00 and 2027-03-14T03:00:00-04:00');
  });

  it('makes a series from a friendly --repeat, lists it and cancels it', async () => {
    const r = await t.run(['publish', 'tip', '-p', 'twitter', '--at', '2027-03-01 00:00', '--tz', 'America/New_York', '--repeat', 'weekly on mon,thu at 09:00', '--count', '4', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const job = r.json<Published>();
    expect(job.scheduled_for).toBe('2027-03-01T14:00:00.000Z');
    expect(job.warnings.map((w) => [w.code, w.platform])).toEqual([['duplicate_caption', 'twitter']]);
    const list = await t.run('series list');
    expect(list.stdout).toContain(job.series_id as string);
    expect(list.stdout).toMatch(/FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0/);
    const show = await t.run(['series', 'show', job.series_id as string]);
    // 09:00 local on both sides of the 2027-03-14 change.
    expect(show.stdout).toMatch(/1\s+2027-03-01 09:00 America\/New_York/);
    expect(show.stdout).toMatch(/4\s+2027-03-11 09:00 America\/New_York/);
    const cancel = await t.run(['series', 'cancel', job.series_id as string, '--json']);
    // Only the first occurrence has its job yet (the rest are beyond the 30-day horizon).
    expect(cancel.json<{ status: string; cancelled_jobs: string[] }>()).toMatchObject({ status: 'cancelled', cancelled_jobs: [job.job_id] });
    expect((await t.run(['publish', 'x', '-p', 'twitter', '--at', '+1h', '--repeat', 'fortnightly', '--count', '2'])).stderr).toContain('--repeat "fortnightly" is not understood');
  });

  it('sets the queue, previews free slots and publishes into the next one', async () => {
    const empty = await t.run(['publish', 'q', '-p', 'twitter', '--queue']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('your queue has no slots');
    const set = await t.run(['queue', 'set', 'sat,sun@10:00', 'mon@09:00/twitter', '--tz', 'Asia/Kathmandu']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/sat\s+10:00\s+any\s+1/);
    expect(set.stdout).toMatch(/mon\s+09:00\s+twitter\s+1/);
    const next = (await t.run('queue next --count 3 --json')).json<{ scheduled_local: string; timezone: string; slot: string }[]>();
    expect(next).toHaveLength(3);
    expect(next.every((s) => s.timezone === 'Asia/Kathmandu' && /T(10|09):00:00$/.test(s.scheduled_local))).toBe(true);
    const human = await t.run('queue next --count 1');
    expect(human.stdout).toMatch(/\d{4}-\d{2}-\d{2} (10|09):00 Asia\/Kathmandu/);
    const q = (await t.run(['publish', 'q', '-p', 'twitter', '--queue', '--json'])).json<Published>();
    expect(q.queue_slot).toBe(next[0]?.slot);
    expect(q.scheduled_local).toBe(next[0]?.scheduled_local);
    expect((await t.run(['publish', 'q', '-p', 'twitter', '--queue', '--at', '+1h'])).stderr).toContain('--queue takes the next free slot');
    expect((await t.run('queue show --json')).json<{ slots: unknown[] }>().slots).toHaveLength(3);
  });
});
