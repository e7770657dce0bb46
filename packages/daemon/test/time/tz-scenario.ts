/**
 * One pass through every time feature over the HTTP app (publish with wall times, the
 * user setting, a gap, an overlap, PATCH, queue slots, a series and its later occurrences
 * on the injected clock), returning what the API answered. Run in-process and, by
 * tz-independence.test.ts, in child processes under different TZ values: the answers
 * must not depend on the machine's zone.
 */
import { materializeSeries } from '../../src/jobs/recurrence';
import { ManualClock } from '../../src/util/clock';
import { API, harness } from '../http/harness';

export async function tzScenario(): Promise<unknown[]> {
  const h = harness({ clock: new ManualClock(Date.UTC(2026, 2, 1, 12)) });
  h.connect(['twitter', 'threads']);
  const out: unknown[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await h.call(method, `${API}${path}`, body === undefined ? {} : { body });
    const json = (await res.json()) as Record<string, unknown>;
    // Ids are random; everything else must match.
    const masked = JSON.stringify(json, (k, v: unknown) => (/(^|_)id$|created_at|updated_at|cancelled_jobs/.test(k) ? '*' : v)).replace(/(job|ser|tgt)_[0-9a-z]{20}/g, '$1_*');
    out.push([res.status, JSON.parse(masked)]);
    return json;
  };
  const post = (extra: Record<string, unknown>) => call('POST', '/content/publish', { caption: 'tz', platforms: ['threads'], ...extra });
  await post({ scheduled_for: '2026-03-08T01:59:00', timezone: 'America/New_York' });
  await post({ scheduled_for: '2026-03-08T02:30:00', timezone: 'America/New_York' });
  await post({ scheduled_for: '2026-11-01T01:30:00', timezone: 'America/New_York' });
  await call('PATCH', '/settings', { timezone: 'Australia/Lord_Howe' });
  const job = await post({ scheduled_for: '2026-04-05T01:45:00' });
  await call('PATCH', `/content/scheduled?job_id=${job.job_id as string}`, { scheduled_for: '2026-10-04T02:15:00' });
  await call('PATCH', `/content/scheduled?job_id=${job.job_id as string}`, { timezone: 'Asia/Kathmandu' });
  await call('PUT', '/queue', { timezone: 'Europe/Berlin', slots: [{ day: 'mon', time: '09:00' }, { day: 'sun', time: '02:30' }] });
  await post({ queue: true });
  await post({ queue: true });
  await call('GET', '/queue/next?count=4');
  const s = await post({ scheduled_for: '2026-03-02T09:00:00', timezone: 'Asia/Tokyo', recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO,TH', count: 12 } });
  await h.clock.advance(20 * 86_400_000);
  await materializeSeries(h.store, h.clock.now());
  await call('GET', `/content/series?series_id=${s.series_id as string}`);
  await call('GET', '/content/scheduled?limit=200');
  return out;
}

// As a child process: print the answers as one JSON line.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() as string)) {
  void tzScenario().then((out) => process.stdout.write(`${JSON.stringify({ tz: process.env.TZ ?? null, offset: new Date(Date.UTC(2026, 6, 1)).getTimezoneOffset(), out })}\n`));
}
