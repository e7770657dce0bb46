import { useEffect, useState } from 'preact/hooks';
import { Chart } from '../components/chart';
import { FeedbackLine, type Feedback } from '../components/notice';
import { API, get, message, qs } from '../lib/api';
import { useLiveVersion } from '../lib/live';
import { platformName } from '../lib/names';
import { useApp } from '../lib/session';
import { formatInZone } from '../lib/time';
import type { AnalyticsSummary } from '../lib/types';
import { TableWrap } from '../components/table-wrap';

const DAY = 86_400_000;
const FIGURES = ['impressions', 'views', 'likes', 'comments', 'shares', 'saves', 'clicks'] as const;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** "1 post", "3 targets". */
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Analytics: what worked across the posts published in a date range, per network and per post, and the best times. */
export function AnalyticsScreen() {
  const { zone, platforms, navigate } = useApp();
  const live = useLiveVersion();
  const [from, setFrom] = useState(day(Date.now() - 30 * DAY));
  const [to, setTo] = useState(day(Date.now() + DAY));
  const [platform, setPlatform] = useState('');
  const [summary, setSummary] = useState<AnalyticsSummary | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);

  useEffect(() => {
    get<AnalyticsSummary>(`/analytics/summary${qs({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z`, platform: platform || undefined })}`)
      .then((s) => {
        setSummary(s);
        setFeedback(null);
      })
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  }, [from, to, platform, live]);

  const columns = FIGURES.filter((f) => summary?.by_platform.some((p) => p.metrics[f] !== undefined));
  return (
    <section aria-labelledby="analytics-h">
      <h1 id="analytics-h">Analytics</h1>
      <div class="toolbar">
        <label>
          From (UTC){' '}
          <input type="date" value={from} onChange={(e) => e.currentTarget.value && setFrom(e.currentTarget.value)} />
        </label>{' '}
        <label>
          To (UTC, not included){' '}
          <input type="date" value={to} onChange={(e) => e.currentTarget.value && setTo(e.currentTarget.value)} />
        </label>{' '}
        <label>
          Network{' '}
          <select value={platform} onChange={(e) => setPlatform(e.currentTarget.value)}>
            <option value="">All networks</option>
            {platforms.map((p) => (
              <option key={p.platform} value={p.platform}>
                {platformName(p.platform)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p>
        <a class="button" href={`${API}/analytics/export.csv${qs({ from: `${from}T00:00:00Z`, to: `${to}T00:00:00Z`, platform: platform || undefined })}`} download>
          Download CSV
        </a>{' '}
        <span class="help">The latest figures of each post published in these dates, one row per network (GET /analytics/export.csv).</span>
      </p>
      <FeedbackLine value={feedback} />
      {summary && summary.totals.posts === 0 && <p class="empty">No figures for posts published in these dates yet: they are read an hour after publishing.</p>}
      {summary && summary.totals.posts > 0 && (
        <>
          <p>
            {count(summary.totals.jobs, 'post')} ({count(summary.totals.posts, 'target')}: a post on three networks is three) with figures, engagement {summary.totals.engagement} (likes, comments, shares, saves and clicks).
          </p>
          <h2>By day</h2>
          <Chart
            id="analytics-days"
            caption={`Engagement per day, ${summary.by_day[0]?.date ?? ''} to ${summary.by_day[summary.by_day.length - 1]?.date ?? ''}: the table below lists each day.`}
            deps={[summary]}
            draw={(c, el) => c.barChart(el, { name: 'Engagement', labels: summary.by_day.map((d) => d.date.slice(5)), values: summary.by_day.map((d) => d.engagement) })}
          />
          <TableWrap label="Engagement per day">
            <table>
              <caption class="sr-only">Engagement per day</caption>
              <thead>
                <tr>
                  <th scope="col">Day ({summary.zone})</th>
                  <th scope="col">Posts</th>
                  <th scope="col">Targets</th>
                  <th scope="col">Engagement</th>
                </tr>
              </thead>
              <tbody>
                {summary.by_day.map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{d.date}</th>
                    <td>{d.jobs}</td>
                    <td>{d.posts}</td>
                    <td>{d.engagement}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <h2>By network</h2>
          <Chart
            id="analytics-networks"
            caption="Engagement per network: the table below lists each network's figures."
            deps={[summary]}
            draw={(c, el) => c.barChart(el, { name: 'Engagement', labels: summary.by_platform.map((p) => platformName(p.platform)), values: summary.by_platform.map((p) => p.engagement) })}
          />
          <TableWrap label="Figures per network">
            <table>
              <caption class="sr-only">Figures per network</caption>
              <thead>
                <tr>
                  <th scope="col">Network</th>
                  <th scope="col">Posts</th>
                  <th scope="col">Targets</th>
                  <th scope="col">Engagement</th>
                  {columns.map((c) => (
                    <th scope="col" key={c}>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {summary.by_platform.map((p) => (
                  <tr key={p.platform}>
                    <th scope="row">{platformName(p.platform)}</th>
                    <td>{p.jobs}</td>
                    <td>{p.posts}</td>
                    <td>{p.engagement}</td>
                    {columns.map((c) => (
                      <td key={c}>{p.metrics[c] ?? '—'}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <h2>Top posts</h2>
          <TableWrap label="Top posts">
            <table>
              <caption class="sr-only">The posts with the most engagement</caption>
              <thead>
                <tr>
                  <th scope="col">Post</th>
                  <th scope="col">Network</th>
                  <th scope="col">Published</th>
                  <th scope="col">Engagement</th>
                </tr>
              </thead>
              <tbody>
                {summary.top_posts.map((p) => (
                  <tr key={`${p.job_id}-${p.platform}-${p.post_id}`}>
                    <th scope="row">
                      <a
                        href={`/posts?job_id=${encodeURIComponent(p.job_id)}`}
                        onClick={(e) => {
                          e.preventDefault();
                          navigate(`/posts?job_id=${encodeURIComponent(p.job_id)}`);
                        }}
                      >
                        {p.job_id}
                      </a>
                    </th>
                    <td>{platformName(p.platform)}</td>
                    <td>{formatInZone(p.published_at, zone)}</td>
                    <td>{p.engagement}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <h2>Best times</h2>
          {summary.suggested_slots.length > 0 ? (
            <p>
              Most engagement per post ({summary.zone}): {summary.suggested_slots.join(', ')}. Add them to the posting queue in Settings.
            </p>
          ) : (
            <p class="empty">Not enough posts yet: a time needs two posts with figures.</p>
          )}
        </>
      )}
    </section>
  );
}
