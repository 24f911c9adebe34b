/**
 * The accounts of `ferry push accounts` as the push keeps them: a line of the input read as an
 * account (its key, supplier and external number), and an account scheduled and not final yet.
 */
import type { InputLine } from './push-input.ts';

export type AccountPushMode = 'schedule' | 'dry-run' | 'validate';

/** A line of the input, read as an account. */
export interface Entry {
  key: string;
  line: number;
  /** Where the line is in the file, to read it again alone. */
  offset: number;
  bytes: number;
  supplier: string | null;
  ext: string | null;
  text: string;
  value: unknown;
}

/**
 * An account scheduled and not final yet: what polling it needs and where its line is, never its
 * data. While the worker catches up, most of a large book can be outstanding at once: holding each
 * line's text and parsed value took ≈ 20 kB an account (1.1 GB of memory for 40,000, Node's heap
 * limit at ≈ 220,000).
 */
export type Outstanding = Omit<Entry, 'text' | 'value'> & {
  /** When it was scheduled or last polled (ms). */
  since: number;
};

export const outstandingOf = (e: Entry | Outstanding, since: number): Outstanding => ({
  key: e.key,
  line: e.line,
  offset: e.offset,
  bytes: e.bytes,
  supplier: e.supplier,
  ext: e.ext,
  since,
});

export const asObject = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export const asKeyPart = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** The account of a line, bare or wrapped as {payload, task_params}. */
export function toEntry(input: InputLine): Entry {
  const outer = asObject(input.value);
  const payload = outer && asObject(outer.payload) ? asObject(outer.payload) : outer;
  const ext = asKeyPart(payload?.external_account_number);
  return {
    key: ext ?? `#line:${input.line}`,
    line: input.line,
    offset: input.offset,
    bytes: input.bytes,
    supplier: asKeyPart(payload?.import_supplier),
    ext,
    text: input.text,
    value: input.value,
  };
}

/** The key of a report line: what toEntry gives the account it reports. */
export const reportKey = (line: Record<string, unknown>) =>
  asKeyPart(line.external_account_number) ?? `#line:${line.line}`;

/** The request body of a line: as written, or wrapped with task_params.is_dry_run for --dry-run. */
export function requestBodyText(e: Entry, mode: AccountPushMode): string {
  if (mode !== 'dry-run') return e.text;
  const outer = asObject(e.value);
  if (outer && 'payload' in outer) {
    return JSON.stringify({ ...outer, task_params: { ...asObject(outer.task_params), is_dry_run: true } });
  }
  return `{"payload":${e.text},"task_params":{"is_dry_run":true}}`;
}
