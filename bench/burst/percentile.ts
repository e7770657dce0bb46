/** The q-quantile (0..1) of ascending `sorted` values, nearest rank; NaN when empty. */
export const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
