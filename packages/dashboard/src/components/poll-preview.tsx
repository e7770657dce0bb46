/**
 * A poll as the network shows it under the post: its choices as empty bars, whether several
 * may be chosen, and how long it stays open, in words (never the request's JSON).
 */
export function PollPreview({ choices, open, multiple = false }: { choices: readonly string[]; open: string; multiple?: boolean }) {
  return (
    <div class="poll">
      <ul class="poll-choices" aria-label="Poll">
        {choices.map((c, i) => (
          <li key={i} class="caption-text">
            {c}
          </li>
        ))}
      </ul>
      <p class="counter">
        {multiple ? 'Several choices allowed · ' : ''}Open for {open}
      </p>
    </div>
  );
}

/** A duration in words: 90 minutes -> "1 hour 30 minutes", 10080 -> "7 days". */
export function durationWords(minutes: number): string {
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = Math.round(minutes % 60);
  const part = (n: number, unit: string) => (n ? `${n} ${unit}${n === 1 ? '' : 's'}` : '');
  return [part(d, 'day'), part(h, 'hour'), part(m, 'minute')].filter(Boolean).join(' ') || '0 minutes';
}
