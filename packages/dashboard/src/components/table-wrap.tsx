import type { ComponentChildren } from 'preact';

/**
 * A table that may scroll sideways on a narrow screen. A region a pointer can
 * scroll must be reachable by keyboard too (WCAG 2.1.1, axe's
 * "scrollable-region-focusable"), so the wrapper is a named region in the tab
 * order: arrow keys scroll it once it has focus.
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
