/** The calendar's colours, each with its status in words (the colours are also told apart by a line through cancelled and removed entries). */
const SHOWN: readonly [string, string][] = [
  ['pending_approval', 'waiting for approval'],
  ['changes_requested', 'changes requested'],
  ['scheduled', 'scheduled'],
  ['publishing', 'publishing'],
  ['published', 'published'],
  ['failed', 'failed or needs review'],
  ['cancelled', 'cancelled'],
  ['removed', 'taken down'],
];

export function StatusLegend() {
  return (
    <ul class="legend" aria-label="What the colours mean">
      {SHOWN.map(([status, words]) => (
        <li key={status}>
          <span class={`swatch st-${status}`} aria-hidden="true" /> {words}
        </li>
      ))}
    </ul>
  );
}
