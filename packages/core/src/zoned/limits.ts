/** A series creates at most this many posts in all; a longer rule is refused, not cut short. */
export const MAX_SERIES_OCCURRENCES = 500;
