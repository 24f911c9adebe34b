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

/** docs/product.md (Targets), as each benchmark states and judges it; ratios against the same run's baseline. */
export const TARGETS = {
  validate: 'ratio >= 0.5',
  'end-to-end': 'ratio >= 0.3',
  'end-to-end-bulk': 'ratio >= 0.5',
  transactions: '>= 30000 tx/s',
  'status-v2': 'ratio >= 0.5, p99 < 20 ms @64 conn',
  list: 'streams, RSS grows < 50 MB',
  'webhook-lag': 'p99 commit → delivery < 1 s',
} as const;
