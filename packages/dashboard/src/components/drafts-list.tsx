import { formatInZone } from '../lib/time';
import type { Draft } from '../lib/types';

/** The caption a draft starts with, for its name in the list. */
export const draftTitle = (d: Draft) => {
  const caption = typeof d.content.caption === 'string' ? d.content.caption.trim() : '';
  return caption ? caption.split('\n')[0]!.slice(0, 60) : '(no caption yet)';
};

/**
 * The drafts kept in the daemon (GET /drafts), the one being edited excepted: each with when it
 * was last saved, Open (the form takes it up) and Delete.
 */
export function DraftsList({ drafts, current, zone, onOpen, onDelete }: { drafts: readonly Draft[]; current: string | null; zone: string; onOpen(d: Draft): void; onDelete(d: Draft): void }) {
  const others = drafts.filter((d) => d.id !== current);
  if (!others.length) return null;
  return (
    <details class="drafts">
      <summary>
        Drafts ({others.length})
      </summary>
      <ul class="plain" aria-label="Saved drafts">
        {others.map((d) => (
          <li key={d.id} class="row">
            <span class="caption-text">{draftTitle(d)}</span> <span class="muted">saved {formatInZone(d.updated_at, zone)}</span>
            <button type="button" onClick={() => onOpen(d)}>
              Open draft <span class="sr-only">{draftTitle(d)}</span>
            </button>
            <button type="button" onClick={() => onDelete(d)}>
              Delete draft <span class="sr-only">{draftTitle(d)}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
