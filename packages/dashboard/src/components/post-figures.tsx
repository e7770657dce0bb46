import { useState } from 'preact/hooks';
import { get, message } from '../lib/api';
import { targetName } from '../lib/names';
import { formatInZone } from '../lib/time';
import type { PostMetricsResponse } from '../lib/types';
import { Chart, SeriesKey } from './chart';
import { TableWrap } from './table-wrap';

const FIGURES = ['impressions', 'views', 'likes', 'comments', 'shares', 'saves', 'clicks'] as const;
type Figure = (typeof FIGURES)[number] | 'engagement';
type Metrics = PostMetricsResponse['targets'][number]['metrics'];
/** Engagement as the summary counts it: likes + comments + shares + saves + clicks. */
const engagement = (m: Metrics) => (m.likes ?? 0) + (m.comments ?? 0) + (m.shares ?? 0) + (m.saves ?? 0) + (m.clicks ?? 0);
const valueOf = (m: Metrics, f: Figure) => (f === 'engagement' ? engagement(m) : (m[f] ?? null));

/** A post's readings over time, one line per target, of one figure (engagement by default); the table under it lists every reading. */
function FiguresHistory({ figures, zone }: { figures: PostMetricsResponse; zone: string }) {
  const [figure, setFigure] = useState<Figure>('engagement');
  const read = figures.targets.filter((t) => t.history.length > 0);
  if (read.length === 0) return null;
  const choices: Figure[] = ['engagement', ...FIGURES.filter((f) => read.some((t) => t.history.some((h) => h.metrics[f] !== undefined)))];
  const times = [...new Set(read.flatMap((t) => t.history.map((h) => Date.parse(h.collected_at))))].sort((a, b) => a - b);
  const labels = read.map((t) => targetName(t.platform, t.type));
  const series = read.map((t, i) => {
    const at = new Map(t.history.map((h) => [Date.parse(h.collected_at), valueOf(h.metrics, figure)]));
    return { label: labels[i]!, values: times.map((x) => at.get(x) ?? null) };
  });
  const id = `history-${figures.job_id}`;
  return (
    <div class="figures-history">
      <label>
        Figure over time{' '}
        <select value={figure} onChange={(e) => setFigure(e.currentTarget.value as Figure)}>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <Chart
        id={id}
        caption={`${figure} of ${figures.job_id} per reading, per network: the table below lists every reading.`}
        deps={[figures, figure, zone]}
        draw={(c, el) => c.lineChart(el, { times, series, zone })}
      />
      <SeriesKey labels={labels} />
      <TableWrap label={`Readings of ${figures.job_id}`}>
        <table>
          <caption>Readings of {figures.job_id}</caption>
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Read</th>
              <th scope="col">{figure}</th>
            </tr>
          </thead>
          <tbody>
            {read.flatMap((t, i) =>
              t.history.map((h) => (
                <tr key={`${t.account}-${t.type}-${h.collected_at}`}>
                  <th scope="row">{labels[i]}</th>
                  <td>{formatInZone(h.collected_at, zone)}</td>
                  <td>{valueOf(h.metrics, figure) ?? '—'}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}

/** A published post's latest figures per target (GET /analytics/posts), read when asked for: a page of posts makes no request for them. */
export function PostFigures({ jobId, zone }: { jobId: string; zone: string }) {
  const [figures, setFigures] = useState<PostMetricsResponse | null>(null);
  const [error, setError] = useState('');
  if (!figures) {
    return (
      <>
        <button
          type="button"
          onClick={() =>
            get<PostMetricsResponse>(`/analytics/posts?job_id=${encodeURIComponent(jobId)}`)
              .then(setFigures)
              .catch((e: unknown) => setError(message(e)))
          }
        >
          Figures
        </button>
        {error && <span class="caption-text"> {error}</span>}
      </>
    );
  }
  const columns = FIGURES.filter((f) => figures.targets.some((t) => t.metrics[f] !== undefined));
  return (
    <>
      <TableWrap label={`Figures of ${jobId}`}>
        <table>
          <caption>Figures of {jobId}</caption>
          <thead>
            <tr>
              <th scope="col">Target</th>
              {columns.map((c) => (
                <th scope="col" key={c}>
                  {c}
                </th>
              ))}
              <th scope="col">Read</th>
            </tr>
          </thead>
          <tbody>
            {figures.targets.map((t) => (
              <tr key={`${t.account}-${t.type}`}>
                <th scope="row">{targetName(t.platform, t.type)}</th>
                {columns.map((c) => (
                  <td key={c}>{t.metrics[c] ?? '—'}</td>
                ))}
                <td>{t.collected_at ? formatInZone(t.collected_at, zone) : (t.problem?.message ?? 'not read yet: figures are read an hour after publishing')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <FiguresHistory figures={figures} zone={zone} />
    </>
  );
}
