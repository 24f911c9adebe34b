import { Readable } from 'node:stream';
import type { Queryable } from '../../infra/db/db.ts';
import type { ProcessFilter } from './process-filter.queries.ts';
import { type ProcessListItem, walkProcesses } from './process-lists.queries.ts';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export const CSV_COLUMNS = [
  'import_supplier',
  'external_account_number',
  'status',
  'is_dry_run',
  'attempts',
  'error_code',
  'error_detail',
  'service_account_number',
  'created_at',
  'modified_at',
  'mapping_profile',
  'mapping_profile_version',
] as const;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text a spreadsheet
 * would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe: supplier data
 * ends up here, and an export is meant to be opened.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(p: ProcessListItem): string {
  const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    ...p,
    error_code: p.latest_error?.code,
    error_detail: p.latest_error?.detail,
    mapping_profile: p.mapping_profile?.name,
    mapping_profile_version: p.mapping_profile?.version,
  };
  return `${CSV_COLUMNS.map((c) => csvCell(row[c])).join(',')}\r\n`;
}

const FLUSH_BYTES = 64 * 1024;

/**
 * Records as a byte stream, serialised as they arrive and handed on in chunks of about 64 kB:
 * the generator is pulled only as fast as the socket drains, so an export of any length holds
 * one page of records and one chunk of text.
 */
export function textStream<T>(
  records: AsyncIterable<T>,
  parts: { head?: string; line: (record: T, index: number) => string; tail?: string },
): Readable {
  async function* chunks() {
    let buf = parts.head ?? '';
    let i = 0;
    for await (const record of records) {
      buf += parts.line(record, i++);
      if (buf.length >= FLUSH_BYTES) {
        yield buf;
        buf = '';
      }
    }
    buf += parts.tail ?? '';
    if (buf !== '') yield buf;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The filtered processes as CSV (a header line first) or NDJSON (one JSON object a line). */
export function exportProcesses(db: Queryable, filter: ProcessFilter, format: ExportFormat): Readable {
  const records = walkProcesses(db, filter);
  if (format === 'csv') return textStream(records, { head: `${CSV_COLUMNS.join(',')}\r\n`, line: csvLine });
  return textStream(records, { line: (p) => `${JSON.stringify(p)}\n` });
}
