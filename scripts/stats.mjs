/** The benches' figures: the median of a sample (the mean of the middle two when it is even), rounded to 0.1. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A figure to a tenth. */
export const round = (n) => Math.round(n * 10) / 10;
