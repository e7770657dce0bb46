import { useState } from 'preact/hooks';
import { get, message } from '../lib/api';
import { targetName } from '../lib/names';
import { formatInZone } from '../lib/time';
import type { PostMetricsResponse } from '../lib/types';

const FIGURES = ['impressions', 'views', 'likes', 'comments', 'shares', 'saves', 'clicks'] as const;

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
    <div class="table-wrap">
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
    </div>
  );
}
