import { useState } from 'preact/hooks';
import { get, message } from '../lib/api';
import { formatInZone } from '../lib/time';
import type { MediaLibrary as Library, MediaLibraryFile } from '../lib/types';

/**
 * The files already uploaded or fetched (GET /media/library, until they expire), with a
 * preview each, to reuse in the post: Use adds the file's prepared URL to the media.
 * Read when opened, and again each time it is opened (new uploads appear).
 */
export function MediaLibrary({ zone, used, onUse }: { zone: string; used: readonly string[]; onUse(file: MediaLibraryFile): void }) {
  const [files, setFiles] = useState<MediaLibraryFile[] | null>(null);
  const [error, setError] = useState('');
  const load = async () => {
    try {
      setFiles((await get<Library>('/media/library')).files);
      setError('');
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <details class="media-library" onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && void load()}>
      <summary>Media library</summary>
      {error && <p role="alert">{error}</p>}
      {files?.length === 0 && <p class="empty">No files yet: what you upload or add by link is kept here until it expires (24 hours).</p>}
      {files && files.length > 0 && (
        <ul class="library" aria-label="Files in the library">
          {files.map((f) => {
            const inPost = used.includes(f.prepared_url);
            return (
              <li key={f.prepared_url}>
                <figure class="media ratio-1x1">
                  {f.type === 'video' ? <video src={f.prepared_url} preload="metadata" muted aria-label={`video ${f.name}`} /> : f.type === 'image' ? <img src={f.prepared_url} alt={`image ${f.name}`} loading="lazy" /> : <span class="media-external">{f.type}</span>}
                  <figcaption class="caption-text">{f.name}</figcaption>
                </figure>
                <span class="muted">until {formatInZone(f.expires_at, zone)}</span>{' '}
                <button type="button" disabled={inPost} onClick={() => onUse(f)}>
                  {inPost ? `${f.name} is in the post` : `Use ${f.name}`}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </details>
  );
}
