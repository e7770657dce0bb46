/** A count flag's value (`--limit 20`): a whole number of at least 1, else undefined. */
export function countOf(v: string): number | undefined {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}
