export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  target: string;
  pass: boolean;
  /** Supporting numbers (sub-timings, errors); shown in the human output, kept in the JSON. */
  detail?: Record<string, number | string>;
}

export interface Scale {
  quick: boolean;
  /** Seconds per autocannon run. */
  seconds: number;
  accounts: number;
  listRows: number;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
