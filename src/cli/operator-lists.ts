/**
 * `ferry process list` and `ferry supplier watch`: the operator's lists, streamed, and live
 * counts per state.
 */
import { IMPORT_PROCESS_STATUSES, type ImportProcessStatus } from '../vocabulary/import-process-states.ts';
import { type AdminApi, bodyOf, streamOf } from './admin-client.ts';
import { renderTable } from './table.ts';

export class UsageError extends Error {}

export type Flags = Record<string, string | boolean | undefined>;

export interface ListIo {
  /** Writes text as it is (streamed output); one line per call when absent. */
  write?: (chunk: string) => Promise<void> | void;
  out: (s: string) => void;
  json: boolean;
  /** Whether stdout is a terminal (supplier watch redraws then; prints lines otherwise). */
  tty?: boolean;
  /** Stops `supplier watch` (Ctrl-C). */
  signal?: AbortSignal;
}

const str = (flags: Flags, name: string) =>
  typeof flags[name] === 'string' ? (flags[name] as string) : undefined;

/** A flag whose value must be one of `allowed`: otherwise a usage error naming them. */
export function oneOf<T extends string>(flags: Flags, name: string, allowed: readonly T[]): T | undefined {
  const v = str(flags, name);
  if (v === undefined || (allowed as readonly string[]).includes(v)) return v as T | undefined;
  throw new UsageError(`--${name} "${v}" is not one of: ${allowed.join(', ')}`);
}

function positiveInt(flags: Flags, name: string, fallback: number): number {
  const v = str(flags, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} takes a positive number`);
  return n;
}

/** The list's filter as query parameters (openapi-fetch leaves out those that are undefined). */
const filterQuery = (flags: Flags) => ({
  supplier: str(flags, 'supplier') || undefined,
  status: oneOf(flags, 'status', IMPORT_PROCESS_STATUSES),
  error_code: str(flags, 'error-code') || undefined,
});

/** The lines of a streamed text body, as they arrive. */
async function* bodyLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body) {
    rest += decoder.decode(chunk, { stream: true });
    const lines = rest.split('\n');
    rest = lines.pop() as string;
    yield* lines;
  }
  if (rest !== '') yield rest;
}

const LIST_COLUMNS = [
  'import_supplier',
  'external_account_number',
  'status',
  'error_code',
  'service_account_number',
  'modified_at',
];

/**
 * `ferry process list`: CSV and JSON stream the export as it arrives (any length); the human
 * table walks the keyset pages, its column widths taken from the first page.
 */
export async function processList(api: AdminApi, flags: Flags, io: ListIo): Promise<number> {
  if (flags.csv && io.json) throw new UsageError('choose one of --csv and --json');
  const filter = filterQuery(flags);
  const write = io.write ?? ((s: string) => io.out(s.replace(/\n$/, '')));
  if (flags.csv || io.json) {
    // The export's body is read as a stream (any length, as it arrives), not parsed whole.
    const body = await streamOf(
      api.GET('/admin/v1/import-processes/export/', {
        params: { query: { ...filter, format: flags.csv ? 'csv' : 'ndjson' } },
        parseAs: 'stream',
      }),
    );
    if (flags.csv) {
      const decoder = new TextDecoder();
      for await (const chunk of body) await write(decoder.decode(chunk, { stream: true }));
      const last = decoder.decode();
      if (last !== '') await write(last);
      return 0;
    }
    let first = true;
    for await (const line of bodyLines(body)) {
      if (line === '') continue;
      await write(`${first ? '[\n' : ',\n'}${line}`);
      first = false;
    }
    await write(first ? '[]\n' : '\n]\n');
    return 0;
  }
  const pageAfter = (cursor: string | null) =>
    bodyOf(
      api.GET('/admin/v1/import-processes/', {
        params: { query: { ...filter, limit: '500', cursor: cursor ?? undefined } },
      }),
    );
  let cursor: string | null = null;
  let total = 0;
  let widths: number[] | null = null;
  do {
    const page = await pageAfter(cursor);
    const rows = page.results.map((p) => ({ ...p, error_code: p.latest_error?.code }));
    if (rows.length > 0) {
      const table = renderTable(rows, LIST_COLUMNS).split('\n');
      // Later pages keep the first page's widths, so the columns stay aligned while streaming.
      widths ??= table[1].split('  ').map((d) => d.length);
      const pad = (r: Record<string, unknown>) =>
        LIST_COLUMNS.map((c, i) => String(r[c] ?? '').padEnd(widths?.[i] ?? 0))
          .join('  ')
          .trimEnd();
      await write(`${total === 0 ? `${table[0]}\n${table[1]}\n` : ''}${rows.map(pad).join('\n')}\n`);
    }
    total += rows.length;
    cursor = page.next_cursor;
  } while (cursor !== null);
  await write(total === 0 ? '(none)\n' : `${total} process${total === 1 ? '' : 'es'}\n`);
  return 0;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    signal?.addEventListener('abort', stop, { once: true });
  });

/**
 * `ferry supplier watch`: counts per state of each supplier (or one), refreshed every
 * --interval seconds until Ctrl-C or --iterations: a redrawn table on a terminal, one plain
 * line per supplier and refresh otherwise (for logs and pipes).
 */
export async function supplierWatch(api: AdminApi, code: string | undefined, flags: Flags, io: ListIo) {
  const intervalMs = positiveInt(flags, 'interval', 2) * 1000;
  const iterations = positiveInt(flags, 'iterations', Number.POSITIVE_INFINITY);
  const write = io.write ?? ((s: string) => io.out(s.replace(/\n$/, '')));
  let last = new Map<string, number>();
  for (let i = 0; i < iterations && !io.signal?.aborted; i++) {
    const suppliers = code
      ? [await bodyOf(api.GET('/admin/v1/import-suppliers/{code}/', { params: { path: { code } } }))]
      : await bodyOf(api.GET('/admin/v1/import-suppliers/'));
    const at = `${new Date().toISOString().slice(0, 19)}Z`;
    const now = new Map<string, number>();
    const rows = suppliers.map((s): Record<string, unknown> => {
      const counts: Partial<Record<ImportProcessStatus, number>> = s.import_processes ?? {};
      const processed = counts.PROCESSED ?? 0;
      now.set(s.code, processed);
      const before = last.get(s.code);
      const perMinute = before === undefined ? '' : Math.round(((processed - before) * 60_000) / intervalMs);
      return {
        code: s.code,
        status: s.status,
        ...Object.fromEntries(IMPORT_PROCESS_STATUSES.map((st) => [st, counts[st] ?? 0])),
        created_per_min: perMinute,
      };
    });
    last = now;
    if (io.json) {
      await write(`${JSON.stringify({ at, suppliers: rows })}\n`);
    } else if (io.tty) {
      const columns = ['code', 'status', ...IMPORT_PROCESS_STATUSES, 'created_per_min'];
      await write(`\x1b[2J\x1b[H${at}  (Ctrl-C to stop)\n\n${renderTable(rows, columns)}\n`);
    } else {
      const lines = rows.map(
        (r) =>
          `${at} ${r.code} ${IMPORT_PROCESS_STATUSES.map((st) => `${st}=${r[st]}`).join(' ')}${
            r.created_per_min === '' ? '' : ` created_per_min=${r.created_per_min}`
          }`,
      );
      await write(`${lines.join('\n')}\n`);
    }
    if (i + 1 < iterations) await sleep(intervalMs, io.signal);
  }
  return 0;
}
