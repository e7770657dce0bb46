import { describe, expect, it } from 'vitest';
import { planTargets } from '../src/plan-targets';

const NOW = Date.UTC(2026, 11, 25, 9);
const at = (h: number, m = 0) => Date.UTC(2026, 11, 25, h, m);

describe('planTargets', () => {
  it('staggers story +0h and feed +1h from a 10:00 base to 10:00 and 11:00', () => {
    const r = planTargets(
      { platforms: ['instagram'], platform_types: { instagram: ['story', 'feed'] }, scheduled_for: '2026-12-25T10:00:00Z', type_schedule: { story: '+0h', feed: '+1h' } },
      NOW,
    );
    expect(r.ok && r.targets.map((t) => [t.type, t.dueAt])).toEqual([
      ['story', at(10)],
      ['feed', at(11)],
    ]);
  });
  it('lets platform.type beat type, and type beat platform', () => {
    const r = planTargets(
      {
        platforms: ['instagram', 'facebook', 'twitter'],
        platform_types: { instagram: ['story', 'feed'], facebook: ['story'] },
        scheduled_for: '2026-12-25T10:00:00Z',
        type_schedule: { story: '+30m', 'instagram.story': '2026-12-25T12:00:00Z', instagram: '+2h', twitter: '+1h15m' },
      },
      NOW,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const due = Object.fromEntries(r.targets.map((t) => [`${t.platform}.${t.type}`, t.dueAt]));
    expect(due).toEqual({ 'instagram.story': at(12), 'instagram.feed': at(12), 'facebook.story': at(10, 30), 'twitter.tweet': at(11, 15) });
  });
  it('uses each platform default type when platform_types is silent', () => {
    const r = planTargets({ platforms: ['youtube', 'threads'], publish_now: true }, NOW);
    expect(r.ok && r.targets.map((t) => [t.platform, t.type, t.dueAt])).toEqual([
      ['youtube', 'video', NOW],
      ['threads', 'post', NOW],
    ]);
  });
  it('refuses neither or both of publish_now and scheduled_for', () => {
    expect(planTargets({ platforms: ['twitter'] }, NOW).ok).toBe(false);
    expect(planTargets({ platforms: ['twitter'], publish_now: true, scheduled_for: '2026-12-25T10:00:00Z' }, NOW).ok).toBe(false);
  });
  it('refuses a base more than 60 s in the past but accepts 59 s', () => {
    const r = planTargets({ platforms: ['twitter'], scheduled_for: new Date(NOW - 61_000).toISOString() }, NOW);
    expect(!r.ok && r.issues[0]?.path).toBe('scheduled_for');
    expect(planTargets({ platforms: ['twitter'], scheduled_for: new Date(NOW - 59_000).toISOString() }, NOW).ok).toBe(true);
  });
  it('names a type_schedule key that matches no target', () => {
    const r = planTargets({ platforms: ['twitter'], scheduled_for: '2026-12-25T10:00:00Z', type_schedule: { story: '+1h' } }, NOW);
    expect(!r.ok && r.issues.map((i) => i.path)).toEqual(['type_schedule.story']);
  });
  it('refuses type_schedule with publish_now', () => {
    const r = planTargets({ platforms: ['twitter'], publish_now: true, type_schedule: { tweet: '+1h' } }, NOW);
    expect(!r.ok && r.issues.some((i) => i.path === 'type_schedule')).toBe(true);
  });
});
