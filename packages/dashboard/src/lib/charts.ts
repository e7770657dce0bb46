import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * The dashboard's charts, drawn by uPlot (a canvas chart library of about 22 KB gzipped,
 * maintained; docs/dashboard.md "Analytics"). Loaded as a chunk of its own with the first
 * chart shown, so no other screen pays for it. uPlot sizes its elements through the CSSOM
 * (`el.style.width = …`), which the dashboard's CSP (`style-src 'self'`) allows, and needs no
 * inline style or script; its stylesheet is part of the build. Every chart has its figures
 * in a table beside it (the text alternative): the canvas itself is an image named by its
 * caption.
 */

/** The series' colours: the stylesheet's `--series-N` (light and dark), so the swatches beside a chart match. */
export const SERIES_COUNT = 6;
const colour = (el: HTMLElement, name: string, fallback: string) => getComputedStyle(el).getPropertyValue(name).trim() || fallback;
const seriesColour = (el: HTMLElement, i: number) => colour(el, `--series-${i % SERIES_COUNT}`, '#0b57d0');

function axes(el: HTMLElement): { stroke: string; grid: { stroke: string; width: number }; ticks: { stroke: string; width: number } } {
  const line = colour(el, '--line', '#c9ced6');
  return { stroke: colour(el, '--muted', '#555555'), grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
}

/** Whole steps on the count axis (figures are counts: no 0.5 likes). */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 10_000_000, 100_000_000];

const HOUR_MS = 3_600_000;

/** Keeps the chart as wide as its box. */
function followWidth(el: HTMLElement, chart: uPlot, height: number): () => void {
  const seen = new ResizeObserver(() => {
    const width = el.clientWidth;
    if (width > 0 && width !== chart.width) chart.setSize({ width, height });
  });
  seen.observe(el);
  return () => {
    seen.disconnect();
    chart.destroy();
  };
}

/** Bars, one per category (a day, a network), in the first series colour; returns what removes the chart. */
export function barChart(el: HTMLElement, o: { labels: readonly string[]; values: readonly number[]; name: string; height?: number }): () => void {
  const height = o.height ?? 180;
  const n = o.labels.length;
  const opts: uPlot.Options = {
    width: Math.max(el.clientWidth, 120),
    height,
    legend: { show: false },
    cursor: { show: false },
    scales: { x: { time: false, range: () => [-0.5, Math.max(n, 1) - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [
      { ...axes(el), splits: () => o.labels.map((_l, i) => i), values: (_u, splits) => splits.map((i) => o.labels[i] ?? '') },
      { ...axes(el), size: 48, incrs: COUNT_STEPS },
    ],
    series: [{}, { label: o.name, stroke: seriesColour(el, 0), fill: seriesColour(el, 0), width: 0, points: { show: false }, paths: uPlot.paths.bars!({ size: [0.7, 48] }) }],
  };
  const chart = new uPlot(opts, [o.labels.map((_l, i) => i), [...o.values]], el);
  return followWidth(el, chart, height);
}

/** Lines over time (instants in ms, drawn in `zone`), one per series, in the series colours; returns what removes the chart. */
export function lineChart(el: HTMLElement, o: { times: readonly number[]; series: ReadonlyArray<{ label: string; values: ReadonlyArray<number | null> }>; zone: string; height?: number }): () => void {
  const height = o.height ?? 200;
  const opts: uPlot.Options = {
    width: Math.max(el.clientWidth, 120),
    height,
    ms: 1,
    tzDate: (ts) => uPlot.tzDate(new Date(ts), o.zone),
    legend: { show: false },
    cursor: { show: false },
    // At least an hour across (readings taken moments apart, or one reading, sit in its middle), counts from 0.
    scales: {
      x: { time: true, range: (_u, min, max) => (max - min < HOUR_MS ? [(min + max) / 2 - HOUR_MS / 2, (min + max) / 2 + HOUR_MS / 2] : [min, max]) },
      y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
    },
    axes: [{ ...axes(el) }, { ...axes(el), size: 56, incrs: COUNT_STEPS }],
    series: [{}, ...o.series.map((s, i) => ({ label: s.label, stroke: seriesColour(el, i), width: 2, spanGaps: true, points: { show: true, size: 6 } }))],
  };
  const chart = new uPlot(opts, [[...o.times], ...o.series.map((s) => [...s.values])] as uPlot.AlignedData, el);
  return followWidth(el, chart, height);
}
