/**
 * The accounts of `ferry push accounts` as the push keeps them: a line of the input read as an
 * account (its key, supplier and external number), and an account scheduled and not final yet.
 */
import { createHash } from 'node:crypto';
import type { InputLine, ReportedError } from './push-input.ts';

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
  /** The line's digest (lineDigest): a re-run sends a line again when it differs from the report's. */
  digest: string;
  text: string;
  value: unknown;
  /** --validate-only: what the whole-book checks found on this line (push-book-checks.ts). */
  bookErrors?: ReportedError[];
}

/**
 * An account scheduled and not final yet: what polling it needs and where its line is, never its
 * data. While the worker catches up, most of a large book can be outstanding at once: holding each
 * line's text and parsed value took ≈ 20 kB an account (1.1 GB of memory for 40,000, Node's heap
 * limit at ≈ 220,000).
 */
export type Outstanding = Omit<Entry, 'text' | 'value' | 'bookErrors'> & {
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
  digest: e.digest,
  since,
});

export const asObject = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export const asKeyPart = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** The account of a line's value, bare or wrapped as {payload, task_params}; null when not an object. */
export function payloadOf(value: unknown): Record<string, unknown> | null {
  const outer = asObject(value);
  return outer && asObject(outer.payload) ? asObject(outer.payload) : outer;
}

/** A line's digest as the report keeps it: the first 16 hex digits of the SHA-256 of its text. */
export const lineDigest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The account of a line, bare or wrapped as {payload, task_params}. */
export function toEntry(input: InputLine): Entry {
  const payload = payloadOf(input.value);
  const ext = asKeyPart(payload?.external_account_number);
  return {
    key: ext ?? `#line:${input.line}`,
    line: input.line,
    offset: input.offset,
    bytes: input.bytes,
    supplier: asKeyPart(payload?.import_supplier),
    ext,
    digest: lineDigest(input.text),
    text: input.text,
    value: input.value,
  };
}

/**
 * The key of a line whose external account number an earlier line of the file already gives
 * (--validate-only reports each such line on its own).
 */
export const repeatKey = (ext: string, line: number) => `${ext}#line:${line}`;

/** The key of a report line: what toEntry (or repeatKey, for a repeat) gives the account it reports. */
export function reportKey(line: Record<string, unknown>): string {
  const ext = asKeyPart(line.external_account_number);
  if (ext === null) return `#line:${line.line}`;
  const errors = Array.isArray(line.errors) ? line.errors : [];
  const repeats = errors.some((e) => {
    const other = asObject(e)?.other_line;
    return asObject(e)?.code === REPEATED_IN_FILE && typeof other === 'number' && other < Number(line.line);
  });
  return repeats ? repeatKey(ext, Number(line.line)) : ext;
}

/** The code of a line that repeats an external account number of an earlier line (--validate-only). */
export const REPEATED_IN_FILE = 'external_account_number_repeated_in_file';

/** Task parameters the push adds to every account it schedules: --wave, and --profile's provenance. */
export interface PushTaskParams {
  wave?: string;
  mapping_profile?: { name: string; version: number };
}

/**
 * The request body of a line: as written, or wrapped with task_params: is_dry_run for --dry-run,
 * wave for --wave, mapping_profile for --profile (a line's own task_params kept otherwise).
 * Validate takes no task parameters.
 */
export function requestBodyText(e: Entry, mode: AccountPushMode, params: PushTaskParams = {}): string {
  const added = {
    ...(mode === 'dry-run' ? { is_dry_run: true } : {}),
    ...(mode !== 'validate' ? params : {}),
  };
  if (Object.keys(added).length === 0) return e.text;
  const outer = asObject(e.value);
  if (outer && 'payload' in outer) {
    return JSON.stringify({ ...outer, task_params: { ...asObject(outer.task_params), ...added } });
  }
  return `{"payload":${e.text},"task_params":${JSON.stringify(added)}}`;
}
