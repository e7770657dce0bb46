import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { message } from '../lib/api';
import type * as ChartsModule from '../lib/charts';

type Charts = typeof ChartsModule;

/** The chart library (uPlot, lib/charts.ts) is its own chunk, loaded with the first chart shown. */
let chartsModule: Promise<Charts> | null = null;
const loadCharts = () => (chartsModule ??= import('../lib/charts'));

/**
 * A chart in a figure: the canvas, an image named by its caption (`role="img"`), drawn by
 * `draw` once the library is loaded and again when `deps` change. The figures themselves are
 * in the table the caption points to: the chart's text alternative.
 */
export function Chart({ id, caption, draw, deps }: { id: string; caption: ComponentChildren; draw: (charts: Charts, el: HTMLElement) => () => void; deps: readonly unknown[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let undo: (() => void) | null = null;
    let gone = false;
    loadCharts()
      .then((charts) => {
        if (!gone && box.current) undo = draw(charts, box.current);
      })
      .catch((e: unknown) => setError(message(e)));
    return () => {
      gone = true;
      undo?.();
    };
  }, deps);
  return (
    <figure class="chart">
      <div ref={box} class="chart-box" role="img" aria-labelledby={`${id}-cap`} data-chart={id} />
      <figcaption id={`${id}-cap`}>
        {caption}
        {error && <span class="caption-text"> (the chart could not be drawn: {error})</span>}
      </figcaption>
    </figure>
  );
}

/** A colour key for a chart's lines: the same `--series-N` colours, as classes (no inline style). */
export function SeriesKey({ labels }: { labels: readonly string[] }) {
  return (
    <ul class="series-key">
      {labels.map((l, i) => (
        <li key={l}>
          <span class={`swatch series-${i % 6}`} aria-hidden="true" /> {l}
        </li>
      ))}
    </ul>
  );
}
